"""`attention-lesson voice script`: the recording script, checked against dry-run builds of the scene."""

import csv
import io
import re
import shutil

import pytest
from click.testing import CliRunner

from attention_lesson.cli import main
from scenes.registry import BY_ID, available

from .scene_harness import LESSONS, build

SCENE = "softmax"  # one of the quickest scenes to build (~4 s dry run)
TINY = str(LESSONS / "tiny.toml")
CJK = re.compile(r"[\u3400-\u9fff]")

pytestmark = pytest.mark.xdist_group("voice-script")


def invoke(*args, code=0, guide="draft"):
    """`voice script ARGS`, its guide lengths by the draft voice unless told (a neural guide is checked
    with English's voice below: Kokoro's Chinese costs a minute here, and speaks in test_neural_voice)."""
    r = CliRunner().invoke(main, ["voice", "script", *args, *(["--guide", guide] if guide else [])])
    assert r.exit_code == code, (r.output, r.exception)
    return r


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The steps of SCENE as a dry-run build runs them: default lesson in zh, tiny lesson in en."""
    media = tmp_path_factory.mktemp("media")
    out = {}
    for key, lesson, lang in [("zh", None, "zh"), ("tiny-en", TINY, "en")]:
        scene, _ = build(BY_ID[SCENE], media, lesson=lesson, lang=lang, video_clock=True)  # the video's times
        assert scene.step_keys == [s.step for s in scene.steps]
        out[key] = scene
    return out


def expected_files(scene, lang):
    return [f"{lang}/{SCENE}/{n:02d}-{step}.wav" for n, step in enumerate(scene.step_keys, 1)]


def check_markdown(built):
    scene = built["zh"]
    r = invoke(SCENE)
    md = r.stdout
    assert r.stderr == ""  # nothing but the script: manim says nothing
    number = [s.id for s in available()].index(SCENE) + 1  # its place in the lesson (registry order)
    assert f"## {number}. {BY_ID[SCENE].title('zh')} ({SCENE})" in md and number == 5
    items = re.findall(r"^(\d+)\. `([^`]+)`: the step's animations last ([\d.]+) s"
                       r"(?:; the (?:draft|neural) voice.* takes [\d.]+ s)?$", md, re.M)
    assert [f for _, f, _ in items] == expected_files(scene, "zh")
    assert [int(n) for n, _, _ in items] == list(range(1, len(scene.steps) + 1))
    assert [float(s) for _, _, s in items] == [round(s.end - s.start, 1) for s in scene.steps]
    quoted = re.findall(r"^   > (.*)$", md, re.M)
    assert quoted == [s.narration for s in scene.steps]
    to_weights = quoted[scene.step_keys.index("to_weights")]
    assert "[0.46, 0, 2.3, 0.69]" in to_weights and "[0.11, 0.07, 0.69, 0.14]" in to_weights
    assert all(CJK.search(line) for line in quoted)


def check_csv_to_out(built, tmp_path):
    scene = built["zh"]
    dest = tmp_path / "script.csv"
    r = invoke(SCENE, "--format", "csv", "--out", str(dest))
    assert r.stdout == ""
    n = len(scene.steps)
    assert r.stderr.strip() == f"1 个场景的 {n} 个步骤 -> {dest}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["script.csv"]  # no temp file left behind
    with dest.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    with dest.open(encoding="utf-8", newline="") as f:
        assert next(csv.reader(f)) == ["file", "scene", "step", "line", "seconds", "draft_seconds"]
    assert [r["file"] for r in rows] == expected_files(scene, "zh")
    assert [r["scene"] for r in rows] == [SCENE] * n
    assert [r["step"] for r in rows] == scene.step_keys
    assert [r["line"] for r in rows] == [s.narration for s in scene.steps]
    assert [float(r["seconds"]) for r in rows] == pytest.approx([s.end - s.start for s in scene.steps],
                                                                abs=0.006)
    assert all(float(r["seconds"]) > 0 for r in rows)
    if shutil.which("espeak-ng"):  # the draft voice's length as a guide: longer lines take longer
        drafts = [float(r["draft_seconds"]) for r in rows]
        assert all(d > 1 for d in drafts)
        longest = max(range(n), key=lambda i: len(rows[i]["line"]))
        assert drafts[longest] == max(drafts)


def check_english_and_the_tiny_lesson(built):
    scene = built["tiny-en"]
    rows = list(csv.DictReader(io.StringIO(invoke(SCENE, "--lesson", TINY, "--lang", "en",
                                                  "--format", "csv").stdout)))
    assert [r["file"] for r in rows] == expected_files(scene, "en")
    assert [r["line"] for r in rows] == [s.narration for s in scene.steps]
    assert all(r["line"] and not CJK.search(r["line"]) for r in rows)
    assert any("cat" in r["line"] for r in rows)  # the tiny lesson's focus, not the default's bank
    assert not any("bank" in r["line"] for r in rows)


def test_the_script_of_two_builds(built, tmp_path):
    """Markdown, CSV to a file, English of another lesson: checked against one build each (built once
    on one test worker)."""
    check_markdown(built)
    check_csv_to_out(built, tmp_path)
    check_english_and_the_tiny_lesson(built)


def test_unknown_scene_names_the_valid_ids():
    r = invoke("nope", code=2)
    assert "'nope'" in r.output and "Traceback" not in r.output
    assert all(s.id in r.output for s in available())


@pytest.mark.parametrize("args, words", [
    (["--context", "nowhere"], ["'nowhere'", "river"]),
    (["--guide", "no-such-folder"], ["--guide", "'no-such-folder'", "'draft'"]),
    (["--lesson", str(LESSONS / "does-not-exist.toml")], ["does-not-exist"]),
])
def test_bad_lesson_or_context_is_one_clear_line(args, words):
    r = invoke(SCENE, *args, code=2, guide=None)
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert all(w in r.output for w in words) and "Traceback" not in r.output


def test_help():
    assert "recording script" in CliRunner().invoke(main, ["voice", "script", "--help"]).output
    assert "script" in CliRunner().invoke(main, ["voice", "--help"]).output


@pytest.mark.render
def test_a_second_script_says_nothing_again_and_a_render_finds_its_voices(tmp_path, monkeypatch):
    """The guide's voices are made as a render makes them, into the renders' cache: a second `voice
    script` makes none and prints the same lengths (the neural voice is not the same twice), and a
    render with that voice afterwards finds every one of them."""
    monkeypatch.chdir(tmp_path)
    args = (SCENE, "--lesson", TINY, "--lang", "en", "--format", "csv")
    first = invoke(*args, guide=None).stdout  # the default guide: the neural voice
    cache = tmp_path / "media" / ".cache" / "voice"
    made = {p.name: p.stat().st_mtime_ns for p in cache.glob("*.wav")}
    rows = list(csv.DictReader(io.StringIO(first)))
    assert len(made) == len(rows) and all(float(r["draft_seconds"]) > 1 for r in rows)
    assert invoke(*args, guide=None).stdout == first
    assert {p.name: p.stat().st_mtime_ns for p in cache.glob("*.wav")} == made
    r = CliRunner().invoke(main, ["render", SCENE, "--lesson", TINY, "--lang", "en", "--voice", "neural",
                                  "--fps", "1", "-q", "-j", "1"])  # (the default output: media/.cache)
    assert r.exit_code == 0, r.output
    assert {p.name for p in cache.glob("*.wav")} == set(made)
