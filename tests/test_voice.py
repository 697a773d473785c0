"""Narrated renders, measured on the files: the voice in every video and clip, each step's voice where
the step starts, each step as long as its voice, the loudness, a whole lesson in sync; the teacher's
recordings, the draft voice where one is missing, and a re-recorded step re-rendering its scene only."""

import json
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from attention_lesson.cli import main
from attention_lesson.pipeline.voice import kokoro
from attention_lesson.pipeline.voice.loudness import EDGE_KEEP, RATE, TRUE_PEAK, measure
from scenes import registry
from scenes.common.captions import LINE_WIDTH, cues, lines, timed
from scenes.common.style import VOICE_LEAD, VOICE_TAIL
from scenes.registry import SceneInfo

from .cli_helpers import cli

pytestmark = [pytest.mark.render,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")]

# a render of one scene asks for one worker (-j 1): a second would only start and wait
BLINK = SceneInfo("blink", "Blink", package="tests.fixtures", titles={"zh": "闪", "en": "Blink"})
BLINK2 = SceneInfo("blink2", "Blink", package="tests.fixtures", titles={"zh": "二", "en": "Two"})
FRAME = 1 / 15  # low quality


@pytest.fixture
def two_scenes(monkeypatch, tmp_path):
    import tests.fixtures.blink as mod

    monkeypatch.setattr(registry, "SCENES", (BLINK, BLINK2))
    monkeypatch.setitem(sys.modules, "tests.fixtures.blink2", mod)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def no_neural_voice(monkeypatch):
    """A machine without Kokoro's packages: a step with no recording is the draft voice's (with them it is
    Kokoro's, 3 s of CPU a first line; it speaks in test_neural_voice.py). The render's workers are
    forked from this process, so they see it too."""
    monkeypatch.setattr(kokoro, "missing", lambda lang: ["misaki"])


def streams(path: Path) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                          "stream=codec_type,codec_name,sample_rate,duration,bit_rate", "-of", "json",
                          str(path)],
                         capture_output=True, text=True, check=True).stdout
    return {s["codec_type"]: s for s in json.loads(out)["streams"]}


def samples(path: Path) -> np.ndarray:
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1", "-ar",
                          str(RATE), "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.int16).astype(float)


def onset(a: np.ndarray, start: float, end: float) -> float:
    """Seconds from `start` to the first sound (above -40 dBFS) before `end`."""
    seg = np.abs(a[round(start * RATE):round(end * RATE)]) > 32768 * 0.01
    assert seg.any(), f"silence between {start:.2f} s and {end:.2f} s"
    return float(np.argmax(seg)) / RATE


def tone(path: Path, seconds=1.2, hz=440.0, rate=44_100, level=0.03):
    """A quiet stereo test recording at another sample rate: a tone between two short silences."""
    t = np.arange(round(seconds * rate)) / rate
    x = level * np.sin(2 * np.pi * hz * t) * ((t > 0.1) & (t < seconds - 0.1))
    data = (np.repeat(x[:, None], 2, axis=1) * 32767).astype(np.int16)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.tobytes())


def check_scene_and_clips(folder: Path):
    """A voiced scene and its step clips, as `render --sections` (or `lesson --sections`) wrote them."""
    video = folder / "blink.mp4"
    s = streams(video)
    assert s["audio"]["codec_name"] == "aac" and s["audio"]["sample_rate"] == str(RATE)
    assert abs(float(s["audio"]["duration"]) - float(s["video"]["duration"])) <= FRAME
    steps = json.loads((folder / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    a = samples(video)
    for step in steps:  # the voice starts VOICE_LEAD into its step; the step outlasts it by the tail
        assert step["voice"] > 0.5
        assert onset(a, step["start"], step["end"]) == pytest.approx(VOICE_LEAD, abs=0.06)
        assert step["end"] - step["start"] >= VOICE_LEAD + step["voice"] + VOICE_TAIL - FRAME
    lufs, peak = measure(video)
    assert -17 <= lufs <= -15 and peak <= TRUE_PEAK, (lufs, peak)  # ±1 LU of -16
    for n, step in enumerate(steps, start=1):  # each step's clip: its own voice, as long as the step
        clip = folder / f"blink-{n:02d}-{step['step']}.mp4"
        cs = streams(clip)
        assert abs(float(cs["audio"]["duration"]) - (step["end"] - step["start"])) <= FRAME
        assert onset(samples(clip), 0, step["end"] - step["start"]) == pytest.approx(VOICE_LEAD, abs=0.06)
    srt = (folder / "blink.srt").read_text(encoding="utf-8")
    first = srt.split("\n")[1]  # the first cue starts with the voice, not with the step
    assert first.startswith("00:00:00,300 --> ")


def test_recordings_with_the_draft_voice_where_one_is_missing(two_scenes, no_neural_voice):
    rec = two_scenes / "rec"
    tone(rec / "zh" / "blink" / "01-scores.wav")
    r = CliRunner().invoke(main, ["render", "blink", "--voice", str(rec), "--out", "v", "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "blink/02-weights" in r.output and "blink/01-scores" not in r.output  # the draft one, named
    assert "the draft voice" in r.output
    steps = json.loads((two_scenes / "v" / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    # the recording's own length, less the 0.1 s silences at its ends (EDGE_KEEP of each kept)
    assert steps[0]["voice"] == pytest.approx(1.2 - 0.2 + 2 * EDGE_KEEP, abs=0.02)
    a = samples(two_scenes / "v" / "blink.mp4")
    start = round((steps[0]["start"] + VOICE_LEAD + 0.3) * RATE)
    seg = a[start:start + RATE // 2]  # the tone, at its pitch, raised to the speech loudness
    spectrum = np.abs(np.fft.rfft(seg))
    assert np.fft.rfftfreq(len(seg), 1 / RATE)[spectrum.argmax()] == pytest.approx(440, abs=4)
    rms_db = 20 * np.log10(np.sqrt(np.mean(seg ** 2)) / 32768)
    assert -19 <= rms_db <= -13, rms_db  # a sine at -16 LUFS is about -16 dBFS RMS; it was -33


def test_a_re_recorded_step_re_renders_its_scene_only(two_scenes):
    rec = two_scenes / "rec"
    for sid in ("blink", "blink2"):
        for n, step in ((1, "scores"), (2, "weights")):
            tone(rec / "zh" / sid / f"{n:02d}-{step}.wav")
    at = ("--fps", "1")  # the plans are what is checked, not the frames
    cli("render", "--all", "--voice", str(rec), *at, "--out", "v", "-q")
    assert "已是最新 blink" in cli("render", "--all", "--voice", str(rec), *at, "--out", "v", "--dry-run")
    tone(rec / "zh" / "blink2" / "02-weights.wav", seconds=2.0)
    plan = cli("render", "--all", "--voice", str(rec), *at, "--out", "v", "--dry-run")
    assert "已是最新 blink " in plan and "将渲染   blink2 " in plan, plan


def test_a_voiced_lesson_stays_in_sync_across_joins(two_scenes):
    """The draft voice in a scene, in each of its step clips, and in the joined lesson."""
    cli("lesson", "--voice", "draft", "--sections", "--out", "l", "-q")
    check_scene_and_clips(two_scenes / "l")
    video = two_scenes / "l" / "lesson.mp4"
    s = streams(video)
    assert abs(float(s["audio"]["duration"]) - float(s["video"]["duration"])) <= FRAME
    a = samples(video)
    offset = 0.0
    for sid in ("blink", "blink2"):  # every step's voice where its scene's steps say, in lesson time
        info = json.loads((two_scenes / "l" / f"{sid}.steps.json").read_text(encoding="utf-8"))
        for step in info["steps"]:
            got = onset(a, offset + step["start"], offset + step["end"])
            assert got == pytest.approx(VOICE_LEAD, abs=0.06), (sid, step["step"], got)
        offset += info["duration"]


def test_webm_carries_opus(two_scenes):
    # one frame a second: the sound's codec is what is checked
    cli("render", "blink", "--voice", "draft", "--format", "webm", "--fps", "1", "--out", "w", "-q",
        "-j", "1")
    assert streams(two_scenes / "w" / "blink.webm")["audio"]["codec_name"] == "opus"


def test_a_voice_that_is_neither_draft_nor_a_folder_is_a_usage_error(two_scenes):
    r = CliRunner().invoke(main, ["render", "blink", "--voice", "nowhere"])
    assert (r.exit_code == 2
            and "'nowhere' 既不是 'draft'、'neural'、'piper:PATH.onnx'、'kokoro:PATH'，也不是录音文件夹"
            in r.output)
    assert not (two_scenes / "media").exists()


# -- subtitle cues (no render) ----------------------------------------------------------------------

@pytest.mark.parametrize("lang,text", [
    ("zh", "softmax 对每个分数取指数，再除以这一行的总和："
           "[0.46, 0, 2.3, 0.69] 变为约 [0.11, 0.07, 0.69, 0.14]。"),
    ("en", "The weights sum to one. Rounded for display they need not add to exactly one: on screen they "
           "add to 1.01, while the exact sum is 1."),
])
def test_cues_keep_the_words_whole_and_fit_two_lines(lang, text):
    ls = lines(text, lang)
    assert "".join(ls).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
    assert all(line[0] not in "，。：,.:" for line in ls)  # no line starts with punctuation
    assert "[0.46, 0, 2.3, 0.69]" in ls[2] if lang == "zh" else True  # a vector is never cut
    width = LINE_WIDTH[lang]
    assert all(len(line) <= width * 2 for line in ls)
    cs = cues(text, lang)
    assert all(c.count("\n") <= 1 for c in cs) and len(cs) == -(-len(ls) // 2)
    spans = timed(text, lang, 1.0, 5.0)
    assert spans[0][1] == 1.0 and spans[-1][2] == pytest.approx(5.0)
    assert all(a[2] == pytest.approx(b[1]) for a, b in zip(spans, spans[1:]))


def test_voiced_decks_speak_on_every_slide(browser, two_scenes):
    """pptx: every slide's movie carries its voice. html: a start slide, then after one key press every
    slide's clip plays unmuted with sound decoded (a real browser's autoplay rules)."""
    import zipfile

    from .test_slides import VIDEO

    cli("slides", "blink", "--to", "pptx", "--voice", "draft", "--lang", "en", "--out", "d", "-q", "-j", "1")
    with zipfile.ZipFile(two_scenes / "d" / "deck.pptx") as z:
        clips = sorted(n for n in z.namelist() if n.startswith("ppt/media/") and n.endswith(".mp4"))
        assert len(clips) == 2
        for c in clips:
            z.extract(c, two_scenes)
            assert streams(two_scenes / c)["audio"]["codec_name"] == "aac"

    cli("slides", "blink", "--to", "html", "--voice", "draft", "--lang", "en", "--out", "d", "-q", "-j", "1")
    index = two_scenes / "d" / "deck" / "index.html"
    assert "data-background-video-muted" not in index.read_text(encoding="utf-8")
    page = browser.new_page(viewport={"width": 960, "height": 540})
    try:
        page.goto(index.as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady()")
        assert page.evaluate("Reveal.getTotalSlides()") == 3  # the start slide and two steps
        assert "Click or press" in page.evaluate("Reveal.getCurrentSlide().textContent")
        for n in (1, 2):
            page.keyboard.press("ArrowRight")  # the viewer's gesture
            page.wait_for_function(f"""() => {{ const v = {VIDEO};
                return Reveal.getIndices().h === {n} && v && !v.muted && !v.paused
                    && v.webkitAudioDecodedByteCount > 0; }}""", timeout=15_000)
    finally:
        page.close()


def test_bad_recordings_stop_before_anything_renders(two_scenes, monkeypatch):
    """A file named for no step of its scene (the valid names listed), a corrupt file: exit 2, one line
    each, nothing written. The fixture narrates itself, so a real scene's names are checked."""
    softmax = registry.BY_ID["softmax"]
    monkeypatch.setattr(registry, "SCENES", (softmax,))
    rec = two_scenes / "rec" / "zh" / "softmax"
    rec.mkdir(parents=True)
    (rec / "01-scores.wav").write_bytes(b"RIFF....WAVEfmt ")  # named for no step, and corrupt
    (rec / "02-to_weights.mp3").write_bytes(b"\0" * 100)  # a step, but not an mp3
    r = CliRunner().invoke(main, ["render", "softmax", "--voice", str(two_scenes / "rec"), "--out", "v"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "01-scores.wav: no step of softmax is named '01-scores'" in r.output
    assert "reading, scores_in, sum_to_one, to_weights" in r.output
    assert "02-to_weights.mp3: no sound could be read" in r.output
    assert not (two_scenes / "v").exists()


def test_an_mp3_recording_at_44k_stereo(two_scenes, no_neural_voice):
    rec = two_scenes / "rec" / "zh" / "blink"
    tone(rec / "src.wav", seconds=1.5)
    subprocess.run(["ffmpeg", "-v", "error", "-i", str(rec / "src.wav"), "-c:a", "libmp3lame", "-b:a",
                    "128k", str(rec / "01-scores.mp3")], check=True)
    (rec / "src.wav").unlink()
    cli("render", "blink", "--voice", str(two_scenes / "rec"), "--out", "v", "-q", "-j", "1")
    steps = json.loads((two_scenes / "v" / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    # its ends' silences cut (mp3's encoder delay too)
    assert steps[0]["voice"] == pytest.approx(1.5 - 0.2 + 2 * EDGE_KEEP, abs=0.02)
    assert steps[0]["end"] - steps[0]["start"] >= VOICE_LEAD + steps[0]["voice"] + VOICE_TAIL - FRAME


def test_voice_status_recorded_draft_stale_and_flags(two_scenes):
    """Each step's state and measures; a recording goes stale when its line changes (another lesson
    makes the fixture's lines name other tokens)."""
    rec = two_scenes / "rec"
    tone(rec / "zh" / "blink" / "01-scores.wav", level=0.004)  # far too quiet
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    # the step with no recording: the neural voice (Kokoro) where its packages are installed
    assert [x["step"] for x in rows] == ["scores", "weights"] and rows[0]["state"] == "recorded"
    assert rows[1]["state"] == ("draft" if kokoro.missing("zh") else "neural"), rows[1]
    assert rows[0]["seconds"] == pytest.approx(1.2, abs=0.02) and rows[0]["flags"] == ["too quiet"]
    assert rows[0]["lufs"] < -40
    assert (rec / "zh" / "recorded.json").exists()
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--json", "--lesson",
                                  str(Path(__file__).parent / "lessons" / "tiny.toml")])
    assert json.loads(r.stdout)[0]["state"] == "stale"  # recorded for "by the river bank"
    tone(rec / "zh" / "blink" / "01-scores.wav", level=1.0)  # a new take, clipped
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--json", "--lesson",
                                  str(Path(__file__).parent / "lessons" / "tiny.toml")])
    row = json.loads(r.stdout)[0]
    assert row["state"] == "recorded" and row["flags"] == ["clipped"]


def test_voice_status_says_what_each_voice_of_the_language_can(two_scenes):
    """Before a voice is chosen: who speaks the language with --voice neural and --voice draft, their
    licences, and what the draft voice cannot (in Japanese it names each kanji in English)."""
    from attention_lesson.pipeline.voice.speakers import voices

    (two_scenes / "rec").mkdir(exist_ok=True)
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(two_scenes / "rec")])
    assert r.exit_code == 0, r.output
    said = r.stdout.split("zh 的语音：\n")[1].splitlines()
    assert said[1] == ("  --voice draft: espeak-ng cmn-latn-pinyin; GPL-3.0-or-later (espeak-ng): hard to "
                       "understand in Chinese: it reads English words as pinyin")
    if not kokoro.missing("zh"):
        assert said[0] == ("  --voice neural: the neural voice (Kokoro zm_yunjian); "
                           "Apache-2.0 (Kokoro-82M's weights and voices)")
    assert voices("ja")[1] == ("--voice draft: espeak-ng ja; GPL-3.0-or-later (espeak-ng): not understood in "
                               "Japanese: it names each kanji in English (\"Chinese letter\")")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")
def test_a_voice_is_made_beside_the_drawing_and_then_cached(tmp_path):
    """A line not in the cache comes back as a future (made in the voice's thread while the step draws),
    whose seconds are the cached file's; asked again, it is the seconds at once."""
    from concurrent.futures import Future

    from attention_lesson.pipeline.voice.track import Voice

    voice = Voice("draft", "en", tmp_path)
    first = voice("scores", 1, "all_scores", "Every query meets every key.")
    assert isinstance(first, Future)
    seconds = first.result(timeout=60)
    wav = voice.clips[1]
    with wave.open(str(wav)) as w:
        assert seconds == pytest.approx(w.getnframes() / RATE) and w.getframerate() == RATE
    again = Voice("draft", "en", tmp_path)("scores", 1, "all_scores", "Every query meets every key.")
    assert again == pytest.approx(seconds) and 0.8 < seconds < 6


def _a_voice_in_this_process(cache: str) -> float:
    from attention_lesson.pipeline.voice.track import Voice

    made = Voice("draft", "en", Path(cache))("scores", 2, "scaled", "Each score is divided by two.")
    return made.result(timeout=30) if not isinstance(made, float) else made


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")
def test_a_worker_forked_after_a_voice_was_made_makes_its_own(tmp_path):
    """The runner forks its workers; a process that had made a voice in-process (a test, a -j 1 render)
    had a voice thread, which a fork does not copy: the child queued its lines to an executor with no
    thread and its scene waited forever (a hang seen in the suite). The child now starts its own."""
    import multiprocessing

    assert _a_voice_in_this_process(str(tmp_path / "parent")) > 0  # this process's voice thread, started
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_a_voice_in_this_process, (str(tmp_path / "child"),)).get(timeout=60) > 0
