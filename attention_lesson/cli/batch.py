"""`attention-lesson batch PLAN.toml`: every variant a plan file names, rendered as one Dask task graph
on a local cluster (one single-threaded worker process per core) or on an existing cluster."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from scenes.registry import available

from .options import LessonFileError

HANDOUT_MODULE = "attention_lesson.outputs.handout"


# -- products made from the scenes (module-level: Dask sends them to the workers by reference) --------

def _deck(folder: Path, args, to: str) -> list[str]:
    from ..outputs.deck import DECK_PPTX, build_deck

    build_deck(folder, list(args.ids), to, args.title, args.author, args.lang)
    if to == "pptx":
        return [DECK_PPTX]
    return sorted(str(p.relative_to(folder)) for p in (folder / "deck").rglob("*") if p.is_file())


def deck_html(folder: Path, args) -> list[str]:
    return _deck(folder, args, "html")


def deck_pptx(folder: Path, args) -> list[str]:
    return _deck(folder, args, "pptx")


def handout(folder: Path, args) -> list[str]:
    from ..outputs.handout import build_handout

    paths = build_handout(folder, args.lesson(), args.context, args.mode, args.lang, list(args.ids), args.title)
    return sorted(str(Path(p).resolve().relative_to(folder.resolve())) for p in paths)


def products():
    """The products a plan may name, and those known but not available here (with why)."""
    from ..pipeline.batch import FRAMES, LESSON, SLIDES, Product

    deck_code = ("attention_lesson/outputs/deck.py", "attention_lesson/pipeline/slides.py", "package-lock.json")
    found = {
        "lesson": LESSON,
        "html": Product("html", deck_html, SLIDES, folder="deck", code=deck_code, label="deck/index.html"),
        "pptx": Product("pptx", deck_pptx, SLIDES, code=deck_code, label="deck.pptx"),
    }
    unavailable = {}
    if importlib.util.find_spec(HANDOUT_MODULE) is not None:
        found["handout"] = Product("handout", handout, FRAMES, code=("attention_lesson/outputs/handout.py",),
                                   label="handout.html, handout.pdf")
    else:
        unavailable["handout"] = "this version has no handout yet (attention_lesson/outputs/handout.py)"
    return found, unavailable


def reveal_problem():
    from ..outputs.deck import reveal_missing

    return reveal_missing()


def handout_problem():
    from ..outputs.handout import engine_missing

    return engine_missing()


# -- progress ----------------------------------------------------------------------------------------

class BatchBar:
    """One bar for the whole batch (rich, on stderr): done, running, skipped and failed outputs."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.progress = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
        return False

    def start(self, total: int, skipped: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.skipped = skipped
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=Console(stderr=True), disable=self.quiet)
        self.progress.__enter__()
        self.task = self.progress.add_task(self._text(0, 0, 0), total=total, completed=skipped)

    def _text(self, done: int, running: int, failed: int) -> str:
        return f"batch: {done} done, {running} running, {self.skipped} skipped, {failed} failed"

    def update(self, done: int, running: int, failed: int) -> None:
        self.progress.update(self.task, completed=self.skipped + done + failed,
                             description=self._text(done, running, failed))


# -- the command -------------------------------------------------------------------------------------

@click.command("batch")
@click.argument("plan_file", metavar="PLAN.toml", type=click.Path(dir_okay=False))
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="A running Dask scheduler, e.g. tcp://host:8786 (default: a local cluster).")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Worker processes of the local cluster (default: the number of cores).")
@click.option("--dry-run", is_flag=True, help="List every job and whether it is up to date; render nothing.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar, no Dask messages, no summary.")
def batch_command(plan_file, scheduler, workers, dry_run, quiet):
    """Render every variant a plan file names (lessons x contexts x modes x languages x qualities x
    formats; scenes, joined lesson, decks) on Dask. Each variant lands in its own folder under the
    plan's `out`, named as `render` names it; what is up to date is not rendered again."""
    from ..pipeline import batch as B
    from ..pipeline.runner import default_jobs

    if scheduler and workers:
        raise click.UsageError("--workers sizes the local cluster; with --scheduler the cluster's own "
                               "workers render")
    found, unavailable = products()
    try:
        plan = B.read_plan(Path(plan_file), list(available()), found, unavailable)
    except B.PlanError as e:
        raise LessonFileError(str(e)) from None
    work = B.expand(plan, found)
    if dry_run:
        for line in B.describe(work):
            click.echo(line)
        return
    for note in plan.notes:
        if not quiet:
            click.echo(f"note: {note}", err=True)
    if not work.tasks:
        if not quiet:
            click.echo(f"0 done, {len(work.fresh)} up to date, 0 failed -> {B.shown(plan.out)}")
        return
    checks = tuple(c for name, c in (("html", reveal_problem), ("handout", handout_problem))
                   if name in plan.products)
    formats = sorted({v.options.format for v in plan.variants})
    join = "lesson" in plan.products
    if scheduler is None and (problems := B.worker_problems(formats, join, checks)):
        raise click.ClickException("missing on this machine:\n  " + "\n  ".join(problems))
    try:
        with B.connect(scheduler, workers or default_jobs(), quiet) as (client, dashboard):
            if scheduler is not None:
                found_problems = client.run(B.worker_problems, formats, join, checks)
                lines = [f"{w}: {p}" for w, ps in sorted(found_problems.items()) for p in ps]
                if lines:
                    raise click.ClickException("missing on workers:\n  " + "\n  ".join(lines))
                if not found_problems and not quiet:
                    click.echo("the scheduler has no workers yet: waiting for some", err=True)
            if dashboard and not quiet:
                click.echo(f"Dask dashboard: {dashboard}", err=True)
            with BatchBar(quiet) as bar:
                report = B.run(work, client, quiet=quiet, progress=bar,
                               cache=None if scheduler else B.local_cache())
    except B.BatchError as e:
        raise click.ClickException(str(e)) from None
    for f in report.failures:
        click.echo(f"{f.what} failed in {f.variant}: {f.error}", err=True)
    if not quiet:
        gap, busy = report.overhead()
        dask = (f"; Dask between tasks: {1000 * gap:.0f} ms, {100 * gap / busy:.2f}% of a task"
                if report.gaps() and busy else "")
        click.echo(f"{len(report.done)} done, {len(report.fresh)} up to date, {len(report.failures)} failed "
                   f"in {report.wall:.1f} s ({report.tasks} tasks on {report.workers} workers{dask}) "
                   f"-> {B.shown(plan.out)}")
    if report.failures:
        raise SystemExit(1)
