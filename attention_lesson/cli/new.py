"""`attention-lesson new FILE`: a commented starter lesson to edit."""

from __future__ import annotations

import shlex
from importlib import resources
from pathlib import Path

import click

from attention_core.heads import MASKS, MAX_HEADS

from ..outputs.next_starter import with_next
from .options import force_option, lang_option, lesson_lang

PLACEHOLDER = "my-lesson.toml"  # the file the starters' header commands name, until `new` names its own


def starter(lang: str, file: str | None = None) -> str:
    """The starter lesson's text, its comments in `lang`; with `file`, its header's commands name that
    file (quoted for the shell where it needs it) instead of my-lesson.toml."""
    text = (resources.files("attention_lesson") / "starters" / f"{lang}.toml").read_text(encoding="utf-8")
    if file is None:
        return text
    lines = text.splitlines(keepends=True)
    header = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    named = [line.replace(PLACEHOLDER, shlex.quote(file)) for line in lines[:header]]
    return "".join(named + lines[header:])


@click.command()
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False))
@lang_option.but(help="Language of the comments and the lesson's own lang = \"..\" (its words are in both; "
                       "default: $ATTENTION_LESSON_LANG, else zh).")
@force_option.but(help="Overwrite FILE if it exists.")
@click.option("--heads", type=click.IntRange(1, MAX_HEADS), default=1, show_default=True,
              help="How many attention heads (2 or more: a [heads] table, each head its own projections, "
                   "and w_o).")
@click.option("--mask", type=click.Choice(MASKS), default="none", show_default=True,
              help="causal: query i looks at keys 1..i only (a decoder's attention).")
def new(file, lang, force, heads, mask):
    """Write a starter lesson to FILE: every key explained in comments, ready to `check` and render."""
    lang = lesson_lang(lang)
    path = Path(file)
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists; use --force to overwrite it")
    if not path.parent.exists():
        raise click.UsageError(f"no folder {path.parent} for {path.name}")
    write_new(path, with_next(starter(lang, file), lang, heads, mask), lang)
    click.echo(f"{path}: a starter lesson. Next: attention-lesson check {shlex.quote(str(path))}")


def write_new(path: Path, text: str, lang: str) -> None:
    """The text into `path` through a temporary file beside it (atomically); a folder that cannot be
    written in is one line in `lang`, exit 2, and nothing left behind."""
    from attention_core.errors import text as said

    from .options import LessonFileError
    from .out_path import write_problem

    if problem := write_problem(path, file=True, lang=lang):
        raise LessonFileError(problem)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise LessonFileError(said(lang, "studio_cannot_write", what=str(path), reason=e.strerror or e)) \
            from None
