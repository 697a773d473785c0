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
    if problem := write_problem(value, param.type.file_okay):
        raise click.BadParameter(problem)
    return value


def write_problem(value: str | Path, file: bool = False, lang: str | None = None) -> str | None:
    """Why the folder `value` (with `file`, the file's folder) cannot be made or written in, one line in
    `lang` (default: the language click's words are said in), or None when it can: the nearest part of
    it that exists must be a folder this user may write in."""
    from attention_core.errors import text

    near = Path(value).absolute()
    if file:  # a file: its folder is what must be there or made
        near = near.parent
    while not near.exists():
        near = near.parent
    if not near.is_dir():
        return text(lang or spoken(), "out_blocked", folder=str(value), blocker=str(near))
    if not os.access(near, os.W_OK | os.X_OK):
        return text(lang or spoken(), "out_not_writable", folder=str(value), blocker=str(near))
    return None


def out_problem(options, run) -> str | None:
    """The output folder (--out, else media/... where the command runs) and the workers' cache
    (<out>/.cache with --out, else media/.cache where the command runs: plan.cache_folder) checked
    before any work: why one cannot be made or written in (a read-only folder), one line for the
    command to raise (exit 2, nothing made), or None. A dry run writes nothing: not checked."""
    from ..pipeline.build import output_folder

    if run.dry_run:
        return None
    return next(filter(None, (write_problem(f) for f in (output_folder(options, run.out), run.cache_root))),
                None)
