"""What runs on a Dask worker: a scene job rendered by `worker.render`, the code `render` runs, or a
product made by `products.build`, the code `lesson`/`slides`/`handout` run; each in a private folder of
the worker (which need not share a file system with the machine that runs batch), the files sent back as
bytes or left in a staging folder on storage every worker sees. A task can run twice (Dask reruns the
tasks of a worker that died): it has no side effect but a private folder and the worker's manim cache.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from pathlib import Path

from attention_core import __version__

from .. import manifest
from ..plan import ROOT, Job, Result
from ..products import Product, ProductArgs, build

_LOCK = threading.Lock()  # manim's configuration is global: one render at a time in a process
# A worker renders in one thread while its event loop and Dask's sampling profiler wake other threads
# that take the GIL (every 20 ms and every 10 ms by default). With every core rendering, each wake-up
# also waits for a core, and the render waits with it (docs/cluster.md has the figures).
QUIET_WORKER = {
    "distributed.worker.profile.enabled": False,  # the dashboard's profile tab stays empty
    "distributed.admin.tick.interval": "1s",  # the check that the event loop is not blocked
    "distributed.admin.system-monitor.interval": "5s",  # the dashboard's CPU and memory plots
}
SEGMENT = re.compile(r"^uncached_(\d+)\.\w+$")  # an animation's movie segment (drawing/skips.py)
FINGERPRINTED = ("attention_core", "scenes", "attention_lesson/pipeline", "attention_lesson/outputs")


@dataclass
class Output:
    """What a task sends back: its result and files, as bytes or as a folder on the shared storage."""

    result: Result
    data: dict[str, bytes] = field(default_factory=dict)
    folder: str | None = None
    worker: str = ""
    start: float = 0.0  # wall clock on the worker
    end: float = 0.0

    def write_into(self, dest: Path) -> None:
        for name in self.result.files:
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if self.folder is not None:
                shutil.copyfile(Path(self.folder) / name, target)
            else:
                target.write_bytes(self.data[name])


_fingerprint: str | None = None


def code_fingerprint() -> str:
    """A hash of the code and words that make the outputs, and of manim's and manim-slides' versions:
    a worker whose copy differs from this machine's would write outputs the manifest misdescribes."""
    global _fingerprint
    if _fingerprint is None:
        h = hashlib.sha256()
        files = [p for top in FINGERPRINTED for p in (ROOT / top).rglob("*")
                 if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts]
        manifest.hash_files(h, files, ROOT)
        h.update(f"{version('manim')} {version('manim-slides')} {__version__}".encode())
        _fingerprint = h.hexdigest()
    return _fingerprint


def cache_root(cache: str | None = None) -> Path:
    """Where a worker keeps its manim media folders (formula and text caches) between tasks and runs."""
    return Path(cache or os.environ.get("ATTENTION_LESSON_CACHE")
                or Path.home() / ".cache" / "attention-lesson")


def _worker() -> tuple[str, Path]:
    """This worker's name and its scratch folder (the system's temporary folder outside Dask)."""
    try:
        from distributed import get_worker

        w = get_worker()
        return str(w.name if w.name is not None else w.address), Path(w.local_directory)
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}", Path(tempfile.gettempdir())


def _refused(what: str, why: str, who: str, start: float) -> Output:
    return Output(Result(what, False, [], why), worker=who, start=start, end=time.time())


def _other_code(who: str) -> str:
    return (f"worker {who} runs other code than the machine that runs batch: install the same "
            "attention-lesson (and manim, manim-slides) on every worker")


def _send(result: Result, folder: Path, stage: str | None, out: Output) -> bool:
    """Attach the files: left in the staging folder (True: keep the folder) or read as bytes."""
    if result.ok and stage:
        out.folder = str(folder)
        return True
    if result.ok:
        out.data = {n: (folder / n).read_bytes() for n in result.files}
    return False


def _in_private_folder(work, what: str, fingerprint: str, stage: str | None) -> Output:
    """Run work(folder) -> Result in a fresh private folder of this worker (or of the staging folder),
    and send back what it made."""
    with _LOCK:
        start = time.time()
        who, scratch = _worker()
        if fingerprint != code_fingerprint():
            return _refused(what, _other_code(who), who, start)
        base = Path(tempfile.mkdtemp(prefix="attention-batch-", dir=stage or scratch))
        keep = False
        try:
            (base / "out").mkdir()
            result = work(base / "out")
            out = Output(result, worker=who, start=start)
            keep = _send(result, base / "out", stage, out)
            out.end = time.time()
            return out
        finally:
            if not keep:
                shutil.rmtree(base, ignore_errors=True)


def render_task(job: Job, fingerprint: str, quiet: bool = False, cache: str | None = None,
                stage: str | None = None) -> Output:
    """A Dask task: render one job (it carries its lesson) with `worker.render`. Safe to run twice."""
    from ..drawing.worker import render

    def work(folder: Path) -> Result:
        return render(replace(job, out_dir=folder), manifest.media_folder(cache_root(cache)), quiet=quiet)

    return _in_private_folder(work, job.id, fingerprint, stage)


def segments(folder: Path) -> list[str]:
    """The animation segments a piece left in its folder, by name."""
    return sorted(p.name for p in folder.iterdir() if p.is_file() and SEGMENT.match(p.name))


def missing(names: list[str]) -> list[int]:
    """The animations before the join's first one that no piece drew: the pieces' segments must be
    numbers 0, 1, ... with no gap (a gap would leave the join's movie short of an animation)."""
    have = {int(SEGMENT.match(n).group(1)) for n in names}
    return sorted(set(range(max(have, default=-1) + 1)) - have)


def piece_task(job: Job, fingerprint: str, quiet: bool = False, cache: str | None = None,
               stage: str | None = None) -> Output:
    """A Dask task: a piece of a scene but its last (drawing/pieces.py), drawn into this task's private
    folder; its files are its animations' segments (sent as bytes, or left in the staging folder). Run
    again (its worker died, or its result was lost with it), it draws into a fresh folder."""
    from ..drawing.worker import render

    def work(folder: Path) -> Result:
        drawn = replace(job, out_dir=folder, piece=replace(job.piece, folder=folder))
        result = render(drawn, manifest.media_folder(cache_root(cache)), quiet=quiet)
        return replace(result, files=segments(folder)) if result.ok else result

    return _in_private_folder(work, job.task, fingerprint, stage)


def join_task(job: Job, fingerprint: str, quiet: bool = False, cache: str | None = None,
              stage: str | None = None, *parts: Output) -> Output:
    """A Dask task: the last piece of a scene, once the others are done: their segments laid out in a
    folder of its own, then drawn and joined as a whole job (the scene's files, as render_task's)."""
    from ..drawing.worker import render

    failed = [o.result for o in parts if not o.result.ok]
    if failed:
        return _refused(job.id, f"piece {failed[0].id} failed: {failed[0].error}", _worker()[0], time.time())

    def work(folder: Path) -> Result:
        seg = manifest.private_folder(folder, f"{job.id}-pieces")
        try:
            for o in parts:
                o.write_into(seg)
            if gaps := missing(segments(seg)):
                return Result(job.id, False, [], f"the pieces lack the segments of animations {gaps}")
            drawn = replace(job, out_dir=folder, piece=replace(job.piece, folder=seg))
            return render(drawn, manifest.media_folder(cache_root(cache)), quiet=quiet)
        finally:
            shutil.rmtree(seg, ignore_errors=True)

    return _in_private_folder(work, job.id, fingerprint, stage)


def product_task(product: Product, args: ProductArgs, inputs: list[Output], fingerprint: str,
                 stage: str | None = None) -> Output:
    """A Dask task: lay the scenes' files out in a private folder and make the product there."""
    failed = [o.result.id for o in inputs if not o.result.ok]
    if failed:
        return _refused(product.name, f"not made: {', '.join(failed)} failed", _worker()[0], time.time())

    def work(folder: Path) -> Result:
        for o in inputs:
            o.write_into(folder)
        return build(product, args, folder)

    return _in_private_folder(work, product.name, fingerprint, stage)


def worker_problems(formats: list[str], join: bool, products: list[Product] = ()) -> list[str]:
    """What this machine lacks for the batch: system tools, and what the products need."""
    from ..deps import missing

    return missing(set(formats), False, join) + [p for pr in products if pr.check and (p := pr.check())]
