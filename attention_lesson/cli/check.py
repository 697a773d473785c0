"""`attention-lesson check FILE`: validate a lesson file and say what it holds."""

from __future__ import annotations

import click

from .options import load_lesson


@click.command()
@click.argument("file", metavar="FILE")
def check(file):
    """Validate a lesson file; exit 2 with one clear message if it is not usable."""
    lesson = load_lesson(file)
    click.echo(f"{lesson.source}: OK")
    click.echo(f"  d_model {lesson.d_model}, d_k {lesson.d_k}, d_v {lesson.d_v}")
    click.echo(f"  vocab ({len(lesson.vocab)}): {', '.join(lesson.vocab)}")
    for name, toks in lesson.contexts.items():
        click.echo(f"  context {name}: {' '.join(toks)}")
    click.echo(f"  focus: {lesson.focus}")
    for lang, names in lesson.dimensions.items():
        click.echo(f"  dimensions ({lang}): {', '.join(names)}")
