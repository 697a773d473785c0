"""`attention-lesson sheet`: a contact sheet of every scene (for the README and a quick look)."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.registry import available

from .options import context_option, lang_option, lesson_option, load_lesson, mode_option
from .render import execute, make_options


@click.command()
@lesson_option
@context_option
@mode_option
@lang_option
@click.option("--dest", type=click.Path(dir_okay=False), default=None,
              help="PNG to write (default: media/preview/contact-sheet-<lang>.png).")
@click.option("--cols", type=click.IntRange(1, 12), default=4, show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=None)
@click.option("-q", "--quiet", is_flag=True)
def sheet(lesson, context, mode, lang, dest, cols, jobs, quiet):
    """Render every scene's last frame (incrementally) and tile them into one PNG."""
    from ..outputs.sheet import contact_sheet

    les = load_lesson(lesson)
    options = make_options(les, context, mode, lang, "low", None, "png")
    scenes = list(available())
    report = execute(les, scenes, options, None, jobs, False, False, quiet)
    if report.failures:
        raise SystemExit(1)
    items = [(f"{n}. {s.title(lang)}", report.out_dir / f"{s.id}.png") for n, s in enumerate(scenes, 1)]
    path = contact_sheet(items, Path(dest or f"media/preview/contact-sheet-{lang}.png"), cols)
    click.echo(str(path))
