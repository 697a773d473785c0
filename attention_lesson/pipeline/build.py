"""Bring one output folder up to date: plan its scene jobs and products, check the system, render what
is stale in worker processes, then make the products that are stale.

What `render`, `lesson`, `slides`, `handout`, `sheet` and `voice script` share: each names the scene
jobs' options (their kind: videos, slide clips, frames, posters or steps) and the products made of them
(pipeline/products.py). With nothing to do, nothing is rendered or written and manim is never imported.
Progress goes to an optional `Progress` (the CLI draws bars); problems the user must fix are raised as
`MissingDependencies`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from attention_core import Lesson
from scenes.common.i18n import lesson_title, phrase
from scenes.common.words import use_words

from . import manifest
from .plan import MEDIA, Job, RenderOptions, Result, Run, default_jobs, plan
from .products import Choices, Product, ProductArgs, ProductJob, job_options, make, plan_product

if TYPE_CHECKING:  # the drawing room is imported when something is to be drawn (a re-run has nothing)
    from .drawing.runner import Workers


class MissingDependencies(Exception):
    """System tools a render needs are not installed; each line names one and how to install it."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("missing system dependencies:\n  " + "\n  ".join(problems))


class BadInput(Exception):
    """Input the user must fix before anything renders (a recording named for no step, a file with no
    sound); one line each."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


class Progress(Protocol):
    def start(self, jobs: list[Job]) -> None: ...
    def step(self, scene_id: str, step: str) -> None: ...
    def done(self, result: Result) -> None: ...


@dataclass
class Report:
    out_dir: Path
    todo: list[Job]  # stale: rendered now (or, in a dry run, would be)
    fresh: list[Job]  # up to date, not rendered
    products: list[ProductJob] = field(default_factory=list)  # .fresh: up to date, not made again
    failures: list[Result] = field(default_factory=list)  # scenes and products that failed
    drafted: list[str] = field(default_factory=list)  # <scene>/<nn>-<step> spoken by the draft voice

    @property
    def written(self) -> list[Path]:
        """The files rendered or made now, in scene order, then the products'."""
        made = [f for p in self.products if not p.fresh for f in p.files or []]
        return [self.out_dir / f for j in self.todo for f in j.files] + [self.out_dir / f for f in made]

    order: list[str] = field(default_factory=list)  # the scenes' ids, in the order asked for

    @property
    def jobs(self) -> list[Job]:
        """Every scene job, in scene order."""
        return sorted(self.todo + self.fresh, key=lambda j: self.order.index(j.id))

    def files_of(self, product: str) -> list[Path]:
        return [self.out_dir / f for p in self.products if p.product.name == product for f in p.files or []]


def output_folder(options: RenderOptions, out: str | Path | None = None) -> Path:
    """--out, or media/<lesson>/<context>-<mode>-<lang>-<resolution><fps>[-light][-alpha][-voice]."""
    return Path(out) if out else MEDIA / options.folder_name()


def product_args(lesson: Lesson, jobs: list[Job], options: RenderOptions,
                 choices: Choices = Choices()) -> ProductArgs:
    """What every product of these scene jobs is told: scenes and titles in order, the lesson's title,
    author and file, the options (the theme among them); a voiced deck's start slide; the user's
    choices for one product."""
    lang = options.lang
    return ProductArgs(
        ids=tuple(j.id for j in jobs), titles=tuple(j.scene.title(lang) for j in jobs),
        file_format=options.format, fps=options.frame_rate, quality=options.quality,
        title=lesson_title(lesson, lang),
        author=lesson.author, lang=lang, context=options.context, mode=options.mode,
        lesson_name=Path(lesson.source).name, lesson_text=Path(lesson.source).read_text(encoding="utf-8"),
        start=phrase(lang, "common.deck_start") if options.voice else None, choices=choices,
        theme=options.theme, words=options.words)


def plan_all(lesson: Lesson, scenes, options: RenderOptions, out_dir: Path, products=(), run: Run = Run(),
             choices: Choices = Choices()) -> Report:
    """The scene jobs of `options` and the products made of them, each up to date or stale (run.force:
    all stale). A dry run computes no digest it need not: what has no manifest entry is stale, its digest
    left empty (plan)."""
    force, digests = run.force, not run.dry_run
    for p in products:
        assert p.made_from is None or job_options(options, p.made_from) == options, \
            f"{p.name} is not made of {options.kind} jobs"
    use_words(options.words)  # the scenes' titles the products list, in the teacher's words
    todo, fresh = plan(lesson, scenes, options, out_dir, force=force, digests=digests)
    report = Report(out_dir, todo, fresh, order=[s.id for s in scenes])
    args = product_args(lesson, report.jobs, options, choices) if products else None
    report.products = [plan_product(p, args, report.jobs, out_dir, force, digests) for p in products]
    return report


def system_problems(options: RenderOptions, products: list[Product]) -> list[str]:
    """What this machine lacks for these renders and products, each with its install command."""
    from .deps import missing

    join = any(p.needs_video for p in products)
    return missing({options.format}, options.transparent, join, options.voice) + \
        [problem for p in products if p.check is not None and (problem := p.check())]


def build(lesson: Lesson, scenes, options: RenderOptions, run: Run = Run(), *, products=(),
          progress: Progress | None = None, choices: Choices = Choices()) -> Report:
    """Bring one output folder up to date: render the scenes stale in it, then make the stale products
    (a dry run, or nothing stale: nothing written). Raises BadInput (a recording named for no step) or
    MissingDependencies (a system tool the render needs) before anything is drawn.

    Parameters
    ----------
    lesson : Lesson
        The lesson (`attention_core.load`).
    scenes : sequence of SceneInfo
        The scenes, in order (`scenes.registry.available(lesson)`, or some of them).
    options : RenderOptions
        What is made: the lesson file, context, mode, language, quality, voice, kind, theme, words.
    run : Run
        How: the folder (`out`; default media/<lesson>/<options>), workers, force, dry run, quiet.
    products : sequence of Product
        What is made of the scenes (pipeline/products.py: a lesson, a deck, a handout); none: scenes only.
    progress : Progress or None
        What is told of progress (the CLI's bars).
    choices : Choices
        The user's choices for a product (a sheet's columns, a handout's frames).

    Returns
    -------
    Report
        The folder, the scene jobs rendered (`todo`) and up to date (`fresh`), products, failures.

    Examples
    --------
    >>> from attention_core.lesson import load, resolve
    >>> from scenes.registry import available
    >>> lesson, options = load("default"), RenderOptions(lesson=str(resolve("default")), context="river")
    >>> report = build(lesson, available(lesson)[:2], options, Run(out="demo", dry_run=True))
    >>> [job.id for job in report.todo], report.fresh, report.failures
    (['overview', 'projection'], [], [])
    """
    _check_recordings(options, scenes)
    return _up_to_date(lesson, scenes, options, run, products, progress, choices)


def _check_recordings(options: RenderOptions, scenes) -> None:
    """Bad recordings stop everything before it starts (a silent build loads no voice)."""
    if options.voice:
        from .voice.recordings import recording_problems
        from .voice.speakers import is_folder

        if is_folder(options.voice) and (
                problems := recording_problems(Path(options.voice), options.lang, [s.id for s in scenes])):
            raise BadInput(problems)


def _up_to_date(lesson: Lesson, scenes, options: RenderOptions, run: Run, products,
                progress: Progress | None, choices: Choices) -> Report:
    """Plan, render what is stale in worker processes, make the stale products (`build`'s work)."""
    use_words(options.words)  # the titles, lists and pages made in this process read through them
    out_dir, jobs = output_folder(options, run.out), run.jobs or default_jobs()
    # a cold run (nothing rendered in its folder yet) forks its workers first: they import manim while
    # this process plans (a re-run may have nothing to do, and must not share the cores while it plans)
    started = None if run.dry_run or manifest.load(out_dir) else _workers(jobs, run.cache_root, run.quiet)
    try:
        report = plan_all(lesson, scenes, options, out_dir, products, run, choices)
        stale = [p for p in report.products if not p.fresh]
        if run.dry_run or not (report.todo or stale):
            return report
        problems = system_problems(options, [p.product for p in stale])
        if problems:
            raise MissingDependencies(problems)
        if report.todo:
            _render(report, jobs, run.cache_root, progress, run.quiet, started)
            started = None  # run closed them
    finally:
        if started is not None:
            started.close()
    if not report.failures:
        report.failures = [r for r in (make(p) for p in stale) if not r.ok]
    return report


def _workers(jobs: int, cache: Path, quiet: bool) -> Workers:
    from .drawing.runner import Workers

    return Workers(jobs, cache, quiet)


def _render(report: Report, jobs: int, cache: Path, progress: Progress | None, quiet: bool,
            started: Workers | None) -> None:
    from .drawing.runner import run

    hooks = {} if progress is None else {"on_step": progress.step, "on_done": progress.done}
    if progress is not None:
        progress.start(report.todo)
    results = run(report.todo, jobs, cache, quiet=quiet, started=started, **hooks)
    by_id = {r.id: r for r in results}
    for j in report.todo:
        j.files = by_id[j.id].files
    report.failures = [r for r in results if not r.ok]
    report.drafted = [d for r in results for d in r.drafted]
