"""A plan expanded into units of output and Dask tasks, and the dry run's description of them.

Every variant is planned exactly as the local commands plan a folder (`build.plan_all`: the same scene
jobs, products and manifests), so what is up to date is never submitted. What is left becomes one task
per distinct piece of work (two variants whose jobs have the same inputs share one task) and, per
variant, one task per product, depending on its scene tasks.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from ..build import plan_all
from ..plan import VIDEO, Job
from ..products import Product, ProductArgs, ProductJob, job_options
from .planfile import SCENES, BatchPlan, Variant


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


def _expand_variant(v: Variant, batch_plan: BatchPlan, products: dict, token: str, tasks: dict, fresh: list):
    """One variant's scene jobs and products, into tasks (shared by key) and fresh units."""
    wanted = [products[n] for n in batch_plan.products if n != SCENES]
    wanted = [p for p in wanted if not (p.needs_video and v.options.format == "png")]
    text = hashlib.sha256(v.lesson_file.read_bytes()).hexdigest()[:16]
    for kind in _kinds(batch_plan, wanted):
        mine = [p for p in wanted if p.made_from == kind]
        scenes = batch_plan.scenes if kind is not None else []  # a product of no scene: plan none
        report = plan_all(v.lesson, scenes, job_options(v.options, kind), v.out_dir, mine)
        scene_tasks = {}
        for j in report.fresh:
            fresh.append(Unit(v, j.key, job=j))
        for j in report.todo:  # the same scene, inputs and lesson file: the same work, whoever asks
            key = f"render-{j.key}-{j.digest[:16]}-{text}-{token}"
            tasks.setdefault(key, Task(key, [], scene=j)).units.append(Unit(v, j.key, job=j))
            scene_tasks[j.id] = key
        for pj in report.products:
            _product_task(v, pj, scene_tasks, token, tasks, fresh)


def _product_task(v: Variant, pj: ProductJob, scene_tasks: dict, token: str, tasks: dict,
                  fresh: list) -> None:
    unit = Unit(v, pj.product.name, product=pj)
    if pj.fresh:
        fresh.append(unit)
        return
    key = f"{pj.product.name}-{pj.digest[:16]}-{token}"
    if key not in tasks:
        inputs = [(scene_tasks[j.id], None) if j.id in scene_tasks else (None, Unit(v, j.key, job=j))
                  for j in pj.jobs]
        tasks[key] = Task(key, [], product=pj.product, args=pj.args, inputs=inputs)
    tasks[key].units.append(unit)


def expand(batch_plan: BatchPlan, products: dict[str, Product]) -> Batch:
    """Plan every variant as the local commands would; group the stale units into tasks (identical work
    once)."""
    token = uuid.uuid4().hex[:8]  # per batch: another client's batch on the same scheduler never shares
    tasks: dict[str, Task] = {}
    fresh: list[Unit] = []
    for v in batch_plan.variants:
        _expand_variant(v, batch_plan, products, token, tasks, fresh)
    return Batch(batch_plan, fresh, list(tasks.values()), token)


def shown(path: Path) -> Path:
    """A path as the user would write it: relative to the current folder when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def _unit_line(u: Unit, stale: bool, v: Variant) -> str:
    if u.job is not None:
        return f"  {'would render' if stale else 'up to date  '} {u.what:<18} -> {u.job.main_file()}"
    target = u.product.product.label.format(format=v.options.format) or u.what
    return f"  {'would build ' if stale else 'up to date  '} {u.what:<18} -> {target}"


def describe(batch: Batch) -> list[str]:
    """A dry run: every unit of every variant, what would be done and where."""
    lines = []
    stale = {id(u) for u in batch.stale}
    by_variant: dict[str, list[Unit]] = {}
    for u in [*batch.stale, *batch.fresh]:
        by_variant.setdefault(str(u.out_dir), []).append(u)
    for v in batch.plan.variants:
        lines.append(str(shown(v.out_dir)))
        units = sorted(by_variant.get(str(v.out_dir), []), key=lambda u: (u.product is not None, u.what))
        lines += [_unit_line(u, id(u) in stale, v) for u in units]
    lines += [f"note: {n}" for n in batch.plan.notes]
    shared = sum(len(t.units) - 1 for t in batch.tasks)
    lines.append(f"{len(batch.stale)} to do in {len(batch.tasks)} tasks ({shared} shared between variants), "
                 f"{len(batch.fresh)} up to date, {len(batch.plan.variants)} variants")
    return lines
