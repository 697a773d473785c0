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
@click.option("--explorer-url", "explorer_url", metavar="URL", default=None,
              help="The address printed as the handout's QR code for the explorer; default the relative "
                   "path explorer/index.html.")
@run_options_without_out
def handout(ids, all_, lesson, context, mode, lang, quality, out, explorer_url, jobs, force, dry_run, quiet):
    """A printable handout that follows the video step by step: a one-page summary (with a QR code for
    the explorer), every step's last frame with its narration and numbers, exercises from the lesson
    with their answers; as handout.html (frames beside it in frames/) and handout.pdf (A4, printed by
    chromium)."""
    from ..outputs.products import EXPLORER, HANDOUT

    scenes = in_lesson_order(pick_scenes(ids, all_ or not ids))
    options = make_options(lesson, context, mode, lang, quality, None, file_format="png", kind="frames")
    extra = (("explorer_url", explorer_url),) if explorer_url else ()  # in the handout's digest
    execute(lesson, scenes, options, out, jobs, force, dry_run, quiet, products=[HANDOUT, EXPLORER], extra=extra)
