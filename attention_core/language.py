"""The one rule for a command's language, decided here and nowhere else:

    --lang, else the lesson file's own `lang = "ja"`, else ATTENTION_LESSON_LANG, else zh (`resolve`).

That language gives every message, page, frame and voice of the command. A lesson written in Japanese
says so once, in its file, and renders in Japanese wherever it goes (a colleague's machine, the studio,
a batch plan, plain `manim render`); the environment variable is the teacher's default for every lesson
that says none (the built-in lessons carry several languages; some say one); `--lang` is asked for this
once and wins over both. A batch plan's first `langs` stands where a lesson file's `lang` does.

The messages of a command in a language only a words folder gives (fr) are said in a built-in one
(`message_lang`): ATTENTION_LESSON_LANG's when it names one, else English, the language a new one is
translated from. A file that is not valid TOML still says its language when a top-level
`lang = "…"` line can be read (`sniffed_lang`), so its error is said in it."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import Choices, LessonError, ph
from .files import MAX_LESSON_BYTES, FileProblem, read_text, shallow_toml

Environ = Mapping[str, str] | None  # an environment to read (None: os.environ)
LANGS = ("zh", "en", "ja")
LANG_ENV = "ATTENTION_LESSON_LANG"
REFERENCE = "en"  # the messages of a language with no built-in words
_LANG_LINE = re.compile(r"""^[ \t]*lang[ \t]*=[ \t]*(["'])([A-Za-z-]+)\1[ \t]*(?:#.*)?$""")
_TABLE = re.compile(r"^[ \t]*\[")


class LangError(ValueError):
    """ATTENTION_LESSON_LANG holds no language of the lesson's: one line naming it and what it takes."""

    def __init__(self, value: str):
        super().__init__(f"{LANG_ENV}={value!r} in the environment: expected one of {', '.join(LANGS)} "
                         f"(the language every command uses when neither --lang nor the lesson file's "
                         f"lang names one); set it to one of them or unset it")


def default_lang(environ: Environ = None) -> str:
    """The environment's default language (ATTENTION_LESSON_LANG; unset or empty: zh); LangError when
    it is set to anything else."""
    value = (os.environ if environ is None else environ).get(LANG_ENV, "")
    if not value:
        return LANGS[0]
    if value not in LANGS:
        raise LangError(value)
    return value


def resolve(given: str | None = None, declared: str | None = None, environ: Environ = None) -> str:
    """THE rule: `given` (--lang), else `declared` (the lesson file's `lang`), else
    ATTENTION_LESSON_LANG, else zh. LangError when the variable is asked and names no language."""
    return given or declared or default_lang(environ)


def chosen_lang(given: str | None, lesson: Any = None, environ: Environ = None) -> str:
    """`resolve` for a loaded lesson (its `lang`, None where it says none)."""
    return resolve(given, getattr(lesson, "lang", None), environ)


def message_lang(given: str | None = None, declared: str | None = None, environ: Environ = None) -> str:
    """The built-in language (zh, en, ja) a command's messages are said in: its language (`resolve`)
    when built in; for a language only a words folder gives, ATTENTION_LESSON_LANG's when that is
    built in, else English; zh while ATTENTION_LESSON_LANG names no language (its own error is said
    once the command asks for it)."""
    try:
        lang = resolve(given, declared, environ)
    except LangError:
        return LANGS[0]
    if lang in LANGS:
        return lang
    env = (os.environ if environ is None else environ).get(LANG_ENV, "")
    return env if env in LANGS else REFERENCE


def parse_lang(file: str, data: dict[str, Any]) -> str | None:
    """The file's `lang = "en"`: one of LANGS, or None where it says none."""
    if "lang" not in data:
        return None
    value = data["lang"]
    if value not in LANGS:
        raise LessonError(file, "lang", ph("a_language", items=Choices(LANGS)), value)
    return str(value)


def lang_of(data: object) -> str | None:
    """A lesson's parsed TOML's `lang` when it is one of LANGS, else None (no data, or a wrong value)."""
    value = data.get("lang") if isinstance(data, dict) else None
    return str(value) if value in LANGS else None


def sniffed_lang(text: str) -> str | None:
    """The `lang = "ja"` line above a file's first table, read line by line: the language of a file that
    is not valid TOML (None: no such line, or not one of LANGS)."""
    for line in text.splitlines():
        if _TABLE.match(line):
            return None
        if (found := _LANG_LINE.match(line)) and found.group(2) in LANGS:
            return found.group(2)
    return None


def declared_lang(path: str | Path | None) -> str | None:
    """A lesson file's `lang`, read without validating the rest (a file that does not load still says
    its error in its own language; a file that is not TOML, by its `lang` line); None where the file
    cannot be read (no file, no regular file, too large, not UTF-8) or says none."""
    if path is None:
        return None
    try:
        text = read_text(Path(path), MAX_LESSON_BYTES)
    except (OSError, ValueError, FileProblem):
        return None
    try:
        return lang_of(shallow_toml(text))
    except (ValueError, FileProblem):  # (a TOMLDecodeError is a ValueError)
        return sniffed_lang(text)
