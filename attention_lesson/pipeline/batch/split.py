"""Scenes in pieces on a cluster, and the plan's critical path (pure: no Dask, no manim).

With more worker threads than scene tasks, some workers would sit idle while others draw whole scenes.
`batch` then draws the longest scenes in pieces (pipeline/drawing/pieces.py: the first n - 1 pieces at
once, then the last, which joins them exactly as `render -j N` does). A scene of C seconds in n >= 3
pieces is a chain of two waits of C / n each (its first n - 1 pieces side by side, then the join):
2C / n; in two pieces it is still C (the join waits for the one before it), so a scene goes from whole
to three pieces at once. Each piece beyond the first occupies one more worker while the first ones run.

The seconds are the ones `render` orders its tasks by (drawing/runner.py `costs`: the last run's
timings where known, else the packaged estimates scaled to the timed scenes of the same options); a
product (a joined lesson, a deck) is not timed and counts as 0 s. The model leaves out what a piece
costs beyond its share (building the scene's mobjects again: 1.7 s for softmax at 720p, measured).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..drawing import pieces
from ..drawing.runner import costs as task_costs
from ..plan import VIDEO, step_count
from .graph import Batch, Task


def chain(cost: float, n: int) -> float:
    """The seconds from a scene's first piece starting to its join ending, with workers to spare."""
    return cost if n < 3 else 2 * cost / n


def _next(n: int) -> int:
    """The next useful number of pieces: two are no shorter than one."""
    return 3 if n == 1 else n + 1


def plan_pieces(cost: dict[str, float], limit: dict[str, int], workers: int) -> dict[str, int]:
    """How many pieces each scene task is drawn in on `workers` threads: one each, then, while there are
    threads to spare and the longest chain is longer than the work shared out evenly, one more piece
    for the scene on that chain (the longest scenes get the most), as far as its limit allows."""
    n = {k: 1 for k in cost}
    spare, even = workers - len(cost), sum(cost.values()) / max(1, workers)
    while spare > 0 and n:
        k = max(n, key=lambda k: (chain(cost[k], n[k]), k))
        if _next(n[k]) > limit.get(k, 1) or chain(cost[k], n[k]) <= even:
            break
        n[k] = _next(n[k])
        spare -= 1
    return n


def scene_tasks(batch: Batch) -> list[Task]:
    return [t for t in batch.tasks if t.scene is not None]


def limits(batch: Batch) -> dict[str, int]:
    """The most pieces each scene task may take: video jobs only, by pieces.most (never at 480p15)."""
    return {t.key: pieces.most(step_count(t.scene), t.scene.options.quality)
            if t.scene.options.kind == VIDEO else 1 for t in scene_tasks(batch)}


def seconds(batch: Batch, known: dict[str, float]) -> dict[str, float]:
    """Each scene task's expected seconds whole, estimated per options (a variant's jobs together, so
    that its timed scenes scale the estimates of the others)."""
    groups: dict = {}
    for t in scene_tasks(batch):
        groups.setdefault(t.scene.options, []).append(t)
    out = {}
    for ts in groups.values():
        by_task = task_costs([t.scene for t in ts], known)
        out.update({t.key: by_task[t.scene.task] for t in ts})
    return out


def timed(batch: Batch, known: dict[str, float]) -> int:
    """How many scene tasks have a timing of their own (the others are estimated)."""
    from .. import timings

    return sum(timings.key(t.scene) in known for t in scene_tasks(batch))


@dataclass
class Estimate:
    """The plan's wall time on `workers`: max(total work / workers, the longest chain)."""

    workers: int
    work: float
    longest: float
    critical: Task | None
    cost: float  # the critical scene's seconds whole
    pieces: int  # and its pieces

    @property
    def wall(self) -> float:
        return max(self.work / max(1, self.workers), self.longest)


def estimate(batch: Batch, known: dict[str, float], workers: int) -> tuple[Estimate, dict[str, int]]:
    """The estimate on `workers` threads, and the pieces each scene task would be drawn in."""
    cost = seconds(batch, known)
    n = plan_pieces(cost, limits(batch), workers)
    by_key = {t.key: t for t in scene_tasks(batch)}
    top = max(cost, key=lambda k: (chain(cost[k], n[k]), k), default=None)
    longest = chain(cost[top], n[top]) if top else 0.0
    return Estimate(workers, sum(cost.values()), longest, by_key.get(top), cost.get(top, 0.0),
                    n.get(top, 1)), n


def _where(t: Task) -> str:
    return f"{t.what} ({t.units[0].variant.name})"


def describe_path(batch: Batch, known: dict[str, float], workers: int, assumed: str = "") -> list[str]:
    """The dry run's critical path: the estimated wall time, its two bounds, the scene that sets it,
    and how many scenes would be split and whose timings are known."""
    est, n = estimate(batch, known, workers)
    if est.critical is None:
        return ["critical path: no scene to draw (products are not timed)"]
    on = f"{workers} worker{'s' if workers != 1 else ''}" + (f" ({assumed})" if assumed else "")
    split = {k: v for k, v in n.items() if v > 1}
    how = (f"in {est.pieces} pieces: {est.pieces - 1} at once, then the join"
           if est.pieces > 1 else "whole")
    return [f"critical path on {on}: about {est.wall:.1f} s = max(work {est.work:.1f} s / {workers}"
            f" = {est.work / workers:.1f} s, longest chain {est.longest:.1f} s)",
            f"  longest chain: {_where(est.critical)}, {est.cost:.1f} s {how}",
            f"  {len(split)} of {len(n)} scene tasks in pieces; timings: {timed(batch, known)} known, "
            f"{len(n) - timed(batch, known)} estimated; products not timed (0 s)"]
