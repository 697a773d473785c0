"""How long each scene took to render last time, kept to order the next run (the longest first).

A run's wall time on N workers is bounded by its tail: the scene that starts last. Ordered by steps
(all a cold run knows), the default lesson at 480p15 on two cores started its 7.9 s `cost` scene last
and left one core idle for 5 s of 39. After one run the times are known: every later run, the usual
one after an edit of the lesson, starts the longest scenes first. One small JSON file beside the
workers' caches (media/.cache/timings.json), written atomically by the process that runs the workers;
a time is a hint, never part of any output.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import manifest
from .plan import Job, Result

FILE = "timings.json"


def key(job: Job) -> str:
    o = job.options
    return f"{job.id}/{o.kind}/{o.quality}{o.frame_rate}/{o.format}{'/voice' if o.voice else ''}"


def load(cache_root: Path) -> dict[str, float]:
    try:
        data = json.loads((cache_root / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return ({k: float(v) for k, v in data.items() if isinstance(v, (int, float))}
            if isinstance(data, dict) else {})


def save(cache_root: Path, jobs: list[Job], results: list[Result]) -> None:
    """Keep the seconds of every job that rendered whole and succeeded (a job in pieces is not timed:
    its last piece's seconds are not the scene's)."""
    times = load(cache_root)
    by_id = {j.id: j for j in jobs}
    fresh = {key(by_id[r.id]): round(r.seconds, 2)
             for r in results if r.ok and r.id in by_id and r.seconds > 0}
    if fresh:
        manifest.write_atomically(cache_root / FILE, json.dumps({**times, **fresh}, indent=1, sort_keys=True))
