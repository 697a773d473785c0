"""`attention-lesson lesson`: every scene in order, joined into one video with chapters."""

from __future__ import annotations

import click

from scenes.common.i18n import lesson_title
from scenes.registry import available

from .options import load_lesson, render_options
from .render import execute, make_options


@click.command()
@render_options
def lesson(lesson, context, mode, lang, quality, fps, file_format, transparent, sections, voice, out,
           jobs, force, dry_run, quiet):
    """Render the whole lesson and join it: lesson.<ext>, lesson.chapters.vtt, lesson.srt."""
    if file_format == "png":
        raise click.BadParameter("a joined lesson needs a video format (mp4, webm, mov or gif)",
                                 param_hint="--format")
    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, quality, fps, file_format, transparent, sections,
                           voice=voice)
    scenes = list(available())
    report = execute(les, scenes, options, out, jobs, force, dry_run, quiet, join=True)
    if dry_run:
        click.echo(f"would join {len(scenes)} scenes -> {report.out_dir / f'lesson.{file_format}'}")
        return
    for path in report.written:
        click.echo(str(path))
    if report.failures:
        click.echo("not joined: some scenes failed", err=True)
        raise SystemExit(1)
    from ..pipeline.join import join

    for name in join(report.out_dir, [s.id for s in scenes], file_format, lesson_title(les, lang),
                     options.frame_rate):
        click.echo(str(report.out_dir / name))
