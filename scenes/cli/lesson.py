"""`attention-lesson lesson`: every scene in order, joined into one video with chapters."""

from __future__ import annotations

import click

from ..common.i18n import catalog
from ..registry import available
from .options import load_lesson, render_options
from .render import build_options, execute


@click.command()
@render_options
def lesson(lesson, context, mode, lang, quality, fps, fmt, transparent, sections, out, jobs, force,
           dry_run, quiet):
    """Render the whole lesson and join it: lesson.<ext>, lesson.chapters.vtt, lesson.srt."""
    if fmt == "png":
        raise click.BadParameter("a joined lesson needs a video format (mp4, webm, mov or gif)",
                                 param_hint="--format")
    les = load_lesson(lesson)
    options = build_options(les, context, mode, lang, quality, fps, fmt, transparent, sections)
    scenes = list(available())
    out_dir, rendered, _, failures = execute(scenes, options, out, jobs, force, dry_run, quiet,
                                             join=True)
    if dry_run:
        click.echo(f"would join {len(scenes)} scenes -> {out_dir / f'lesson.{fmt}'}")
        return
    for j in rendered:
        for f in j.files:
            click.echo(str(out_dir / f))
    if failures:
        click.echo("not joined: some scenes failed", err=True)
        raise SystemExit(1)
    from ..pipeline.join import join

    title = les.title.get(lang) or catalog(lang)("common.lesson_title")
    for name in join(out_dir, [s.id for s in scenes], fmt, title, options.frame_rate):
        click.echo(str(out_dir / name))
