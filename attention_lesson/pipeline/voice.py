"""The spoken lesson: a voice for every step, from the teacher's recordings or the offline draft voice,
loudness-normalised, laid on a track exactly as long as the scene, muxed into its videos and clips.

A scene only asks how long each step's voice is (the `voice` hook of LessonScene) and paces the step to
it; everything audio happens here, after the scene has rendered, from the steps' start times. manim's
own add_sound is not used: its audio reaches the scene's movie only, never the section clips or
manim-slides' slides (manim-slides #577), and one path for every output keeps them identical.

- Recordings: DIR/<lang>/<scene>/<nn>-<step>.<wav|flac|mp3|m4a|ogg>, any rate, mono or stereo.
- A step without a recording is spoken, its line made speakable (scenes/common/speech.py), by the
  neural voice (Piper) or the draft voice (espeak-ng): pipeline/speakers.py says which.
- Every voice is normalised on its own to LOUDNESS LUFS (a measured gain, corrected from a measurement
  of the result, and a peak limiter at PEAK_TARGET for a true peak under TRUE_PEAK), 48 kHz mono, so
  recordings made on different days match; the result is cached by content in the workers' shared
  cache folder (media/.cache/voice).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
import wave
from pathlib import Path

import numpy as np

from scenes.common.speech import speakable
from scenes.common.style import VOICE_LEAD, VOICE_TAIL

from . import ffmpeg
from .plan import step_name
from .speakers import is_folder, speaker_for

RATE = 48_000  # Hz, every track and clip
LOUDNESS, TRUE_PEAK, LOUDNESS_RANGE = -16.0, -1.5, 11.0  # LUFS, dBTP, LU: speech for online video
# the limiter's ceiling, below TRUE_PEAK: it limits samples, and inter-sample peaks and AAC add to them
# (measured: a -1.5 ceiling gave -1.2 dBTP in the mp4, -2.5 gave -1.3 on the whole voiced lesson)
PEAK_TARGET = -3.0
EXTENSIONS = ("wav", "flac", "mp3", "m4a", "ogg")  # a recording's, in order of preference
AUDIO_CODECS = {"mp4": ["-c:a", "aac", "-b:a", "160k"], "mov": ["-c:a", "aac", "-b:a", "160k"],
                "webm": ["-c:a", "libopus", "-b:a", "96k"]}  # gif and png carry no sound


class VoiceError(RuntimeError):
    pass


def recording(folder: Path, lang: str, scene_id: str, n: int, step: str) -> Path | None:
    """The teacher's recording of a step, if there is one."""
    for ext in EXTENSIONS:
        p = folder / lang / scene_id / f"{step_name(n, step)}.{ext}"
        if p.is_file():
            return p
    return None


_NAME = re.compile(r"(\d\d)-(.+)")


def step_names(scene_id: str, lang: str) -> set[str] | None:
    """The steps a scene may have, from its catalog's narration keys (say.<step>, a variant
    say.<step>_<variant> is the same step); None when the catalog has none (a scene that narrates
    itself)."""
    from scenes.common.i18n import catalog

    prefix = f"{scene_id.replace('-', '_')}.say."
    keys = {k[len(prefix):] for k in catalog(lang).entries if k.startswith(prefix)}
    return {k for k in keys if not any(k.startswith(f"{o}_") for o in keys if o != k)} or None


def audio_seconds(path: Path) -> float | None:
    """How long a file's sound lasts, as ffprobe reads it; None if it has no readable sound."""
    r = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                        "stream=duration:format=duration", "-of", "json", str(path)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    data = json.loads(r.stdout or "{}")
    streams = data.get("streams") or []
    if not streams:
        return None
    value = streams[0].get("duration") or data.get("format", {}).get("duration")
    return float(value) if value not in (None, "N/A") else None


def recording_problems(folder: Path, lang: str, scene_ids: list[str]) -> list[str]:
    """What is wrong in a recordings folder for these scenes, one line per file: a name that is no
    step of its scene (the valid names listed), a format not read, a file with no sound in it."""
    problems = []
    for sid in scene_ids:
        valid = step_names(sid, lang)
        for p in sorted((folder / lang / sid).glob("*")):
            if p.is_dir() or p.name.startswith("."):
                continue
            m = _NAME.fullmatch(p.stem)
            if p.suffix[1:].lower() not in EXTENSIONS:
                if p.suffix.lower() not in (".json", ".md", ".csv", ".txt"):
                    problems.append(f"{p}: not a recording format; expected "
                                    + ", ".join(f".{e}" for e in EXTENSIONS))
                continue
            if m is None or (valid is not None and m.group(2) not in valid):
                problems.append(f"{p}: no step of {sid} is named {p.stem!r}; expected <nn>-<step> with step "
                                f"one of: {', '.join(sorted(valid or []))} (see `attention-lesson voice script`)")
                continue
            seconds = audio_seconds(p)
            if not seconds or seconds <= 0.05:
                problems.append(f"{p}: no sound could be read from it (empty or not a {p.suffix[1:]} file)")
    return problems


def k_weighting(rate: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """BS.1770's K-weighting at any sample rate: a +4 dB high shelf at 1500 Hz and a high-pass at
    38 Hz, as biquads (b, a) from the Audio EQ Cookbook (pyloudnorm's derivation)."""
    shelf_gain, w_shelf, w_pass = 10 ** (4.0 / 40), 2 * np.pi * 1500.0 / rate, 2 * np.pi * 38.0 / rate
    A, cs, al = shelf_gain, np.cos(w_shelf), np.sin(w_shelf) / (2 / np.sqrt(2))
    shelf = (np.array([A * ((A + 1) + (A - 1) * cs + 2 * np.sqrt(A) * al), -2 * A * ((A - 1) + (A + 1) * cs),
                       A * ((A + 1) + (A - 1) * cs - 2 * np.sqrt(A) * al)]),
             np.array([(A + 1) - (A - 1) * cs + 2 * np.sqrt(A) * al, 2 * ((A - 1) - (A + 1) * cs),
                       (A + 1) - (A - 1) * cs - 2 * np.sqrt(A) * al]))
    cp, ap = np.cos(w_pass), np.sin(w_pass) / (2 * 0.5)
    high_pass = (np.array([(1 + cp) / 2, -(1 + cp), (1 + cp) / 2]), np.array([1 + ap, -2 * cp, 1 - ap]))
    return [(b / a[0], a / a[0]) for b, a in (shelf, high_pass)]


def loudness(samples: np.ndarray, rate: int = RATE) -> float:
    """Integrated loudness (LUFS) of int16 mono samples, ITU-R BS.1770-4: K-weighted, 400 ms blocks
    every 100 ms, gated at -70 LUFS and then 10 LU below the mean of what passed; -inf for silence.
    In this process (ffmpeg's loudnorm was a process per measurement, two or three a voice)."""
    from scipy.signal import lfilter

    x = samples.astype(np.float64) / 32768
    for b, a in k_weighting(rate):
        x = lfilter(b, a, x)
    block, hop = round(0.4 * rate), round(0.1 * rate)
    x = np.pad(x, (0, max(block - len(x), 0)))
    energy = np.concatenate([[0.0], np.cumsum(x * x)])
    starts = np.arange(0, len(x) - block + 1, hop)
    power = (energy[starts + block] - energy[starts]) / block
    level = -0.691 + 10 * np.log10(np.maximum(power, 1e-20))
    loud = power[level > -70]
    if not len(loud):
        return float("-inf")
    gate = -0.691 + 10 * np.log10(loud.mean()) - 10
    return float(-0.691 + 10 * np.log10(power[(level > -70) & (level > gate)].mean()))


def pcm(path: Path) -> tuple[np.ndarray, int] | None:
    """A 16-bit PCM WAV's samples (mono, int16) and rate, read in this process; None for anything else
    (a recording in another format: ffmpeg decodes it)."""
    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != 2:
                return None
            x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).reshape(-1, w.getnchannels())
            return x.mean(axis=1).astype(np.int16), w.getframerate()
    except (wave.Error, EOFError):
        return None


def in_step(samples: np.ndarray, rate: int) -> float:
    """A voice's loudness as it will sound in its step: with the step's silence before (VOICE_LEAD) and
    after it (VOICE_TAIL). Gating counts the 400 ms blocks that straddle a short line's edges, so a line
    measured alone reads louder than it then sounds in the scene (measured: Piper's 1.5 s lines made a
    -17.3 LUFS scene from lines at -16.5 measured alone)."""
    pad = lambda s: np.zeros(round(s * rate), dtype=samples.dtype)  # noqa: E731
    return loudness(np.concatenate([pad(VOICE_LEAD), samples, pad(VOICE_TAIL)]), rate)


def normalise(src: Path, dst: Path, passes: int = 6) -> None:
    """src at LOUDNESS (as heard in its step: `in_step`), peaks limited to PEAK_TARGET, RATE Hz mono
    16-bit WAV: a gain and a peak limiter, the gain corrected from a measurement of the result (the
    limiter takes some loudness off a peaky voice: espeak-ng's lines peak about 19 dB above their
    loudness, Piper's at full scale 18 dB above). Not loudnorm's second pass: on a line shorter than its
    3 s window it falls back to dynamic mode and barely raises the level (measured: -31 LUFS for a
    1.5 s line asked for -16). Measured in this process (`loudness`): one ffmpeg run a pass (a WAV),
    one more to decode another format."""
    samples = pcm(src)
    if samples is None:
        plain = dst.with_name(f"plain-{dst.name}")
        ffmpeg.run("-i", str(src), "-ac", "1", "-ar", str(RATE), "-c:a", "pcm_s16le", str(plain))
        src, samples = plain, pcm(plain)
    level = in_step(*samples)
    if level == float("-inf"):  # silence: nothing to measure, nothing to raise
        ffmpeg.run("-i", str(src), "-ac", "1", "-ar", str(RATE), "-c:a", "pcm_s16le", str(dst))
        return
    gain, ceiling = LOUDNESS - level, 10 ** (PEAK_TARGET / 20)
    for _ in range(passes):
        graph = (f"aresample={RATE},volume={gain:.2f}dB,"
                 f"alimiter=limit={ceiling:.4f}:level=false:attack=5:release=50:latency=true")
        ffmpeg.run("-i", str(src), "-af", graph, "-ac", "1", "-ar", str(RATE), "-c:a", "pcm_s16le",
                   str(dst))
        miss = LOUDNESS - in_step(read(dst), RATE)
        if abs(miss) < 0.25:
            return
        gain += miss


def read(path: Path) -> np.ndarray:
    """A normalised WAV's samples, int16 [samples]."""
    return pcm(path)[0]


def write(samples: np.ndarray, path: Path) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.astype(np.int16).tobytes())
    return path


_CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # a cached voice is this code's


class Voice:
    """The `voice` hook of a scene: (scene_id, n, step, line) -> seconds of speech. It finds or makes
    the step's voice (a recording, else the speaker of pipeline/speakers.py: neural or draft),
    normalised and cached by content, and remembers it (clips[n]) for the track."""

    def __init__(self, source: str, lang: str, cache: Path):
        self.folder = Path(source) if is_folder(source) else None
        self.lang, self.cache = lang, cache
        self.speaker = speaker_for(source, lang)
        self.clips: dict[int, Path] = {}
        self.drafted: list[str] = []  # steps a recordings folder had no file for (the speaker says them)

    def __call__(self, scene_id: str, n: int, step: str, line: str) -> float:
        rec = recording(self.folder, self.lang, scene_id, n, step) if self.folder else None
        if rec is not None:
            key = hashlib.sha256(rec.read_bytes()).hexdigest()
        else:
            if self.folder is not None:
                self.drafted.append(f"{scene_id}/{step_name(n, step)}")
            text = speakable(line, self.lang)
            key = hashlib.sha256(json.dumps([self.speaker.inputs(), text], sort_keys=True).encode()).hexdigest()
        key = hashlib.sha256(f"{key}:{_CODE}".encode()).hexdigest()[:32]  # and how it is processed
        wav = self.cache / f"{key}.wav"
        if not wav.exists():
            self._make(wav, rec, None if rec is not None else text)
        self.clips[n] = wav
        return len(read(wav)) / RATE

    def _make(self, wav: Path, rec: Path | None, text: str | None) -> None:
        """The voice normalised into the cache, written atomically (another worker may want it too)."""
        self.cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=self.cache) as tmp:
            src = rec
            if src is None:
                src = Path(tmp) / "spoken.wav"
                self.speaker.say(text, src)
            out = Path(tmp) / "voice.wav"
            normalise(src, out)
            os.replace(out, wav)


def track(steps, clips: dict[int, Path], seconds: float) -> np.ndarray:
    """The scene's sound: silence `seconds` long with step n's voice from its start + VOICE_LEAD."""
    buf = np.zeros(round(seconds * RATE), dtype=np.int16)
    for n, step in enumerate(steps, start=1):
        if n in clips:
            at = round((step.start + VOICE_LEAD) * RATE)
            voice = read(clips[n])[: max(len(buf) - at, 0)]
            buf[at:at + len(voice)] = voice
    return buf


def cut(buf: np.ndarray, start: float, end: float) -> np.ndarray:
    """The part of a track between two times of the scene (a step's clip)."""
    return buf[round(start * RATE):round(end * RATE)]


def mux(video: Path, samples: np.ndarray, file_format: str) -> None:
    """Put the sound into the video, in place (the picture is copied, not re-encoded). The sound is
    padded or cut to the picture's length, so the two end together."""
    if file_format not in AUDIO_CODECS:
        return
    length = round(ffmpeg.duration(video) * RATE)
    samples = np.pad(samples, (0, max(length - len(samples), 0)))[:length]
    with tempfile.TemporaryDirectory(dir=video.parent) as tmp:
        wav = write(samples, Path(tmp) / "voice.wav")
        out = Path(tmp) / f"out{video.suffix}"
        ffmpeg.run("-i", str(video), "-i", str(wav), "-map", "0:v", "-map", "1:a", "-map_metadata", "0",
                   "-c:v", "copy", *AUDIO_CODECS[file_format], "-ar", str(RATE), str(out))
        os.replace(out, video)


def has_audio(path: Path) -> bool:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries",
                          "stream=index", "-of", "csv=p=0", str(path)], capture_output=True, text=True)
    return bool(out.stdout.strip())


_LUFS = re.compile(r"I:\s+(-?[\d.]+|-inf) LUFS")
_PEAK = re.compile(r"Peak:\s+(-?[\d.]+|-inf) dBFS")


def measure(path: Path) -> tuple[float, float]:
    """(integrated loudness in LUFS, true peak in dBTP) of a file's sound, by ffmpeg's ebur128."""
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af",
                          "ebur128=peak=true", "-f", "null", "-"], capture_output=True, text=True).stderr
    summary = err[err.rindex("Summary:"):]
    return float(_LUFS.search(summary).group(1)), float(_PEAK.search(summary).group(1))
