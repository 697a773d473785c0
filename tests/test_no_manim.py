"""manim only in the process that draws: every light command, every --help and --dry-run, and a re-run
of each rendering command with nothing to do, run as a process of its own, never loads manim (nor Dask,
outside a batch that runs); a re-run rewrites nothing. Even a render that draws loads manim only in its
worker processes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY = str(ROOT / "tests" / "lessons" / "tiny.toml")


def run(cwd: Path, *args: str, every: bool = False) -> tuple[str, list[str]]:
    """Run `attention-lesson ARGS` (only the fixture scene registered); its output and the heavy modules
    it loaded (`every`: every module it imported)."""
    probe = cwd / "probe.json"
    probe.unlink(missing_ok=True)
    r = subprocess.run([sys.executable, "-m", "tests.fixtures.cli_probe", *args], cwd=cwd,
                       capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "ATTENTION_PROBE": str(probe)})
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r.stdout + r.stderr, json.loads(probe.read_text(encoding="utf-8"))["modules" if every else "heavy"]


# what a re-run with nothing to do has no use for: manim and Dask, the images (PIL), the videos
# (PyAV), the decks (python-pptx, jinja2), the voices, the drawing room, the products' makers, the
# explorer's numbers, the installed packages' metadata (read from METADATA: importlib.metadata imports
# the email parser, zipfile, csv) and importlib.resources' readers (zipfile). numpy is loaded: a lesson's
# numbers are arrays, and its checks compute with them.
NOT_ON_A_NOOP = (
    "manim", "manim_slides", "dask", "distributed", "PIL", "av", "pptx", "jinja2", "cairo", "requests",
    "importlib.metadata", "email", "zipfile", "csv",
    "attention_core.numbers", "scenes.common.base", "attention_lesson.pipeline.drawing.runner",
    "attention_lesson.pipeline.voice.speakers", "attention_lesson.pipeline.join",
    "attention_lesson.outputs.deck", "attention_lesson.outputs.handout", "attention_lesson.outputs.sheet",
    "attention_lesson.outputs.explorer",
)


def unneeded(modules: list[str]) -> list[str]:
    """The modules of NOT_ON_A_NOOP (or inside one) among these."""
    return sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in NOT_ON_A_NOOP))


LIGHT = [
    ("--help",), ("render", "--help"), ("lesson", "--help"), ("slides", "--help"), ("handout", "--help"),
    ("sheet", "--help"), ("batch", "--help"), ("voice", "script", "--help"), ("list",), ("list", "--json"),
    ("check", TINY), ("numbers",), ("numbers", "--lesson", TINY, "--json"),
    ("new", "mine.toml", "--lang", "en"),
    ("render", "blink", "--dry-run"), ("lesson", "--dry-run"), ("slides", "--to", "pptx", "--dry-run"),
    ("handout", "--dry-run"), ("doctor",), ("words", "export", "--lang", "en", "--out", "words"),
]


@pytest.mark.parametrize("args", LIGHT, ids=" ".join)
def test_light_commands_load_no_manim(tmp_path, args):
    _, loaded = run(tmp_path, *args)
    assert loaded == []


def test_batch_dry_run_loads_no_manim(tmp_path):
    (tmp_path / "plan.toml").write_text('lessons = ["default"]\nproducts = ["scenes", "lesson", "html"]\n')
    out, loaded = run(tmp_path, "batch", "plan.toml", "--dry-run", "--lang", "en")
    assert loaded == [] and "would render blink" in out


OUTPUTS = {  # a command, and the files its re-run must leave untouched
    ("render", "blink", "--out", "o"): ["o/blink.mp4", "o/blink.srt"],
    ("lesson", "--out", "o"): ["o/lesson.mp4", "o/lesson.srt", "o/lesson.chapters.vtt"],
    ("slides", "--to", "html", "--out", "o"): ["o/deck/index.html"],
    ("slides", "--to", "pptx", "--out", "o"): ["o/deck.pptx"],
    ("handout", "--out", "h"): ["h/handout.pdf", "h/handout.html"],
    ("sheet", "--dest", "sheet.png"): ["sheet.png", "media/default/river-scaled-zh-480p15/contact-sheet.png"],
}


@pytest.mark.render
def test_rerun_with_nothing_to_do_loads_no_manim_and_rewrites_nothing(tmp_path):
    """Each command renders once (manim only in its workers; a deck is assembled by manim-slides'
    converters, which import no manim), then again: nothing loaded that it has no use for (manim, Dask,
    NOT_ON_A_NOOP), nothing written, the same files with the same mtimes; and `voice script` twice."""
    for args, files in OUTPUTS.items():
        out, loaded = run(tmp_path, *args, "-q")
        assert set(loaded) <= {"manim_slides"}, (args, out)  # its deck converters, no manim
        before = {f: (tmp_path / f).stat().st_mtime_ns for f in files}
        again, modules = run(tmp_path, *args, every=True)
        assert unneeded(modules) == [], (args, again)
        assert {f: (tmp_path / f).stat().st_mtime_ns for f in files} == before, (args, again)
        assert "0 rendered, 1 up to date, 0 failed" in again, (args, again)
    for _ in range(2):
        script, loaded = run(tmp_path, "voice", "script", "--format", "csv", "--guide", "draft")
        assert loaded == [] and script.count("zh/blink/") == 2, script
