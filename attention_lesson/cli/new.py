"""`attention-lesson new FILE`: a commented starter lesson to edit."""

from __future__ import annotations

import os
import shlex
from importlib import resources
from pathlib import Path

import click

from attention_core.heads import MASKS, MAX_HEADS

from ..outputs.next_starter import with_next, with_words
from .options import LessonFileError, any_lang_option, force_option, lesson_lang, message_lang, words_option

PLACEHOLDER = "my-lesson.toml"  # the file the starters' header commands name, until `new` names its own
CLOSEST = "en"  # the starter of a language that has none: a words folder is translated from English


def has_starter(lang: str) -> bool:
    return (resources.files("attention_lesson") / "starters" / f"{lang}.toml").is_file()


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


def starter_lang(lang: str, words: str | None) -> str:
    """The starter `new` copies for `lang`: its own, else (a language a words folder gives) the closest,
    en; one line (exit 2) for a language with neither a built-in catalog nor a folder holding its words."""
    from attention_core.errors import text
    from scenes.common import words as W

    if not W.built_in(lang):
        if words is None:
            export = f"attention-lesson words export --lang {lang} --out DIR"
            said = message_lang(lang)
            raise LessonFileError(text(said, "words_no_builtin", language=lang, export=export))
        if not W.files(words, lang):
            raise LessonFileError(W.problems(words, lang)[0], bare=True)
    return lang if has_starter(lang) else CLOSEST


def with_folder(text: str, lang: str, words: str | None, path: Path) -> tuple[str, str | None]:
    """The starter `text` naming the words folder (relative to the lesson file `path`), and that name."""
    if words is None:
        return text, None
    folder = Path(os.path.relpath(Path(words).resolve(), path.parent.resolve())).as_posix()
    return with_words(text, lang, folder), folder


@click.command()
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False))
@any_lang_option.but(help="Language of the comments and the lesson's own lang = \"..\" (its words are in zh, "
                           "en and ja); another code (fr, de, ko...) with --words DIR holding its words gets "
                           "the en starter (default: $ATTENTION_LESSON_LANG, else zh).")
@words_option.but(type=click.Path(file_okay=False, exists=True),
                  help="The teacher's own words, DIR/<lang>/<name>.toml (as `words export` writes them): the "
                       "starter names the folder (words = \"DIR\", relative to FILE).")
@force_option.but(help="Overwrite FILE if it exists.")
@click.option("--heads", type=click.IntRange(1, MAX_HEADS), default=1, show_default=True,
              help="How many attention heads (2 or more: a [heads] table, each head its own projections, "
                   "and w_o).")
@click.option("--mask", type=click.Choice(MASKS), default="none", show_default=True,
              help="causal: query i looks at keys 1..i only (a decoder's attention).")
def new(file, lang, words, force, heads, mask):
    """Write a starter lesson to FILE: every key explained in comments, ready to `check` and render."""
    from attention_core.errors import text

    lang = lesson_lang(lang)
    said, path = message_lang(lang), Path(file)
    if path.exists() and not force:
        raise click.UsageError(text(said, "new_exists", path=path))
    if not path.parent.exists():
        raise click.UsageError(text(said, "new_no_folder", folder=path.parent, name=path.name))
    copied = starter_lang(lang, words)
    text_, folder = with_folder(with_next(starter(copied, file), copied, heads, mask), copied, words, path)
    write_new(path, text_, copied)
    if copied != lang:
        words_line = f", words = \"{folder}\"" if folder else ""
        click.echo(text(said, "new_copied", path=path, language=lang, copied=copied, words=words_line))
    click.echo(text(said, "new_written", path=path, command=shlex.quote(str(path))))


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
