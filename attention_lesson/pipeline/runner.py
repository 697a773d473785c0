"""Run render jobs, serially or in worker processes, reporting progress and updating manifests.

Each worker process has its own manim media folder (TeX and text caches must not be shared: manim
deletes another process's .dvi mid-compile), kept between runs so LaTeX is compiled once. Workers are
forked after manim is imported in the parent, which saves them the import.

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

from .plan import Job, load_manifest, save_manifest
from .worker import TMP_PREFIX, Result, render

_TMP_NAME = re.compile(rf"^{re.escape(TMP_PREFIX)}.+-(\d+)-[^-]+$")

_worker_media: Path | None = None
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


def _init_worker(counter, cache_root: str, events, quiet: bool) -> None:
    global _worker_media, _events, _quiet
    with counter.get_lock():  # worker k gets media folder w<k>, k = 0, 1, ...
        k = counter.value
        counter.value += 1
    _worker_media = Path(cache_root) / f"w{k}"
    _events, _quiet = events, quiet


def _run_in_worker(job: Job) -> Result:
    return render(job, _worker_media, on_beat=lambda sid, beat: _events.put((sid, beat)), quiet=_quiet)


def _record(result: Result, job: Job) -> None:
    """Update the manifest (in the parent only): never claim a file that is not there."""
    manifest = load_manifest(job.out_dir)
    if result.ok:
        manifest[job.key] = {"hash": job.digest, "files": result.files}
    else:
        manifest.pop(job.key, None)
    save_manifest(job.out_dir, manifest)


def run(jobs: list[Job], workers: int, cache_root: Path,
        on_beat: Callable[[str, str], None] = lambda sid, beat: None,
        on_done: Callable[[Result], None] = lambda r: None, quiet: bool = False) -> list[Result]:
    """Render every job; a failing job is reported in its Result and the others still finish."""
    folders = sorted({j.out_dir for j in jobs})
    for d in folders:
        sweep(d)
    try:
        return _run(jobs, workers, cache_root, on_beat, on_done, quiet)
    finally:  # also on Ctrl-C: the workers are gone by now, and so are their folders
        for d in folders:
            sweep(d)


def _run(jobs, workers, cache_root, on_beat, on_done, quiet) -> list[Result]:
    by_id = {j.id: j for j in jobs}
    for j in jobs:  # a re-render first forgets the old entry: files are about to be replaced
        manifest = load_manifest(j.out_dir)
        if manifest.pop(j.key, None) is not None:
            save_manifest(j.out_dir, manifest)
    results: list[Result] = []
    workers = max(1, min(workers, len(jobs)))
    import manim  # noqa: F401 - imported once here, inherited by forked workers

    if workers == 1:
        for j in jobs:
            r = render(j, cache_root / "w0", on_beat=on_beat, quiet=quiet)
            _record(r, j)
            on_done(r)
            results.append(r)
        return results

    # Fork with no other thread running in this process: a child inherits every lock as it was at fork
    # time, including those another thread held (a queue's feeder, a progress bar's refresh). So no
    # queue is written to before the fork, and the thread that relays progress starts after it.
    ctx = mp.get_context("fork")
    counter, events = ctx.Value("i", 0), ctx.Queue()
    stop = threading.Event()

    def pump():
        while not stop.is_set():
            try:
                on_beat(*events.get(timeout=0.1))
            except queue.Empty:
                continue
            except (EOFError, OSError):
                return

    t = threading.Thread(target=pump, daemon=True)
    try:
        with ctx.Pool(workers, initializer=_init_worker, initargs=(counter, str(cache_root), events, quiet),
                      maxtasksperchild=None) as pool:
            t.start()
            for r in pool.imap_unordered(_run_in_worker, jobs):
                _record(r, by_id[r.id])
                on_done(r)
                results.append(r)
    finally:
        stop.set()
        if t.is_alive():
            t.join()
    order = {j.id: i for i, j in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r.id])


def default_jobs() -> int:
    return os.cpu_count() or 1
