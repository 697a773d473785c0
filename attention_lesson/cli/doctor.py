"""`attention-lesson doctor`: what this machine has of what the commands need beyond pip (the tools in
pipeline/deps.py) and of the package's extras; exit 1 when a basic render cannot run."""

from __future__ import annotations

import platform
import sys
from importlib.metadata import version
from pathlib import Path

import click

from attention_core import __version__
from attention_core.errors import text as said
from attention_core.language import message_lang

from ..pipeline import deps


def _tool_lines(tool: deps.Tool, lang: str) -> list[str]:
    found = tool.found()
    shown = f" {found}" if found and found != "found" else ""
    head = f"{'ok' if found else 'MISSING':<8}{tool.name}{shown}"
    needed = said(lang, "doctor_needed", job=tool.job(lang), commands=", ".join(tool.commands))
    lines = [head, f"{'':<8}{needed}"]
    if found is None:
        lines += [f"{'':<8}{deps.SYSTEM_NAMES[s]}: {tool.install[s]}" for s in deps.SYSTEMS]
    return lines


def _extra_line(extra: str, lang: str) -> str:
    gone = deps.extra_missing(extra)
    state = "ok" if not gone else "no"
    how = "" if not gone else f": pip install 'attention-lesson[{extra}]'"
    models = "" if gone else "".join(f" ({package} {version(package)}: {model})"
                                     for package, model in deps.EXTRA_MODELS.get(extra, {}).items())
    what = said(lang, "doctor_extra", extra=extra, command=deps.EXTRA_COMMANDS[extra])
    return f"{state:<8}{what}{models}{how}"


@click.command("doctor")
def doctor():
    """Check the system tools the commands need (ffmpeg, cairo and pango, the CJK font, espeak-ng,
    chromium) and the optional extras: each found or not, its version, which commands need it and how to
    install it on Debian/Ubuntu, Fedora, macOS and Windows; each language's voices and their licences.
    Exit 1 when a basic render cannot run. Its words are in the language the one rule gives (no lesson:
    $ATTENTION_LESSON_LANG, else zh)."""
    lang = message_lang()
    package = Path(deps.__file__).resolve().parents[2]
    click.echo(f"attention-lesson {__version__}, manim {version('manim')}, Python {platform.python_version()}"
               f" ({sys.executable}); installed in {package}")
    for tool in deps.TOOLS:
        click.echo("\n".join(_tool_lines(tool, lang)))
    click.echo("\n".join(_extra_line(e, lang) for e in deps.EXTRAS))
    from ..pipeline.voice.speakers import voices

    click.echo(said(lang, "doctor_voices"))
    click.echo("\n".join(f"{lang:<8}{line}" for lang in ("zh", "en", "ja") for line in voices(lang)))
    if gone := [t.name for t in deps.TOOLS if t.basic and t.found() is None]:
        click.echo(said(lang, "doctor_render_needs", tools=", ".join(gone)), err=True)
        sys.exit(1)
    click.echo(said(lang, "doctor_all_here"))
