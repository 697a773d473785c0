"""The `attention-lesson` command: one small module per command, registered here. A command parses its
options (the shared ones in options.py) and hands what is printed to report.py (its progress bars are
progress.py's); the work is in the pipeline and the outputs."""

from __future__ import annotations

import click

from attention_core import __version__

from .batch import batch_command
from .check import check
from .doctor import doctor
from .explorer import explorer
from .handout import handout
from .lesson import lesson
from .lessons import lessons
from .list import list_scenes
from .new import new
from .numbers import numbers
from .render import render
from .sheet import sheet
from .slides import slides
from .studio import studio
from .voice import voice


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="attention-lesson")
def main():
    """Turn the attention lesson into videos and slide decks: numbers, scenes, renders."""


main.add_command(numbers)
main.add_command(check)
main.add_command(lessons)
main.add_command(new)
main.add_command(list_scenes)
main.add_command(render)
main.add_command(lesson)
main.add_command(slides)
main.add_command(sheet)
main.add_command(handout)
main.add_command(voice)
main.add_command(batch_command)
main.add_command(explorer)
main.add_command(studio)
main.add_command(doctor)
