"""`attention-lesson explorer`: the offline page where a student changes the lesson's numbers."""

from __future__ import annotations

import click

from .options import (
    build_options,
    force_option,
    lang_option,
    lesson_options,
    out_option,
    quality_option,
    quiet_option,
    theme_option,
)
from .report import execute


@click.command()
@lesson_options
@lang_option
@theme_option()
@quality_option(help="Whose videos' folder the page goes in (the explorer itself has no resolution).")
@out_option("Output folder (default: the videos' folder of the same options); the page is DIR/explorer/.")
@force_option.but(help="Write the page even if it is up to date.")
@quiet_option
@build_options()
def explorer(lesson, options, run):
    """Write explorer/index.html: one self-contained folder (no network, opens from file://) where a
    student changes any number of the lesson (an embedding, W_Q, W_K, W_V), the context, the query and
    the normalizer, and watches the scores, weights and output follow. --context, --mode and --lang are
    where the page starts; its state is kept in the address (a link gives the same page)."""
    from ..outputs.registry import EXPLORER

    execute(lesson, [], options, run, products=[EXPLORER])
