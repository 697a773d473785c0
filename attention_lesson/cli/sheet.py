"""`attention-lesson sheet`: a contact sheet of every scene (for the README, the guide and a quick look)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import (
    build_options,
    jobs_option,
    lang_option,
    lesson_options,
    quiet_option,
    theme_option,
)
from .report import execute


@click.command()
@lesson_options
@lang_option
@theme_option()
@click.option("--dest", type=click.Path(dir_okay=False), default=None,
              help="PNG to write (default: media/preview/contact-sheet-<lang>.png, -<lang>-light.png in the "
                   "light theme).")
@click.option("--cols", type=click.IntRange(1, 12), default=4, show_default=True)
@jobs_option
@quiet_option
@build_options("poster", quality="low", file_format="png")
def sheet(lesson, options, run, dest, cols):
    """Render every scene's last frame (incrementally) and tile them into one PNG."""
    from scenes.registry import available

    from ..outputs.registry import SHEET_PRODUCT
    from ..pipeline.manifest import publish
    from ..pipeline.plan import theme_tag
    from ..pipeline.products import Choices

    report = execute(lesson, list(available(lesson)), options, run, products=[SHEET_PRODUCT],
                     choices=Choices(sheet_columns=cols))
    target = Path(dest or f"media/preview/contact-sheet-{options.lang}{theme_tag(options.theme)}.png")
    publish(report.files_of("sheet")[0], target)
    click.echo(str(target))
