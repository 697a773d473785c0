"""Worker processes kept between runs (the studio's): manim stays imported, its formula and text caches
stay warm, and what each worker does next is chosen when it is free, not when the job was asked for.

Each worker is a process of its own with its own task queue (made with spawn: the process that owns
them runs threads, a web server's, which a forked child would inherit in whatever state they were), so
the pool knows which job each one draws:
- **Priority.** Jobs wait here, not in the workers' queues: a free worker takes the waiting job that
  `priority(task)` puts first at that moment (the studio's: a step's clip, the scene on screen, then
  the longest scenes). multiprocessing.Pool's one FIFO queue made a press on Play wait for every frame
  asked for before it (18 s after an edit of W_Q).
- **Cancelling.** `cancel()` starts a new run: the waiting jobs of older runs are answered at once as
  cancelled (none is started only to stop), the running ones stop before their next animation, step or
  label (`Cancelled`, nothing written).
- **Preempting.** An urgent job (Play) with no worker free stops the running job that matters least
  (`preemptible(task)`); that job waits again and is drawn from its start later.
- **A budget.** A worker reports its resident memory after each job; one over `budget_mb` is retired
  between jobs (it exits as a process should) and a new one takes its place (its labels load from the
  disk's store). What a worker keeps is bounded (labels.py, stored.Recent), but glibc keeps freed memory
  and fragments: over 1,000 edits of W_Q each worker still grew by 90 MB before it was replaced (the
  the guide's studio page, docs/teach/en/studio.md; scripts/benchmark.py --studio-memory).
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..plan import Job, Result
from . import runner

POLL = 0.25  # seconds: how often the collector looks for a worker that died mid-job


class Cancelled(Exception):
    """A warm worker's job stopped because a newer run was asked for, or a more urgent job needs it."""


_generation = None  # in a worker: the shared number of the run the studio wants now
_stop = None  # in a worker: the serial of its job to stop (preempted), shared with the pool


def trim() -> None:
    """Give back to the system what glibc keeps of freed memory (worker.tune_malloc keeps up to 64 MB of a
    video's frame buffers for the job's next frames, not for the next job): a worker's memory after a
    video (a step's clip, a whole scene) was 60-90 MB over its memory after frames, and over its budget.
    Nothing elsewhere."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def resident_mb() -> int:
    """This process's resident memory in MB (Linux's /proc; elsewhere its peak, from getrusage)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10


def _checker(generation: int, serial: int) -> Callable[[], None]:
    def current() -> None:
        if _generation.value != generation:
            raise Cancelled(f"run {generation} was replaced by run {_generation.value}")
        if _stop.value == serial:
            raise Cancelled("stopped for a more urgent job")
    return current


def _run_job(job: Job, generation: int, serial: int) -> Result:
    """One job of run `generation`: its steps ("step", scene, step) and, for frames, each step's PNG as
    it is drawn ("frame", scene, n, step, bytes) go to the events queue; it stops before its next
    animation, step or new label once it is no longer wanted."""
    from scenes.common import stored

    from .manim_speedups import skipped_animations
    from .worker import render

    current = _checker(generation, serial)
    events = runner._events

    def on_step(sid: str, step: str) -> None:
        current()
        events.put((generation, "step", sid, step))

    def on_frame(sid: str, n: int, step: str, png: Path) -> None:
        events.put((generation, "frame", sid, n, step, png.read_bytes()))

    try:
        current()
    except Cancelled as e:
        return Result(job.task, False, [], f"Cancelled: {e}")
    skipped_animations.before_play = stored.before_make = current
    try:
        return render(job, runner.manifest.media_folder(runner._cache_root), quiet=True, on_step=on_step,
                      on_frame=on_frame)
    finally:
        skipped_animations.before_play = stored.before_make = None
        _forget_svgs()


def _forget_svgs() -> None:
    """manim keeps a copy of every SVG it parsed (a formula's), for ever: labels._MADE keeps the formulas
    the scenes use, within its bytes; manim's copies are let go after each job."""
    from manim.mobject.svg import svg_mobject

    svg_mobject.SVG_HASH_TO_MOB_MAP.clear()


def _worker(slot: int, cache_root: str, tasks, results, events, generation, stop) -> None:
    """A worker's life: manim and the scenes imported once, then jobs until a None comes. Ctrl-C is for
    the process that owns the pool (it stops the workers and sweeps what they leave)."""
    global _generation, _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # and blocked since it started: runner.blocking_ctrl_c
    runner._init_worker(cache_root, events, True)
    _generation, _stop = generation, stop
    import scenes.registry  # noqa: F401

    from . import worker  # noqa: F401 - brings manim in now, not at the first job

    while (item := tasks.get()) is not None:
        serial, job, run = item
        result = _run_job(job, run, serial)
        trim()
        results.put((slot, serial, result, resident_mb()))


@dataclass
class Task:
    """A job asked of the pool: waiting, or running in a worker."""

    serial: int
    job: Job
    run: int
    done: Callable[[Result], None]
    kind: str = "frames"  # what the caller calls it (its priority reads it)
    urgent: bool = False  # may stop a running job that matters less
    tag: object = None  # the caller's name for it (hurry() finds it by that)
    preempted: bool = False


@dataclass
class Slot:
    """One worker process and what it is doing."""

    index: int
    process: object
    tasks: object  # its own queue: (serial, job, run), or None to exit
    stop: object  # shared: the serial of its job to stop
    running: Task | None = None
    rss: int = 0  # MB after its last job
    jobs: int = 0


class WarmPool:
    """`workers` warm processes drawing the jobs submitted, the one `priority` puts first whenever one is
    free (a tuple: the smallest first, then the oldest); `preemptible(task)` says which running job an
    urgent one may stop; on_event(run, kind, scene, ...) is told each step begun and frame drawn."""

    def __init__(self, workers: int, cache_root: Path, on_event: Callable[..., None] = lambda *a: None,
                 priority: Callable[[Task], tuple] = lambda t: (), preemptible: Callable[[Task], bool] =
                 lambda t: False):
        self.ctx = mp.get_context("spawn")
        self.cache_root = str(cache_root)
        self.generation = self.ctx.Value("i", 0)
        self.events, self.results = self.ctx.Queue(), self.ctx.Queue()
        self.priority, self.preemptible = priority, preemptible
        self.budget_mb: int | None = None  # a worker over it after a job is replaced (settle())
        self.lock = threading.RLock()
        self.waiting: list[Task] = []
        self.serials = itertools.count(1)
        self.closing = False
        self.retired: list[tuple] = []  # (process, its queue) asked to exit, joined once gone
        self.recycled = 0  # workers replaced for their memory so far
        self.slots = [self._spawn(i) for i in range(max(1, workers))]
        self.stopping = threading.Event()
        self.pump = threading.Thread(target=runner._pump, args=(self.events, on_event, self.stopping),
                                     daemon=True, name="warm-events")
        self.collector = threading.Thread(target=self._collect, daemon=True, name="warm-results")
        self.pump.start()
        self.collector.start()

    def _spawn(self, index: int) -> Slot:
        tasks, stop = self.ctx.Queue(), self.ctx.Value("q", 0, lock=False)
        process = self.ctx.Process(target=_worker, daemon=True, name=f"warm-worker-{index}",
                                   args=(index, self.cache_root, tasks, self.results, self.events,
                                         self.generation, stop))
        runner.blocking_ctrl_c(process.start)
        return Slot(index, process, tasks, stop)

    def cancel(self) -> int:
        """Start a new run: the waiting jobs of older runs are answered as cancelled at once, the running
        ones stop at their next animation; the new run's number."""
        with self.generation.get_lock():
            self.generation.value += 1
            run = self.generation.value
        with self.lock:
            old = [t for t in self.waiting if t.run < run]
            self.waiting = [t for t in self.waiting if t.run >= run]
        for t in old:
            t.done(Result(t.job.task, False, [], f"Cancelled: run {t.run} was replaced by run {run}"))
        return run

    def submit(self, job: Job, run: int, done: Callable[[Result], None], kind: str = "frames",
               urgent: bool = False, tag: object = None) -> None:
        """Draw `job` of run `run` when a worker is free and nothing put before it waits; done(result)
        is called from the pool's thread (at once, cancelled, for an older run or a closing pool)."""
        self._add([Task(next(self.serials), job, run, done, kind, urgent, tag)])

    def submit_all(self, jobs: list[tuple[Job, int, Callable[[Result], None]]], kind: str = "frames") -> None:
        """submit() each (job, run, done), all waiting before any is given to a worker (a run's jobs:
        the first to start is the one put first, not the first in the list)."""
        self._add([Task(next(self.serials), job, run, done, kind) for job, run, done in jobs])

    def _add(self, tasks: list[Task]) -> None:
        refused = []
        with self.lock:
            for task in tasks:
                if self.closing or task.run != self.generation.value:
                    refused.append(task)
                    continue
                self.waiting.append(task)
                if task.urgent:
                    self._preempt(task)
            self._dispatch()
        for task in refused:
            task.done(Result(task.job.task, False, [], "Cancelled: the workers are stopping" if self.closing
                             else f"Cancelled: run {task.run} was replaced"))

    def hurry(self, which: Callable[[Task], bool]) -> None:
        """The waiting jobs `which` picks are urgent now (Play on a step whose clip is drawn ahead)."""
        with self.lock:
            for task in [t for t in self.waiting if which(t)]:
                task.urgent = True
                self._preempt(task)
            self._dispatch()

    def _dispatch(self) -> None:
        """Each free worker takes the waiting job put first (the lock held)."""
        for slot in self.slots:
            if slot.running is not None or not self.waiting:
                continue
            task = min(self.waiting, key=lambda t: (self.priority(t), t.serial))
            self.waiting.remove(task)
            slot.running = task
            slot.stop.value = 0  # a job stopped before and asked again runs this time
            slot.tasks.put((task.serial, task.job, task.run))

    def _preempt(self, urgent: Task) -> None:
        """No worker free for an urgent job: the running job that matters least, if it may be stopped and
        matters less, stops at its next animation and waits again (the lock held)."""
        if any(s.running is None for s in self.slots):
            return
        rank = self.priority(urgent)
        victims = [s for s in self.slots if not s.running.urgent and not s.running.preempted
                   and self.preemptible(s.running) and self.priority(s.running) > rank]
        if victims:
            slot = max(victims, key=lambda s: (self.priority(s.running), s.running.serial))
            slot.running.preempted = True
            slot.stop.value = slot.running.serial

    def _collect(self) -> None:
        """The workers' results as they come; a worker that died mid-job answered for (looked for at
        least every POLL seconds)."""
        checked = time.monotonic()
        while not self.stopping.is_set():
            try:
                self._finished(*self.results.get(timeout=POLL))
            except queue.Empty:
                pass
            except (EOFError, OSError):
                return
            if time.monotonic() - checked >= POLL:
                self._check_alive()
                checked = time.monotonic()

    def _finished(self, index: int, serial: int, result: Result, rss: int) -> None:
        with self.lock:
            slot = self.slots[index]
            if slot.running is None or slot.running.serial != serial:  # a replaced worker's: none is due
                return
            task, slot.running = slot.running, None
            slot.rss, slot.jobs = rss, slot.jobs + 1
            if self.budget_mb is not None and rss > self.budget_mb and not self.closing:
                self._recycle(slot)
            again = (task.preempted and not result.ok and task.run == self.generation.value
                     and not self.closing)
            if again:  # stopped for an urgent job: drawn again later, from its start
                task.preempted = False
                self.waiting.append(task)
            self._dispatch()
        if not again:
            task.done(result)

    def _recycle(self, slot: Slot) -> None:
        """Replace a worker between jobs: it exits as a process should, a new one takes its place (the
        lock held)."""
        slot.tasks.put(None)
        self.retired.append((slot.process, slot.tasks))
        self.slots[slot.index] = self._spawn(slot.index)
        self.recycled += 1

    def _check_alive(self) -> None:
        """A worker that died (killed, out of memory) is replaced, its job answered as failed; retired
        workers that have exited are reaped."""
        lost = []
        with self.lock:
            for slot in list(self.slots):
                if self.closing or slot.process.is_alive():
                    continue
                if slot.running is not None:
                    lost.append((slot.running, slot.process.exitcode))
                self.slots[slot.index] = self._spawn(slot.index)
            self._dispatch()
            for process, tasks in [r for r in self.retired if not r[0].is_alive()]:
                process.join()
                tasks.close()
                self.retired.remove((process, tasks))
        for task, code in lost:
            task.done(Result(task.job.task, False, [], f"the drawing worker stopped (exit code {code})"))

    def settle(self, growth_mb: int) -> None:
        """Set the workers' budget, once they have drawn: the most any holds now, plus growth_mb."""
        with self.lock:
            drawn = [s.rss for s in self.slots if s.jobs]
            if self.budget_mb is None and drawn:
                self.budget_mb = max(drawn) + growth_mb

    def close(self, timeout: float = 3.0) -> None:
        """Stop the workers: a job being drawn stops before its next animation, then every worker exits
        as a process should (what it created is released, nothing reported leaked); one that does not
        within `timeout` seconds is terminated (its private folder is left for `sweep`)."""
        with self.lock:
            self.closing = True
        self.cancel()
        for slot in self.slots:
            slot.tasks.put(None)
        deadline = time.monotonic() + timeout
        for p in [s.process for s in self.slots] + [p for p, _ in self.retired]:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.terminate()
                p.join()
        self.stopping.set()
        self.collector.join()
        self.pump.join()
        for q in [s.tasks for s in self.slots] + [q for _, q in self.retired] + [self.events, self.results]:
            q.close()  # its lock and semaphore released now, not reported as leaked at exit
            q.join_thread()
        for slot in self.slots:
            if slot.running is not None:
                slot.running.done(Result(slot.running.job.task, False, [], "Cancelled: the workers stopped"))
