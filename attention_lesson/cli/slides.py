"""`attention-lesson slides [SCENE... | --all] --to html|pptx`: a deck, one slide per step."""

from __future__ import annotations

import click

from .options import all_option, build_options, slides_options
from .report import execute
from .scene_choice import pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@all_option
@click.option("--to", type=click.Choice(["html", "pptx"]), default="html", show_default=True,
              help="html: deck/index.html (reveal.js, works offline); pptx: deck.pptx.")
@slides_options
@build_options("slides", file_format="mp4")  # a deck's clips are mp4
def slides(ids, all_, to, lesson, options, run):
    """Build a slide deck: every step of every scene is a slide that plays its animation on a
    click (a looping step loops), with the narration as speaker notes. Renders incrementally."""
    from ..outputs.registry import EXPLORER, PRODUCTS

    scenes = pick_scenes(ids, all_ or not ids, lesson)
    execute(lesson, scenes, options, run, products=[PRODUCTS[to]] + ([EXPLORER] if to == "html" else []))
