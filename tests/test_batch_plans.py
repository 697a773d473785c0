"""A plan is read in seconds (issues 57 and 62): `batch --dry-run` of a plan of thousands of variants says
what it comes to (variants, scenes, clips, what is made already, the estimated time) and lists every
job only with --list; it computes no digest of a job its folder has no entry for, hashes the code once,
and reads the installed versions once (what its 236 s went to). A real run of more than
report.CONFIRM_OVER clips asks first, and with no terminal to ask in refuses in one line unless --yes.
Nothing is rendered: no Dask cluster starts."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core import load
from attention_lesson.cli import batch as batch_cli
from attention_lesson.cli import main, report
from attention_lesson.pipeline import manifest
from attention_lesson.pipeline import plan as plan_module
from attention_lesson.pipeline.plan import input_digest
from scenes.common import manim_gate

from .conftest import BLINK
from .test_batch import write_plan

AXES = {"contexts": ["river", "savings"], "modes": ["scaled", "unscaled", "uniform"],
        "langs": ["zh", "en", "ja"], "themes": ["dark", "light"],
        "qualities": ["low", "medium", "high", "4k"],
        "formats": ["mp4", "webm", "gif", "mov", "png"]}  # 720 variants a lesson


@pytest.fixture
def fixture_lessons():
    return ("tiny.toml",)


def lessons(folder: Path, n: int) -> list[str]:
    """n lesson files, the default lesson's text each with a comment of its own (n different files)."""
    text = (Path(load("default").source)).read_text(encoding="utf-8")
    for i in range(n):
        (folder / f"l{i:02d}.toml").write_text(f"{text}\n# copy {i}\n", encoding="utf-8")
    return [f"l{i:02d}.toml" for i in range(n)]


def run(*args: str, **kwargs):
    return CliRunner().invoke(main, ["batch", *args, "--lang", "en"], **kwargs)


def counted(monkeypatch, module, name: str) -> list:
    """Each call of module.name, recorded (and made)."""
    calls, real = [], getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_a_dry_run_of_thousands_of_variants_is_a_summary_made_without_digests(fixtures, monkeypatch):
    plan = write_plan(fixtures, lessons=lessons(fixtures, 3), **AXES, out="o")
    digests = counted(monkeypatch, plan_module, "input_digest")
    hashed = counted(monkeypatch, manifest, "hash_files")
    manim_gate.installed_version.cache_clear()
    versions = counted(monkeypatch, manim_gate, "version")
    r = run(str(plan), "--dry-run", "--workers", "2")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "2160 variants, 2 scenes: 4320 clips (0 already made), 0 products (0 already made)"
    assert lines[1] == "4320 to do in 4320 tasks (0 shared between variants), 0 up to date, 2160 variants"
    assert lines[2].startswith("critical path on 2 workers: about ")
    assert lines[-1] == "every job of every variant, and where it goes: --dry-run --list" and len(lines) == 6
    # what the 236 s went to: a digest of every job (fifty code files hashed each), the versions read
    # from the packages' metadata for every scene task
    assert digests == [] and hashed == [] and len(versions) <= len(manim_gate.WRITTEN_FOR)


def test_the_counts_are_the_lists_and_a_made_clip_is_counted(fixtures):
    """A small plan: the summary's numbers are what its --list lists (counted line by line), the same
    as a run's plan (with every digest); a clip its folder holds, up to date, is counted made."""
    plan = write_plan(fixtures, lessons=["default", "tiny.toml"], contexts=["river"], langs=["en", "zh"],
                      formats=["mp4", "webm"], products=["scenes", "html"], out="o")
    folder = fixtures / "o" / "default" / "river-scaled-en-480p15-mp4"
    folder.mkdir(parents=True)
    (folder / "blink.mp4").write_bytes(b"made")
    from attention_lesson.pipeline.plan import RenderOptions

    opts = RenderOptions(lesson=str(Path(load("default").source).resolve()), context="river", lang="en")
    manifest.record(folder, "blink", input_digest(load("default"), BLINK, opts), ["blink.mp4"])
    listed = run(str(plan), "--dry-run", "--list").output.splitlines()
    variants = [line for line in listed if line.startswith("o/")]
    clips = [line for line in listed if re.match(r"  (would render|up to date)", line)]
    made = [line for line in clips if re.match(r"  up to date +blink +-> blink.mp4", line)]
    decks = [line for line in listed if re.match(r"  (would build|up to date) +html ", line)]
    assert len(variants) == 4 and len(made) == 1, listed  # tiny has no context river: 1 lesson x 2 x 2
    counts = (f"{len(variants)} variants, 2 scenes: {len(clips)} clips ({len(made)} already made), "
              f"{len(decks)} products (0 already made)")
    assert counts in listed, (counts, listed)
    short = run(str(plan), "--dry-run").output
    assert counts in short and "would render" not in short, short
    from attention_lesson.outputs.registry import PRODUCTS
    from attention_lesson.pipeline import batch as B
    from scenes.registry import existing

    read = B.read_plan(plan, list(existing()), PRODUCTS)
    work = B.expand(read, PRODUCTS)  # as a run plans it: every digest computed
    assert [line for line in listed if " to do in " in line] == [B.graph.summary(work, "en")]
    same = {(u.job.key, u.job.digest, u.variant.lesson_file) for u in work.stale if u.job is not None}
    assert len(same) == len([t for t in work.tasks if t.scene is not None]) < len(clips) - 1  # shared


@pytest.fixture
def started(monkeypatch) -> list:
    """execute_batch stood in for: the batches that would have started."""
    calls = []
    monkeypatch.setattr(batch_cli, "execute_batch", lambda work, *a, **k: calls.append(work))
    return calls


def test_a_big_run_asks_first_and_without_a_terminal_refuses_unless_yes(fixtures, started, monkeypatch):
    plan = write_plan(fixtures, lessons=["default"], **AXES | {"formats": ["mp4"]}, out="o")  # 144 x 2
    big = write_plan(fixtures, "big.toml", lessons=["default"], **AXES | {"formats": ["mp4", "gif"]},
                     out="o")  # 288 variants x 2 clips
    r = run(str(big))
    assert r.exit_code == 2 and started == [], r.output
    assert r.output.strip().splitlines() == [
        "Error: 576 clips to render in 576 tasks, more than 500, and no terminal to ask in: add --yes to "
        "start them (--dry-run to see the plan)"]
    assert run(str(big), "--yes").exit_code == 0 and len(started) == 1
    assert run(str(plan)).exit_code == 0 and len(started) == 2  # 288 clips: nothing asked
    monkeypatch.setattr(report, "interactive", lambda: True)
    r = run(str(big), input="\n")  # the default: no
    assert r.exit_code == 1 and len(started) == 2, r.output
    assert "576 clips to render in 576 tasks (more than 500): start? [y/N]" in r.output, r.output
    assert not (fixtures / "o").exists()


def test_many_lessons_notes_are_counted_in_the_summary_and_listed_in_full(fixtures):
    """Eight lesson files each lacking their Japanese words: the summary says five notes and how many
    more; --list says every one."""
    tiny = (fixtures / "tiny.toml").read_text(encoding="utf-8")
    names = []
    for i in range(8):
        (fixtures / f"t{i}.toml").write_text(f"{tiny}\n# copy {i}\n", encoding="utf-8")
        names.append(f"t{i}.toml")
    plan = write_plan(fixtures, lessons=names, langs=["ja"], scenes=["blink"], out="o")
    summary, listed = (run(str(plan), "--dry-run", *more).output.splitlines() for more in ((), ("--list",)))
    notes = [line for line in summary if line.startswith("note: ")]
    assert len(notes) == 6 and notes[-1] == "note: 3 more notes (every one: --dry-run --list)", notes
    assert all("no ja words" in line for line in notes[:5])
    assert [line for line in listed if line.startswith("note: ")] == \
        [line for line in listed if "no ja words" in line] and sum("no ja words" in x for x in listed) == 8
