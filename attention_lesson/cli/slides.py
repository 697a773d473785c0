"""`attention-lesson slides [SCENE... | --all] --to html|pptx`: a deck, one slide per step."""

from __future__ import annotations

import click

from scenes.common.i18n import catalog, lesson_title

from .options import load_lesson, slides_options
from .render import execute, make_options, pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@click.option("--all", "all_", is_flag=True, help="Every scene of the lesson, in order (the default).")
@click.option("--to", type=click.Choice(["html", "pptx"]), default="html", show_default=True,
              help="html: deck/index.html (reveal.js, works offline); pptx: deck.pptx.")
@slides_options
def slides(ids, all_, to, lesson, context, mode, lang, quality, fps, voice, out, jobs, force, dry_run,
           quiet):
    """Build a slide deck: every step of every scene is a slide that plays its animation on a
    click (a looping step loops), with the narration as speaker notes. Renders incrementally."""
    from ..outputs.deck import DECK_HTML, DECK_PPTX, build_deck, reveal_missing

    scenes = pick_scenes(ids, all_ or not ids)
    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, quality, fps, slides=True, voice=voice)
    if to == "html" and (problem := reveal_missing()):
        raise click.ClickException(problem)
    report = execute(les, scenes, options, out, jobs, force, dry_run, quiet)
    deck = report.out_dir / (DECK_HTML if to == "html" else DECK_PPTX)
    if dry_run:
        click.echo(f"would build a deck of {len(scenes)} scenes -> {deck}")
        return
    if report.failures:
        click.echo("no deck: some scenes failed", err=True)
        raise SystemExit(1)
    start = catalog(lang)("common.deck_start") if options.voice else None
    click.echo(str(build_deck(report.out_dir, [s.id for s in scenes], to, lesson_title(les, lang),
                              les.author, lang, start)))
