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
HEAVY = ("manim", "manim_slides", "dask", "distributed")  # what tests/fixtures/cli_probe.py reports
TINY = str(ROOT / "tests" / "lessons" / "tiny.toml")


def run(cwd: Path, *args: str, every: bool = False) -> tuple[str, list[str]]:
    """Run `attention-lesson ARGS` (only the fixture scene registered); its output and the heavy modules
    it loaded (`every`: every module it imported)."""
    return run_each(cwd, [(cwd, args)], every)[0]


def run_each(base: Path, commands: list[tuple[Path, tuple[str, ...]]], every: bool = False
             ) -> list[tuple[str, list[str]]]:
    """Run each `attention-lesson ARGS` in its folder, one after another, each a process of its own
    forked from one that imported only what the CLI's process has before it runs a command
    (tests/fixtures/cli_forks.py); each one's output and the heavy modules it loaded (`every`: every
    module it imported)."""
    specs = [{"args": list(args), "cwd": str(cwd), **{k: str(base / f".cmd{n}.{k}") for k in
                                                      ("probe", "stdout", "stderr")}}
             for n, (cwd, args) in enumerate(commands)]
    (base / ".cmds.json").write_text(json.dumps(specs), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "tests.fixtures.cli_forks", str(base / ".cmds.json")],
                       cwd=base, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, (r.stdout, r.stderr)
    found = []
    for (_, args), spec, code in zip(commands, specs, json.loads(r.stdout)):
        out = "".join(Path(spec[k]).read_text(encoding="utf-8") for k in ("stdout", "stderr"))
        assert code == 0, (args, out)
        probe = json.loads(Path(spec["probe"]).read_text(encoding="utf-8"))
        found.append((out, probe["modules" if every else "heavy"]))
    return found


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


def test_light_commands_load_no_manim(tmp_path):
    """Each command in a folder of its own, as a process of its own."""
    folders = [tmp_path / f"c{n}" for n in range(len(LIGHT))]
    for folder in folders:
        folder.mkdir()
    loaded = run_each(tmp_path, list(zip(folders, LIGHT)))
    assert {" ".join(args): heavy for args, (_, heavy) in zip(LIGHT, loaded) if heavy} == {}


def test_batch_dry_run_loads_no_manim(tmp_path):
    (tmp_path / "plan.toml").write_text('lessons = ["default"]\nproducts = ["scenes", "lesson", "html"]\n')
    out, loaded = run(tmp_path, "batch", "plan.toml", "--dry-run", "--list", "--lang", "en")
    assert loaded == [] and "would render blink" in out


OUTPUTS = {  # a command, and the files its re-run must leave untouched (videos at one frame a second)
    ("render", "blink", "--fps", "1", "--out", "o"): ["o/blink.mp4", "o/blink.srt"],
    ("lesson", "--fps", "1", "--out", "o"): ["o/lesson.mp4", "o/lesson.srt", "o/lesson.chapters.vtt"],
    ("slides", "--to", "html", "--fps", "1", "--out", "o"): ["o/deck/index.html"],
    ("slides", "--to", "pptx", "--fps", "1", "--out", "o"): ["o/deck.pptx"],
    ("handout", "--out", "h"): ["h/handout.pdf", "h/handout.html"],
    ("sheet", "--dest", "sheet.png"): ["sheet.png", "media/default/river-scaled-zh-480p15/contact-sheet.png"],
}


@pytest.mark.render
def test_rerun_with_nothing_to_do_loads_no_manim_and_rewrites_nothing(tmp_path):
    """Each command renders once (manim only in its workers; a deck is assembled by manim-slides'
    converters, which import no manim), then again: nothing loaded that it has no use for (manim, Dask,
    NOT_ON_A_NOOP), nothing written, the same files with the same mtimes; and `voice script` twice. Every
    run a process of its own; the re-runs come after every first run."""
    script = ("voice", "script", "--format", "csv", "--guide", "draft")
    once = [(tmp_path, (*args, "-q", "-j", "1")) for args in OUTPUTS]  # one scene: one worker
    first = run_each(tmp_path, once + [(tmp_path, script)])
    for args, (out, loaded) in zip(OUTPUTS, first):
        assert set(loaded) <= {"manim_slides"}, (args, out)  # its deck converters, no manim
    before = {f: (tmp_path / f).stat().st_mtime_ns for files in OUTPUTS.values() for f in files}
    again = run_each(tmp_path, [(tmp_path, args) for args in OUTPUTS] + [(tmp_path, script)], every=True)
    for args, (out, modules) in zip(OUTPUTS, again):
        assert unneeded(modules) == [], (args, out)
        assert "渲染 0 个，1 个已是最新，0 个失败" in out, (args, out)
    assert {f: (tmp_path / f).stat().st_mtime_ns for f in before} == before
    (script_out, loaded), (again_out, modules) = first[-1], again[-1]
    assert loaded == [] and script_out.count("zh/blink/") == 2, script_out
    assert not {m.split(".")[0] for m in modules} & set(HEAVY), again_out
    assert again_out.count("zh/blink/") == 2, again_out
