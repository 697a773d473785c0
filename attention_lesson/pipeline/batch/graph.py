"""A plan expanded into units of output and Dask tasks, and the dry run's description of them.

Every variant is planned exactly as the local commands plan a folder (`build.plan_all`: the same scene
jobs, products and manifests), so what is up to date is never submitted. What is left becomes one task
per distinct piece of work (two variants whose jobs have the same inputs share one task) and, per
variant, one task per product, depending on its scene tasks.

Scenes in pieces on a cluster, and the plan's critical path (pure: no Dask, no manim).

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

import hashlib
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from attention_core.errors import Phrase, Said, ph, text

from .. import manifest, timings
from ..build import plan_all
from ..drawing import pieces
from ..drawing.runner import costs as task_costs
from ..plan import VIDEO, Job, RenderOptions, Run, step_count
from ..products import ALONE_READS, Product, ProductArgs, ProductJob, job_options
from ..states import state_word
from .planfile import SCENES, BatchPlan, Variant, note_text


@dataclass
class Unit:
    """One output of one variant: a scene job or a product; what the progress and the report count."""

    variant: Variant
    what: str  # scene id (…@slides for a deck's clips) or product name
    job: Job | None = None  # a scene job
    product: ProductJob | None = None

    @property
    def out_dir(self) -> Path:
        return self.variant.out_dir

    @property
    def key(self) -> str:
        """Its manifest entry: the job's, or @<product>."""
        return self.job.key if self.job is not None else self.product.key

    @property
    def digest(self) -> str:
        return self.job.digest if self.job is not None else self.product.digest

    @property
    def files(self) -> list[str]:
        return self.job.files if self.job is not None else list(self.product.files or [])


@dataclass
class Task:
    """One Dask task: the work of one or more units with identical inputs."""

    key: str
    units: list[Unit]
    scene: Job | None = None  # a render
    product: Product | None = None
    args: ProductArgs | None = None
    inputs: list = field(default_factory=list)  # a product's: per scene, (task key, None) or (None, unit)

    @property
    def what(self) -> str:
        return self.scene.id if self.scene is not None else self.product.name


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


def _kinds(batch_plan: BatchPlan, wanted: list[Product]) -> list[str]:
    return list(dict.fromkeys(([VIDEO] if SCENES in batch_plan.products else [])
                              + [p.made_from for p in wanted]))


@dataclass
class _Graph:
    """The tasks and fresh units of a batch as its variants are expanded."""

    token: str
    run: Run  # a dry run's: no digest computed that it need not
    tasks: dict[str, Task] = field(default_factory=dict)
    fresh: list[Unit] = field(default_factory=list)


def _expand_variant(v: Variant, batch_plan: BatchPlan, products: dict, graph: _Graph, text: str):
    """One variant's scene jobs and products, into tasks (shared by key) and fresh units; `text`, a hash
    of its lesson file."""
    wanted = [products[n] for n in batch_plan.products if n != SCENES]
    wanted = [p for p in wanted if not (p.needs_video and v.options.format == "png")]
    tasks, token = graph.tasks, graph.token
    for kind in _kinds(batch_plan, wanted):
        mine = [p for p in wanted if p.made_from == kind]
        scenes = batch_plan.scenes if kind is not None else []  # a product of no scene: plan none
        report = plan_all(v.lesson, scenes, job_options(v.options, kind), v.out_dir, mine, graph.run)
        scene_tasks, same = {}, _same(report.jobs[0].options, text) if report.jobs else ""
        graph.fresh += [Unit(v, j.key, job=j) for j in report.fresh]
        for j in report.todo:  # the same scene, options and lesson file: the same work, whoever asks
            key = f"render-{j.key}-{same}-{token}"
            tasks.setdefault(key, Task(key, [], scene=j)).units.append(Unit(v, j.key, job=j))
            scene_tasks[j.id] = key
        for pj in report.products:
            _product_task(v, pj, scene_tasks, f"{pj.product.name}-{_same_product(pj, same, text)}-{token}",
                          graph)


def _same(options: RenderOptions, text: str) -> str:
    """What two jobs of a scene share when their work is the same: their options but the lesson file's
    path, and its text (`text`, a hash of it). Jobs the same by it have the same digest (which leaves
    the path out, and is made of the lesson's numbers, the options and the code), so a dry run, which
    computes no digest it need not, shares the tasks a run does."""
    return hashlib.sha256(f"{replace(options, lesson='')!r}|{text}".encode()).hexdigest()[:16]


def _same_product(pj: ProductJob, same: str, text: str) -> str:
    """_same for a product: its name, its scenes (their keys; their options and lesson in `same`), what
    it reads of its arguments (product_digest's), the lesson's text."""
    args = pj.args
    reads = (asdict(replace(args, lesson_text="", lesson_name="")) if pj.product.made_from
             else {k: getattr(args, k) for k in (*ALONE_READS, "words")})
    said = f"{pj.product.name}|{[j.key for j in pj.jobs]}|{same}|{sorted(reads.items())!r}|{text}"
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def _product_task(v: Variant, pj: ProductJob, scene_tasks: dict, key: str, graph: _Graph) -> None:
    unit, tasks = Unit(v, pj.product.name, product=pj), graph.tasks
    if pj.fresh:
        graph.fresh.append(unit)
        return
    if key not in tasks:
        inputs = [(scene_tasks[j.id], None) if j.id in scene_tasks else (None, Unit(v, j.key, job=j))
                  for j in pj.jobs]
        tasks[key] = Task(key, [], product=pj.product, args=pj.args, inputs=inputs)
    tasks[key].units.append(unit)


def expand(batch_plan: BatchPlan, products: dict[str, Product], digests: bool = True) -> Batch:
    """Plan every variant as the local commands would; group the stale units into tasks (identical work
    once). Without `digests` (a dry run), a job or product its folder has no entry for is stale with no
    digest computed: a plan of 10,000 variants never rendered is counted in seconds."""
    graph = _Graph(uuid.uuid4().hex[:8], Run(dry_run=not digests))  # the token: per batch, so another
    # client's batch on the same scheduler never shares its tasks
    texts: dict[Path, str] = {}  # each lesson file read once, not once a variant
    with manifest.frozen_files():  # the code hashed once for all the jobs, not once a job
        for v in batch_plan.variants:
            if v.lesson_file not in texts:
                texts[v.lesson_file] = hashlib.sha256(v.lesson_file.read_bytes()).hexdigest()[:16]
            _expand_variant(v, batch_plan, products, graph, texts[v.lesson_file])
    return Batch(batch_plan, graph.fresh, list(graph.tasks.values()), graph.token)


def shown(path: Path) -> Path:
    """A path as the user would write it: relative to the current folder when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def _unit_line(u: Unit, stale: bool, v: Variant, lang: str) -> str:
    if u.job is not None:
        state = state_word("batch_would_render" if stale else "batch_up_to_date", lang)
        return f"  {state} {u.what:<18} -> {u.job.main_file()}"
    target = u.product.product.label.format(format=v.options.format) or u.what
    state = state_word("batch_would_build" if stale else "batch_up_to_date", lang)
    return f"  {state} {u.what:<18} -> {target}"


def describe(batch: Batch, lang: str = "en", listed: bool = True) -> list[str]:
    """A dry run in `lang`: with `listed`, every unit of every variant, what would be done and where;
    then its notes, what the plan comes to (counts) and its tasks (summary)."""
    lines = []
    stale = {id(u) for u in batch.stale}
    by_variant: dict[str, list[Unit]] = {}
    for u in [*batch.stale, *batch.fresh] if listed else []:
        by_variant.setdefault(str(u.out_dir), []).append(u)
    for v in batch.plan.variants if listed else []:
        lines.append(str(shown(v.out_dir)))
        units = sorted(by_variant.get(str(v.out_dir), []), key=lambda u: (u.product is not None, u.what))
        lines += [_unit_line(u, id(u) in stale, v, lang) for u in units]
    lines += note_lines(batch.plan.notes, lang, every=listed)
    return [*lines, text(lang, "batch_counts", **counts(batch)), summary(batch, lang)]


def counts(batch: Batch) -> dict[str, int]:
    """What a plan comes to: its variants and scenes, its clips (scene jobs: one a scene and variant,
    and a deck's, a handout's or a sheet's of their own) and products, and how many are made already."""
    clips = [u.job is not None for u in batch.stale]
    made = [u.job is not None for u in batch.fresh]
    scenes = {u.job.id for u in [*batch.stale, *batch.fresh] if u.job is not None}  # those the lessons fit
    return {"variants": len(batch.plan.variants), "scenes": len(scenes),
            "clips": sum(clips) + sum(made), "made": sum(made), "products": len(clips) - sum(clips)
            + len(made) - sum(made), "products_made": len(made) - sum(made)}


def summary(batch: Batch, lang: str = "en") -> str:
    """`N to do in N tasks (N shared between variants), N up to date, N variants`, in `lang`."""
    shared = sum(len(t.units) - 1 for t in batch.tasks)
    return text(lang, "batch_summary", stale=len(batch.stale), tasks=len(batch.tasks), shared=shared,
                fresh=len(batch.fresh), variants=len(batch.plan.variants))


def note_line(note, lang: str) -> str:
    """`note: ...`, a plan's note as the teacher reads it, in `lang`."""
    return text(lang, "note", text=Said(note_text(note, lang)))


NOTES_SHOWN = 5  # a plan's notes said before the rest are counted (a plan of many lesson files)


def note_lines(notes: list, lang: str, every: bool = False) -> list[str]:
    """A plan's notes as the teacher reads them: every one, or (not `every`) the first NOTES_SHOWN and
    how many more there are (`--dry-run --list` says every one)."""
    shown = notes if every or len(notes) <= NOTES_SHOWN + 1 else notes[:NOTES_SHOWN]
    more = len(notes) - len(shown)
    return [note_line(n, lang) for n in shown] + ([text(lang, "batch_more_notes", n=more)] if more else [])


# -- scenes in pieces, the critical path ---------------------------------------------------------


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
    """The tasks that draw a scene (the others make products, which are not timed)."""
    return [t for t in batch.tasks if t.scene is not None]


def limits(batch: Batch) -> dict[str, int]:
    """The most pieces each scene task may take: video jobs only, by pieces.most (never at 480p15)."""
    return {t.key: pieces.most(step_count(t.scene), t.scene.options.quality)
            if t.scene.options.kind == VIDEO else 1 for t in scene_tasks(batch)}


def scene_seconds(batch: Batch, known: dict[str, float]) -> dict[str, float]:
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
    with manifest.frozen_files():  # each scene's steps read once, not once a task
        cost = scene_seconds(batch, known)
        n = plan_pieces(cost, limits(batch), workers)
    by_key = {t.key: t for t in scene_tasks(batch)}
    top = max(cost, key=lambda k: (chain(cost[k], n[k]), k), default=None)
    longest = chain(cost[top], n[top]) if top else 0.0
    return Estimate(workers, sum(cost.values()), longest, by_key.get(top), cost.get(top, 0.0),
                    n.get(top, 1)), n


def _where(t: Task) -> str:
    """A scene task as the dry run names it: its scene and the first variant that asked for it."""
    return f"{t.what} ({t.units[0].variant.name})"


def describe_path(batch: Batch, known: dict[str, float], workers: int, assumed: str = "",
                  lang: str = "en") -> list[str]:
    """The dry run's critical path in `lang`: the estimated wall time, its two bounds, the scene that
    sets it, and how many scenes would be split and whose timings are known (`assumed`: a phrase's code
    saying where the number of workers comes from, or "")."""
    est, n = estimate(batch, known, workers)
    if est.critical is None:
        return [text(lang, "path_none")]
    on = text(lang, "path_workers", n=workers)
    if assumed:
        on = text(lang, "path_on_assumed", workers=Said(on), assumed=ph(assumed))
    split, known_n = {k: v for k, v in n.items() if v > 1}, timed(batch, known)
    how = (ph("path_pieces", pieces=est.pieces, at_once=est.pieces - 1) if est.pieces > 1
           else ph("path_whole"))
    return [text(lang, "path_wall", on=Said(on), wall=f"{est.wall:.1f}", work=f"{est.work:.1f}",
                 workers=workers, per=f"{est.work / workers:.1f}", longest=f"{est.longest:.1f}"),
            "  " + text(lang, "path_chain", where=_where(est.critical), cost=f"{est.cost:.1f}", how=how),
            "  " + text(lang, "path_split", split=len(split), n=len(n), known=known_n,
                        estimated=len(n) - known_n, source=_estimated(known_n, len(n)))]


def _estimated(known: int, tasks: int) -> Phrase | Said:
    """Where the estimates come from (drawing/estimates.json, measured at 480p15: only their ratios hold
    at another quality, until a scene of the variant is timed)."""
    if known == tasks:
        return Said("")
    return ph("path_source_scaled") if known else ph("path_source_packaged")
