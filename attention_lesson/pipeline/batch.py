"""Batch rendering: every variant a plan file names, as one Dask task graph, on one machine or a cluster.

A plan (TOML) lists lessons, contexts, modes, languages, qualities, formats, scenes and products; their
combinations are the variants, each rendered into its own folder under `out`, named as `render` names
it. `expand` plans every variant exactly as `render` does (`plan.plan`, the same manifests), so what is
up to date is never submitted; what is left becomes one Dask task per distinct piece of work (two
variants whose jobs have the same inputs share one task) and, per variant, one task per product (the
joined lesson, a deck) that depends on its scene tasks.

Tasks run `worker.render`, the code `render` runs, in a private folder on the worker (which need not
share a file system with this machine) and send the files back as bytes, or, when the plan names a
`shared` folder every worker sees, leave them in a staging folder there. This machine writes them into
the variant's folder (a private folder first, then renamed into place) and updates its manifest as the
local runner does. A task can run twice (Dask reruns the tasks of a worker that died): it has no side
effect but a private folder of its own and the worker's manim cache.

Dask is imported only where a batch runs (planning and dry runs do without it); the CLI never.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import tomllib
import uuid
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from pathlib import Path
from typing import Protocol

from attention_core import LANGS, MODES, Lesson, LessonError, __version__, parse
from attention_core.lesson import packaged_lessons, resolve
from scenes.common.i18n import lesson_title
from scenes.common.settings import environ
from scenes.registry import SceneInfo

from .plan import (
    CACHE,
    FORMATS,
    MEDIA,
    QUALITIES,
    ROOT,
    Job,
    RenderOptions,
    load_manifest,
    plan,
    save_manifest,
)
from .worker import TMP_PREFIX, Result

DEFAULT_OUT = MEDIA / "batch"
PLAN_LISTS = ("lessons", "contexts", "modes", "langs", "qualities", "formats", "scenes", "products")
PLAN_PATHS = ("out", "shared")
SCENES = "scenes"  # the product that is the scene videos themselves
VIDEO, SLIDES, FRAMES = "video", "slides", "frames"  # what a product is made from


class PlanError(ValueError):
    """A plan that cannot run: one line naming the file, the key and what is wrong."""


# -- products ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProductArgs:
    """What a product needs besides the scenes' files: sent to the worker with its task."""

    ids: tuple[str, ...]  # the scenes, in lesson order
    file_format: str
    fps: int
    title: str
    author: str
    lang: str
    context: str
    mode: str
    lesson_name: str  # the lesson file's name and text (a worker may not have the file)
    lesson_text: str

    def lesson(self) -> Lesson:
        return parse(tomllib.loads(self.lesson_text), self.lesson_name)


@dataclass(frozen=True)
class Product:
    """A file (or folder) made from one variant's scenes after they are rendered.

    `build(folder, args)` runs on a worker in a folder holding the scenes' files and returns the names
    of the files it wrote there (relative to the folder); it must be a module-level function (Dask
    sends it by reference)."""

    name: str
    build: Callable[[Path, ProductArgs], list[str]]
    made_from: str = VIDEO  # the scene jobs it needs: their videos, their slide clips or their frames
    needs_video: bool = False  # no such product for a png variant
    folder: str | None = None  # the product is this whole folder, replaced at once
    code: tuple[str, ...] = ()  # source files (relative to the project) its output depends on
    label: str = ""  # what a dry run says it would write


def join_lesson(folder: Path, args: ProductArgs) -> list[str]:
    """The `lesson` product: the scenes joined into lesson.<format> with chapters and subtitles."""
    from .join import join

    return join(folder, list(args.ids), args.file_format, args.title, args.fps)


LESSON = Product("lesson", join_lesson, VIDEO, needs_video=True, label="lesson.{format}",
                 code=("attention_lesson/pipeline/join.py", "attention_lesson/pipeline/ffmpeg.py",
                       "attention_lesson/pipeline/voice.py"))


def job_options(options: RenderOptions, made_from: str) -> RenderOptions:
    """A variant's options for the scene jobs a product is made from."""
    if made_from == SLIDES:
        return replace(options, format="mp4", slides=True)
    if made_from == FRAMES:  # the handout's: every step's last frame
        return replace(options, format="png", frames=True)
    return options


# -- the plan ----------------------------------------------------------------------------------------

@dataclass
class Variant:
    lesson: Lesson
    lesson_file: Path
    options: RenderOptions  # the videos' options (format is the variant's)
    out_dir: Path
    name: str  # its folder under the plan's out: <lesson>/<context>-<mode>-<lang>-<res><fps>[-<format>]


@dataclass
class BatchPlan:
    source: Path
    variants: list[Variant]
    scenes: list[SceneInfo]
    products: list[str]
    out: Path
    shared: Path | None = None
    notes: list[str] = field(default_factory=list)  # combinations skipped (a context a lesson lacks)


def _strings(path: Path, data: dict, key: str) -> list[str] | None:
    if key not in data:
        return None
    value = data[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise PlanError(f"{path}: {key}: expected a non-empty list of strings, found {value!r}")
    return list(dict.fromkeys(value))  # in order, each once


def _check(path: Path, key: str, values: list[str], valid, what: str) -> None:
    bad = [v for v in values if v not in valid]
    if bad:
        raise PlanError(f"{path}: {key}: unknown {what} {', '.join(map(repr, bad))}; "
                        f"choose from: {', '.join(valid)}")


def _lesson_path(plan_dir: Path, entry: str) -> Path:
    """A packaged lesson name, or a path relative to the plan's folder."""
    p = Path(entry).expanduser()
    if not p.is_absolute() and entry in packaged_lessons() and not (plan_dir / p).exists():
        return resolve(entry).resolve()
    return (plan_dir / p).resolve()


def read_plan(path: Path, scenes: list[SceneInfo], products: dict[str, Product],
              unavailable: dict[str, str] | None = None) -> BatchPlan:
    """Read and check a plan file against the scenes and products there are; PlanError on anything
    wrong, before anything starts. `unavailable`: product names known but not available, with why."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlanError(f"{path}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlanError(f"{path}: cannot read it: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise PlanError(f"{path}: not valid TOML: {e}") from None
    unknown = sorted(set(data) - set(PLAN_LISTS) - set(PLAN_PATHS))
    if unknown:
        raise PlanError(f"{path}: unknown key {', '.join(map(repr, unknown))}; the keys are: "
                        + ", ".join((*PLAN_LISTS, *PLAN_PATHS)))
    plan_dir = path.resolve().parent
    lessons = _strings(path, data, "lessons")
    if not lessons:
        raise PlanError(f"{path}: lessons: name at least one lesson (a packaged name or a file)")
    modes = _strings(path, data, "modes") or ["scaled"]
    _check(path, "modes", modes, MODES, "mode")
    langs = _strings(path, data, "langs") or [LANGS[0]]
    _check(path, "langs", langs, LANGS, "language")
    qualities = _strings(path, data, "qualities") or ["low"]
    _check(path, "qualities", qualities, list(QUALITIES), "quality")
    formats = _strings(path, data, "formats") or ["mp4"]
    _check(path, "formats", formats, FORMATS, "format")
    by_id = {s.id: s for s in scenes}
    wanted = _strings(path, data, "scenes")
    if wanted is not None:
        _check(path, "scenes", wanted, list(by_id), "scene")
    chosen = [s for s in scenes if wanted is None or s.id in wanted]  # in lesson order
    names = _strings(path, data, "products") or [SCENES]
    for n in names:
        if n in (unavailable or {}):
            raise PlanError(f"{path}: products: {n!r} is not available: {unavailable[n]}")
    _check(path, "products", names, [SCENES, *products], "product")
    for key in PLAN_PATHS:
        if key in data and not (isinstance(data[key], str) and data[key]):
            raise PlanError(f"{path}: {key}: expected a folder (a string), found {data[key]!r}")
    out = plan_dir / Path(data["out"]).expanduser() if "out" in data else DEFAULT_OUT
    shared = (plan_dir / Path(data["shared"]).expanduser()).resolve() if "shared" in data else None

    loaded: list[tuple[Path, Lesson]] = []
    for entry in lessons:
        file = _lesson_path(plan_dir, entry)
        try:
            loaded.append((file, parse(tomllib.loads(file.read_text(encoding="utf-8")), str(file))))
        except FileNotFoundError:
            raise PlanError(f"{path}: lessons: {entry!r} is neither a lesson file ({file}) nor a "
                            "packaged lesson") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise PlanError(f"{path}: lessons: {entry!r}: {e}") from None
        except LessonError as e:
            raise PlanError(f"{path}: lessons: {e}") from None
    stems: dict[str, Path] = {}
    for file, _ in loaded:
        if stems.setdefault(file.stem, file) != file:
            raise PlanError(f"{path}: lessons: {stems[file.stem]} and {file} would share the output "
                            f"folder {file.stem}/: rename one")
    contexts = _strings(path, data, "contexts")
    if contexts is not None:
        everywhere = {c for _, les in loaded for c in les.contexts}
        missing = [c for c in contexts if c not in everywhere]
        if missing:
            have = "; ".join(f"{f.stem}: {', '.join(les.contexts)}" for f, les in loaded)
            raise PlanError(f"{path}: contexts: {', '.join(map(repr, missing))} is in none of the "
                            f"lessons ({have})")

    variants, notes = [], []
    suffix = len(formats) > 1  # two formats in one folder would overwrite each other's manifest entries
    for (file, les), fmt in itertools.product(loaded, formats):
        for ctx in contexts or list(les.contexts):
            if ctx not in les.contexts:
                notes.append(f"{file.stem} has no context {ctx!r}: skipped")
                continue
            for mode, lang, quality in itertools.product(modes, langs, qualities):
                options = RenderOptions(str(file), ctx, mode, lang, quality, None, fmt)
                folder = options.folder_name() + (f"-{fmt}" if suffix else "")
                variants.append(Variant(les, file, options, out / folder, folder))
    if any(products[n].needs_video for n in names if n != SCENES):
        if all(v.options.format == "png" for v in variants):
            needing = [n for n in names if n != SCENES and products[n].needs_video]
            raise PlanError(f"{path}: products: {', '.join(needing)} needs a video format "
                            "(mp4, webm, gif or mov); formats has only png")
        if any(v.options.format == "png" for v in variants):
            notes.append("png variants get no joined lesson (a poster frame per scene only)")
    return BatchPlan(path, variants, chosen, names, out, shared, list(dict.fromkeys(notes)))


# -- expanding a plan into units of output and tasks ---------------------------------------------------

@dataclass
class Unit:
    """One output of one variant: a scene job or a product; what the progress and the report count."""

    variant: Variant
    what: str  # scene id (…@slides for a deck's clips) or product name
    job: Job | None = None  # a scene job
    product: Product | None = None
    digest: str = ""  # a product's
    files: list[str] = field(default_factory=list)  # a fresh unit's files (from the manifest)

    @property
    def out_dir(self) -> Path:
        return self.variant.out_dir

    @property
    def key(self) -> str:
        """Its manifest entry: the job's, or @<product>."""
        return self.job.key if self.job is not None else f"@{self.product.name}"


@dataclass
class Task:
    """One Dask task: the work of one or more units with identical inputs."""

    key: str
    units: list[Unit]
    scene: Job | None = None  # a render
    product: Product | None = None
    args: ProductArgs | None = None
    inputs: list = field(default_factory=list)  # a product's: per scene, (task key, None) or (None, unit)
    lesson_name: str = ""  # a render's lesson file, sent along (a worker may not have it)
    lesson_text: str = ""


@dataclass
class Batch:
    plan: BatchPlan
    fresh: list[Unit]
    tasks: list[Task]
    token: str  # names this batch's tasks and staging folder

    @property
    def stale(self) -> list[Unit]:
        return [u for t in self.tasks for u in t.units]

    @property
    def folders(self) -> list[Path]:
        return sorted({v.out_dir for v in self.plan.variants})


def _file_hash(h, rel: str) -> None:
    p = ROOT / rel
    h.update(rel.encode())
    h.update(p.read_bytes() if p.exists() else b"")


def product_digest(product: Product, args: ProductArgs, jobs: list[Job]) -> str:
    """What a product's output depends on: its scenes' digests in order, its arguments, the whole lesson
    file (a handout prints numbers no scene shows), its code and the versions."""
    h = hashlib.sha256()
    for rel in product.code:
        _file_hash(h, rel)
    payload = {"product": product.name, "scenes": [[j.key, j.digest] for j in jobs],
               "args": {k: v for k, v in args.__dict__.items() if k not in ("lesson_text", "lesson_name")},
               "lesson": hashlib.sha256(args.lesson_text.encode()).hexdigest(),
               "versions": {"manim": version("manim"), "attention-lesson": __version__}}
    if product.made_from == SLIDES:
        payload["versions"]["manim-slides"] = version("manim-slides")
    h.update(json.dumps(payload, sort_keys=True).encode())
    return h.hexdigest()


def _up_to_date(out_dir: Path, entry: dict | None, digest: str) -> bool:
    return bool(entry and entry.get("hash") == digest and entry.get("files")
                and all((out_dir / f).exists() for f in entry["files"]))


def expand(batch_plan: BatchPlan, products: dict[str, Product]) -> Batch:
    """Plan every variant as `render` would; group the stale units into tasks (identical work once)."""
    token = uuid.uuid4().hex[:8]  # per batch: another client's batch on the same scheduler never shares
    fresh: list[Unit] = []
    tasks: dict[str, Task] = {}
    lesson_texts: dict[Path, str] = {}
    for v in batch_plan.variants:
        text = lesson_texts.setdefault(v.lesson_file, v.lesson_file.read_text(encoding="utf-8"))
        text_hash = hashlib.sha256(text.encode()).hexdigest()[:16]
        wanted = [products[n] for n in batch_plan.products if n != SCENES]
        wanted = [p for p in wanted if not (p.needs_video and v.options.format == "png")]
        kinds = list(dict.fromkeys(([VIDEO] if SCENES in batch_plan.products else [])
                                   + [p.made_from for p in wanted]))
        scene_units: dict[str, list[Unit]] = {}
        scene_tasks: dict[str, dict[str, str]] = {}  # kind -> scene id -> task key (stale only)
        for kind in kinds:
            todo, up = plan(v.lesson, batch_plan.scenes, job_options(v.options, kind), v.out_dir)
            scene_tasks[kind] = {}
            for j in up:
                fresh.append(Unit(v, j.key, job=j, files=list(j.files)))
            for j in todo:
                # the same scene, inputs and lesson file: the same work, whichever variant asks for it
                key = f"render-{j.key}-{j.digest[:16]}-{text_hash}-{token}"
                t = tasks.setdefault(key, Task(key, [], scene=j, lesson_name=v.lesson_file.name,
                                               lesson_text=text))
                t.units.append(Unit(v, j.key, job=j))
                scene_tasks[kind][j.id] = key
            scene_units[kind] = sorted(todo + up, key=lambda j: batch_plan.scenes.index(j.scene))
        manifest = load_manifest(v.out_dir)
        for p in wanted:
            jobs = scene_units[p.made_from]
            o = job_options(v.options, p.made_from)  # a deck does not depend on the videos' format
            args = ProductArgs(tuple(j.id for j in jobs), o.format, o.frame_rate,
                               lesson_title(v.lesson, o.lang), v.lesson.author, o.lang, o.context,
                               o.mode, v.lesson_file.name, text)
            digest = product_digest(p, args, jobs)
            unit = Unit(v, p.name, product=p, digest=digest)
            entry = manifest.get(unit.key)
            if _up_to_date(v.out_dir, entry, digest):
                unit.files = list(entry["files"])
                fresh.append(unit)
                continue
            key = f"{p.name}-{digest[:16]}-{token}"
            if key not in tasks:
                inputs = []
                for j in jobs:
                    k = scene_tasks[p.made_from].get(j.id)
                    inputs.append((k, None) if k else (None, Unit(v, j.key, job=j, files=list(j.files))))
                tasks[key] = Task(key, [], product=p, args=args, inputs=inputs)
            tasks[key].units.append(unit)
    return Batch(batch_plan, fresh, list(tasks.values()), token)


def shown(path: Path) -> Path:
    """A path as the user would write it: relative to the current folder when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def describe(batch: Batch) -> list[str]:
    """A dry run: every unit of every variant, what would be done and where."""
    lines = []
    stale = {id(u) for u in batch.stale}
    by_variant: dict[str, list[Unit]] = {}
    for u in [*batch.stale, *batch.fresh]:
        by_variant.setdefault(str(u.out_dir), []).append(u)
    shared = sum(len(t.units) - 1 for t in batch.tasks)
    for v in batch.plan.variants:
        units = by_variant.get(str(v.out_dir), [])
        lines.append(str(shown(v.out_dir)))
        for u in sorted(units, key=lambda u: (u.product is not None, u.what)):
            if u.job is not None:
                target = u.job.main_file()
                verb = "would render" if id(u) in stale else "up to date  "
            else:
                target = u.product.label.format(format=v.options.format) or u.what
                verb = "would build " if id(u) in stale else "up to date  "
            lines.append(f"  {verb} {u.what:<18} -> {target}")
    lines += [f"note: {n}" for n in batch.plan.notes]
    lines.append(f"{len(batch.stale)} to do in {len(batch.tasks)} tasks ({shared} shared between variants), "
                 f"{len(batch.fresh)} up to date, {len(batch.plan.variants)} variants")
    return lines


# -- on the worker -----------------------------------------------------------------------------------

_LOCK = threading.Lock()  # manim's configuration is global: one render at a time in a process
_slot: tuple[Path, int] | None = None  # this process's manim media folder and the lock that claims it
# A worker renders in one thread while its event loop and Dask's sampling profiler wake other threads
# that take the GIL (every 20 ms and every 10 ms by default). With every core rendering, each wake-up
# also waits for a core, and the render waits with it: measured on 2 cores, 8 renders on 2 workers took
# 14 % longer than `render -j 2` with the defaults, 2.5 % longer with these (docs/cluster.md).
QUIET_WORKER = {
    "distributed.worker.profile.enabled": False,  # the dashboard's profile tab stays empty
    "distributed.admin.tick.interval": "1s",  # the check that the event loop is not blocked
    "distributed.admin.system-monitor.interval": "5s",  # the dashboard's CPU and memory plots
}
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
        for top in FINGERPRINTED:
            for p in sorted((ROOT / top).rglob("*")):
                if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts:
                    h.update(str(p.relative_to(ROOT)).encode())
                    h.update(p.read_bytes())
        h.update(f"{version('manim')} {version('manim-slides')} {__version__}".encode())
        _fingerprint = h.hexdigest()
    return _fingerprint


def cache_root(cache: str | None = None) -> Path:
    """Where a worker keeps its manim media folders (TeX and text caches) between tasks and runs."""
    return Path(cache or os.environ.get("ATTENTION_LESSON_CACHE")
                or Path.home() / ".cache" / "attention-lesson")


def worker_media(cache: str | None = None) -> Path:
    """This process's own manim media folder, b<k> under the cache root: the first k whose lock no
    other process holds (TeX caches must not be shared), kept for the process's life."""
    global _slot
    root = cache_root(cache)
    if _slot is not None and _slot[0].parent == root:
        return _slot[0]
    root.mkdir(parents=True, exist_ok=True)
    for k in itertools.count():
        fd = os.open(root / f"b{k}.lock", os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        if _slot is not None:
            os.close(_slot[1])
        _slot = (root / f"b{k}", fd)
        return _slot[0]


def _worker() -> tuple[str, Path]:
    """This worker's name and its scratch folder (the system's temporary folder outside Dask)."""
    try:
        from distributed import get_worker

        w = get_worker()
        return str(w.name if w.name is not None else w.address), Path(w.local_directory)
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}", Path(tempfile.gettempdir())


def _other_code(who: str) -> Result:
    return Result("", False, [], f"worker {who} runs other code than the machine that runs batch: install "
                  "the same attention-lesson (and manim, manim-slides) on every worker")


def render_task(job: Job, lesson_name: str, lesson_text: str, fingerprint: str, quiet: bool = False,
                cache: str | None = None, stage: str | None = None) -> Output:
    """A Dask task: render one job with `worker.render` in a private folder of this worker and send
    the files back (or leave them under `stage`, on storage every machine sees). Safe to run twice."""
    from .worker import render

    with _LOCK:
        start = time.time()
        who, scratch = _worker()
        if fingerprint != code_fingerprint():
            return Output(replace(_other_code(who), id=job.id), worker=who, start=start, end=time.time())
        base = Path(tempfile.mkdtemp(prefix="attention-batch-", dir=stage or scratch))
        keep = False
        try:
            lesson = base / "lesson" / lesson_name
            lesson.parent.mkdir()
            lesson.write_text(lesson_text, encoding="utf-8")
            mine = Job(job.scene, replace(job.options, lesson=str(lesson)), base / "out", job.digest)
            result = render(mine, worker_media(cache), quiet=quiet)
            out = Output(result, worker=who, start=start)
            if result.ok and stage:
                out.folder, keep = str(base / "out"), True
            elif result.ok:
                out.data = {n: (base / "out" / n).read_bytes() for n in result.files}
            out.end = time.time()
            return out
        finally:
            if not keep:
                shutil.rmtree(base, ignore_errors=True)


def product_task(product: Product, args: ProductArgs, inputs: list[Output], fingerprint: str,
                 stage: str | None = None) -> Output:
    """A Dask task: lay the scenes' files out in a private folder and make the product there."""
    import traceback

    with _LOCK:
        start = time.time()
        who, scratch = _worker()
        if fingerprint != code_fingerprint():
            return Output(replace(_other_code(who), id=product.name), worker=who, start=start, end=time.time())
        failed = [o.result.id for o in inputs if not o.result.ok]
        if failed:
            return Output(Result(product.name, False, [], f"not made: {', '.join(failed)} failed"),
                          worker=who, start=start, end=time.time())
        base = Path(tempfile.mkdtemp(prefix="attention-batch-", dir=stage or scratch))
        keep = False
        try:
            folder = base / "out"
            folder.mkdir()
            for o in inputs:
                o.write_into(folder)
            try:
                names = sorted(product.build(folder, args))
            except Exception as e:  # noqa: BLE001 - reported with its variant, the others go on
                tb = traceback.format_exc(limit=-3)
                return Output(Result(product.name, False, [], f"{type(e).__name__}: {e}\n{tb}"),
                              worker=who, start=start, end=time.time())
            result = Result(product.name, True, names, seconds=time.time() - start)
            out = Output(result, worker=who, start=start)
            if stage:
                out.folder, keep = str(folder), True
            else:
                out.data = {n: (folder / n).read_bytes() for n in names}
            out.end = time.time()
            return out
        finally:
            if not keep:
                shutil.rmtree(base, ignore_errors=True)


def worker_problems(formats: list[str], join: bool, checks: tuple = ()) -> list[str]:
    """What this machine lacks for the batch (system tools; `checks`: more module-level functions that
    return a problem or None)."""
    from .deps import missing

    return missing(set(formats), False, join) + [p for c in checks if (p := c())]


# -- on the machine that runs batch ------------------------------------------------------------------

class BatchError(Exception):
    """The batch cannot start (no scheduler, a worker without the tools); one line each."""


class BatchProgress(Protocol):
    def start(self, total: int, skipped: int) -> None: ...
    def update(self, done: int, running: int, failed: int) -> None: ...


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

    def gaps(self) -> list[float]:
        """The idle time between consecutive tasks on one worker: what Dask adds per task (sending the
        result, being handed the next task), measured on the workers' own clocks."""
        gaps = []
        by_worker: dict[str, list[Timing]] = {}
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


def has_dashboard() -> bool:
    try:
        import bokeh  # noqa: F401 - Dask's dashboard needs it
    except ImportError:
        return False
    return True


@contextmanager
def connect(scheduler: str | None, workers: int, quiet: bool = False):
    """A Dask client: to the scheduler at `scheduler`, or to a LocalCluster of `workers` single-threaded
    worker processes on this machine. Yields (client, dashboard link or None)."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    level = logging.CRITICAL if quiet else logging.WARNING  # importing distributed set its levels: now
    if quiet:
        warnings.filterwarnings("ignore", module="distributed")  # e.g. "port 8787 is already in use"
    for name in ["distributed", *list(logging.root.manager.loggerDict)]:
        if name.split(".")[0] in ("distributed", "tornado", "bokeh"):
            lg = logging.getLogger(name)
            lg.setLevel(max(lg.level, level))

    if scheduler:
        try:
            client = Client(scheduler, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        try:
            services = client.scheduler_info().get("services", {})
            yield client, (client.dashboard_link if "dashboard" in services else None)
        finally:
            client.close()
        return
    dashboard = has_dashboard()
    # worker processes set up their logging as they import distributed, from the environment they
    # inherit: this is the one way to quieten them from the start
    with environ({"DASK_LOGGING__DISTRIBUTED": logging.getLevelName(level).lower()}), _forkserver(), \
            dask.config.set(QUIET_WORKER), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit=0,
                         silence_logs=level, dashboard_address=":8787" if dashboard else None,
                         scheduler_kwargs={"dashboard": dashboard}) as cluster, \
            Client(cluster, set_as_default=False) as client:  # 8787, or another port if that one is taken
        yield client, (client.dashboard_link if dashboard else None)


@contextmanager
def _forkserver():
    """Worker processes forked from a server that has imported manim and the pipeline once, as
    `render -j` forks its workers after importing manim: not each worker importing them anew (seconds
    each, all at once). Dask's own preloads are kept."""
    from multiprocessing import forkserver

    import dask
    from distributed.utils import get_mp_context

    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        ctx = get_mp_context()  # sets Dask's preloads the first time
        preload = list(getattr(forkserver._forkserver, "_preload_modules", None) or ["distributed"])
        if __name__ not in preload:
            ctx.set_forkserver_preload([*preload, __name__])
        yield


def _fresh_output(unit: Unit, stage: Path | None) -> Output:
    """A scene that is up to date here, as a product's input: its files from this machine."""
    result = Result(unit.job.id, True, list(unit.files))
    if stage is None:
        return Output(result, data={n: (unit.out_dir / n).read_bytes() for n in unit.files})
    folder = Path(tempfile.mkdtemp(prefix="fresh-", dir=stage))
    Output(result, folder=str(unit.out_dir)).write_into(folder)
    return Output(result, folder=str(folder))


def _swap_folder(new: Path, dst: Path) -> None:
    """Replace the folder dst by new, never leaving a half-written one at dst."""
    old = new.parent / f"{new.name}.old"
    if dst.exists():
        os.replace(dst, old)
    os.replace(new, dst)
    shutil.rmtree(old, ignore_errors=True)


def install(unit: Unit, out: Output) -> None:
    """Write a unit's files into its variant's folder (a private folder first, each file then renamed
    into place; a product that is a folder is swapped in whole) and record them in its manifest."""
    from .runner import _record

    if out.result.ok:
        dest = unit.out_dir
        dest.mkdir(parents=True, exist_ok=True)
        safe = unit.what.replace("/", "_")
        tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{safe}-{os.getpid()}-", dir=dest))
        try:
            out.write_into(tmp)
            top = unit.product.folder if unit.product is not None else None
            if top is not None:
                _swap_folder(tmp / top, dest / top)
            else:
                for name in out.result.files:
                    (dest / name).parent.mkdir(parents=True, exist_ok=True)
                    os.replace(tmp / name, dest / name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if unit.job is not None:
        _record(out.result, unit.job)
        return
    manifest = load_manifest(unit.out_dir)
    if out.result.ok:
        manifest[unit.key] = {"hash": unit.digest, "files": out.result.files}
    else:
        manifest.pop(unit.key, None)
    save_manifest(unit.out_dir, manifest)


def _outcome(future, task: Task) -> Output:
    """A finished future's Output; a task that raised (a worker lost too often, a cancelled task) is a
    failed one."""
    what = task.scene.id if task.scene is not None else task.product.name
    if future.status == "finished":
        try:
            return future.result()
        except Exception as e:  # noqa: BLE001 - lost while fetching
            return Output(Result(what, False, [], f"{type(e).__name__}: {e}"))
    if future.status == "error":
        e = future.exception()
        return Output(Result(what, False, [], f"{type(e).__name__}: {e}"))
    return Output(Result(what, False, [], f"task {future.status} (was the scheduler lost?)"))


def run(batch: Batch, client, *, quiet: bool = False, progress: BatchProgress | None = None,
        cache: str | None = None) -> BatchReport:
    """Submit the batch's tasks to the client's cluster and write every result as it arrives."""
    from .runner import sweep

    start = time.perf_counter()
    report = BatchReport(fresh=list(batch.fresh), tasks=len(batch.tasks), workers=len(client.nthreads()))
    stale = batch.stale
    for d in batch.folders:
        sweep(d)
    for d in {u.out_dir for u in stale}:  # a re-render first forgets the old entry: files are replaced
        manifest = load_manifest(d)
        keys = [u.key for u in stale if u.out_dir == d and manifest.pop(u.key, None) is not None]
        if keys:
            save_manifest(d, manifest)
    stage = batch.plan.shared / f".attention-batch-{batch.token}" if batch.plan.shared else None
    fingerprint = code_fingerprint()
    by_key = {t.key: t for t in batch.tasks}
    futures: dict = {}
    failed = done = 0
    if progress is not None:
        progress.start(len(stale) + len(batch.fresh), len(batch.fresh))
    try:
        if stage is not None:
            stage.mkdir(parents=True, exist_ok=True)
        st = str(stage) if stage else None
        for t in batch.tasks:
            if t.scene is not None:
                futures[t.key] = client.submit(render_task, t.scene, t.lesson_name, t.lesson_text,
                                               fingerprint, quiet, cache, st, key=t.key)
        for t in batch.tasks:
            if t.product is not None:
                local = [_fresh_output(u, stage) for k, u in t.inputs if k is None]
                sent = iter(client.scatter(local, hash=False) if local and stage is None else local)
                inputs = [futures[k] if k is not None else next(sent) for k, _ in t.inputs]
                futures[t.key] = client.submit(product_task, t.product, t.args, inputs, fingerprint, st,
                                               key=t.key)
        pending = dict(futures)
        last_poll, running = 0.0, 0
        while pending:
            finished = [k for k, f in pending.items() if f.done()]
            if not finished:
                if progress is not None and time.monotonic() - last_poll > 0.5:
                    last_poll = time.monotonic()
                    busy = {k for keys in client.processing().values() for k in keys}
                    running = sum(len(by_key[k].units) for k in pending if k in busy)
                    progress.update(done, running, failed)
                time.sleep(0.05)
                continue
            for k in finished:
                future = pending.pop(k)
                task = by_key[k]
                out = _outcome(future, task)
                if out.worker:
                    report.timings.append(Timing(k, out.worker, out.start, out.end, out.result.seconds))
                for u in task.units:
                    install(u, out)
                    if out.result.ok:
                        report.done.append(u)
                        done += 1
                    else:
                        report.failures.append(Failure(u.variant.name, u.what, out.result.error))
                        failed += 1
                future.release()
                running = max(0, running - len(task.units))
            if progress is not None:
                progress.update(done, running, failed)
    finally:  # also on Ctrl-C: nothing left running for this batch, no private folder left behind
        try:
            client.cancel([f for f in futures.values() if not f.done()])
        except Exception:  # noqa: BLE001 - the scheduler may be gone; the cleanup below must still run
            pass
        for d in batch.folders:
            sweep(d)
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    report.wall = time.perf_counter() - start
    return report


def local_cache() -> str:
    """The manim media folders of a LocalCluster's workers: beside `render`'s, kept between runs."""
    return str(CACHE.resolve())
