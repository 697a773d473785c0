"""On the machine that runs batch: a Dask client (a LocalCluster or a running scheduler), the tasks
submitted, and every result written into its variant's folder as it arrives (`distributed.as_completed`),
recorded in the folder's manifest as the local runner records it.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from scenes.common.settings import environ

from .. import manifest, timings
from ..drawing import pieces
from ..drawing.runner import sweep
from ..plan import CACHE, Result
from .graph import Batch, Task, Unit, limits, plan_pieces, scene_seconds, scene_tasks
from .tasks import (
    QUIET_WORKER,
    Output,
    code_fingerprint,
    join_task,
    piece_task,
    product_task,
    render_task,
    worker_problems,
)


class BatchError(Exception):
    """The batch cannot start (no scheduler, a worker without the tools); one line each. `said`: the
    catalog code of the line over the problems (batch_missing_here...), said in the teacher's language,
    the problems themselves (`problems`) as the tools name them; `fields`: the line's fields, when it
    is the whole message (batch_no_scheduler...)."""

    def __init__(self, message: str, said: str = "", problems: list[str] | None = None, **fields):
        super().__init__(message)
        self.said, self.problems, self.fields = said, problems or [], fields

    @classmethod
    def saying(cls, said: str, **fields) -> BatchError:
        """One line of the catalog (its code and fields), in English until said in a language."""
        made = cls("", said, None, **fields)
        made.args = (made.message("en"),)
        return made

    @classmethod
    def missing(cls, said: str, problems: list[str]) -> BatchError:
        """What a machine lacks: the line over them (its catalog code), one indented line each."""
        made = cls("", said, problems)
        made.args = (made.message("en"),)
        return made

    def message(self, lang: str) -> str:
        if not self.said:
            return str(self)
        from attention_core.errors import text

        return "\n  ".join([text(lang, self.said, **self.fields), *self.problems])


class BatchProgress(Protocol):
    def start(self, total: int, skipped: int) -> None: ...
    def update(self, done: int, left: int, failed: int) -> None: ...


@dataclass
class Failure:
    variant: str
    what: str  # scene id (…@slides) or product
    error: str


@dataclass
class Timing:
    key: str
    worker: str
    start: float
    end: float
    seconds: float  # inside render (or the product's build)


@dataclass
class BatchReport:
    done: list[Unit] = field(default_factory=list)
    fresh: list[Unit] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    tasks: int = 0
    workers: int = 0
    wall: float = 0.0
    timings: list[Timing] = field(default_factory=list)
    pieces: dict[str, int] = field(default_factory=dict)  # a scene task drawn in pieces -> how many
    seconds: dict[str, float] = field(default_factory=dict)  # a whole scene task that succeeded -> s

    def gaps(self) -> list[float]:
        """The idle time between consecutive tasks on one worker: what Dask adds per task (sending the
        result, being handed the next task), measured on the workers' own clocks."""
        gaps, by_worker = [], {}
        for t in self.timings:
            by_worker.setdefault(t.worker, []).append(t)
        for ts in by_worker.values():
            ts.sort(key=lambda t: t.start)
            gaps += [max(0.0, b.start - a.end) for a, b in zip(ts, ts[1:])]
        return gaps

    def overhead(self) -> tuple[float, float]:
        """(mean gap between consecutive tasks on one worker, mean task time)."""
        mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
        return mean(self.gaps()), mean([t.end - t.start for t in self.timings])


# Work stealing moves a task queued on a busy worker to an idle one; with few tasks of many seconds it
# left a worker idle for seconds while a steal was settled (docs/performance.md, "The figures behind the
# code"). The scheduler queues tasks until a worker has a free thread
# (distributed.scheduler.worker-saturation), which balances them without it.
QUIET_SCHEDULER = {"distributed.scheduler.work-stealing": False}


def has_dashboard() -> bool:
    try:
        import bokeh  # noqa: F401 - Dask's dashboard needs it
    except ImportError:
        return False
    return True


def _quieten(quiet: bool) -> int:
    """Dask's, tornado's and bokeh's loggers at WARNING (CRITICAL when quiet); the level."""
    level = logging.CRITICAL if quiet else logging.WARNING  # importing distributed set its levels: now
    if quiet:
        warnings.filterwarnings("ignore", module="distributed")  # e.g. "port 8787 is already in use"
    for name in ["distributed", *list(logging.root.manager.loggerDict)]:
        if name.split(".")[0] in ("distributed", "tornado", "bokeh"):
            lg = logging.getLogger(name)
            lg.setLevel(max(lg.level, level))
    return level


CONNECT_SECONDS = 10  # how long a scheduler is given to answer


@contextmanager
def _remote(scheduler: str):
    from distributed import Client

    try:
        client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, TimeoutError):
        raise BatchError.saying("batch_no_scheduler", address=scheduler, seconds=CONNECT_SECONDS) from None
    try:
        services = client.scheduler_info().get("services", {})
        yield client, (client.dashboard_link if "dashboard" in services else None)
    finally:
        client.close()


@contextmanager
def _local(workers: int, level: int):
    import dask
    from distributed import Client, LocalCluster

    dashboard = has_dashboard()
    # worker processes set up their logging as they import distributed, from the environment they
    # inherit: this is the one way to quieten them from the start
    with environ({"DASK_LOGGING__DISTRIBUTED": logging.getLevelName(level).lower()}), _forkserver(), \
            dask.config.set({**QUIET_WORKER, **QUIET_SCHEDULER}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit=0,
                         silence_logs=level, dashboard_address=":8787" if dashboard else None,
                         scheduler_kwargs={"dashboard": dashboard}) as cluster, \
            Client(cluster, set_as_default=False) as client:  # 8787, or another port if that one is taken
        yield client, (client.dashboard_link if dashboard else None)


@contextmanager
def connect(scheduler: str | None, workers: int, quiet: bool = False):
    """A Dask client: to the scheduler at `scheduler`, or to a LocalCluster of `workers` single-threaded
    worker processes on this machine. Yields (client, dashboard link or None)."""
    level = _quieten(quiet)
    with (_remote(scheduler) if scheduler else _local(workers, level)) as found:
        yield found


@contextmanager
def _forkserver():
    """Worker processes forked from a server that has imported manim and the pipeline once, as
    `render -j` workers import them once each: not each task importing them anew. Dask's own preloads
    are kept."""
    from multiprocessing import forkserver

    import dask
    from distributed.utils import get_mp_context

    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        ctx = get_mp_context()  # sets Dask's preloads the first time
        preload = list(getattr(forkserver._forkserver, "_preload_modules", None) or ["distributed"])
        mine = ["manim", "attention_lesson.pipeline.drawing.worker", __name__.rsplit(".", 1)[0] + ".tasks"]
        if any(m not in preload for m in mine):
            ctx.set_forkserver_preload([*preload, *(m for m in mine if m not in preload)])
        yield


def _fresh_output(unit: Unit, stage: Path | None) -> Output:
    """A scene that is up to date here, as a product's input: its files from this machine."""
    result = Result(unit.job.id, True, list(unit.files))
    if stage is None:
        return Output(result, data={n: (unit.out_dir / n).read_bytes() for n in unit.files})
    folder = Path(tempfile.mkdtemp(prefix="fresh-", dir=stage))
    Output(result, folder=str(unit.out_dir)).write_into(folder)
    return Output(result, folder=str(folder))


def install(unit: Unit, out: Output) -> None:
    """Write a unit's files into its variant's folder (a private folder first, each file then renamed
    into place; a product that is a folder is swapped in whole) and record them in its manifest."""
    if out.result.ok:
        tmp = manifest.private_folder(unit.out_dir, unit.what)
        try:
            out.write_into(tmp)
            product = unit.product.product if unit.product is not None else None
            if product is not None and product.folder is not None:  # (the teacher's files there kept)
                manifest.swap_folder(tmp / product.folder, unit.out_dir / product.folder, product.owns)
            else:
                manifest.move_into({n: tmp / n for n in out.result.files}, unit.out_dir)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    manifest.record(unit.out_dir, unit.key, unit.digest, out.result.files if out.result.ok else None)


def _outcome(future, task: Task) -> Output:
    """A finished future's Output; a task that raised (a worker lost too often, a cancelled task) is a
    failed one."""
    if future.status == "finished":
        try:
            return future.result()
        except Exception as e:  # noqa: BLE001 - lost while fetching
            return Output(Result(task.what, False, [], f"{type(e).__name__}: {e}"))
    if future.status == "error":
        e = future.exception()
        return Output(Result(task.what, False, [], f"{type(e).__name__}: {e}"))
    return Output(Result(task.what, False, [], f"task {future.status} {LOST}"))


LOST = "(was the scheduler lost?)"  # the end of the error of a task the scheduler lost


def _submit_scene(client, t: Task, n: int, args: tuple, priority: float, futures: dict) -> None:
    """A scene task whole, or in n pieces (drawing/pieces.py): the first n - 1 at once and the last, a
    task that depends on them, under the scene task's key (it makes the scene's files). Only the last
    is held: the pieces' segments are forgotten once it has them (or once it is cancelled)."""
    if n < 2:
        futures[t.key] = client.submit(render_task, t.scene, *args, key=t.key, priority=priority)
        return
    parts, last = pieces.split(t.scene, n, Path())  # each task draws in a folder of its own
    got = [client.submit(piece_task, p, *args, key=f"{t.key}#{p.piece.steps[0]}", priority=priority)
           for p in parts]
    futures[t.key] = client.submit(join_task, last, *args, *got, key=t.key, priority=priority)


def _submit(client, batch: Batch, stage: Path | None, quiet: bool, cache: str | None,
            counts: dict[str, int], cost: dict[str, float]) -> dict:
    """Every task submitted (the longest scenes first, a product's after the scene tasks it depends
    on); key -> future."""
    futures, fingerprint, st = {}, code_fingerprint(), str(stage) if stage else None
    for t in batch.tasks:
        if t.scene is not None:
            _submit_scene(client, t, counts.get(t.key, 1), (fingerprint, quiet, cache, st),
                          round(cost.get(t.key, 0.0), 2), futures)
    for t in batch.tasks:
        if t.product is not None:
            local = [_fresh_output(u, stage) for k, u in t.inputs if k is None]
            sent = iter(client.scatter(local, hash=False) if local and stage is None else local)
            inputs = [futures[k] if k is not None else next(sent) for k, _ in t.inputs]
            futures[t.key] = client.submit(product_task, t.product, t.args, inputs, fingerprint, st,
                                           key=t.key)
    return futures


def _collect(client, futures: dict, batch: Batch, report: BatchReport,
             progress: BatchProgress | None) -> None:
    """Install every result as its future completes."""
    from distributed import as_completed

    by_key, left = {t.key: t for t in batch.tasks}, len(batch.stale)
    # the client's loop: as_completed looks for a default client otherwise ("No clients found")
    for future in as_completed(list(futures.values()), loop=client.loop):
        task = by_key[future.key]
        out = _outcome(future, task)
        if out.worker:
            report.timings.append(Timing(task.key, out.worker, out.start, out.end, out.result.seconds))
        if out.result.ok and task.scene is not None and task.key not in report.pieces:
            report.seconds[task.key] = out.result.seconds
        for u in task.units:
            install(u, out)
            if out.result.ok:
                report.done.append(u)
            else:
                report.failures.append(Failure(u.variant.name, u.what, out.result.error))
        future.release()
        left -= len(task.units)
        if progress is not None:
            progress.update(len(report.done), left, len(report.failures))


def run(batch: Batch, client, *, quiet: bool = False, progress: BatchProgress | None = None,
        cache: str | None = None) -> BatchReport:
    """Submit the batch's tasks to the client's cluster and write every result as it arrives; with
    more worker threads than scene tasks, the longest scenes in pieces (graph.py)."""
    start = time.perf_counter()
    report = BatchReport(fresh=list(batch.fresh), tasks=len(batch.tasks), workers=len(client.nthreads()))
    known = timings.load(CACHE)
    cost = scene_seconds(batch, known)
    counts = plan_pieces(cost, limits(batch), sum(client.nthreads().values()))
    report.pieces = {k: n for k, n in counts.items() if n > 1}
    for d in batch.folders:
        sweep(d)
        manifest.forget(d, [u.key for u in batch.stale if u.out_dir == d])  # files about to be replaced
    stage = batch.plan.shared / f".attention-batch-{batch.token}" if batch.plan.shared else None
    futures = {}
    if progress is not None:
        progress.start(len(batch.stale) + len(batch.fresh), len(batch.fresh))
    try:
        if stage is not None:
            stage.mkdir(parents=True, exist_ok=True)
        futures = _submit(client, batch, stage, quiet, cache, counts, cost)
        _collect(client, futures, batch, report, progress)
    finally:  # also on Ctrl-C: nothing left running for this batch, no private folder left behind
        _clean_up(client, futures, batch, stage)
    save_timings(batch, report)
    report.wall = time.perf_counter() - start
    return report


def save_timings(batch: Batch, report: BatchReport) -> None:
    """Keep the seconds of every whole scene task that succeeded (beside `render`'s: the next dry run's
    and the next batch's estimates), per options as the runner keeps them."""
    groups: dict = {}
    for t in scene_tasks(batch):
        if t.key in report.seconds:
            jobs, results = groups.setdefault(t.scene.options, ([], []))
            jobs.append(t.scene)
            results.append(Result(t.scene.id, True, [], seconds=report.seconds[t.key]))
    for jobs, results in groups.values():
        timings.save(CACHE, jobs, results)


def _clean_up(client, futures: dict, batch: Batch, stage: Path | None) -> None:
    try:
        client.cancel([f for f in futures.values() if not f.done()])
    except Exception:  # noqa: BLE001 - the scheduler may be gone; the cleanup below must still run
        pass
    for d in batch.folders:
        sweep(d)
    if stage is not None:
        shutil.rmtree(stage, ignore_errors=True)


def local_cache() -> str:
    """The manim media folders of a LocalCluster's workers: beside `render`'s, kept between runs."""
    return str(CACHE.resolve())


def scheduler_threads(address: str, timeout: float = 3.0) -> int | None:
    """The worker threads the scheduler at `address` has now (a dry run's question: None when it does
    not answer within `timeout` seconds)."""
    _quieten(True)
    try:
        from distributed import Client

        with Client(address, timeout=f"{timeout}s", set_as_default=False) as client:
            return sum(client.nthreads().values())
    except (OSError, TimeoutError, ValueError):
        return None


def check_workers(client, formats: list[str], join: bool, products: list) -> list[str]:
    """What the cluster's workers lack, one line per worker and problem."""
    found = client.run(worker_problems, formats, join, products)
    return [f"{w}: {p}" for w, ps in sorted(found.items()) for p in ps]
