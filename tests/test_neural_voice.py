"""The neural voice (Piper, pipeline/voice/speakers.py) measured on rendered files: an English render with the
bundled voice carries an AAC track whose voices start where their steps do, at -16 LUFS; it is not the
draft voice; a second run synthesises nothing; a bad voice file is one line and exit 2 with nothing
written; the digest follows the voice model; a language with no neural voice falls back to the draft."""

import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from attention_core import load
from attention_lesson.pipeline.plan import RenderOptions, input_digest
from attention_lesson.pipeline.voice.speakers import bundled_model, speaker_for

from .cli_helpers import cli
from .test_voice import BLINK, check_scene_and_clips, samples, two_scenes  # noqa: F401 - the fixture

pytestmark = [pytest.mark.render,
              pytest.mark.skipif(importlib.util.find_spec("piper") is None,
                                 reason="piper-tts: scripts/setup.sh")]


def test_the_bundled_english_voice_speaks_in_step(two_scenes):  # noqa: F811
    cli("render", "blink", "--lang", "en", "--voice", "neural", "--sections", "--out", "n", "-q")
    cli("render", "blink", "--lang", "en", "--voice", "draft", "--out", "d", "-q")
    folder = two_scenes / "n"
    # AAC at 48 kHz, onsets VOICE_LEAD into each step, -16 ± 1 LUFS, ≤ -1.5 dBTP
    check_scene_and_clips(folder)
    neural = json.loads((folder / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    draft = json.loads((two_scenes / "d" / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    assert [s["narration"] for s in neural] == [s["narration"] for s in draft]
    assert all(abs(a["voice"] - b["voice"]) > 0.05 for a, b in zip(neural, draft)), (neural, draft)
    a, b = samples(folder / "blink.mp4"), samples(two_scenes / "d" / "blink.mp4")
    assert len(a) != len(b) or abs(a - b).mean() > 100  # another engine's speech, not the draft's
    cache = two_scenes / "media" / ".cache" / "voice"
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    cli("render", "blink", "--lang", "en", "--voice", "neural", "--out", "n", "-q", "--force")
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before  # nothing synthesised again


@pytest.mark.parametrize("make,expected", [
    (lambda d: d / "nothing.onnx", "no such Piper voice model"),
    (lambda d: (d / "voice.txt").write_text("x") and d / "voice.txt", "expected a Piper voice model (.onnx)"),
    (lambda d: (d / "lone.onnx").write_bytes(b"\0" * 64) and d / "lone.onnx", "lone.onnx.json is missing"),
    (lambda d: corrupt(d), "Piper cannot load it"),
])
def test_a_bad_voice_file_is_one_line_and_exit_2(two_scenes, make, expected):  # noqa: F811
    path = make(two_scenes)
    out = cli("render", "blink", "--voice", f"piper:{path}", "--out", "o", code=2)
    assert expected in out and len(out.strip().splitlines()) == 1 and "Traceback" not in out, out
    assert not (two_scenes / "o").exists()


def corrupt(folder: Path) -> Path:
    """A copy of the bundled voice's config beside a model file that is not ONNX."""
    model = folder / "broken.onnx"
    model.write_bytes(b"not an onnx model" * 100)
    shutil.copy(f"{bundled_model('en')}.json", f"{model}.json")
    return model


def test_the_digest_follows_the_engine_and_the_model(tmp_path):
    lesson = load("default")
    src = bundled_model("en")
    copy = tmp_path / "joe.onnx"
    shutil.copy(src, copy)
    shutil.copy(f"{src}.json", f"{copy}.json")
    options = lambda voice: RenderOptions(lesson=lesson.source, context="river", lang="en", voice=voice)  # noqa: E731
    from scenes.registry import BY_ID

    digest = lambda voice: input_digest(lesson, BY_ID["softmax"], options(voice))  # noqa: E731
    same = digest(f"piper:{copy}")
    assert len({same, digest("neural"), digest("draft")}) == 3
    with open(copy, "r+b") as f:  # one byte of the model changed: another voice
        f.seek(-1, 2)
        last = f.read(1)
        f.seek(-1, 2)
        f.write(bytes([last[0] ^ 1]))
    assert digest(f"piper:{copy}") != same
    assert hashlib.sha256(copy.read_bytes()).hexdigest() != hashlib.sha256(src.read_bytes()).hexdigest()


def test_a_language_without_a_neural_voice_falls_back_to_the_draft(two_scenes):  # noqa: F811
    assert speaker_for("neural", "zh").kind == "draft" and speaker_for("neural", "en").kind == "piper"
    out = cli("render", "blink", "--voice", "neural", "--out", "z", "-q", "--dry-run")
    assert "no neural voice for zh: the draft voice speaks every step" in out


def test_recordings_then_the_neural_voice_then_the_draft(two_scenes):  # noqa: F811
    """An English recordings folder with one step recorded: the other step is the neural voice's, in
    `voice status` and in the render (named on stderr); in Chinese, with no neural voice, the draft's."""
    from click.testing import CliRunner

    from attention_lesson.cli import main

    from .test_voice import tone

    rec = two_scenes / "rec"
    for lang in ("en", "zh"):
        tone(rec / lang / "blink" / "01-scores.wav")
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--lang", "en", "--json"])
    rows = json.loads(r.stdout)
    assert [(x["step"], x["state"], x["engine"]) for x in rows] == [
        ("scores", "recorded", "recording"), ("weights", "neural", "the neural voice (en_US-joe-medium)")]
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--json"])
    assert [x["state"] for x in json.loads(r.stdout)] == ["recorded", "draft"]
    r = CliRunner().invoke(main, ["render", "blink", "--voice", str(rec), "--lang", "en", "--out", "r", "-q"])
    assert r.exit_code == 0, r.output
    assert ("no recording for 1 steps, the neural voice (en_US-joe-medium) speaks them: blink/02-weights"
            in r.stderr)
