"""Scenes in pieces: a scene's steps split into ranges that different workers draw at once, then joined
by one more job that draws nothing (planned here, without manim; drawn by pipeline/worker.py).

With fewer scenes than the workers can keep busy (one scene, four scenes on two cores, the last long
scene of a run), a worker would sit idle while one draws alone. A piece draws the steps [first, stop)
of its scene: the animations before them jump to their end without drawing (manim's
`from_animation_number`, set when the piece's first step begins) and the scene ends at its last step
(`upto_animation_number`), leaving one movie segment per animation, named by its number, in the scene's
pieces folder. The join runs the scene through with every animation skipped, takes each one's segment
from that folder and lets manim join them as it joins its own: the movie, the step clips (sections)
and the subtitles, with the sound laid from the same steps. Skipped animations move the scene's clock
by exactly the frames they would have drawn (pipeline/skips.py), so every step starts at the frame it
starts at in a whole render. The segments are the ones a whole render writes, so the join is exact.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from .plan import VIDEO, Job, beat_count

PIECES_PER_WORKER = 3  # enough pieces that the last ones are short: the workers finish close together
ENV = "ATTENTION_LESSON_PIECES"  # at most this many pieces a scene (1: never split; for measuring)


@dataclass(frozen=True)
class Part:
    """What of its scene a job draws: steps [first, stop) into `folder` (a piece), or, with steps None,
    nothing: it joins the segments in `folder` into the scene's files (the join)."""

    folder: Path
    steps: tuple[int, int | None] | None = None

    @property
    def is_join(self) -> bool:
        return self.steps is None


def count(n_jobs: int, workers: int, beats: int, quality: str = "high") -> int:
    """How many pieces a scene is drawn in: one unless the run has fewer scenes than PIECES_PER_WORKER
    per worker, at a quality where drawing outweighs a piece's cost (at 480p15 one scene took 5.4 s
    in six pieces on two cores, 3.2 s whole: each piece runs the scene's Python up to its steps);
    never more than its steps."""
    if workers < 2 or n_jobs >= PIECES_PER_WORKER * workers or quality == "low":
        return 1
    most = int(os.environ.get(ENV) or beats)
    return max(1, min(beats, most, math.ceil(PIECES_PER_WORKER * workers / n_jobs)))


def ranges(beats: int, n: int) -> list[tuple[int, int | None]]:
    """The steps 0..beats-1 in n consecutive ranges of nearly equal length, the last open-ended (a
    scene may start more steps than its source names: the last piece draws whatever follows)."""
    bounds = sorted({round(i * beats / n) for i in range(n)})
    return [(a, b) for a, b in zip(bounds, bounds[1:])] + [(bounds[-1], None)]


def split(job: Job, n: int, folder: Path) -> tuple[list[Job], Job]:
    """A video job as n pieces and the join that depends on them."""
    if job.options.kind != VIDEO or n < 2:
        raise ValueError("only a video job is drawn in pieces")
    pieces = [replace(job, part=Part(folder, r)) for r in ranges(beat_count(job), n)]
    return pieces, replace(job, part=Part(folder))




def steps_drawn(job: Job) -> int:
    """How many steps a task draws (a whole job: all; a piece: its range; a join: none)."""
    if job.part is None:
        return beat_count(job)
    if job.part.is_join:
        return 0
    first, stop = job.part.steps
    return (stop if stop is not None else max(beat_count(job), first + 1)) - first
