#!/usr/bin/env python3
"""Time the CLI's rendering against the naive way, on this machine, in one run.

    .venv/bin/python scripts/benchmark.py [--quality low medium] [--jobs N]

1. cold render of every scene: `attention-lesson render --all` (fresh output and cache folders)
   against plain `manim render` of each scene one after the other (fresh media folder);
2. a re-run with nothing changed;
3. a re-run after editing one number that only the savings context uses;
4. with --voice: the whole lesson (`attention-lesson lesson`) silent against narrated by the draft
   voice (`--voice draft`), each from fresh output and cache folders.
Prints each figure and its ratio to the naive way. Not a test: the numbers go in the README.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))

from attention_core.lesson import resolve  # noqa: E402
from scenes.registry import available  # noqa: E402

MANIM_Q = {"low": "-ql", "medium": "-qm", "high": "-qh"}
SAVINGS_LINE = "savings = [0.0, 1.0, 0.0, 0.0]"


def timed(cmd, cwd, env=None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def naive(work: Path, quality: str) -> float:
    """Plain manim, each scene after the other, a fresh media folder, manim's defaults."""
    media = work / "naive-media"
    shutil.rmtree(media, ignore_errors=True)
    total = 0.0
    for s in available():
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quality", nargs="+", default=["low", "medium"], choices=list(MANIM_Q))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--voice", action="store_true",
                    help="Only time the whole lesson silent against narrated by the draft voice.")
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
        work = Path(tmp)
        if args.voice:
            for q in args.quality:
                silent = lesson_time(work, q, args.jobs)
                voiced = lesson_time(work, q, args.jobs, "--voice", "draft")
                results[q] = {"lesson_silent_s": round(silent, 1), "lesson_draft_voice_s": round(voiced, 1),
                              "voice_ratio": round(voiced / silent, 2)}
                print(f"{q}: " + json.dumps(results[q]), flush=True)
            print(json.dumps(results, indent=2))
            return
        lesson = work / "lesson.toml"
        for q in args.quality:
            shutil.copy(resolve("default"), lesson)
            shutil.rmtree(work / "media", ignore_errors=True)  # the CLI's worker caches
            t_naive = naive(work, q)
            t_cold, _ = cli(work, q, lesson, args.jobs)
            t_noop, _ = cli(work, q, lesson, args.jobs)
            text = lesson.read_text(encoding="utf-8")
            assert SAVINGS_LINE in text
            lesson.write_text(text.replace(SAVINGS_LINE, "savings = [0.0, 1.1, 0.0, 0.0]"),
                              encoding="utf-8")
            t_edit, out = cli(work, q, lesson, args.jobs)
            rendered = [line for line in out.splitlines() if line.endswith(".mp4")]
            results[q] = {
                "scenes": len(available()), "naive_s": round(t_naive, 1), "cold_s": round(t_cold, 1),
                "cold_ratio": round(t_cold / t_naive, 2), "noop_s": round(t_noop, 2),
                "noop_ratio_to_cold": round(t_noop / t_cold, 3), "savings_edit_s": round(t_edit, 1),
                "savings_edit_rerendered": sorted(Path(p).stem for p in rendered),
            }
            print(f"{q}: " + json.dumps(results[q], ensure_ascii=False), flush=True)
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
