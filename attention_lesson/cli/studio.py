"""`attention-lesson studio [FILE]`: edit a lesson in the browser, numbers at once, frames seconds later."""

from __future__ import annotations

from pathlib import Path

import click

from .options import (
    LessonFileError,
    context_option,
    jobs_option,
    lang_option,
    lesson_lang,
    mode_option,
    quality_option,
    theme_option,
)


@click.command()
@click.argument("file", required=False, default="lesson.toml", metavar="[FILE]")
@context_option
@mode_option
@lang_option
@theme_option()
@quality_option(help="Quality of the frames redrawn after each edit (low: 480p15, the quickest).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--ip", default="127.0.0.1", show_default=True, metavar="ADDR",
              help="Address (or name: localhost) to listen on. Another than 127.0.0.1 lets other machines "
                   "in (with the token).")
@click.option("--no-browser", is_flag=True, help="Do not open the page; only print its address.")
@click.option("--words", "words", metavar="DIR", default=None, type=click.Path(file_okay=False),
              help="The teacher's words folder (DIR/<lang>/<name>.toml), read and written by the studio "
                   "whatever the lesson names; without it the studio writes words only in the lesson file's "
                   "folder or below it (a `words = \"...\"` pointing elsewhere is refused, the text kept).")
@jobs_option
def studio(file, no_browser, jobs, words, **given):
    """Start the studio: a local web page where the lesson FILE (default lesson.toml) is edited with its
    numbers updated at every keystroke, the last frame of every step of the changed scenes redrawn in
    the background, and the lesson, decks and handout rendered with one button. Prints the page's
    address (with its token) on its first line; Ctrl-C stops it."""
    from attention_core.language import declared_lang

    from ..studio.serve import StudioArgs, StudioError, address, serve

    # the language: --lang, else the file's own, else the default (a file that does not load yet says it too)
    lang = lesson_lang(given.pop("lang"), declared=declared_lang(file))
    try:
        given["ip"] = address(given["ip"], lang)
    except StudioError as e:
        raise LessonFileError(str(e)) from None
    if given["ip"] != "127.0.0.1":
        from attention_core.errors import ph, text

        click.echo(text(lang, "warning", text=ph("studio_open_lan", ip=given["ip"])), err=True)
    args = StudioArgs(path=Path(file), lang=lang, browser=not no_browser, workers=jobs or 2,
                      words=Path(words).resolve() if words else None, **given)
    try:
        serve(args, lambda line: click.echo(line))
    except StudioError as e:
        raise LessonFileError(str(e)) from None
