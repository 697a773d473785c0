"""`attention-lesson slides [SCENE... | --all] --to html|pptx`: a deck, one slide per step."""

from __future__ import annotations

import click

from .options import all_option, load_lesson, make_options, pick_scenes, slides_options
from .report import execute


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@all_option
@click.option("--to", type=click.Choice(["html", "pptx"]), default="html", show_default=True,
              help="html: deck/index.html (reveal.js, works offline); pptx: deck.pptx.")
@slides_options
def slides(ids, all_, to, lesson, context, mode, lang, theme, quality, fps, voice, out, jobs, force, dry_run,
           quiet):
    """Build a slide deck: every step of every scene is a slide that plays its animation on a
    click (a looping step loops), with the narration as speaker notes. Renders incrementally."""
    from ..outputs.products import EXPLORER, PRODUCTS

    les = load_lesson(lesson)
    scenes = pick_scenes(ids, all_ or not ids, les)
    options = make_options(les, context, mode, lang, quality, fps, voice=voice, file_format="mp4",
                           kind="slides", theme=theme)
    execute(les, scenes, options, out, jobs, force, dry_run, quiet,
            products=[PRODUCTS[to]] + ([EXPLORER] if to == "html" else []))
