"""`attention-lesson render ID... | --all`: render scenes, incrementally and in parallel. The build and
what is printed of it are report.py's `execute`, as for every rendering command."""

from __future__ import annotations

import click

from .options import all_option, build_options, render_options
from .report import execute
from .scene_choice import pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@all_option
@render_options
@build_options()
def render(ids, all_, lesson, options, run):
    """Render scenes: `render scores softmax` or `render --all`."""
    execute(lesson, pick_scenes(ids, all_, lesson), options, run)
