"""`attention-lesson lesson`: every scene in order, joined into one video with chapters."""

from __future__ import annotations

import click

from .options import build_options, render_options
from .report import execute


@click.command()
@render_options
@build_options()
def lesson(lesson, options, run):
    """Render the whole lesson and join it: lesson.<ext>, lesson.chapters.vtt, lesson.srt."""
    from scenes.registry import available

    from ..outputs.registry import LESSON

    if options.format == "png":
        raise click.BadParameter("a joined lesson needs a video format (mp4, webm, mov or gif)",
                                 param_hint="--format")
    execute(lesson, list(available(lesson)), options, run, products=[LESSON])
