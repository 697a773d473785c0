"""`attention-lesson words`: the lesson's words as files a teacher edits (`export`), and what is wrong
with a folder of them (`check`)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import LessonFileError
from .out_path import writable


def _lang(ctx, param, value: str) -> str:
    from scenes.common.words import lang_problem

    if problem := lang_problem(value):
        raise LessonFileError(problem)
    return value


@click.group("words")
def words():
    """The teacher's own words: export every line of the lesson, edit any, check them, and render with
    --words DIR (or words = "DIR" in the lesson file)."""


@words.command("export")
@click.option("--lang", required=True, callback=_lang,
              help="The language to write (zh, en, ja, or a new one: fr).")
@click.option("--from", "source", default=None,
              help="Whose lines to start from (default: the language's own, en for a new language).")
@click.option("--out", required=True, type=click.Path(file_okay=False), callback=writable,
              help="The words folder (DIR/<lang>/).")
def export(lang, source, out):
    """Write every line as DIR/<lang>/<name>.toml, one file per scene and page, each key under a comment
    saying where it appears and which placeholders it takes."""
    from scenes.common.words import built_in

    from ..outputs.words import export as write

    if source is not None and not built_in(source):
        from attention_core.errors import text
        from scenes.common.words import message_lang

        said = text(message_lang(lang), "words_from", source=repr(source))
        raise click.BadParameter(said, param_hint="--from")
    for path in write(lang, out, source):
        click.echo(str(path))


@words.command("check")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--lang", required=True, callback=_lang,
              help="The language of the folder to check (DIR/<lang>/).")
def check(folder, lang):
    """List what is wrong in DIR/<lang>/ as FILE:LINE: message (exit 2): keys no line has, placeholders
    broken, unknown or more than a name ({focus.attr}, {focus!r}), and for a language with no built-in
    words the keys it lacks; and, as warnings on stderr (exit 0 when there is nothing else), a
    placeholder a line leaves out. Said in
    --lang when it is zh, en or ja, else in $ATTENTION_LESSON_LANG's language, else in English."""
    from attention_core.errors import text
    from scenes.common.words import built_in, files, message_lang, problems
    from scenes.common.words_warnings import warnings

    said = message_lang(lang)
    if not Path(folder).is_dir():
        raise LessonFileError(text(said, "words_not_a_folder", folder=folder), bare=True)
    found, warned = problems(folder, lang, said), warnings(folder, lang, said)
    if found:  # the errors, then the warnings
        raise LessonFileError("\n".join(found + warned), bare=True)
    for warning in warned:
        click.echo(warning, err=True)
    where = f"{folder}/{lang}"
    if not built_in(lang):
        click.echo(text(said, "words_fine_all", folder=where))
    else:
        click.echo(text(said, "words_fine_files", folder=where, n=len(files(folder, lang))))
