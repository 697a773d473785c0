"""What words check warns of in a teacher's words, printed and never refused: a line that leaves out a
placeholder every built-in version of it takes (a reading that no longer says {self_pct}). A teacher may
drop a number from her own line; the line is filled all the same (a field it does not write is not
said). `words check` prints these after its errors (exit 0 when there are none), a render with --words
prints them on stderr, the studio answers a saved line with its warning. No manim import.
"""

from __future__ import annotations

from pathlib import Path

from attention_core.errors import Phrase, located, ph, say, tidy

from .words import PlaceholderError, WordsError, _allowed, _names, message_lang, overrides, placeholders


def lost(key: str, value) -> Phrase | None:
    """The placeholders every built-in version of `key`'s line takes and `value` leaves out, as words
    check says it; None when it keeps them (or is no line words check lets through: its error says it)."""
    try:
        found = placeholders(value)
    except (PlaceholderError, TypeError, AttributeError):
        return None
    some, every = _allowed().get(key, (frozenset(), frozenset()))
    if gone := sorted(every - found) if found <= some else None:
        return ph("words_lost_placeholder", key=key, names=_names(gone))
    return None


def line_warning(key: str, value, lang: str) -> str | None:
    """The warning of a line given for `key` (without its FILE:LINE), said in `lang`, or None."""
    found = lost(key, value)
    return None if found is None else tidy(lang, say(lang, ph("warning", text=found)))


def warnings(folder: str | Path, lang: str, say_in: str | None = None) -> list[str]:
    """The warnings of a words folder's language, one `FILE:LINE: warning: ...` each, in `say_in`
    (default: message_lang); none for a folder that cannot be read (`problems` says why)."""
    said = say_in or message_lang(lang)
    try:
        given = overrides(folder, lang)
    except WordsError:
        return []
    return [tidy(said, located(said, e.file, e.line, ph("warning", text=found)))
            for key, e in given.items() if (found := lost(key, e.value)) is not None]
