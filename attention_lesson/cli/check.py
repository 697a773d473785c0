"""`attention-lesson check FILE`: validate a lesson file and say what it holds, in the chosen language."""

from __future__ import annotations

from pathlib import Path

import click

from attention_core import lesson_warnings
from attention_core.errors import text
from attention_core.messages import MESSAGES

from .options import LANG_DEFAULT, lang_option, lesson_lang, load_lesson


@click.command()
@click.argument("file", metavar="FILE")
@lang_option.but(help=f"Language of the messages ({LANG_DEFAULT}).")
def check(file, lang):
    """Validate a lesson file; exit 2 with one clear line, FILE:LINE: message, if it is not usable.
    Warns (exit 0) of a shared largest weight, of numbers too large to follow and of words the lesson
    lacks in the language it is shown in (--lang, else its own lang, else $ATTENTION_LESSON_LANG,
    else zh: the messages' language too)."""
    lesson = load_lesson(file, lang)
    lang = lesson_lang(lang, lesson)
    click.echo(text(lang, "ok", file=lesson.source))
    click.echo("  " + text(lang, "sizes", d_model=lesson.d_model, d_k=lesson.d_k, d_v=lesson.d_v))
    click.echo("  " + text(lang, "vocab", n=len(lesson.vocab), tokens=", ".join(lesson.vocab)))
    for name, toks in lesson.contexts.items():
        labels = " / ".join(lesson.context_labels.get(name, {}).values())
        fields = {"name": name, "tokens": " ".join(toks), "labels": labels}
        click.echo("  " + text(lang, "context_labelled" if labels else "context", **fields))
    click.echo("  " + text(lang, "focus", focus=lesson.focus))
    if lesson.lang:
        click.echo("  " + text(lang, "language", language=lesson.lang))
    for line in structure(lesson, lang):
        click.echo("  " + line)
    for dim_lang, names in lesson.dimensions.items():
        click.echo("  " + text(lang, "dimensions", language=dim_lang, names=", ".join(names)))
    for warning in lesson_warnings(lesson, Path(lesson.source).read_text(encoding="utf-8"), lang):
        click.echo(warning.message(lang), err=True)


def structure(lesson, lang: str) -> list[str]:
    """The next lessons' parts, when the file has them: its mask, its heads and W_O."""
    lines = [text(lang, "mask_causal")] if lesson.mask == "causal" else []
    if lesson.heads:
        sep = MESSAGES[lang]["list_sep"]  # "、" in zh and ja
        heads = sep.join(text(lang, "head_sizes", name=h.key, d_k=h.d_k, d_v=h.d_v) for h in lesson.heads)
        lines.append(text(lang, "heads", n=len(lesson.heads), heads=heads, rows=lesson.w_o.shape[0],
                          cols=lesson.w_o.shape[1], focus=lesson.focus_head))
    return lines + features(lesson, lang)


def features(lesson, lang: str) -> list[str]:
    """What the next lessons hold: learning, positions, tiles, a real model."""
    parts = []
    if t := lesson.training:
        parts.append(text(lang, "holds_training", query=t.query, target=t.target, steps=t.steps))
    if lesson.positions:
        parts.append(text(lang, "holds_positions", kind=lesson.positions.kind))
    if lesson.tiling:
        parts.append(text(lang, "holds_tiling", block=lesson.tiling.block))
    if r := lesson.real:
        parts.append(text(lang, "holds_real", model=r.model, sentence=r.sentence, focus=r.focus))
    return parts
