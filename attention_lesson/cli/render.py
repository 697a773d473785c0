"""`attention-lesson render ID... | --all`: render scenes, incrementally and in parallel."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.registry import available

from ..pipeline.build import MissingDependencies, Report, build, output_folder
from ..pipeline.plan import RenderOptions
from ..pipeline.runner import default_jobs
from .options import LessonFileError, check_context, load_lesson, render_options
from .progress import Bars


def pick_scenes(ids: tuple[str, ...], all_: bool):
    by_id = {s.id: s for s in available()}
    valid = list(by_id)
    if all_ or not ids:
        if not all_:
            raise click.UsageError("name one or more scenes, or --all. Scenes: " + ", ".join(valid))
        return list(available())
    unknown = [i for i in ids if i not in valid]
    if unknown:
        raise click.BadParameter(
            f"unknown scene {', '.join(map(repr, unknown))}; valid ids: {', '.join(valid)}",
            param_hint="ID",
        )
    return [by_id[i] for i in ids]


def check_voice(voice: str | None) -> str | None:
    """None, "draft" or the resolved path of an existing recordings folder (else a usage error)."""
    if voice is None or voice == "draft":
        return voice
    folder = Path(voice)
    if not folder.is_dir():
        raise click.BadParameter(f"{voice!r} is neither 'draft' nor a folder of recordings "
                                 "(DIR/<lang>/<scene>/<nn>-<step>.wav ...)", param_hint="--voice")
    return str(folder.resolve())


def make_options(lesson, context, mode, lang, quality, fps, file_format="mp4", transparent=False,
                 sections=False, slides=False, voice=None) -> RenderOptions:
    """The render options of a command line, checked (a usage error, exit 2, if inconsistent)."""
    if transparent and file_format not in ("webm", "mov", "png"):
        raise click.BadParameter("an alpha channel needs --format webm, mov or png",
                                 param_hint="--transparent")
    return RenderOptions(str(Path(lesson.source).resolve()), check_context(lesson, context), mode,
                         lang, quality, fps, file_format, transparent, sections, slides, check_voice(voice))


def execute(lesson, scenes, options: RenderOptions, out: str | None, jobs: int | None, force: bool,
            dry_run: bool, quiet: bool, join: bool = False) -> Report:
    """Bring the scenes up to date, printing what a user needs: a dry run's plan, progress bars,
    failures with their errors, one summary line."""
    out_dir = output_folder(options, out)
    if options.voice not in (None, "draft"):  # bad recordings stop everything before it starts
        from ..pipeline.voice import recording_problems

        problems = recording_problems(Path(options.voice), options.lang, [s.id for s in scenes])
        if problems:
            raise LessonFileError("\n".join(problems))
    try:
        with Bars(quiet) as bars:
            report = build(lesson, scenes, options, out_dir, jobs=jobs or default_jobs(), force=force,
                           dry_run=dry_run, join=join, progress=bars, quiet=quiet)
    except MissingDependencies as e:
        raise click.ClickException(str(e)) from None
    if dry_run:
        for j in report.todo:
            click.echo(f"would render {j.id} -> {out_dir / j.main_file()}")
        for j in report.fresh:
            click.echo(f"up to date   {j.id} -> {out_dir / j.main_file()}")
        return report
    if report.drafted:  # a recordings folder without some steps: say which, even when quiet
        click.echo(f"no recording for {len(report.drafted)} steps, the draft voice speaks them: "
                   + ", ".join(report.drafted), err=True)
    if not quiet:
        rendered = len(report.todo) - len(report.failures)
        click.echo(f"{rendered} rendered, {len(report.fresh)} up to date, {len(report.failures)} "
                   f"failed -> {out_dir}")
    return report


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "all_", is_flag=True, help="Every scene of the lesson, in order.")
@render_options
def render(ids, all_, lesson, context, mode, lang, quality, fps, file_format, transparent, sections,
           voice, out, jobs, force, dry_run, quiet):
    """Render scenes: `render scores softmax` or `render --all`."""
    scenes = pick_scenes(ids, all_)
    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, quality, fps, file_format, transparent, sections,
                           voice=voice)
    report = execute(les, scenes, options, out, jobs, force, dry_run, quiet)
    for path in report.written:
        click.echo(str(path))
    if report.failures:
        raise SystemExit(1)
