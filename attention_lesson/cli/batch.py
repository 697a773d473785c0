"""`attention-lesson batch PLAN.toml`: every variant a plan file names, rendered as one Dask task graph
on a local cluster (one single-threaded worker process per core) or on an existing cluster. The work is
attention_lesson/pipeline/batch/, what is printed of it report.py's; this module parses the options."""

from __future__ import annotations

from pathlib import Path

import click

from attention_core.errors import text
from attention_core.language import LangError

from .options import LessonFileError, dry_run_option, lang_option, quiet_option
from .report import CONFIRM_OVER, confirm_batch, execute_batch, print_batch_plan


@click.command("batch")
@click.argument("plan_file", metavar="PLAN.toml", type=click.Path(dir_okay=False))
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="A running Dask scheduler, e.g. tcp://host:8786 (default: a local cluster).")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Worker processes of the local cluster (default: the number of cores).")
@dry_run_option.but(help="What the plan comes to (variants, scenes, clips, what is made already) and the "
                         "critical path's estimated wall time on the workers; render nothing.")
@click.option("--list", "listed", is_flag=True,
              help="With --dry-run: every job of every variant, and whether it is up to date.")
@click.option("-y", "--yes", is_flag=True,
              help=f"Start without asking, however many clips (a batch of more than {CONFIRM_OVER} asks; "
                   "with no terminal to ask in, it refuses).")
@quiet_option.but(help="No progress bar, no Dask messages, no summary.")
@lang_option.but(help="Language of the notes and the dry run (default: the plan's first language, else "
                      "$ATTENTION_LESSON_LANG, else zh).")
def batch_command(plan_file, scheduler, workers, dry_run, quiet, lang, **asked):
    """Render every variant a plan file names (lessons x contexts x modes x languages x qualities x
    formats; scenes, joined lesson, decks, handout, contact sheet) on Dask. Each variant lands in its
    own folder under the plan's `out`, named as `render` names it; what is up to date is not rendered
    again."""
    from ..pipeline.deps import extra_missing

    if packages := extra_missing("batch"):
        from attention_core.errors import text as said
        from attention_core.language import message_lang

        raise LessonFileError(said(message_lang(lang), "batch_needs_dask", packages=", ".join(packages)))
    from ..outputs.registry import PRODUCTS
    from ..pipeline import batch as B
    from ..pipeline.plan import default_jobs

    plan, lang = _read(Path(plan_file), scheduler, workers, lang)
    work = B.expand(plan, PRODUCTS, digests=False)  # what is to do, without a digest it need not compute
    if dry_run:
        print_batch_plan(work, lang, asked["listed"])
        click.echo("\n".join(B.critical_path(work, scheduler, workers or default_jobs(), lang)))
        if not asked["listed"]:
            click.echo(text(lang, "batch_list_hint"))
        return
    confirm_batch(work, asked["yes"], lang)  # (--list and --yes: the 7 parameters' bound)
    work = B.expand(plan, PRODUCTS)  # the same tasks, each job with the digest its manifest entry keeps
    execute_batch(work, PRODUCTS, scheduler, workers or default_jobs(), quiet, lang)


def _read(plan_file: Path, scheduler: str | None, workers: int | None, lang: str | None):
    """The plan, read and checked, and the language the batch speaks; one line and exit 2 for a plan
    that cannot run, a scheduler's address that is none, both --scheduler and --workers."""
    from scenes.registry import existing

    from ..outputs.registry import PRODUCTS
    from ..pipeline import batch as B

    if scheduler and workers:
        raise click.UsageError(text(B.error_lang(plan_file, lang), "batch_workers_or_scheduler"))
    try:
        plan = B.read_plan(plan_file, list(existing()), PRODUCTS)
    except B.PlanError as e:  # FILE:LINE: key: what is wrong, in the teacher's language
        raise LessonFileError(e.message(B.error_lang(plan_file, lang)), bare=True) from None
    try:
        lang = B.plan_lang(plan, lang)
    except LangError as e:
        raise LessonFileError(str(e)) from None
    try:
        if scheduler:
            B.check_address(scheduler)
    except B.BatchError as e:  # before a dry run asks it for its threads, too
        raise LessonFileError(e.message(lang)) from None
    return plan, lang
