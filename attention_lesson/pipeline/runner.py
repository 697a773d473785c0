"""Run render jobs in worker processes, reporting progress and updating manifests.

manim is imported only in the workers, never in the process that plans (a run with nothing to do, a
dry run, the CLI's light commands never load it). Each worker process claims its own manim media
folder (`manifest.media_folder`: TeX and text caches must not be shared), kept between runs so LaTeX
is compiled once.

An interrupted run (Ctrl-C, a killed worker) can leave a job's private .tmp-<scene>-<pid>-* folder
behind: `sweep` removes every such folder whose process is gone, when a run starts and when it ends,
however it ends.
"""

from __future__ import annotations

import ast
import multiprocessing as mp
import os
import queue
import re
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from . import manifest
from .plan import Job, Result

_TMP_NAME = re.compile(rf"^{re.escape(manifest.TMP_PREFIX)}.+-(\d+)-[^-]+$")

_cache_root: Path | None = None  # in a worker: where it claims its media folder
_events = None
_quiet = False


def beat_count(job: Job) -> int:
    """How many steps a scene has, read from its source (self.beat(...) calls): a progress total."""
    tree = ast.parse(job.scene.file.read_text(encoding="utf-8"))
    return sum(
        1 for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "beat"
    ) or 1


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
            shutil.rmtree(p, ignore_errors=True)
            gone.append(p)
    return gone


def record(job: Job, result: Result) -> None:
    """Update the job's manifest entry (in the parent only): never claim a file that is not there."""
    manifest.record(job.out_dir, job.key, job.digest, result.files if result.ok else None)


def _init_worker(cache_root: str, events, quiet: bool) -> None:
    global _cache_root, _events, _quiet
    _cache_root, _events, _quiet = Path(cache_root), events, quiet


def _run_in_worker(job: Job) -> Result:
    from .worker import render

    return render(job, manifest.media_folder(_cache_root), quiet=_quiet,
                  on_beat=lambda sid, beat: _events.put((sid, beat)))


def run(jobs: list[Job], workers: int, cache_root: Path,
        on_beat: Callable[[str, str], None] = lambda sid, beat: None,
        on_done: Callable[[Result], None] = lambda r: None, quiet: bool = False) -> list[Result]:
    """Render every job; a failing job is reported in its Result and the others still finish."""
    folders = sorted({j.out_dir for j in jobs})
    for d in folders:
        sweep(d)
    try:
        for d in folders:  # a re-render first forgets the old entry: files are about to be replaced
            manifest.forget(d, [j.key for j in jobs if j.out_dir == d])
        return _run(jobs, workers, cache_root, on_beat, on_done, quiet)
    finally:  # also on Ctrl-C: the workers are gone by now, and so are their folders
        for d in folders:
            sweep(d)


def _pump(events, on_beat, stop: threading.Event) -> None:
    """Relay the workers' step events to on_beat until stopped."""
    while not stop.is_set():
        try:
            on_beat(*events.get(timeout=0.1))
        except queue.Empty:
            continue
        except (EOFError, OSError):
            return


def _run(jobs, workers, cache_root, on_beat, on_done, quiet) -> list[Result]:
    # Fork with no other thread running in this process: a child inherits every lock as it was at fork
    # time, including those another thread held (a queue's feeder, a progress bar's refresh). So no
    # queue is written to before the fork, and the thread that relays progress starts after it.
    by_id, results = {j.id: j for j in jobs}, []
    ctx = mp.get_context("fork")
    events, stop = ctx.Queue(), threading.Event()
    pump = threading.Thread(target=_pump, args=(events, on_beat, stop), daemon=True)
    try:
        with ctx.Pool(max(1, min(workers, len(jobs))), initializer=_init_worker,
                      initargs=(str(cache_root), events, quiet)) as pool:
            pump.start()
            for r in pool.imap_unordered(_run_in_worker, jobs):
                record(by_id[r.id], r)
                on_done(r)
                results.append(r)
    finally:
        stop.set()
        if pump.is_alive():
            pump.join()
    order = {j.id: i for i, j in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r.id])


def default_jobs() -> int:
    return os.cpu_count() or 1
