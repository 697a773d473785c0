"""`attention-lesson batch PLAN.toml`: every variant a plan file names, rendered as one Dask task graph
on a local cluster (one single-threaded worker process per core) or on an existing cluster. The work is
attention_lesson/pipeline/batch/, what is printed of it report.py's; this module parses the options."""

from __future__ import annotations

from pathlib import Path

import click

from attention_core.language import LangError

from .options import LessonFileError, dry_run_option, lang_option, quiet_option
from .report import execute_batch, print_batch_plan


@click.command("batch")
@click.argument("plan_file", metavar="PLAN.toml", type=click.Path(dir_okay=False))
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="A running Dask scheduler, e.g. tcp://host:8786 (default: a local cluster).")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Worker processes of the local cluster (default: the number of cores).")
@dry_run_option.but(help="List every job and whether it is up to date, and the critical path's estimated "
                         "wall time on the workers; render nothing.")
@quiet_option.but(help="No progress bar, no Dask messages, no summary.")
@lang_option.but(help="Language of the notes and the dry run (default: $ATTENTION_LESSON_LANG, else the "
                      "plan's first language, else zh).")
def batch_command(plan_file, scheduler, workers, dry_run, quiet, lang):
    """Render every variant a plan file names (lessons x contexts x modes x languages x qualities x
    formats; scenes, joined lesson, decks, handout, contact sheet) on Dask. Each variant lands in its
    own folder under the plan's `out`, named as `render` names it; what is up to date is not rendered
    again."""
    from scenes.registry import existing

    from ..pipeline.deps import extra_missing

    if packages := extra_missing("batch"):
        raise LessonFileError(f"batch runs on Dask, in the extra [batch] (missing: {', '.join(packages)}): "
                              "pip install 'attention-lesson[batch]'")
    from ..outputs.registry import PRODUCTS
    from ..pipeline import batch as B
    from ..pipeline.plan import default_jobs

    if scheduler and workers:
        from attention_core.errors import text

        raise click.UsageError(text(B.error_lang(Path(plan_file), lang), "batch_workers_or_scheduler"))
    try:
        plan = B.read_plan(Path(plan_file), list(existing()), PRODUCTS)
    except B.PlanError as e:  # FILE:LINE: key: what is wrong, in the teacher's language
        raise LessonFileError(e.message(B.error_lang(Path(plan_file), lang)), bare=True) from None
    try:
        lang = B.message_lang(plan, lang)
    except LangError as e:
        raise LessonFileError(str(e)) from None
    try:
        if scheduler:
            B.check_address(scheduler)
    except B.BatchError as e:  # before a dry run asks it for its threads, too
        raise LessonFileError(e.message(lang)) from None
    work = B.expand(plan, PRODUCTS)
    if dry_run:
        print_batch_plan(work, lang)
        click.echo("\n".join(B.critical_path(work, scheduler, workers or default_jobs(), lang)))
        return
    execute_batch(work, PRODUCTS, scheduler, workers or default_jobs(), quiet, lang)
