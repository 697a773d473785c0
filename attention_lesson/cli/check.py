"""`attention-lesson check FILE`: validate a lesson file and say what it holds."""

from __future__ import annotations

import click
import numpy as np

from attention_core import attend

from .options import load_lesson

TIE = 1e-9  # weights closer than this are equal


def focus_ties(lesson) -> list[str]:
    """A warning per context where the focus's largest weight is shared: the hard lookup then picks the
    first of the tied keys, and "the most" in the narration names one of several."""
    warnings = []
    for name in lesson.contexts:
        att = attend(lesson, name)
        row = att.weights[att.index(lesson.focus)]  # [n]
        top = np.flatnonzero(row >= row.max() - TIE)
        if len(top) > 1:
            tied = ", ".join(att.tokens[i] for i in top)
            warnings.append(f"warning: in context {name}, {lesson.focus}'s largest weight "
                            f"({row.max():.2f}) is shared by {tied}; the hard lookup takes the first, "
                            f"{att.tokens[top[0]]}")
    return warnings


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
    for w in focus_ties(lesson):
        click.echo(w, err=True)
