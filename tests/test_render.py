"""The render pipeline through the CLI, with real small renders of short fixture scenes."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import load
from attention_core.lesson import resolve
from attention_lesson.cli import main
from attention_lesson.pipeline.plan import RenderOptions, input_digest
from scenes import registry
from scenes.registry import SceneInfo

from .cli_helpers import cli
from .conftest import BLINK
from .cue_rules import srt_cues, step_problems

pytestmark = pytest.mark.render

BLINK_ALL = SceneInfo("blink", "BlinkAll", package="tests.fixtures")


def probe(path, entries="stream=codec_name,codec_tag_string,pix_fmt"):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          entries, "-of", "json", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def test_output_layout_skip_and_sections(fixtures):
    out = cli("render", "blink", "--out", "clips", "--sections", "-q")
    files = sorted(p.name for p in (fixtures / "clips").iterdir())
    assert files == [".cache", "blink-01-scores.mp4", "blink-02-weights.mp4", "blink.mp4", "blink.srt",
                     "blink.steps.json", "manifest.json"]  # the workers' cache in --out, not in ./media
    assert "clips/blink.mp4" in out and "clips/blink-02-weights.mp4" in out  # the paths written
    srt = (fixtures / "clips" / "blink.srt").read_text(encoding="utf-8")
    assert "scores: by the river bank" in srt and "weights: by the river bank" in srt
    title = lambda p: probe(p, "format_tags=title")["format"]["tags"]["title"]  # noqa: E731
    assert title(fixtures / "clips" / "blink.mp4") == "注意力机制 – 闪"  # what a player shows
    assert title(fixtures / "clips" / "blink-02-weights.mp4") == "注意力机制 – 闪 (2)"
    before = (fixtures / "clips" / "blink.mp4").stat().st_mtime_ns
    again = cli("render", "blink", "--out", "clips", "--sections")
    assert "渲染 0 个，1 个已是最新" in again
    assert (fixtures / "clips" / "blink.mp4").stat().st_mtime_ns == before
    forced = cli("render", "blink", "--out", "clips", "--sections", "--force", "-q")
    assert "clips/blink.mp4" in forced


def test_default_layout_under_media(fixtures):
    cli("render", "blink", "--lang", "en", "--context", "savings", "-q")
    folder = fixtures / "media" / "default" / "savings-scaled-en-480p15"
    assert (folder / "blink.mp4").exists() and (folder / "blink.srt").exists()
    steps = json.loads((folder / "blink.steps.json").read_text(encoding="utf-8"))
    assert steps["title"] == "Blink" and [s["step"] for s in steps["steps"]] == ["scores", "weights"]


def test_edit_rerenders_exactly_what_changed(fixtures):
    lesson_file = fixtures / "lesson.toml"
    shutil.copy(resolve("default"), lesson_file)
    cli("render", "blink", "--lesson", str(lesson_file), "--out", "r", "-q")
    cli("render", "blink", "--lesson", str(lesson_file), "--context", "savings", "--out", "s", "-q")
    text = lesson_file.read_text(encoding="utf-8")
    # an edit only the savings context uses
    lesson_file.write_text(text.replace("savings = [0.0, 1.0, 0.0, 0.0]",
                                        "savings = [0.0, 1.2, 0.0, 0.0]"), encoding="utf-8")
    assert "渲染 0 个，1 个已是最新" in cli("render", "blink", "--lesson", str(lesson_file),
                                             "--out", "r")
    assert "渲染 1 个，0 个已是最新" in cli("render", "blink", "--lesson", str(lesson_file),
                                             "--context", "savings", "--out", "s")


def test_digest_follows_what_a_scene_shows(tmp_path):
    lesson_file = tmp_path / "lesson.toml"
    shutil.copy(resolve("default"), lesson_file)
    opts = lambda ctx: RenderOptions(lesson=str(lesson_file), context=ctx)  # noqa: E731
    before = {(s.contexts, c): input_digest(load(lesson_file), s, opts(c))
              for s in (BLINK, BLINK_ALL) for c in ("river", "savings")}
    lesson_file.write_text(lesson_file.read_text(encoding="utf-8").replace(
        "savings = [0.0, 1.0, 0.0, 0.0]", "savings = [0.0, 1.2, 0.0, 0.0]"), encoding="utf-8")
    after = {(s.contexts, c): input_digest(load(lesson_file), s, opts(c))
             for s in (BLINK, BLINK_ALL) for c in ("river", "savings")}
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {("current", "savings"), ("all", "river"), ("all", "savings")}
    # the lesson's own narration line is too, in its language only
    en, zh = (RenderOptions(lesson=str(lesson_file), context="river", lang=lang) for lang in ("en", "zh"))
    before_en, before_zh = (input_digest(load(lesson_file), BLINK, o) for o in (en, zh))
    text = lesson_file.read_text(encoding="utf-8")
    assert 'story = "Next to river' in text
    lesson_file.write_text(text.replace('story = "Next to river', 'story = "Once more: next to river'),
                           encoding="utf-8")
    assert input_digest(load(lesson_file), BLINK, en) != before_en
    assert input_digest(load(lesson_file), BLINK, zh) == before_zh
    # options and language are part of the digest too
    les = load(lesson_file)
    assert input_digest(les, BLINK, opts("river")) != input_digest(
        les, BLINK, RenderOptions(lesson=str(lesson_file), context="river", lang="en"))


def frames(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt",
                          "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8)


@pytest.fixture
def two_scenes(fixtures, monkeypatch):
    """Two fixture scenes (the second is the first under another id)."""
    import tests.fixtures.blink as mod

    monkeypatch.setattr(registry, "SCENES", (
        BLINK, SceneInfo("blink2", "Blink", package="tests.fixtures", titles={"zh": "二"})))
    monkeypatch.setitem(sys.modules, "tests.fixtures.blink2", mod)
    return fixtures


def test_parallel_equals_serial(two_scenes):
    fixtures = two_scenes
    cli("render", "--all", "-j", "2", "--out", "par", "-q")
    cli("render", "--all", "-j", "1", "--out", "ser", "-q")
    for name in ("blink.mp4", "blink2.mp4"):
        par, ser = frames(fixtures / "par" / name), frames(fixtures / "ser" / name)
        assert par.shape == ser.shape, (name, par.shape, ser.shape)
        diff = np.abs(par.astype(int) - ser.astype(int))
        assert diff.max() == 0, (name, int(diff.max()), int((diff > 0).sum()))
    for name in ("blink.srt", "blink2.srt"):
        par, ser = ((fixtures / d / name).read_text(encoding="utf-8") for d in ("par", "ser"))
        assert par == ser, (name, par, ser)


def test_gif(fixtures):
    cli("render", "blink", "--format", "gif", "--out", "g", "-q")
    assert probe(fixtures / "g" / "blink.gif")["streams"][0]["codec_name"] == "gif"


def test_lesson_has_a_chapter_per_scene(two_scenes):
    fixtures = two_scenes
    cli("lesson", "--out", "l", "-q")
    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json",
                          str(fixtures / "l" / "lesson.mp4")], capture_output=True, text=True).stdout
    chapters = json.loads(out)["chapters"]
    assert [c["tags"]["title"] for c in chapters] == ["闪", "二"]
    vtt = (fixtures / "l" / "lesson.chapters.vtt").read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT") and vtt.count(" --> ") == 2
    srt = (fixtures / "l" / "lesson.srt").read_text(encoding="utf-8")
    assert srt.count(" --> ") == 4
    # the joined cues: readable, each inside its step in lesson time, none past its chapter's end
    cues, steps = srt_cues(srt), []
    for sid, chapter in zip(("blink", "blink2"), chapters):
        info = json.loads((fixtures / "l" / f"{sid}.steps.json").read_text(encoding="utf-8"))
        at = float(chapter["start_time"])
        steps += [SimpleNamespace(narration=s["narration"], start=at + s["start"], end=at + s["end"])
                  for s in info["steps"]]
        own = [c for c in cues if at <= c[1] < float(chapter["end_time"])]
        assert len(own) == 2 and own[-1][2] <= float(chapter["end_time"]) + 1e-6, (own, chapter)
    assert step_problems(steps, cues, "zh") == []


def test_unknown_scene_is_usage_error(fixtures):
    r = CliRunner().invoke(main, ["render", "nope"])
    assert r.exit_code == 2 and "blink" in r.output and "broken" in r.output


def test_failing_scene_leaves_nothing_half_written(fixtures):
    r = CliRunner().invoke(main, ["render", "blink", "broken", "--out", "f", "-j", "1"])
    assert r.exit_code == 1
    assert "broken" in r.output and "fails on purpose" in r.output
    names = sorted(p.name for p in (fixtures / "f").iterdir())
    assert names == [".cache", "blink.mp4", "blink.srt", "blink.steps.json", "manifest.json"]
    manifest = json.loads((fixtures / "f" / "manifest.json").read_text())
    assert list(manifest) == ["blink"]


# -- interrupts: no private folder outlives its process ----------------------------------------------

def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".tmp-")) if folder.exists() else []


def _default_sigint() -> None:
    """Ctrl-C as a terminal gives it: a shell that runs the tests in the background (`make test &`, a CI
    runner) starts them with SIGINT ignored, the children inherit that, and Python then installs no
    KeyboardInterrupt handler at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli_process(cwd, *args, **kwargs):
    """`attention-lesson ARGS` in a process of its own (fixture scenes registered)."""
    root = Path(__file__).resolve().parent.parent
    return subprocess.Popen([sys.executable, "-m", "tests.fixtures.cli_with_fixtures", *args], cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(root)}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, preexec_fn=_default_sigint, **kwargs)


def test_quiet_hides_manim_warnings(tmp_path):
    """manim logs to its own console, which CliRunner does not capture: a real process."""
    loud = cli_process(tmp_path, "render", "hush", "--out", "o", "-j", "1").communicate(timeout=300)[0]
    assert b"too short" in loud, loud.decode(errors="replace")
    quiet = cli_process(tmp_path, "render", "hush", "--out", "o", "-j", "1", "--force", "-q")
    out = quiet.communicate(timeout=300)[0].decode(errors="replace")
    assert quiet.returncode == 0 and "too short" not in out and "WARNING" not in out, out
    assert out.strip().endswith("o/hush.steps.json")


def hidden(folder):
    """Every hidden entry under folder but the workers' cache itself (.cache): the private .tmp-* folders,
    a .<file>.<pid> being written, a .<file>.tmp."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*") if p != folder / ".cache")


def test_interrupt_is_one_line_and_leaves_nothing_hidden(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during `render -j 2`, once the
    workers are drawing: exit status 130, one line saying so, no worker's traceback (they ignore Ctrl-C:
    the parent stops them), no hidden entry left in --out, its cache included."""
    out = tmp_path / "out"
    proc = cli_process(tmp_path, "render", "blink", "slow", "-j", "2", "--quality", "low", "--out", str(out),
                       "-q", start_new_session=True)

    def partials() -> int:  # the slow scene's partial movie files so far (it writes one per play)
        return sum(len(list(p.rglob("*.mp4"))) for p in (out.iterdir() if out.exists() else [])
                   if p.name.startswith(".tmp-slow"))

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and partials() < 1 and proc.poll() is None:  # drawing, far from its end
        time.sleep(0.05)
    assert partials() >= 1, "the render never started writing"
    os.killpg(proc.pid, signal.SIGINT)
    output = proc.communicate(timeout=120)[0].decode(errors="replace")
    assert proc.returncode == 130, output
    assert f"已中断：{out} 中没有留下写了一半的文件" in output.splitlines(), output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert hidden(out) == [], output
    manifest = out / "manifest.json"  # never claims the interrupted scene
    assert not manifest.exists() or "slow" not in json.loads(manifest.read_text())


def test_next_run_sweeps_what_a_killed_run_left(fixtures):
    """A folder whose process is gone (killed with SIGKILL, power loss) is removed by the next run;
    one whose process still runs (a render in progress beside this one) is left alone."""
    out = fixtures / "clips"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = out / f".tmp-blink-{dead.pid}-abc123"
    (stale / "partial_movie_files").mkdir(parents=True)
    (stale / "partial_movie_files" / "uncached_00000.mp4").write_bytes(b"\0" * 1000)
    live = out / f".tmp-blink-{os.getpid()}-def456"
    live.mkdir()
    labels = out / ".cache" / "mobjects"  # a label a stopped worker was writing; one being written now
    labels.mkdir(parents=True)
    (labels / f".0123abcd.pickle.{dead.pid}").write_bytes(b"\0" * 10)
    (labels / f".4567cdef.pickle.{os.getpid()}").write_bytes(b"\0" * 10)
    cli("render", "blink", "--out", "clips", "-q")
    assert leftovers(out) == [live.name]
    assert sorted(p.name for p in labels.glob(".*")) == [f".4567cdef.pickle.{os.getpid()}"]
    assert (out / "blink.mp4").exists()


FAULTS = """
import resource, sys
import numpy as np
sys.path.insert(0, {root!r})
from attention_lesson.pipeline.drawing.worker import tune_malloc

def faults():
    start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(100):  # what a scene does each frame: a 480p RGBA buffer, filled, then freed
        frame = np.empty((480, 854, 4), np.uint8)
        frame.fill(7)
        del frame
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start

before = faults()
print(before, tune_malloc(), faults())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_frame_buffers_stay_in_the_heap_in_a_dask_worker():
    """A Dask worker starts with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc map and unmap every
    frame buffer (each page faulted in again: measured 35 % slower renders); render() undoes it."""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    code = FAULTS.format(root=str(Path(__file__).resolve().parent.parent))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                         text=True).stdout.split()
    before, tuned, after = int(out[0]), out[1], int(out[2])
    pages = 100 * 480 * 854 * 4 // 4096
    assert before > 0.9 * pages  # every buffer faulted in anew
    assert tuned == "True"
    assert after < 0.05 * pages  # reused from the heap


def test_the_theme_names_the_folder_and_colours_the_frames(fixtures):
    """The light theme renders into its own folder (-light; dark, the default, keeps its name) with its
    background, as a PNG with --format png; an unknown theme is a usage error naming --theme."""
    from PIL import Image

    from scenes.common.style import DARK, LIGHT

    assert str(Path("media/default/river-scaled-zh-480p15/blink.mp4")) in cli("render", "blink", "--dry-run")
    assert str(Path("media/default/river-scaled-zh-480p15-light/blink.mp4")) in \
        cli("render", "blink", "--theme", "light", "--dry-run")
    for theme, colours in (("light", LIGHT), ("dark", DARK)):
        cli("render", "blink", "--theme", theme, "--format", "png", "--out", theme, "-q")
        assert (fixtures / theme / "blink.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # --format png
        corner = Image.open(fixtures / theme / "blink.png").convert("RGB").getpixel((2, 2))
        assert "#%02X%02X%02X" % corner == colours.background, theme
    les = load(None)
    dark, light = (RenderOptions(lesson=les.source, context="river", theme=t) for t in ("dark", "light"))
    assert input_digest(les, BLINK, dark) != input_digest(les, BLINK, light)
    r = CliRunner().invoke(main, ["render", "blink", "--theme", "sepia"])
    assert r.exit_code == 2 and "'--theme'" in r.output and "Traceback" not in r.output


def test_a_cold_run_forks_its_workers_before_it_plans_and_a_re_run_with_nothing_to_do_never(
        fixtures, monkeypatch):
    """build: in a folder with nothing rendered yet the workers are forked first (they import manim while
    the command plans) and the run uses them; a re-run with nothing to do forks none; a dry run none."""
    from attention_lesson.pipeline import build as building
    from attention_lesson.pipeline.drawing import runner

    events = []
    real_workers, real_plan = runner.Workers, building.plan_all

    class Spy(real_workers):
        def __init__(self, *args):
            events.append("fork")
            super().__init__(*args)

    def plan_all(*args, **kwargs):
        events.append("plan")
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(runner, "Workers", Spy)  # build imports it when it forks
    monkeypatch.setattr(building, "plan_all", plan_all)
    cli("render", "blink", "--out", "cold", "-q", "-j", "2")
    assert events == ["fork", "plan"] and (fixtures / "cold" / "blink.mp4").stat().st_size > 0
    events.clear()
    assert "渲染 0 个，1 个已是最新" in cli("render", "blink", "--out", "cold", "-j", "2")
    cli("render", "blink", "--out", "dry", "--dry-run", "-j", "2")
    assert events == ["plan", "plan"]
