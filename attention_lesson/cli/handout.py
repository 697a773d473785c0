"""`attention-lesson handout [SCENE... | --all]`: the classroom handout, handout.html and handout.pdf."""

from __future__ import annotations

import click

from .options import (
    all_option,
    in_lesson_order,
    lang_option,
    lesson_options,
    make_options,
    out_option,
    pick_scenes,
    quality_option,
    run_options_without_out,
)
from .render import execute


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@all_option
@lesson_options
@lang_option
@quality_option("medium", "Resolution of the frames (medium: 720p, sharp enough for A4).")
@out_option("Output folder (default: the videos' folder of the same options).")
@run_options_without_out
def handout(ids, all_, lesson, context, mode, lang, quality, out, jobs, force, dry_run, quiet):
    """A printable handout that follows the video step by step: a one-page summary, every step's last
    frame with its narration and numbers, exercises from the lesson with their answers; as
    handout.html (frames beside it in frames/) and handout.pdf (A4, printed by chromium)."""
    from ..outputs.products import HANDOUT

    scenes = in_lesson_order(pick_scenes(ids, all_ or not ids))
    options = make_options(lesson, context, mode, lang, quality, None, file_format="png", kind="frames")
    execute(lesson, scenes, options, out, jobs, force, dry_run, quiet, products=[HANDOUT])
