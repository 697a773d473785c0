"""`attention-lesson lesson`: every scene in order, joined into one video with chapters."""

from __future__ import annotations

import click

from .options import load_lesson, make_options, render_options
from .report import execute


@click.command()
@render_options
def lesson(lesson, context, mode, lang, theme, quality, fps, file_format, transparent, sections, voice, out,
           jobs, force, dry_run, quiet):
    """Render the whole lesson and join it: lesson.<ext>, lesson.chapters.vtt, lesson.srt."""
    from scenes.registry import available

    from ..outputs.products import LESSON

    if file_format == "png":
        raise click.BadParameter("a joined lesson needs a video format (mp4, webm, mov or gif)",
                                 param_hint="--format")
    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, quality, fps, file_format, transparent, sections, voice,
                           theme=theme)
    execute(les, list(available(les)), options, out, jobs, force, dry_run, quiet, products=[LESSON])
