"""A large batch plan read: `batch PLAN --dry-run` of some 10,000 variants (the summary a teacher reads
first) and with `--list` (every job), each a CLI process of its own, best of `repeats`."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from . import BIN, ROOT

AXES = {"modes": ["scaled", "unscaled", "uniform"], "langs": ["zh", "en", "ja"], "themes": ["dark", "light"],
        "qualities": ["low", "medium"]}  # 36 variants a lesson file


def write_plan(work: Path, lessons: int) -> Path:
    """`lessons` copies of the 2-token test lesson (each one number apart) and a plan over AXES."""
    source = (ROOT / "tests" / "lessons" / "tiny.toml").read_text(encoding="utf-8")
    names = []
    for i in range(lessons):
        name = f"l{i:04d}.toml"
        (work / name).write_text(source.replace("[0.2, 1.0]]", f"[0.2, {1 + i / 10000:.4f}]]", 1),
                                 encoding="utf-8")
        names.append(name)
    plan = work / "plan.toml"
    lines = [f"lessons = {json.dumps(names)}", 'out = "o"',
             *(f"{k} = {json.dumps(v)}" for k, v in AXES.items())]
    plan.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return plan


def _best(cmd: list[str], work: Path, repeats: int) -> tuple[float, int]:
    """The best wall seconds of `repeats` runs, and the lines the run printed."""
    best, lines = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        out = subprocess.run(cmd, cwd=work, check=True, capture_output=True, text=True).stdout
        best, lines = min(best, time.perf_counter() - start), out.count("\n")
    return best, lines


def plan_benchmark(work: Path, lessons: int = 278, repeats: int = 2) -> dict:
    """The dry run of a plan of lessons × 36 variants (278: 10,008), summary and whole list."""
    plan = write_plan(work, lessons)
    cmd = [str(BIN / "attention-lesson"), "batch", str(plan), "--dry-run", "--lang", "en"]
    summary, summary_lines = _best(cmd, work, repeats)
    listed, listed_lines = _best([*cmd, "--list"], work, repeats)
    return {"variants": lessons * 36, "dry_run_summary_s": round(summary, 2), "summary_lines": summary_lines,
            "dry_run_list_s": round(listed, 2), "list_lines": listed_lines}
