"""The language a lesson is shown in: the command's `--lang`, else the lesson file's own `lang = "en"`,
else the environment's ATTENTION_LESSON_LANG, else Chinese.

A lesson written in English says so once, in its file, and renders in English wherever it goes (a
colleague's machine, the studio, a batch plan); the environment variable is the teacher's default for
every lesson that does not say (the built-in lessons carry both languages and say none); `--lang` is
asked for this once and wins over both."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import Choices, LessonError, ph
from .files import MAX_LESSON_BYTES, FileProblem, read_text, shallow_toml

LANGS = ("zh", "en", "ja")
LANG_ENV = "ATTENTION_LESSON_LANG"


class LangError(ValueError):
    """ATTENTION_LESSON_LANG holds no language of the lesson's: one line naming it and what it takes."""

    def __init__(self, value: str):
        super().__init__(f"{LANG_ENV}={value!r} in the environment: expected one of {', '.join(LANGS)} "
                         f"(the language every command uses when neither --lang nor the lesson file's "
                         f"lang names one); set it to one of them or unset it")


def default_lang(environ=None) -> str:
    """The environment's default language (ATTENTION_LESSON_LANG; unset or empty: zh); LangError when
    it is set to anything else."""
    value = (os.environ if environ is None else environ).get(LANG_ENV, "")
    if not value:
        return LANGS[0]
    if value not in LANGS:
        raise LangError(value)
    return value


def chosen_lang(given: str | None, lesson=None, environ=None) -> str:
    """The language to show a lesson in: `given` (--lang), else the lesson's own `lang`, else
    default_lang()."""
    return given or getattr(lesson, "lang", None) or default_lang(environ)


def parse_lang(file: str, data: dict) -> str | None:
    """The file's `lang = "en"`: one of LANGS, or None where it says none."""
    if "lang" not in data:
        return None
    value = data["lang"]
    if value not in LANGS:
        raise LessonError(file, "lang", ph("a_language", items=Choices(LANGS)), value)
    return value


def lang_of(data) -> str | None:
    """A lesson's parsed TOML's `lang` when it is one of LANGS, else None (no data, or a wrong value)."""
    value = data.get("lang") if isinstance(data, dict) else None
    return value if value in LANGS else None


def declared_lang(path: str | Path | None) -> str | None:
    """A lesson file's `lang`, read without validating the rest (a file that does not load still says
    its error in its own language); None where the file cannot be read (no file, no regular file, too
    large, not UTF-8), is not TOML, or says none."""
    try:
        return lang_of(shallow_toml(read_text(Path(path), MAX_LESSON_BYTES)))
    except (OSError, TypeError, ValueError, FileProblem):  # (a TOMLDecodeError is a ValueError)
        return None
