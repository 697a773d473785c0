"""`attention-lesson batch PLAN.toml`: every variant a plan file names, rendered as one Dask task graph
on a local cluster (one single-threaded worker process per core) or on an existing cluster. The work is
attention_lesson/pipeline/batch/; this module parses the options and prints."""

from __future__ import annotations

from pathlib import Path

import click

from .options import LessonFileError


class BatchBar:
    """One bar for the whole batch (rich, on stderr): done, to do, skipped and failed outputs."""

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
        self.task = self.progress.add_task(self._text(0, total - skipped, 0), total=total, completed=skipped)

    def _text(self, done: int, left: int, failed: int) -> str:
        return f"batch: {done} done, {left} to do, {self.skipped} skipped, {failed} failed"

    def update(self, done: int, left: int, failed: int) -> None:
        self.progress.update(self.task, completed=self.skipped + done + failed,
                             description=self._text(done, left, failed))


def _ready(dashboard: str | None, waiting: bool) -> None:
    if waiting:
        click.echo("the scheduler has no workers yet: waiting for some", err=True)
    if dashboard:
        click.echo(f"Dask dashboard: {dashboard}", err=True)


def _summary(report, out) -> str:
    gap, busy = report.overhead()
    dask = (f"; Dask between tasks: {1000 * gap:.0f} ms, {100 * gap / busy:.2f}% of a task"
            if report.gaps() and busy else "")
    return (f"{len(report.done)} done, {len(report.fresh)} up to date, {len(report.failures)} failed "
            f"in {report.wall:.1f} s ({report.tasks} tasks on {report.workers} workers{dask}) -> {out}")


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
    formats; scenes, joined lesson, decks, handout, contact sheet) on Dask. Each variant lands in its
    own folder under the plan's `out`, named as `render` names it; what is up to date is not rendered
    again."""
    from scenes.registry import available

    from ..outputs.products import PRODUCTS
    from ..pipeline import batch as B
    from ..pipeline.runner import default_jobs

    if scheduler and workers:
        raise click.UsageError("--workers sizes the local cluster; with --scheduler the cluster's own "
                               "workers render")
    try:
        plan = B.read_plan(Path(plan_file), list(available()), PRODUCTS)
    except B.PlanError as e:
        raise LessonFileError(str(e)) from None
    work = B.expand(plan, PRODUCTS)
    if dry_run:
        click.echo("\n".join(B.describe(work)))
        return
    for note in [] if quiet else plan.notes:
        click.echo(f"note: {note}", err=True)
    if not work.tasks:
        return None if quiet else click.echo(f"0 done, {len(work.fresh)} up to date, 0 failed -> {B.shown(plan.out)}")

    try:
        with BatchBar(quiet) as bar:
            report = B.execute(work, PRODUCTS, scheduler, workers or default_jobs(), quiet, bar,
                               lambda link, waiting: quiet or _ready(link, waiting))
    except B.BatchError as e:
        raise click.ClickException(str(e)) from None
    for f in report.failures:
        click.echo(f"{f.what} failed in {f.variant}: {f.error}", err=True)
    if not quiet:
        click.echo(_summary(report, B.shown(plan.out)))
    if report.failures:
        raise SystemExit(1)
