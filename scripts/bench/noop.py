"""Re-runs with nothing to do, side by side: `lesson`, `slides` and `handout` of the default lesson in a
folder where they have run, by one checkout or more (A/B), interleaved run by run so that the load of
the machine falls on each alike. Each command's best wall time, its median CPU time (user + sys, which
depends less on the load) and how many modules it imports (`-X importtime`, which does not depend on
the load at all); and that nothing in the folder was rewritten."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

from .runs import used

NOOP_COMMANDS = {"lesson": ["lesson", "-q"], "slides": ["slides", "--to", "html", "-q"],
                 "handout": ["handout", "-q"]}


def _command(checkout: Path, args: list[str], *flags: str) -> tuple[list[str], dict]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    return [sys.executable, *flags, "-m", "attention_lesson", *args], env


def mtimes(work: Path) -> dict[str, int]:
    """Every file under the folder's media/ and its mtime (what a no-op must leave as it is)."""
    return {str(p): p.stat().st_mtime_ns for p in (work / "media").rglob("*") if p.is_file()}


def modules_imported(work: Path, checkout: Path, args: list[str]) -> int:
    """How many modules the command imports (the lines `-X importtime` writes)."""
    cmd, env = _command(checkout, args, "-X", "importtime")
    r = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, check=True)
    return sum(1 for line in r.stderr.splitlines() if line.startswith("import time:") and "|" in line
               and not line.rstrip().endswith("imported package"))


def first_runs(work: Path, checkouts: list[Path]) -> None:
    """Each command once by each checkout (the first makes what is missing; the others then find their
    digests in the manifest, or render what their code changes)."""
    for checkout in checkouts:
        for args in NOOP_COMMANDS.values():
            cmd, env = _command(checkout, args)
            subprocess.run(cmd, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)


def noop_benchmark(work: Path, checkouts: list[Path], repeats: int = 10) -> dict:
    """For each command and each checkout: the best of `repeats` wall times, the median CPU time, the
    modules imported; runs interleaved (A B, B A, ...)."""
    first_runs(work, checkouts)
    before = mtimes(work)
    result = {}
    for name, args in NOOP_COMMANDS.items():
        runs: dict[Path, list[tuple[float, float]]] = {c: [] for c in checkouts}
        for i in range(repeats):
            for checkout in checkouts if i % 2 == 0 else checkouts[::-1]:
                cmd, env = _command(checkout, args)
                runs[checkout].append(used(cmd, work, env))
        result[name] = {str(c): {"best_wall_s": round(min(w for w, _ in r), 3),
                                 "median_cpu_s": round(statistics.median(c for _, c in r), 3),
                                 "modules": modules_imported(work, c, args)}
                        for c, r in runs.items()}
    result["untouched"] = mtimes(work) == before
    return result
