"""What a scene renders: lesson, context, mode, language and theme.

The pipeline hands a scene its Settings (and the parsed lesson) directly. The ATTENTION_* variables are
the interface for plain `manim render scenes/<id>.py <Class>`: unset ones take the defaults, so every
scene also renders without the pipeline. Its language is the one rule's (attention_core.language): the
lesson file's `lang`, else ATTENTION_LESSON_LANG, else zh (the variable every command reads).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass

from .style import DEFAULT_THEME

ENV = {
    "lesson": "ATTENTION_LESSON",
    "context": "ATTENTION_CONTEXT",
    "mode": "ATTENTION_MODE",
    "lang": "ATTENTION_LESSON_LANG",
    "theme": "ATTENTION_THEME",
    "words": "ATTENTION_WORDS",
}


@dataclass(frozen=True)
class Settings:
    lesson: str | None = None  # packaged name or path; None = the default lesson
    context: str | None = None  # None = the lesson's first context
    mode: str = "scaled"
    lang: str = "zh"
    theme: str = DEFAULT_THEME  # a name of style.THEMES
    words: str | None = None  # a words folder (scenes/common/words.py); None: the built-in words

    @classmethod
    def from_env(cls) -> "Settings":
        from attention_core.language import declared_lang, resolve
        from attention_core.lesson import resolve as lesson_path

        get = lambda k: os.environ.get(ENV[k]) or None  # noqa: E731
        lang = resolve(None, declared_lang(lesson_path(get("lesson"))))
        return cls(get("lesson"), get("context"), get("mode") or "scaled", lang,
                   get("theme") or DEFAULT_THEME, get("words"))


@contextmanager
def environ(values: dict[str, str | None]):
    """These environment variables set (None: removed) for the duration, then restored."""

    def put(items):
        for k, v in items:
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    old = {k: os.environ.get(k) for k in values}
    try:
        put(values.items())
        yield
    finally:
        put(old.items())
