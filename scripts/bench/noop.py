"""Re-runs with nothing to do, side by side: `lesson`, `slides` and `handout` of the default lesson, by
one checkout or more (A/B), each in a folder of its own under DIR where they have run once, interleaved
run by run so that the load of the machine falls on each alike. Each command's best wall time, its
median CPU time (user + sys, which depends less on the load) and how many modules it imports
(`-X importtime`, which does not depend on the load at all); and that nothing was rewritten."""

from __future__ import annotations

import os
import shutil
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


def folders(work: Path, checkouts: list[Path]) -> dict[Path, Path]:
    """A folder of its own for each checkout (DIR/<n>-<name>: digests differ once code they list
    differs, and two checkouts in one folder would re-render each other's), each command run there
    once: the first folder made renders everything, the next start as its copy and render only what
    their code changes."""
    places = {c: work / f"{n}-{c.name}" for n, c in enumerate(checkouts)}
    for checkout, folder in places.items():
        done = [f for f in places.values() if (f / "media").is_dir()]
        if not (folder / "media").is_dir() and done:
            shutil.copytree(done[0] / "media", folder / "media", symlinks=True)
        folder.mkdir(parents=True, exist_ok=True)
        for args in NOOP_COMMANDS.values():
            cmd, env = _command(checkout, args)
            subprocess.run(cmd, cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)
    return places


def noop_benchmark(work: Path, checkouts: list[Path], repeats: int = 10) -> dict:
    """For each command and each checkout: the best of `repeats` wall times, the median CPU time, the
    modules imported; runs interleaved (A B, B A, ...)."""
    places = folders(work, checkouts)
    before = {c: mtimes(f) for c, f in places.items()}
    result = {}
    for name, args in NOOP_COMMANDS.items():
        runs: dict[Path, list[tuple[float, float]]] = {c: [] for c in checkouts}
        for i in range(repeats):
            for checkout in checkouts if i % 2 == 0 else checkouts[::-1]:
                cmd, env = _command(checkout, args)
                runs[checkout].append(used(cmd, places[checkout], env))
        result[name] = {str(c): {"best_wall_s": round(min(w for w, _ in r), 3),
                                 "median_cpu_s": round(statistics.median(c for _, c in r), 3),
                                 "modules": modules_imported(places[c], c, args)}
                        for c, r in runs.items()}
    result["untouched"] = {str(c): mtimes(f) == before[c] for c, f in places.items()}
    return result
