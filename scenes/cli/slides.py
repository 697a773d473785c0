"""`attention-lesson slides [SCENE... | --all] --to html|pptx`: a deck, one slide per step."""

from __future__ import annotations

import click

from ..common.i18n import catalog
from .options import load_lesson, slides_options
from .render import build_options, execute, pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@click.option("--all", "all_", is_flag=True, help="Every scene of the lesson, in order (the default).")
@click.option("--to", type=click.Choice(["html", "pptx"]), default="html", show_default=True,
              help="html: deck/index.html (reveal.js, works offline); pptx: deck.pptx.")
@slides_options
def slides(ids, all_, to, lesson, context, mode, lang, quality, fps, out, jobs, force, dry_run,
           quiet):
    """Build a slide deck: every step of every scene is a slide that plays its animation on a
    click (a looping step loops), with the narration as speaker notes. Renders incrementally."""
    from ..pipeline.slides import DECK_HTML, DECK_PPTX, build_deck, reveal_missing

    scenes = pick_scenes(ids, all_ or not ids)
    les = load_lesson(lesson)
    options = build_options(les, context, mode, lang, quality, fps, slides=True)
    if to == "html" and (problem := reveal_missing()):
        raise click.ClickException(problem)
    out_dir, _, _, failures = execute(scenes, options, out, jobs, force, dry_run, quiet)
    deck = out_dir / (DECK_HTML if to == "html" else DECK_PPTX)
    if dry_run:
        click.echo(f"would build a deck of {len(scenes)} scenes -> {deck}")
        return
    if failures:
        click.echo("no deck: some scenes failed", err=True)
        raise SystemExit(1)
    title = les.title.get(lang) or catalog(lang)("common.lesson_title")
    click.echo(str(build_deck(out_dir, [s.id for s in scenes], to, title)))
