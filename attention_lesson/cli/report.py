"""The CLI's reporter: what a user reads of a build or a batch. `execute` is what every rendering command
(render, lesson, slides, handout, sheet, explorer) runs once its options are parsed: the pipeline's build
with progress bars, then a dry run's plan or the outcome (failures with their errors, a summary line,
the files written). `execute_batch` is the same for `batch`. The commands only parse options and call
these; the work is the pipeline's."""

from __future__ import annotations

import click

from ..pipeline.build import BadInput, MissingDependencies, Report, build, output_folder
from ..pipeline.plan import Run
from ..pipeline.products import Choices
from . import interrupted
from .options import LessonFileError
from .progress import Bars, BatchBar


def run_build(lesson, scenes, options, run: Run = Run(), **kwargs) -> Report:
    """The pipeline's build with progress bars (none when quiet), its problems as one-line errors; a
    Ctrl-C one line and exit status 130, once the build has stopped its workers and removed what they
    left half-written."""
    try:
        with Bars(run.quiet, getattr(options, "lang", None)) as bars:
            return build(lesson, scenes, options, run, progress=bars, **kwargs)
    except KeyboardInterrupt:
        raise interrupted(output_folder(options, run.out)) from None
    except MissingDependencies as e:  # one line a tool, exit 2, before anything starts
        raise LessonFileError("\n".join(e.problems)) from None
    except BadInput as e:
        raise LessonFileError("\n".join(e.problems)) from None


def execute(lesson, scenes, options, run: Run = Run(), products=(), choices: Choices = Choices()) -> Report:
    """Bring the scenes and products up to date as `run` says, printing a dry run's plan, progress bars,
    failures with their errors, a summary line and the files written; exit 1 if anything failed."""
    report = run_build(lesson, scenes, options, run, products=products, choices=choices)
    lang = said_in(options)
    if run.dry_run:
        print_plan(report, lang)
        return report
    print_outcome(report, run.quiet, lang)
    if report.failures:
        raise SystemExit(1)
    return report


def said_in(options) -> str:
    """The language of a build's messages: its options' (the command's, attention_core.language)."""
    from attention_core.language import message_lang

    return message_lang(getattr(options, "lang", None))


def print_plan(report: Report, lang: str) -> None:
    from ..pipeline.states import state_word

    for jobs, state in ((report.todo, "batch_would_render"), (report.fresh, "batch_up_to_date")):
        for j in jobs:
            click.echo(f"{state_word(state, lang)} {j.id} -> {report.out_dir / j.main_file()}")
    for p in report.products:
        label = p.product.label.format(format=p.args.file_format)
        state = state_word("batch_up_to_date" if p.fresh else "batch_would_build", lang)
        click.echo(f"{state} {p.product.name} -> {report.out_dir / label}")


def print_outcome(report: Report, quiet: bool, lang: str) -> None:
    from attention_core.errors import text

    sep = list_sep(lang)
    if report.drafted:  # a recordings folder without some steps: say which, even when quiet
        from ..pipeline.voice.speakers import speaker_for

        o = report.jobs[0].options
        voice = speaker_for(o.voice, o.lang).label
        click.echo(text(lang, "render_drafted", n=len(report.drafted), voice=voice,
                        steps=sep.join(report.drafted)), err=True)
    scene_ids = {j.id for j in report.todo}
    for f in report.failures:
        if f.id not in scene_ids:  # a scene's failure is printed with the progress bars
            click.echo(text(lang, "render_failed", id=f.id, error=f.error), err=True)
    if report.failures and report.products:
        names = sep.join(p.product.name for p in report.products if not p.fresh)
        click.echo(text(lang, "render_not_made", names=names), err=True)
    if not quiet:
        click.echo(summary_line(report, scene_ids, lang))
    for path in report.written:
        click.echo(str(path))


def list_sep(lang: str) -> str:
    from attention_core.messages import MESSAGES

    return MESSAGES[lang]["list_sep"]


def summary_line(report: Report, scene_ids: set[str], lang: str) -> str:
    """`N rendered, N up to date, N failed` (when the build has scenes), what was made, -> the folder; in
    the build's language."""
    from attention_core.errors import text

    failed = len([f for f in report.failures if f.id in scene_ids])
    scenes = text(lang, "render_summary", rendered=len(report.todo) - failed, fresh=len(report.fresh),
                  failed=failed)
    parts = ([scenes] if report.order else []) + ([made_line(report, lang)] if report.products else [])
    return list_sep(lang).join(parts) + f" -> {report.out_dir}"


def made_line(report: Report, lang: str) -> str:
    from attention_core.errors import text

    made = [p.product.name for p in report.products if not p.fresh and not report.failures]
    fresh = [p.product.name for p in report.products if p.fresh]
    said = [*(text(lang, "render_made", name=n) for n in made),
            *(text(lang, "render_fresh", name=n) for n in fresh)]
    return list_sep(lang).join(said) or text(lang, "render_nothing")


CONFIRM_OVER = 500  # clips to render: a batch of more asks before it starts (--yes: it does not)


def print_batch_plan(work, lang: str = "en", listed: bool = False) -> None:
    """A batch's dry run: what the plan comes to and, `listed`, every job and whether it is up to date
    (its words in `lang`)."""
    from ..pipeline import batch as B

    click.echo("\n".join(B.describe(work, lang, listed)))


def interactive() -> bool:
    """Whether there is someone to ask: standard input is a terminal."""
    import sys

    return sys.stdin.isatty()


def confirm_batch(work, yes: bool, lang: str = "en") -> None:
    """Ask before a batch of more than CONFIRM_OVER clips to render starts (default no: click.Abort,
    exit 1); with no terminal to ask in, refuse in one line (exit 2) unless `yes`."""
    from attention_core.errors import text

    clips = sum(u.job is not None for u in work.stale)
    if yes or clips <= CONFIRM_OVER:
        return
    said = {"clips": clips, "tasks": len(work.tasks), "limit": CONFIRM_OVER}
    if not interactive():
        raise LessonFileError(text(lang, "batch_needs_yes", **said))
    click.confirm(text(lang, "batch_confirm", **said), default=False, abort=True, err=True)


def execute_batch(work, products: dict, scheduler: str | None, workers: int, quiet: bool,
                  lang: str = "en") -> None:
    """Run an expanded batch (pipeline.batch) with its bar, printing the plan's notes, the Dask
    dashboard, failures and a summary line (none of them but the failures when quiet), in `lang`; exit
    1 if anything failed, 2 if the cluster did (no scheduler, a worker that died)."""
    from attention_core.errors import text

    from ..pipeline import batch as B

    out = B.shown(work.plan.out)
    for line in [] if quiet else B.note_lines(work.plan.notes, lang):
        click.echo(line, err=True)
    if not work.tasks:
        return None if quiet else click.echo(text(lang, "batch_nothing", fresh=len(work.fresh), out=out))
    try:
        with BatchBar(quiet) as bar:
            report = B.execute(work, products, scheduler, workers, quiet, bar,
                               lambda link, waiting: quiet or _ready(link, waiting, lang))
    except B.BatchError as e:  # no scheduler at that address, a worker without the tools: exit 2
        raise LessonFileError(e.message(lang)) from None
    for f in report.failures:
        click.echo(failure_line(f, lang), err=True)
    if not quiet:
        click.echo(batch_summary(report, out, lang))
    if report.failures:  # 2 when the cluster failed (a worker died, the scheduler lost a task)
        raise SystemExit(2 if any(B.cluster_failure(f.error) for f in report.failures) else 1)


def failure_line(f, lang: str) -> str:
    """What failed where, in `lang`: the error as the worker wrote it (lines and all), or, for the
    cluster's failures (a worker that died, a task lost), what happened in the teacher's words."""
    from attention_core.errors import text

    from ..pipeline.batch import cluster_failure

    if code := cluster_failure(f.error):
        return text(lang, code, what=f.what, variant=f.variant)
    return text(lang, "batch_failed", what=f.what, variant=f.variant, error=_ERROR).replace(_ERROR, f.error)


_ERROR = "\ue00f"  # where a failure's error goes, after the line is tidied (its newlines kept)


def _ready(dashboard: str | None, waiting: bool, lang: str = "en") -> None:
    from attention_core.errors import text

    if waiting:
        click.echo(text(lang, "batch_waiting"), err=True)
    if dashboard:
        click.echo(text(lang, "batch_dashboard", link=dashboard), err=True)


def batch_summary(report, out, lang: str = "en") -> str:
    """`N done, N up to date, N failed in S s (N tasks on N workers; Dask's overhead) -> out`, in `lang`."""
    from attention_core.errors import Said, ph, text

    gap, busy = report.overhead()
    dask = (ph("batch_dask_gap", ms=f"{1000 * gap:.0f}", pct=f"{100 * gap / busy:.2f}")
            if report.gaps() and busy else Said(""))
    return text(lang, "batch_done", done=len(report.done), fresh=len(report.fresh),
                failed=len(report.failures), wall=f"{report.wall:.1f}", tasks=report.tasks,
                workers=report.workers, dask=dask, out=out)
