"""Scenes in pieces: a scene's steps split into ranges that different workers draw at once, the last
of which joins them (planned here, without manim; drawn by drawing/worker.py and
drawing/manim_speedups/skipped_animations.py).

With fewer scenes than workers (one scene on two cores, a few on many), a worker would sit idle while
another draws a whole scene alone. A piece draws the steps [first, stop)
of its scene: the animations before them jump to their end without drawing (manim's
`from_animation_number`, set when the piece's first step begins) and the scene ends at its last step
(`upto_animation_number`), leaving one movie segment per animation, named by its number, in the scene's
pieces folder. The last piece starts once the others are done: it skips to its first step taking each
skipped animation's segment from that folder, draws the rest, and lets manim join them as it joins its
own: the movie, the step clips (sections) and the subtitles, with the sound laid from the same steps.
Skipped animations move the scene's clock by exactly the frames they would have drawn
(manim_speedups/skipped_animations.py), so every step starts at the frame it starts at in a whole
render. The segments are the ones a whole render writes, so the join is exact.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

from ..plan import VIDEO, Job, Piece, step_count
from . import manim_speedups

ENV = "ATTENTION_LESSON_PIECES"  # at most this many pieces a scene (1: never split; for measuring)


def count(n_jobs: int, workers: int, steps: int, quality: str = "high") -> int:
    """How many pieces a scene is drawn in: one, unless the run has fewer scenes than workers (some
    worker would have none); then enough that every worker draws one and the last, which waits for
    them, is one more. Never more than the scene's steps, and never at 480p15.

    Why so few: a piece builds its scene's mobjects again and runs its Python up to its first step, so
    pieces pay only when a core would otherwise wait, and never at 480p15, where a scene draws in less
    time than its pieces cost (the figures: docs/performance.md, "The figures behind the code")."""
    if workers < 2 or n_jobs >= workers:
        return 1
    return max(1, min(most(steps, quality), math.ceil((workers + 1) / n_jobs)))


def most(steps: int, quality: str = "high") -> int:
    """The most pieces a scene of `steps` steps may be drawn in, whatever the workers: one at 480p15 (a
    piece costs more than it draws there) or on plain manim (a piece's clock and joins are speed-ups'
    work: manim_speedups.wanted), else its steps, at most ENV's. `batch` splits by the same rule
    (pipeline/batch/graph.py)."""
    if quality == "low" or not manim_speedups.wanted():
        return 1
    return max(1, min(steps, int(os.environ.get(ENV) or steps)))


def ranges(steps: int, n: int) -> list[tuple[int, int | None]]:
    """The steps 0..steps-1 in n consecutive ranges of nearly equal length, the last open-ended (a
    scene may start more steps than its source names: the last piece draws whatever follows)."""
    bounds = sorted({round(i * steps / n) for i in range(n)})
    return [(a, b) for a, b in zip(bounds, bounds[1:])] + [(bounds[-1], None)]


def split(job: Job, n: int, folder: Path) -> tuple[list[Job], Job]:
    """A video job as n pieces: the first n - 1, and the last, which joins them (and so waits)."""
    if job.options.kind != VIDEO or n < 2:
        raise ValueError("only a video job is drawn in pieces")
    pieces = [replace(job, piece=Piece(folder, r)) for r in ranges(step_count(job), n)]
    return pieces[:-1], pieces[-1]


def steps_drawn(job: Job) -> int:
    """How many steps a task draws (a whole job: all; a piece: its range)."""
    if job.piece is None:
        return step_count(job)
    first, stop = job.piece.steps
    return (stop if stop is not None else max(step_count(job), first + 1)) - first
