"""Running the CLI and plain manim, timed: the building blocks of every benchmark; and the two made of
them alone: the CLI against plain manim (cold, a re-run, an edit), the lesson silent against voiced."""

from __future__ import annotations

import resource
import shutil
import subprocess
import time
from pathlib import Path

from attention_core.lesson import resolve
from scenes.registry import available

from . import BIN

MANIM_Q = {"low": "-ql", "medium": "-qm", "high": "-qh"}
SAVINGS_LINE = "savings = [0.0, 1.0, 0.0, 0.0]"


def timed(cmd, cwd, env=None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def naive(work: Path, quality: str, only: list[str] | None = None) -> float:
    """Plain manim, each scene (or each of `only`) after the other, a fresh media folder, manim's
    defaults."""
    media = work / "naive-media"
    shutil.rmtree(media, ignore_errors=True)
    total = 0.0
    for s in (s for s in available() if only is None or s.id in only):
        total += timed([str(BIN / "manim"), "render", MANIM_Q[quality], "--media_dir", str(media),
                        "-v", "WARNING", str(s.file), s.cls], cwd=work)
    return total


def cli(work: Path, quality: str, lesson: Path, jobs: int) -> tuple[float, str]:
    cmd = [str(BIN / "attention-lesson"), "render", "--all", "--quality", quality, "--lesson",
           str(lesson), "--out", str(work / f"out-{quality}"), "-j", str(jobs), "-q"]
    start = time.perf_counter()
    r = subprocess.run(cmd, cwd=work, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, r.stdout


def lesson_time(work: Path, quality: str, jobs: int, *extra: str) -> float:
    """The whole lesson joined, from nothing (fresh output folder and worker caches)."""
    shutil.rmtree(work / "media", ignore_errors=True)
    out = work / f"lesson-{quality}{'-'.join(('', *extra)).replace('/', '_')}"
    shutil.rmtree(out, ignore_errors=True)
    return timed([str(BIN / "attention-lesson"), "lesson", "--quality", quality, "--out", str(out),
                  "-j", str(jobs), "-q", *extra], cwd=work)



def used(cmd, cwd, env=None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(cmd, cwd, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def render_all(work: Path, quality: str, jobs: int, scenes: list[str], *extra: str, env=None,
               fresh: bool = True) -> dict:
    """`render` of the scenes (fresh: from nothing, fresh output folder and worker caches): seconds,
    CPU seconds and the utilisation of `jobs` cores."""
    if fresh:
        shutil.rmtree(work / "media", ignore_errors=True)
        shutil.rmtree(work / "pub-out", ignore_errors=True)
    wall, cpu = used([str(BIN / "attention-lesson"), "render", *(scenes or ["--all"]), "--quality", quality,
                      "--out", str(work / "pub-out"), "-j", str(jobs), "-q", *extra], work, env)
    return {"s": round(wall, 1), "cpu_s": round(cpu, 1), "utilisation": round(cpu / (jobs * wall), 3)}


def naive_benchmark(work: Path, quality: str, jobs: int) -> dict:
    """A cold `render --all` against plain manim, a re-run with nothing changed, and a re-run after an
    edit of a number only the savings context uses."""
    lesson = work / "lesson.toml"
    shutil.copy(resolve("default"), lesson)
    shutil.rmtree(work / "media", ignore_errors=True)  # the CLI's worker caches
    t_naive = naive(work, quality)
    t_cold, _ = cli(work, quality, lesson, jobs)
    t_noop, _ = cli(work, quality, lesson, jobs)
    text = lesson.read_text(encoding="utf-8")
    assert SAVINGS_LINE in text
    lesson.write_text(text.replace(SAVINGS_LINE, "savings = [0.0, 1.1, 0.0, 0.0]"),
                      encoding="utf-8")
    t_edit, out = cli(work, quality, lesson, jobs)
    rendered = [line for line in out.splitlines() if line.endswith(".mp4")]
    return {
        "scenes": len(available()), "naive_s": round(t_naive, 1), "cold_s": round(t_cold, 1),
        "cold_ratio": round(t_cold / t_naive, 2), "noop_s": round(t_noop, 2),
        "noop_ratio_to_cold": round(t_noop / t_cold, 3), "savings_edit_s": round(t_edit, 1),
        "savings_edit_rerendered": sorted(Path(p).stem for p in rendered),
    }


def voice_benchmark(work: Path, quality: str, jobs: int) -> dict:
    """The whole lesson silent against narrated by the draft voice, each from nothing."""
    silent = lesson_time(work, quality, jobs)
    voiced = lesson_time(work, quality, jobs, "--voice", "draft")
    return {"lesson_silent_s": round(silent, 1), "lesson_draft_voice_s": round(voiced, 1),
            "voice_ratio": round(voiced / silent, 2)}
