"""The `attention-lesson` command: one small module per command, named here and imported when the
command runs (a command pays for its own imports only: `--version` or a re-run with nothing to do does
not load the studio, the batch or the handout). A command parses its options (the shared ones in
options.py) and hands what is printed to report.py (its progress bars are progress.py's); the work is in
the pipeline and the outputs."""

from __future__ import annotations

import importlib
import sys

import click

# command name -> (module of this package, the click command in it), in the order `--help` lists them
COMMANDS = {
    "numbers": ("numbers", "numbers"),
    "real": ("real", "real"),
    "check": ("check", "check"),
    "lessons": ("lessons", "lessons"),
    "new": ("new", "new"),
    "list": ("list", "list_scenes"),
    "render": ("render", "render"),
    "lesson": ("lesson", "lesson"),
    "slides": ("slides", "slides"),
    "sheet": ("sheet", "sheet"),
    "handout": ("handout", "handout"),
    "voice": ("voice", "voice"),
    "words": ("words", "words"),
    "batch": ("batch", "batch_command"),
    "explorer": ("explorer", "explorer"),
    "studio": ("studio", "studio"),
    "doctor": ("doctor", "doctor"),
}


class LazyGroup(click.Group):
    """Subcommands imported when asked for (click's documented pattern for large CLIs)."""

    def list_commands(self, ctx) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name]
        return getattr(importlib.import_module(f".{module}", __name__), attr)

    def main(self, args=None, *rest, **kwargs):
        """Run a command, click's own words (a usage error, --help's headings) in the teacher's language
        (click_words.said_lang: the command's language, attention_core.language)."""
        try:
            from .click_words import said_lang, speaking

            args = [*(sys.argv[1:] if args is None else args)]  # (`list` here is the list command's module)
            with speaking(said_lang(args)):
                return super().main(args, *rest, **kwargs)
        except KeyboardInterrupt:  # while the command's modules are imported, before click runs it
            raise interrupted() from None

    def invoke(self, ctx):
        """A Ctrl-C that no command handled: one line and exit status 130, not click's "Aborted!" and 1
        (a build says more: report.run_build)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise interrupted() from None


def interrupted(out=None) -> SystemExit:
    """Say that the command was interrupted (a build: that nothing half-written is left in its folder
    `out`), in the language click's words are said in: the exit to raise, 130 as a shell has it."""
    from attention_core.errors import text

    from .click_words import spoken

    said = text(spoken(), "interrupted") if out is None else text(spoken(), "interrupted_out", out=out)
    click.echo(said, err=True)
    return SystemExit(130)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attention-lesson", prog_name="attention-lesson")  # read when asked
def main():
    """Turn the attention lesson into videos and slide decks: numbers, scenes, renders."""
