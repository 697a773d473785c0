"""What a scene renders: lesson, context, mode, language and theme.

The pipeline hands a scene its Settings (and the parsed lesson) directly. The ATTENTION_* variables are
the interface for plain `manim render scenes/<id>.py <Class>`: unset ones take the defaults, so every
scene also renders without the pipeline.
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
    "lang": "ATTENTION_LANG",
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
        get = lambda k: os.environ.get(ENV[k]) or None  # noqa: E731
        return cls(get("lesson"), get("context"), get("mode") or "scaled", get("lang") or "zh",
                   get("theme") or DEFAULT_THEME, get("words"))

    def to_env(self) -> dict[str, str]:
        return {ENV[k]: str(v) for k, v in self.__dict__.items() if v is not None}

    @contextmanager
    def applied(self):
        """These settings in the environment (unset ones removed) for the duration, then restored."""
        with environ({**dict.fromkeys(ENV.values()), **self.to_env()}):
            yield self


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
