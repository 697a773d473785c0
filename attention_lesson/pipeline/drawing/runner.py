"""Run render jobs in worker processes, reporting progress and updating manifests.

manim is imported only in the workers, never in the process that plans (a run with nothing to do, a
dry run, the CLI's light commands never load it). Each worker process claims its own manim media
folder (`manifest.media_folder`: manim's formula and text caches are not shared), kept between runs so
a formula or a label is typeset once.

Ctrl-C is the parent's: the workers are forked with it blocked and then ignore it (a KeyboardInterrupt
in a worker printed its traceback, and stopped it halfway through writing a file), and the parent stops
them. A stopped worker (Ctrl-C, a killed worker) can leave a job's private .tmp-<scene>-<pid>-* folder
behind, or a .<name>.<pid> file it was writing in the cache (a label, a formula): `sweep` removes every
such folder and file whose process is gone, when a run starts and when it ends, however it ends.
"""

from __future__ import annotations

import heapq
import json
import multiprocessing as mp
import os
import queue
import re
import shutil
import signal
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .. import manifest, timings
from ..plan import VIDEO, Job, Result, step_count
from . import pieces

_TMP_NAME = re.compile(rf"^{re.escape(manifest.TMP_PREFIX)}.+-(\d+)-[^-]+$")
_PART_NAME = re.compile(r"^\..+\.(\d+)$")  # a file a process is writing: .<name>.<pid> (stored.py, labels.py)

_cache_root: Path | None = None  # in a worker: where it claims its media folder
_events = None
_quiet = False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep(out_dir: Path) -> list[Path]:
    """Remove the private folders of jobs whose process is no longer running; the folders removed."""
    gone = []
    if not out_dir.is_dir():
        return gone
    for p in out_dir.iterdir():
        m = _TMP_NAME.match(p.name)
        if m and p.is_dir() and not _alive(int(m.group(1))):
            _remove(p)
            gone.append(p)
    return gone


def sweep_parts(cache_root: Path) -> list[Path]:
    """Remove the half-written .<name>.<pid> files in the workers' cache (and in the label folder
    manifest.LABELS_ENV names) whose process is no longer running: a worker stopped while it wrote a
    label or a formula. The files removed."""
    gone = []
    for folder in {Path(cache_root), *manifest.shared_labels()}:
        for root, _, names in os.walk(folder):
            for name in names:
                m = _PART_NAME.match(name)
                if m and not _alive(int(m.group(1))):
                    (path := Path(root, name)).unlink(missing_ok=True)
                    gone.append(path)
    return gone


def _remove(folder: Path, tries: int = 20) -> None:
    """rmtree, again while the folder is still there: a stopped worker's tool (an ffmpeg it started)
    can add a file while the folder is being removed."""
    for _ in range(tries):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(0.05)


def blocking_ctrl_c(start):
    """start() with Ctrl-C blocked in this thread, so the processes it starts never receive it, from their
    first instruction (a blocked signal stays blocked across fork, and spawn's exec; an initializer alone
    left the interpreter's start-up and imports open to a Ctrl-C, and a traceback). Blocked, not ignored:
    a Ctrl-C that comes meanwhile reaches this process as soon as the workers are started."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def record(job: Job, result: Result) -> None:
    """Update the job's manifest entry (in the parent only): never claim a file that is not there."""
    manifest.record(job.out_dir, job.key, job.digest, result.files if result.ok else None)


def _init_worker(cache_root: str, events, quiet: bool) -> None:
    global _cache_root, _events, _quiet
    _cache_root, _events, _quiet = Path(cache_root), events, quiet


def _init_loaded(cache_root: str, events, quiet: bool) -> None:
    """A run's worker: Ctrl-C ignored (the parent stops the workers, then sweeps what they leave), then
    unblocked, so that the tools it runs (ffmpeg) stop at a Ctrl-C as they would in the terminal; manim
    imported as it starts (0.9 s), not at its first job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _init_worker(cache_root, events, quiet)
    from . import worker  # noqa: F401


class Workers:
    """A run's worker processes and the queue their step events come back on. Forked with no other
    thread running in this process: a child inherits every lock as it was at fork time, including those
    another thread held (a queue's feeder, a progress bar's refresh), so no queue is written to before
    the fork, and the thread that relays progress starts after it. `build` forks them before it plans a
    cold run (nothing rendered in its folder yet), so that they import manim while the command plans.
    Forked with Ctrl-C blocked (so are the pool's threads, which fork a worker again if one ends)."""

    def __init__(self, n: int, cache_root: Path, quiet: bool):
        ctx = mp.get_context("fork")
        self.events = ctx.Queue()
        self.pool = blocking_ctrl_c(lambda: ctx.Pool(n, initializer=_init_loaded,
                                                     initargs=(str(cache_root), self.events, quiet)))

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


def _run_in_worker(job: Job) -> Result:
    from .worker import render

    return render(job, manifest.media_folder(_cache_root), quiet=_quiet,
                  on_step=lambda sid, step: _events.put((sid, step)))


def run(jobs: list[Job], workers: int, cache_root: Path,
        on_step: Callable[[str, str], None] = lambda sid, step: None,
        on_done: Callable[[Result], None] = lambda r: None, quiet: bool = False,
        started: Workers | None = None) -> list[Result]:
    """Render every job (in `started`, the workers forked already, if given; this closes them); a failing
    job is reported in its Result and the others still finish."""
    folders = sorted({j.out_dir for j in jobs})
    for d in folders:
        sweep(d)
    sweep_parts(cache_root)
    try:
        for d in folders:  # a re-render first forgets the old entry: files are about to be replaced
            manifest.forget(d, [j.key for j in jobs if j.out_dir == d])
        return _run(jobs, workers, cache_root, on_step, on_done, quiet, started)
    finally:  # also on Ctrl-C: the workers are gone by now, and so are their folders and files
        for d in folders:
            sweep(d)
        sweep_parts(cache_root)


def _pump(events, on_step, stop: threading.Event) -> None:
    """Relay the workers' step events to on_step until a None comes (the run is over) or, after an error,
    until stopped (a worker killed while writing to the queue may hold its lock: nothing more is put)."""
    while not stop.is_set():
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        except (EOFError, OSError):
            return
        if event is None:
            return
        on_step(*event)


def plan_tasks(jobs: list[Job], workers: int, known: dict[str, float] | None = None
               ) -> tuple[list[Job], dict[str, tuple[Job, set[str]]]]:
    """The run's tasks, the longest first (by the last run's seconds where known, else by steps): each
    job, or its pieces (pipeline/drawing/pieces.py), the last of which waits for the others (last piece's task
    -> (it, the other pieces' tasks))."""
    tasks, joins = [], {}
    for job in jobs:
        video = job.options.kind == VIDEO
        n = pieces.count(len(jobs), workers, step_count(job), job.options.quality) if video else 1
        if n < 2:
            tasks.append(job)
            continue
        parts, join = pieces.split(job, n, manifest.private_folder(job.out_dir, f"{job.id}-pieces"))
        tasks += parts
        joins[join.task] = (join, {p.task for p in parts})
    cost = costs(tasks, known or {})
    return [tasks[i] for i in balanced([cost[t.task] for t in tasks], workers)], joins


def balanced(cost: list[float], workers: int) -> list[int]:
    """The order (indices into cost) that ends the run soonest by the tasks' expected seconds, each going
    to the first worker free: the longest first, then every swap of two that ends it sooner, the last
    tasks' first, so that the longest stay early where they can. The longest first alone can leave one
    core the last seconds to itself: the lesson's 13 scenes at 480p15, by their measured seconds, end
    2.5 s apart in that order and 0.01 s apart after the swaps."""
    order = sorted(range(len(cost)), key=lambda i: -cost[i])
    best = finish(cost, order, workers)
    for _ in range(len(order)):  # each pass ends sooner, or stops
        trials = ((a, b) for a in reversed(range(len(order))) for b in range(a + 1, len(order)))
        swap = next(((a, b) for a, b in trials if finish(cost, swapped(order, a, b), workers) < best - 1e-9),
                    None)
        if swap is None:
            break
        order = swapped(order, *swap)
        best = finish(cost, order, workers)
    return order


def swapped(order: list[int], a: int, b: int) -> list[int]:
    out = list(order)
    out[a], out[b] = out[b], out[a]
    return out


def finish(cost: list[float], order: list[int], workers: int) -> float:
    """When the last of `workers` ends, each taking the next task in `order` as it becomes free."""
    free = [0.0] * max(1, workers)
    for i in order:
        heapq.heapreplace(free, free[0] + cost[i])
    return max(free)


_MEASURED = json.loads((Path(__file__).with_name("estimates.json")).read_text(encoding="utf-8"))
ESTIMATES: dict[str, float] = _MEASURED["seconds"]  # silent
VOICED: dict[str, float] = _MEASURED["voiced"]  # with a voice: the speech's length sets the order


def estimate(task: Job) -> float | None:
    """A scene's packaged estimate (only the ratios hold): voiced or silent, as the task is."""
    return (VOICED if task.options.voice else ESTIMATES).get(task.id)


def costs(tasks: list[Job], known: dict[str, float]) -> dict[str, float]:
    """Each task's expected seconds: its scene's last time a step times the steps it draws. A scene
    never timed: its share of the packaged estimates (estimates.json, measured once), scaled to the
    timed ones where there are any; a scene in neither gets the median of the others' (1 s a step)."""
    per_step = {t.task: known[timings.key(t)] / step_count(t) for t in tasks if timings.key(t) in known}
    guess = {t.task: e / step_count(t) for t in tasks if (e := estimate(t)) is not None}
    ratios = [per_step[k] / guess[k] for k in per_step if k in guess]
    scale = statistics.median(ratios) if ratios else 1.0
    per_step = {**{k: v * scale for k, v in guess.items()}, **per_step}
    default = statistics.median(per_step.values()) if per_step else 1.0
    return {t.task: pieces.steps_drawn(t) * per_step.get(t.task, default) for t in tasks}


def _run(jobs, workers, cache_root, on_step, on_done, quiet, started=None) -> list[Result]:
    tasks, joins = plan_tasks(jobs, workers, timings.load(cache_root))
    crew = started or Workers(max(1, min(workers, len(tasks))), cache_root, quiet)
    stop, finished = threading.Event(), queue.SimpleQueue()
    pump = threading.Thread(target=_pump, args=(crew.events, on_step, stop), daemon=True)
    try:
        pump.start()
        for t in tasks:
            _submit(crew.pool, t, finished)
        results = _collect(crew.pool, finished, jobs, joins, on_done)
        crew.events.put(None)  # every job is done: no worker is writing to the queue
        pump.join()
        split = {j.id for j, _ in joins.values()}
        timings.save(cache_root, [j for j in jobs if j.id not in split], results)
    finally:
        stop.set()
        crew.close()
        if pump.is_alive():
            pump.join()
        for join, _ in joins.values():
            shutil.rmtree(join.piece.folder, ignore_errors=True)
    order = {j.id: i for i, j in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r.id])


def _submit(pool, task: Job, finished) -> None:
    """Render the task in a worker; its Result (or the error that stopped the worker) goes to finished."""
    pool.apply_async(_run_in_worker, (task,), callback=finished.put,
                     error_callback=lambda e: finished.put(Result(task.task, False, [],
                                                                  f"{type(e).__name__}: {e}")))


def _collect(pool, finished, jobs: list[Job], joins, on_done) -> list[Result]:
    """The jobs' results as they finish (a blocking queue.get, no polling). A piece's result only
    counts towards its scene's last piece (`joins`), which starts once the others are done, or fails
    with the first of them that failed."""
    by_id, results, failed = {j.id: j for j in jobs}, [], {}
    while len(results) < len(jobs):
        r = finished.get()
        join = next((t for t, (_, waits) in joins.items() if r.id in waits), None)
        if join is None:
            record(by_id[r.id], r)
            on_done(r)
            results.append(r)
            continue
        job, waits = joins[join]
        waits.discard(r.id)
        if not r.ok:
            failed.setdefault(join, r)
        if not waits and join in failed:
            finished.put(Result(job.task, False, [], failed[join].error, failed[join].seconds))
        elif not waits:
            _submit(pool, job, finished)
    return results


