"""The neural voices (pipeline/voice/speakers.py: Kokoro in every language, Piper in English by its
name) measured on rendered files: a render with the bundled voice carries an AAC track whose voices
start where their steps do, at -16 LUFS; it is not the draft voice; a second run synthesises nothing; a
bad voice file or a missing package is one line and exit 2 with nothing written; the digest follows the
voice model; Kokoro's Mandarin reads numbers as words, English words as English and kana as Japanese.
Whether a listener understands them: tests/test_ear.py."""

import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from attention_core import load
from attention_lesson.pipeline.plan import RenderOptions, input_digest
from attention_lesson.pipeline.voice import kokoro
from attention_lesson.pipeline.voice.speakers import bundled_model, speaker_for

from .cli_helpers import cli
from .test_voice import BLINK, check_scene_and_clips, samples, two_scenes  # noqa: F401 - the fixture

pytestmark = [pytest.mark.render,
              pytest.mark.skipif(importlib.util.find_spec("piper") is None,
                                 reason="piper-tts: scripts/setup.sh")]


def test_the_bundled_piper_voice_speaks_in_step(two_scenes):  # noqa: F811
    """Piper's English voice, by its name (Kokoro's af_heart is the neural voice now)."""
    piper = "piper:en_US-joe-medium"
    cli("render", "blink", "--lang", "en", "--voice", piper, "--sections", "--out", "n", "-q", "-j", "1")
    cli("render", "blink", "--lang", "en", "--voice", "draft", "--out", "d", "-q", "-j", "1")
    folder = two_scenes / "n"
    # AAC at 48 kHz, onsets VOICE_LEAD into each step, -16 ± 1 LUFS, ≤ -1.5 dBTP
    check_scene_and_clips(folder)
    neural = json.loads((folder / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    draft = json.loads((two_scenes / "d" / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    assert [s["narration"] for s in neural] == [s["narration"] for s in draft]
    assert all(abs(a["voice"] - b["voice"]) > 0.05 for a, b in zip(neural, draft)), (neural, draft)
    a, b = samples(folder / "blink.mp4"), samples(two_scenes / "d" / "blink.mp4")
    assert len(a) != len(b) or abs(a - b).mean() > 100  # another engine's speech, not the draft's
    cache = two_scenes / "n" / ".cache" / "voice"  # the workers' cache of --out n
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    # drawn again, at one frame a second (the frames are not what is checked: its voices are)
    cli("render", "blink", "--lang", "en", "--voice", piper, "--fps", "1", "--out", "n", "-q", "--force",
        "-j", "1")
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


needs_kokoro = pytest.mark.skipif(bool(kokoro.missing("zh") or kokoro.missing("ja")),
                                  reason="Kokoro's packages: scripts/setup.sh")
JAPANESE_READING_MANDARIN = "the neural voice (Kokoro jm_kumo: a Japanese speaker reading Mandarin)"
NATIVE_MANDARIN = "the neural voice (Kokoro zm_yunjian)"
ENGLISH = ("the neural voice (en_US-joe-medium)" if kokoro.missing("en") or shutil.which("espeak-ng") is None
           else "the neural voice (Kokoro af_heart)")


@needs_kokoro
def test_kokoro_speaks_chinese_in_step_at_the_level_and_is_cached(two_scenes):  # noqa: F811
    assert speaker_for("neural", "zh").label == NATIVE_MANDARIN  # the voice the wheel carries
    assert speaker_for("neural", "ja").label == "the neural voice (Kokoro jf_alpha)"  # a native speaker
    cli("render", "blink", "--voice", "neural", "--sections", "--out", "n", "-q", "-j", "1")
    cli("render", "blink", "--voice", "draft", "--out", "d", "-q", "-j", "1")
    folder = two_scenes / "n"
    check_scene_and_clips(folder)  # AAC, onsets VOICE_LEAD into each step, -16 ± 1 LUFS, ≤ -1.5 dBTP
    a, b = samples(folder / "blink.mp4"), samples(two_scenes / "d" / "blink.mp4")
    assert len(a) != len(b) or abs(a - b).mean() > 100  # another engine's speech, not the draft's
    cache = two_scenes / "n" / ".cache" / "voice"  # the workers' cache of --out n
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    # drawn again, at one frame a second (the frames are not what is checked: its voices are)
    cli("render", "blink", "--voice", "neural", "--fps", "1", "--out", "n", "-q", "--force", "-j", "1")
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before  # nothing synthesised again


@needs_kokoro
def test_mandarin_reads_numbers_as_words_and_english_as_english():
    """0.69 reaches Kokoro as 零点六九 (scenes/common/speech.py), read as misaki reads those characters;
    an English word is espeak-ng's American reading in misaki's symbols (token: tˈOkən); every
    phoneme is in the model's vocabulary (a raw Latin letter would be read as a phoneme symbol)."""
    from scenes.common.speech import speakable

    text = speakable("权重约 0.69 给 river，softmax 的 token", "zh")
    assert "零点六九" in text
    ps = kokoro.phonemes(text, "zh")
    assert kokoro.mandarin("零点六九") == "li↗ŋtjɛ↓n ljou↘ʨjou↓" and "li↗ŋtjɛ↓n ljou↘ʨjou↓" in ps
    assert "tˈOkən" in ps and "ɹˈɪvəɹ" in ps and "softmax" not in ps and "sˈɔftmæks" in ps
    vocab = kokoro._session()[1]
    assert set(ps) <= set(vocab), set(ps) - set(vocab)


@needs_kokoro
def test_kana_inside_a_chinese_line_is_read_as_japanese(monkeypatch):
    """misaki's Mandarin passes kana through and the model drops what is not in its vocabulary: a kana
    run is cut out and read by the Japanese front end (ありがとう: aɾʲiɡatoː), else by espeak-ng's
    Japanese; every phoneme is in the model's vocabulary, and the Chinese around it is as before."""
    from attention_lesson.pipeline.voice import phonemes as P

    vocab = set(kokoro._session()[1])
    line = "这个词叫ありがとう，也写作トークン。"
    ps = kokoro.mandarin(line)
    assert "aɾʲiɡatoː" in ps and "toːkɯɴ" in ps and set(ps) <= vocab, (ps, set(ps) - vocab)
    assert ps.startswith(kokoro.mandarin("这个词叫")) and "je↓ ɕje↓ʦwo↘" in ps
    assert not any("\u3040" <= c <= "\u30ff" for c in ps)  # no kana left for the model to drop
    monkeypatch.setattr(P, "japanese_ready", lambda: False)
    P.kana.cache_clear()
    try:
        fallback = kokoro.mandarin(line)
    finally:
        P.kana.cache_clear()
    assert "ˌaɾiɡatˈoɯ" in fallback and "tˈookɯɴ" in fallback  # espeak-ng's, its vowels' marks dropped
    assert set(fallback) <= vocab, set(fallback) - vocab


@needs_kokoro
def test_the_vendored_mandarin_voices_speak_and_jm_kumo_stays_a_choice(tmp_path):
    """zm_yunjian and zf_xiaoxiao come with the package (kokoro-js's files, attention_lesson/web/vendor);
    by name they are read from there, and the Japanese speaker is still there by its name."""
    for name in kokoro.VENDORED:
        assert kokoro.voice_problem(name) is None and kokoro.named(name)
        raw = kokoro.vendored_file(name).read_bytes()
        assert len(raw) == kokoro.ROWS * kokoro.WIDTH * 4
        assert kokoro.style(name).tobytes() == raw  # little-endian float32, as the file holds them
    assert speaker_for("kokoro:zf_xiaoxiao", "zh").label == "the neural voice (Kokoro zf_xiaoxiao)"
    assert speaker_for("kokoro:jm_kumo", "zh").label == JAPANESE_READING_MANDARIN
    assert speaker_for("kokoro:jm_kumo", "zh").inputs() != speaker_for("neural", "zh").inputs()


def kokoro_file(folder: Path, name: str, array=None) -> Path:
    """A Kokoro voice file: a bundled voice (or `array`) saved as NAME.npy."""
    import numpy as np

    path = folder / f"{name}.npy"
    np.save(path, kokoro.style("jf_alpha")[:, None, :] if array is None else array)
    return path


@needs_kokoro
def test_any_kokoro_voice_file_speaks_and_says_who_it_is(tmp_path):
    """A voice named zf_... is a native Mandarin speaker; its content, not its name, is in the digest."""
    import numpy as np

    native = kokoro_file(tmp_path, "zf_xiaobei")
    zh = speaker_for(f"kokoro:{native}", "zh")
    assert zh.kind == "kokoro" and zh.label == "the neural voice (Kokoro zf_xiaobei)"
    assert zh.inputs()["voice"] == speaker_for("kokoro:jf_alpha", "zh").inputs()["voice"]
    other = kokoro_file(tmp_path, "zf_other", kokoro.style("jf_alpha")[:, None, :] * np.float32(1.01))
    assert speaker_for(f"kokoro:{other}", "zh").inputs() != zh.inputs()
    zh.say("点积是四点六。", tmp_path / "line.wav")
    from attention_lesson.pipeline.voice.loudness import pcm

    samples, rate = pcm(tmp_path / "line.wav")
    assert rate == kokoro.RATE and 0.8 < len(samples) / rate < 4, len(samples) / rate


def test_a_voice_as_raw_floats_is_read_as_kokoro_js_writes_it(tmp_path):
    """kokoro-js's voices/NAME.bin (npm) holds one voice as 510 x 256 little-endian floats; kokoro-onnx's
    voices-v1.0.bin is a zip of arrays (np.savez) and is read by name."""
    import numpy as np

    rows = np.arange(510 * 256, dtype="<f4").reshape(510, 256) / 1e5
    raw = tmp_path / "zm_raw.bin"
    rows.tofile(raw)
    got = kokoro.style(str(raw))
    assert got.shape == (510, 256) and got[3, 7] == rows[3, 7] and kokoro.native(str(raw)) == "zh"
    with open(tmp_path / "two.bin", "wb") as f:
        np.savez(f, zf_a=rows[:, None, :], zf_b=-rows[:, None, :])
    assert kokoro.style(f"{tmp_path / 'two.bin'}#zf_b")[3, 7] == -rows[3, 7]
    np.zeros(300, "<f4").tofile(tmp_path / "short.bin")
    with pytest.raises(ValueError, match="300 floats, expected 510 x 256"):
        kokoro.style(str(tmp_path / "short.bin"))


@needs_kokoro
@pytest.mark.parametrize("make,expected", [
    (lambda d: d / "nothing.npy", "no such Kokoro voice file"),
    (lambda d: kokoro_file(d, "flat", __import__("numpy").zeros((3, 4))), "not a Kokoro voice: an array"),
    (lambda d: (d / "zf.txt").write_text("x") and d / "zf.txt", "expected a Kokoro voice (.npy"),
    (lambda d: two_voices(d), "it holds 2 voices: name one, PATH#name"),
    (lambda d: f"{two_voices(d)}#zf_nobody", "no voice 'zf_nobody' in it"),
])
def test_a_bad_kokoro_voice_is_one_line_and_exit_2(two_scenes, make, expected):  # noqa: F811
    path = make(two_scenes)
    out = cli("render", "blink", "--voice", f"kokoro:{path}", "--out", "o", code=2)
    assert expected in out and len(out.strip().splitlines()) == 1 and "Traceback" not in out, out
    assert not (two_scenes / "o").exists()


def two_voices(folder: Path) -> Path:
    import numpy as np

    np.savez(folder / "voices.npz", zf_a=kokoro.style("jf_alpha"), zf_b=kokoro.style("jm_kumo"))
    return folder / "voices.npz"


def test_a_missing_package_is_one_line_and_exit_2(two_scenes, monkeypatch):  # noqa: F811
    monkeypatch.setattr(kokoro, "missing", lambda lang: ["misaki", "pypinyin"])
    out = cli("render", "blink", "--voice", "neural", "--out", "o", code=2)
    assert out.strip() == ("错误：--voice neural: Kokoro's voice in zh needs misaki, pypinyin: "
                           "pip install 'attention-lesson[voice]' (or ./scripts/setup.sh)"), out
    assert not (two_scenes / "o").exists()


def test_recordings_then_the_neural_voice_then_the_draft(two_scenes):  # noqa: F811
    """An English recordings folder with one step recorded: the other step is the neural voice's, in
    `voice status` and in the render (named on stderr); in Chinese too, Kokoro's."""
    from click.testing import CliRunner

    from attention_lesson.cli import main

    from .test_voice import tone

    rec = two_scenes / "rec"
    for lang in ("en", "zh"):
        tone(rec / lang / "blink" / "01-scores.wav")
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--lang", "en", "--json"])
    rows = json.loads(r.stdout)
    assert [(x["step"], x["state"], x["engine"]) for x in rows] == [
        ("scores", "recorded", "recording"), ("weights", "neural", ENGLISH)]
    r = CliRunner().invoke(main, ["voice", "status", "blink", "--voice", str(rec), "--json"])
    expected = ("neural", NATIVE_MANDARIN)
    if kokoro.missing("zh"):
        expected = ("draft", "the draft voice")
    assert [(x["state"], x["engine"]) for x in json.loads(r.stdout)][1] == expected
    r = CliRunner().invoke(main, ["render", "blink", "--voice", str(rec), "--lang", "en", "--out", "r", "-q",
                                  "-j", "1"])
    assert r.exit_code == 0, r.output
    assert (f"no recording for 1 steps, {ENGLISH} speaks them: blink/02-weights"
            in r.stderr)
