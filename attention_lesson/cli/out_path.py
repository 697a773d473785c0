"""--out: the folder (or file) a command writes, checked before any work: a path that cannot be made is
one line in the teacher's language (the language click's words are said in), exit 2, nothing made."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .click_words import spoken


def out_option(help: str = "Output folder (default: media/<lesson>/<context>-<mode>-<lang>-<quality>).",
               file: bool = False):
    """--out: a folder, or with `file` a file to write; one that can be written, said before any work."""
    kind = click.Path(dir_okay=False) if file else click.Path(file_okay=False)
    return click.option("--out", type=kind, default=None, help=help, callback=writable)


def writable(ctx, param, value: str | None) -> str | None:
    """--out's path when it can be written: the nearest part of it that exists is a folder (the path's
    own folder, for a file) that this user may write in; else one line, exit 2, nothing made."""
    if value is None:
        return value

    from attention_core.errors import text

    near = Path(value).absolute()
    if param.type.file_okay:  # a file: its folder is what must be there or made
        near = near.parent
    while not near.exists():
        near = near.parent
    if not near.is_dir():
        raise click.BadParameter(text(spoken(), "out_blocked", folder=value, blocker=str(near)))
    if not os.access(near, os.W_OK | os.X_OK):
        raise click.BadParameter(text(spoken(), "out_not_writable", folder=value, blocker=str(near)))
    return value
