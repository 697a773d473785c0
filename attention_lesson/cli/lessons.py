"""`attention-lesson lessons`: the built-in lessons, by the name `--lesson` takes, with their titles."""

from __future__ import annotations

import click

from attention_core import load
from attention_core.errors import text
from attention_core.lesson import packaged_lessons

from .check import features
from .options import lang_option, lesson_lang


@click.command("lessons")
@lang_option.but(help="Language of the titles (default: $ATTENTION_LESSON_LANG, else zh).")
def lessons(lang):
    """List the built-in lessons: a name to pass as --lesson NAME, its title and what it holds."""
    lang = lesson_lang(lang)  # --lang, else $ATTENTION_LESSON_LANG, else zh
    names = packaged_lessons()
    width = max(10, *(len(n) for n in names))
    for name in names:
        lesson = load(name)
        title = lesson.title.get(lang) or next(iter(lesson.title.values()), name)
        parts = [text(lang, "holds_mask")] if lesson.mask else []
        if lesson.heads:
            keys = ", ".join(h.key for h in lesson.heads)
            parts.append(text(lang, "holds_heads", n=len(lesson.heads), heads=keys))
        parts += features(lesson, lang)
        click.echo(f"{name:<{width}} {title}" + (f"  ({'; '.join(parts)})" if parts else ""))

