"""Batch rendering: every variant a plan file names, as one Dask task graph, on one machine or a cluster.

- `planfile`: the plan file, read and checked (`read_plan`, `PlanError`).
- `graph`: the plan expanded into units and tasks exactly as the local commands plan a folder (`expand`),
  the dry run's text (`describe`), which scene tasks are drawn in pieces on a cluster with
  threads to spare (`plan_pieces`) and the plan's critical path (`describe_path`).
- `tasks`: what runs on a worker (`render_task`, `product_task`), the quiet worker configuration.
- `client`: the Dask client (`connect`), the tasks submitted and their results installed as they
  complete (`run`).

`execute` is what `attention-lesson batch` runs. Dask is imported only where a batch runs (planning and
dry runs do without it); the CLI never.
"""

from __future__ import annotations

from .client import (
    BatchError,
    BatchProgress,
    BatchReport,
    check_workers,
    local_cache,
    run,
    scheduler_threads,
)
from .graph import Batch, describe, expand, note_line, note_lines, shown
from .planfile import SCENES, BatchPlan, PlanError, error_lang, read_plan
from .tasks import QUIET_WORKER, worker_problems

__all__ = ["QUIET_WORKER", "SCENES", "Batch", "BatchError", "BatchPlan", "BatchProgress", "BatchReport",
           "PlanError", "check_address", "cluster_failure", "describe", "error_lang", "execute", "expand",
           "note_line", "note_lines", "plan_lang", "read_plan", "shown"]


def plan_lang(plan: BatchPlan, given: str | None = None, environ=None) -> str:
    """The language a batch speaks to the teacher (its notes, its dry run), by the one rule
    (attention_core.language): --lang, else the plan's first language (its first `langs`, or its first
    lesson's own), else ATTENTION_LESSON_LANG, else zh."""
    from attention_core.language import message_lang as said_in

    return said_in(given, plan.variants[0].options.lang if plan.variants else None, environ)


def _needs(work: Batch, products: dict) -> tuple[list[str], bool, list]:
    """The formats, whether a join is needed, and the products of a batch."""
    names = [n for n in work.plan.products if n != SCENES]
    formats = sorted({v.options.format for v in work.plan.variants})
    return formats, any(products[n].needs_video for n in names), [products[n] for n in names]


def execute(work: Batch, products: dict, scheduler: str | None, workers: int, quiet: bool,
            progress: BatchProgress | None = None, on_ready=lambda dashboard, waiting: None) -> BatchReport:
    """Check what the machine (or the cluster's workers) lack, connect, run the batch. BatchError when
    it cannot start; on_ready(dashboard link or None, whether the scheduler has no workers yet)."""
    from . import client as C

    if scheduler is not None:
        check_address(scheduler)
    formats, join, wanted = _needs(work, products)
    if scheduler is None and (problems := worker_problems(formats, join, wanted)):
        raise BatchError.missing("batch_missing_here", problems)
    with C.connect(scheduler, workers, quiet) as (client, dashboard):
        if scheduler is not None and (lines := check_workers(client, formats, join, wanted)):
            raise BatchError.missing("batch_missing_workers", lines)
        on_ready(dashboard, scheduler is not None and not client.nthreads())
        return run(work, client, quiet=quiet, progress=progress, cache=None if scheduler else local_cache())


def critical_path(work: Batch, scheduler: str | None, workers: int, lang: str = "en") -> list[str]:
    """The dry run's estimate of the wall time (graph.describe_path) on the local cluster's `workers`,
    or on the scheduler's threads if it answers at once (else `workers`, said to be assumed); in `lang`."""
    from .. import timings
    from ..plan import CACHE
    from .graph import describe_path

    known = timings.load(CACHE)
    if scheduler is None:
        return describe_path(work, known, workers, lang=lang)
    found = scheduler_threads(scheduler)
    if found:
        return describe_path(work, known, found, "path_threads_now", lang)
    return describe_path(work, known, workers, "path_no_workers" if found == 0 else "path_no_answer", lang)


def check_address(scheduler: str) -> None:
    """BatchError for what Dask cannot take as a scheduler's address ("foo", "http://host:8786"):
    said before a Client is made of it (one made of a bad address raises, then hangs in its cleanup)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, where = parse_address(scheduler)
        if scheme not in backends:
            raise ValueError(scheme)
        if scheme not in ("inproc", "ucx"):
            parse_host_port(where)
    except ValueError:
        raise BatchError.saying("batch_bad_address", address=scheduler) from None


def cluster_failure(error: str) -> str | None:
    """The catalog code of a failure that is the cluster's, not the scene's (a task whose workers all
    died, one the scheduler lost), said in the teacher's language; None for the others."""
    from .client import LOST

    if error.startswith("KilledWorker:"):
        return "batch_worker_died"
    return "batch_task_lost" if error.endswith(LOST) else None
