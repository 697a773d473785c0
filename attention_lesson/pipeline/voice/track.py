"""The spoken lesson's track: a voice for every step (a recording, else the speaker of speakers.py),
normalised (loudness.py) and cached by content in the workers' shared cache folder (media/.cache/voice),
laid on a track exactly as long as the scene, muxed into its videos and clips.

A scene only asks how long each step's voice is (the `voice` hook of LessonScene) and paces the step to
it; everything audio happens here, after the scene has rendered, from the steps' start times. manim's
own add_sound is not used: its audio reaches the scene's movie only, never the section clips or
manim-slides' slides (manim-slides #577), and one path for every output keeps them identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from scenes.common.speech import speakable
from scenes.common.style import VOICE_LEAD
from scenes.registry import step_name

from .. import ffmpeg
from .loudness import RATE, normalise, read_wav, write_wav
from .recordings import recording
from .speakers import DRAFT, NEURAL, espeak_version, is_folder, speaker_for


def audio_codec(file_format: str, quality: str) -> tuple[str, ...] | None:
    """ffmpeg's arguments for a video's sound; None for a format without (gif, png). AAC by FFmpeg's fast
    coder: its default (twoloop) took 1.0 s of CPU for a scene's 46 s of mono speech at 160 kb/s, the
    fast one 0.50 s at 128 kb/s. The sound's encoding is the voice's largest cost in a draft: a scene's
    55 s of speech took 0.31 s of CPU at 96 kb/s and 0.21 s at 64 kb/s, so a draft (quality low, 480p15)
    gets 64 kb/s mono (a spoken podcast's rate) and every other quality 96 kb/s (what Opus gets in webm,
    more than speech needs: the draft and neural voices are 22.05 kHz)."""
    rate = "64k" if quality == "low" else "96k"
    codecs = {"mp4": ("-c:a", "aac", "-aac_coder", "fast", "-b:a", rate),
              "webm": ("-c:a", "libopus", "-b:a", "96k")}
    codecs["mov"] = codecs["mp4"]
    return codecs.get(file_format)


# a cached voice is this code's: how a voice is made and processed
_CODE = hashlib.sha256(b"".join(Path(__file__).with_name(name).read_bytes()
                                for name in ("track.py", "loudness.py", "limiter.py"))).hexdigest()


class Voice:
    """The `voice` hook of a scene: (scene_id, n, step, line) -> seconds of speech. It finds or makes
    the step's voice (a recording, else the speaker of pipeline/voice/speakers.py: neural or draft),
    normalised and cached by content, and remembers it (clips[n]) for the track."""

    def __init__(self, source: str, lang: str, cache: Path):
        self.folder = Path(source) if is_folder(source) else None
        self.lang, self.cache = lang, cache
        self.speaker = speaker_for(source, lang)
        self.clips: dict[int, Path] = {}
        self.drafted: list[str] = []  # steps a recordings folder had no file for (the speaker says them)

    def __call__(self, scene_id: str, n: int, step: str, line: str) -> float | Future:
        """The step's voice's seconds: at once when it is in the cache, else a future of them, made in
        a thread of this process while the scene draws the step (the scene waits for it only where the
        step ends: LessonScene._close_line)."""
        rec = recording(self.folder, self.lang, scene_id, n, step) if self.folder else None
        if rec is not None:
            key = hashlib.sha256(rec.read_bytes()).hexdigest()
        else:
            if self.folder is not None:
                self.drafted.append(f"{scene_id}/{step_name(n, step)}")
            text = speakable(line, self.lang)
            key = hashlib.sha256(json.dumps([self.speaker.inputs(), text],
                                            sort_keys=True).encode()).hexdigest()
        key = hashlib.sha256(f"{key}:{_CODE}".encode()).hexdigest()[:32]  # and how it is processed
        wav = self.cache / f"{key}.wav"
        self.clips[n] = wav
        if wav.exists():
            return seconds(wav)
        return _maker().submit(self._make, wav, rec, None if rec is not None else text)

    def _make(self, wav: Path, rec: Path | None, text: str | None) -> float:
        """The voice normalised into the cache, written atomically (another worker may want it too);
        its seconds."""
        self.cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=self.cache) as tmp:
            src = rec
            if src is None:
                src = Path(tmp) / "spoken.wav"
                self.speaker.say(text, src)
            out = Path(tmp) / "voice.wav"
            normalise(src, out)
            os.replace(out, wav)
        return seconds(wav)


def guide_voice(lang: str, cache: Path, source: str = NEURAL) -> Voice | None:
    """The voice that speaks a step with no recording (`source`: by default the neural voice where the
    language has one, else the draft voice), as a render makes it: `voice script`'s guide from the same
    cache, so a second script says nothing again and prints the same lengths, and a render after it
    finds its voices made. None when that is the draft voice and espeak-ng is not installed."""
    voice = Voice(source, lang, cache)
    return None if voice.speaker.kind == DRAFT and espeak_version() is None else voice


def seconds(wav: Path) -> float:
    return len(read_wav(wav)) / RATE


_MAKER: ThreadPoolExecutor | None = None


def _forget_maker() -> None:
    """In a forked child: the parent's voice thread is not there (a fork copies only the thread that
    forked), so its executor would queue lines that nobody makes, and the scene wait for them forever
    (seen: a render forked from a process that had made a voice in-process hung). The child makes its own."""
    global _MAKER
    _MAKER = None


os.register_at_fork(after_in_child=_forget_maker)


def _maker() -> ThreadPoolExecutor:
    """The thread that makes voices in this process (one: the speaker is a process of its own, the
    levelling numpy and scipy, so it runs beside the drawing's thread; its lines in their order)."""
    global _MAKER
    if _MAKER is None:
        _MAKER = ThreadPoolExecutor(1, thread_name_prefix="voice")
    return _MAKER


def track(steps, clips: dict[int, Path], seconds: float) -> np.ndarray:
    """The scene's sound: silence `seconds` long with step n's voice from its start + VOICE_LEAD."""
    buf = np.zeros(round(seconds * RATE), dtype=np.int16)
    for n, step in enumerate(steps, start=1):
        if n in clips:
            at = round((step.start + VOICE_LEAD) * RATE)
            voice = read_wav(clips[n])[: max(len(buf) - at, 0)]
            buf[at:at + len(voice)] = voice
    return buf


def cut(buf: np.ndarray, start: float, end: float) -> np.ndarray:
    """The part of a track between two times of the scene (a step's clip)."""
    return buf[round(start * RATE):round(end * RATE)]


def mux(video: Path, samples: np.ndarray | None, file_format: str, quality: str, **tags) -> None:
    """Put the sound (None: a silent render) into the video, in place, with the container's `tags`
    (ffmpeg.remux's: one ffmpeg pass, the picture copied, not re-encoded). The sound is padded or cut to
    the picture's length, so the two end together."""
    codec = audio_codec(file_format, quality)
    if samples is None or codec is None:
        ffmpeg.remux(video, **tags)
        return
    length = round(ffmpeg.seconds(video) * RATE)
    samples = np.pad(samples, (0, max(length - len(samples), 0)))[:length]
    with tempfile.TemporaryDirectory(dir=video.parent) as tmp:
        wav = write_wav(samples, Path(tmp) / "voice.wav")
        ffmpeg.remux(video, sound=wav, sound_codec=(*codec, "-ar", str(RATE)), **tags)


def has_audio(path: Path) -> bool:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries",
                          "stream=index", "-of", "csv=p=0", str(path)], capture_output=True, text=True)
    return bool(out.stdout.strip())
