"""click's own words (its usage errors, "Usage:", "Try '... --help' for help.", the headings of --help)
in the teacher's language: click asks `gettext` and `ngettext` for each (`from gettext import gettext as
_` in each of its modules); `speaking(lang)` answers them from attention_lesson's table
(messages/answers.py) for as long as a command runs, and gives click back its own answers after.

The language is the command's, by the one rule (attention_core.language): the command line's `--lang`,
else the `lang` of the lesson file it names, else $ATTENTION_LESSON_LANG, else zh; a language only a
words folder gives has them in $ATTENTION_LESSON_LANG's when built in, else English (the command has not
been parsed yet: a usage error can come before --lang is read, so it is read from the words themselves).
A message click adds in a later version and the table lacks stays English.
"""

from __future__ import annotations

import contextlib
import gettext
import importlib
from contextvars import ContextVar

from attention_core.language import LANGS, message_lang

from ..messages.answers import CLICK

# click's modules that ask gettext for a teacher's words (each binds `_` and `ngettext` at its import)
MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types", "termui")
_LANG: ContextVar[str] = ContextVar("click_lang", default="en")
_CODES = {(e["one"], e["other"]) if isinstance(e, dict) else e: code for code, e in CLICK["en"].items()}


def _named(args: list[str], option: str) -> str | None:
    """The value of the last `option VALUE` or `option=VALUE` before a `--`."""
    found = None
    for i, word in enumerate(args):
        if word == "--":
            break
        if word == option and i + 1 < len(args):
            found = args[i + 1]
        elif word.startswith(option + "="):
            found = word[len(option) + 1:]
    return found


def _lesson_lang(args: list[str]) -> str | None:
    """The `lang` of the lesson file a command line names: its --lesson (a file or a built-in name), else
    its first argument ending in .toml that says one (`check FILE`, `studio FILE`)."""
    from attention_core.language import declared_lang

    if (lesson := _named(args, "--lesson")) is not None:
        from attention_core.lesson import resolve

        return declared_lang(resolve(lesson))
    words = args[:args.index("--")] if "--" in args else args
    return next((said for w in words if w.endswith(".toml") and (said := declared_lang(w))), None)


def said_lang(args: list[str], environ=None) -> str:
    """The language of click's words for a command line, by the one rule (attention_core.language): its
    --lang, else the lesson file it names says, else $ATTENTION_LESSON_LANG, else zh; a language only a
    words folder gives: $ATTENTION_LESSON_LANG's when built in, else en."""
    return message_lang(_named(args, "--lang"), _lesson_lang(args), environ)


def _gettext(message: str) -> str:
    code = _CODES.get(message)
    return message if code is None or _LANG.get() == "en" else CLICK[_LANG.get()][code]


def _ngettext(singular: str, plural: str, n: int) -> str:
    code = _CODES.get((singular, plural))
    if code is None or _LANG.get() == "en":
        return singular if n == 1 else plural
    return CLICK[_LANG.get()][code]


def install() -> None:
    """Point click's `_` and `ngettext` at this module's (once; English is still click's own words)."""
    for name in MODULES:
        module = importlib.import_module(f"click.{name}")
        if getattr(module, "_", None) is gettext.gettext:
            module._ = _gettext
        if getattr(module, "ngettext", None) is gettext.ngettext:
            module.ngettext = _ngettext


def spoken() -> str:
    """The language click's words are said in now (a check of ours said with them keeps to it)."""
    return _LANG.get()


@contextlib.contextmanager
def speaking(lang: str):
    """click's words in `lang` (zh, en or ja) inside the block."""
    install()
    token = _LANG.set(lang if lang in LANGS else "en")
    try:
        yield
    finally:
        _LANG.reset(token)
