"""A job's state as a dry run says it (would render, would build, up to date), in the command's
language and padded to one column however wide its words print (a CJK character is two columns)."""

from __future__ import annotations

import functools
import unicodedata

from attention_core.errors import text

STATES = ("batch_would_render", "batch_would_build", "batch_up_to_date")


def columns(words: str) -> int:
    """How wide words print in a terminal: a wide (CJK) character is two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in words)


@functools.lru_cache(maxsize=None)
def state_word(code: str, lang: str) -> str:
    """A state of STATES in `lang`, padded to the widest of the three (the dry run's column)."""
    width = max(columns(text(lang, c)) for c in STATES)
    words = text(lang, code)
    return words + " " * (width - columns(words))
