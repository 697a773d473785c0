"""`attention-lesson render ID... | --all`: render scenes, incrementally and in parallel. The build and
what is printed of it are report.py's `execute`, as for every rendering command."""

from __future__ import annotations

import click

from .options import (
    all_option,
    load_lesson,
    make_options,
    pick_scenes,
    render_options,
)
from .report import execute


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@all_option
@render_options
def render(ids, all_, lesson, context, mode, lang, theme, quality, fps, file_format, transparent, sections,
           voice, out, jobs, force, dry_run, quiet):
    """Render scenes: `render scores softmax` or `render --all`."""
    les = load_lesson(lesson)
    scenes = pick_scenes(ids, all_, les)
    options = make_options(les, context, mode, lang, quality, fps, file_format, transparent, sections, voice,
                           theme=theme)
    execute(les, scenes, options, out, jobs, force, dry_run, quiet)
