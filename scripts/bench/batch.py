"""`batch` on a LocalCluster against `render` of each variant one after the other, and from the
measured per-scene times the wall time of a large plan on 1 to 64 workers."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import time
from pathlib import Path

from attention_core.lesson import resolve
from scenes.registry import available

from . import BIN
from .runs import timed

BATCH_VARIANTS = {"contexts": ["river", "savings"], "modes": ["scaled", "unscaled"], "langs": ["zh", "en"]}
PROJECTED_JOBS = 200
PROJECTED_WORKERS = (1, 2, 4, 8, 16, 32, 64)


def makespan(times: list[float], workers: int, gap: float) -> float:
    """Jobs started in order, each on the first worker free (as Dask hands out tasks submitted in
    order), each followed by Dask's idle gap: when the last one ends."""
    free = [0.0] * workers
    for t in times:
        k = min(range(workers), key=free.__getitem__)
        free[k] += t + gap
    return max(free)


def _render_each(work: Path, lesson: Path, ids: list[str], combos: list[tuple], quality: str,
                 jobs: int) -> float:
    """`render` of every variant one after the other (the CLI in a process each): seconds in all."""
    t_render = 0.0
    for k, (c, m, lang) in enumerate(combos):
        t_render += timed([str(BIN / "attention-lesson"), "render", *ids, "--lesson", str(lesson),
                           "--context", c, "--mode", m, "--lang", lang, "--quality", quality,
                           "--out", str(work / "render" / str(k)), "-j", str(jobs), "-q"], cwd=work)
    return t_render


def _write_plan(work: Path, lesson: Path, ids: list[str], quality: str, variants: dict) -> Path:
    plan = work / "plan.toml"
    plan.write_text("\n".join([f'lessons = ["{lesson}"]', f'qualities = ["{quality}"]',
                               f"scenes = {json.dumps(ids)}", 'out = "batch"',
                               *(f"{k} = {json.dumps(v)}" for k, v in variants.items())]) + "\n",
                    encoding="utf-8")
    return plan


def _run_batch(work: Path, plan: Path, jobs: int):
    """The plan run in this process through the functions the CLI calls, from `work`: its tasks, its
    report, the cluster's start-up seconds and the batch's."""
    from attention_lesson.outputs.registry import PRODUCTS
    from attention_lesson.pipeline import batch as B
    from attention_lesson.pipeline.batch.client import connect

    here = Path.cwd()
    os.chdir(work)
    try:
        start = time.perf_counter()
        jobs_plan = B.read_plan(plan, list(available()), PRODUCTS)
        todo = B.expand(jobs_plan, PRODUCTS)
        with connect(None, jobs, quiet=True) as (client, _):
            up = time.perf_counter() - start
            report = B.run(todo, client, quiet=True, cache=B.local_cache())
        t_batch = time.perf_counter() - start
    finally:
        os.chdir(here)
    return todo, report, up, t_batch


def _mean_per_scene(todo, report) -> dict[str, float]:
    """Each scene's mean task seconds in the batch."""
    by_key = {t.key: t for t in todo.tasks}
    per_scene: dict[str, list[float]] = {}
    for t in report.timings:
        per_scene.setdefault(by_key[t.key].scene.id, []).append(t.end - t.start)
    return {i: sum(v) / len(v) for i, v in per_scene.items()}


def batch_benchmark(work: Path, quality: str, jobs: int, variants: dict = BATCH_VARIANTS,
                    scenes: list[str] | None = None) -> dict:
    """`batch` (in this process, through the functions the CLI calls) against `render --all` of each
    variant one after the other (the CLI in a process each), both from fresh output and cache folders."""
    lesson = work / "lesson.toml"
    shutil.copy(resolve("default"), lesson)
    ids = scenes or [s.id for s in available()]
    combos = [(c, m, lang) for c in variants["contexts"] for m in variants["modes"]
              for lang in variants["langs"]]
    shutil.rmtree(work / "media", ignore_errors=True)
    t_render = _render_each(work, lesson, ids, combos, quality, jobs)
    plan = _write_plan(work, lesson, ids, quality, variants)
    shutil.rmtree(work / "media", ignore_errors=True)  # the workers' caches: fresh too
    todo, report, up, t_batch = _run_batch(work, plan, jobs)
    t_cli = timed([str(BIN / "attention-lesson"), "--version"], cwd=work)  # what a CLI run adds
    assert not report.failures, report.failures
    mean = _mean_per_scene(todo, report)
    gap, busy = report.overhead()
    times = [mean[ids[n % len(ids)]] for n in range(PROJECTED_JOBS)]
    projected = {w: round(makespan(times, w, gap) + up, 1) for w in PROJECTED_WORKERS}
    return {
        "variants": len(combos), "scene_renders": len(report.done), "workers": jobs,
        "render_one_after_another_s": round(t_render, 1), "batch_s": round(t_batch + t_cli, 1),
        "batch_ratio": round((t_batch + t_cli) / t_render, 3), "cluster_start_s": round(up, 1),
        "dask_gap_per_task_ms": round(1000 * gap, 1),
        "dask_gap_median_ms": round(1000 * statistics.median(report.gaps() or [0.0]), 1),
        "mean_task_s": round(busy, 2),
        "overhead_share_of_task": round(gap / busy, 4) if busy else None,
        "per_scene_s": {i: round(mean[i], 1) for i in ids if i in mean},
        f"projected_{PROJECTED_JOBS}_jobs_s_by_workers": projected,
    }
