"""`attention-lesson handout [SCENE... | --all]`: the classroom handout, handout.html and handout.pdf."""

from __future__ import annotations

import click

from ..outputs.files import FRAME_LAYOUTS, HANDOUT_THEME, KEY_FRAMES
from .options import (
    all_option,
    any_lang_option,
    build_options,
    lesson_options,
    out_option,
    quality_option,
    run_options_without_out,
    theme_option,
)
from .report import execute
from .scene_choice import in_lesson_order, pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@all_option
@lesson_options
@any_lang_option
@theme_option(HANDOUT_THEME)
@quality_option("medium", "Resolution of the frames (medium: 720p, sharp enough for A4).")
@click.option("--frames", "frames", type=click.Choice(FRAME_LAYOUTS), default=KEY_FRAMES, show_default=True,
              help="key: each scene on one page, its steps' frames as numbered thumbnails; all: every "
                   "step's frame large (more pages).")
@out_option("Output folder (default: the videos' folder of the same options).")
@click.option("--explorer-url", "explorer_url", metavar="URL", default=None,
              help="The explorer's published address (e.g. https://...): printed as a link and a QR code on "
                   "the summary page. Without it the page links the relative path explorer/index.html "
                   "and prints no QR code (a phone cannot open a relative path).")
@run_options_without_out
@build_options("frames", file_format="png")
def handout(ids, all_, lesson, options, run, frames, explorer_url):
    """A printable handout that follows the video step by step: a one-page summary (with a link to the
    explorer, and its QR code when --explorer-url gives its address), each scene on a page (its steps'
    frames with their narration, its numbers), exercises from the lesson with their answers; as
    handout.html (frames beside it in frames/) and handout.pdf (A4, printed by chromium). Light frames
    by default: little ink, and greys that print apart."""
    from ..outputs.registry import EXPLORER, HANDOUT
    from ..pipeline.products import Choices

    scenes = in_lesson_order(pick_scenes(ids, all_ or not ids, lesson))
    choices = Choices(handout_frames=frames, explorer_url=explorer_url or None)  # in its digest
    execute(lesson, scenes, options, run, products=[HANDOUT, EXPLORER], choices=choices)
