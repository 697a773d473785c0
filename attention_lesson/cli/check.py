"""`attention-lesson check FILE`: validate a lesson file and say what it holds."""

from __future__ import annotations

import click

from attention_core.diagnostics import focus_ties

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
        labels = " / ".join(lesson.context_labels.get(name, {}).values())
        click.echo(f"  context {name}" + (f" ({labels})" if labels else "") + f": {' '.join(toks)}")
    click.echo(f"  focus: {lesson.focus}")
    for lang, names in lesson.dimensions.items():
        click.echo(f"  dimensions ({lang}): {', '.join(names)}")
    for name, tied in focus_ties(lesson).items():
        click.echo(f"warning: in context {name}, {lesson.focus}'s largest weight is shared by {', '.join(tied)}; "
                   f"the hard lookup takes the first, {tied[0]}", err=True)
