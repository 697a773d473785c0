"""`attention-lesson render ID... | --all`: render scenes, incrementally and in parallel; and `execute`,
what every rendering command (render, lesson, slides, handout, sheet) runs: the pipeline's build, and
what a user needs to read of it printed."""

from __future__ import annotations

import click

from ..pipeline.build import BadInput, MissingDependencies, Report, build, output_folder
from ..pipeline.runner import default_jobs
from .options import LessonFileError, all_option, load_lesson, make_options, pick_scenes, render_options
from .progress import Bars


def run_build(lesson, scenes, options, out_dir, jobs: int | None = None, **kwargs) -> Report:
    """The pipeline's build with progress bars (none when quiet), its problems as one-line errors."""
    try:
        with Bars(kwargs.get("quiet", False)) as bars:
            return build(lesson, scenes, options, out_dir, jobs=jobs or default_jobs(), progress=bars, **kwargs)
    except MissingDependencies as e:
        raise click.ClickException(str(e)) from None
    except BadInput as e:
        raise LessonFileError("\n".join(e.problems)) from None


def execute(lesson, scenes, options, out: str | None, jobs: int | None, force: bool, dry_run: bool,
            quiet: bool, products=(), extra: tuple = ()) -> Report:
    """Bring the scenes and products up to date, printing a dry run's plan, progress bars, failures
    with their errors, a summary line and the files written; exit 1 if anything failed."""
    report = run_build(lesson, scenes, options, output_folder(options, out), jobs, products=products, force=force,
                       dry_run=dry_run, quiet=quiet, extra=extra)
    if dry_run:
        print_plan(report)
        return report
    print_outcome(report, quiet)
    if report.failures:
        raise SystemExit(1)
    return report


def print_plan(report: Report) -> None:
    for j in report.todo:
        click.echo(f"would render {j.id} -> {report.out_dir / j.main_file()}")
    for j in report.fresh:
        click.echo(f"up to date   {j.id} -> {report.out_dir / j.main_file()}")
    for p in report.products:
        label = p.product.label.format(format=p.args.file_format)
        click.echo(f"{'up to date  ' if p.fresh else 'would build '} {p.product.name} -> {report.out_dir / label}")


def print_outcome(report: Report, quiet: bool) -> None:
    if report.drafted:  # a recordings folder without some steps: say which, even when quiet
        from ..pipeline.speakers import speaker_for

        o = report.jobs[0].options
        click.echo(f"no recording for {len(report.drafted)} steps, {speaker_for(o.voice, o.lang).label} speaks them: "
                   + ", ".join(report.drafted), err=True)
    scene_ids = {j.id for j in report.todo}
    for f in report.failures:
        if f.id not in scene_ids:  # a scene's failure is printed with the progress bars
            click.echo(f"{f.id} failed: {f.error}", err=True)
    if report.failures and report.products:
        click.echo(f"not made: {', '.join(p.product.name for p in report.products if not p.fresh)}", err=True)
    if not quiet:
        failed = len([f for f in report.failures if f.id in scene_ids])
        scenes = f"{len(report.todo) - failed} rendered, {len(report.fresh)} up to date, {failed} failed"
        parts = ([scenes] if report.order else []) + ([made_line(report)] if report.products else [])
        click.echo(", ".join(parts) + f" -> {report.out_dir}")
    for path in report.written:
        click.echo(str(path))


def made_line(report: Report) -> str:
    made = [p.product.name for p in report.products if not p.fresh and not report.failures]
    fresh = [p.product.name for p in report.products if p.fresh]
    return ", ".join([*(f"{n} made" for n in made), *(f"{n} up to date" for n in fresh)]) or "nothing made"


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@all_option
@render_options
def render(ids, all_, lesson, context, mode, lang, theme, quality, fps, file_format, transparent, sections,
           voice, out, jobs, force, dry_run, quiet):
    """Render scenes: `render scores softmax` or `render --all`."""
    scenes = pick_scenes(ids, all_)
    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, quality, fps, file_format, transparent, sections, voice,
                           theme=theme)
    execute(les, scenes, options, out, jobs, force, dry_run, quiet)
