"""The line of the editor's text a LessonError points at: the studio's problem line and its squiggle.

The core names a problem by its key ("projections.w_q row 4", "vocab.the", "contexts.river token 3",
"focus") or, for a TOML error, by tomllib's own "at line N". tomllib keeps no positions, so the key's
line is found by reading the text's table headers and key = value lines.
"""

from __future__ import annotations

import re

from attention_core import LessonError

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_ASSIGN = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|'"'"r"[^']*'|[A-Za-z0-9_-]+)\s*=")


def _unquote(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" else key


def _tables(text: str):
    """(line number, table, key or None) of every table header and key = value line."""
    table = ""
    for n, line in enumerate(text.splitlines(), start=1):
        if m := _HEADER.match(line):
            table = ".".join(_unquote(part.strip()) for part in m.group(1).split("."))
            yield n, table, None
        elif m := _ASSIGN.match(line):
            yield n, table, _unquote(m.group(1))


def _row_line(text: str, start: int, row: int) -> int:
    """The line of a matrix's row-th row, the matrix written from line `start` on (one row a line; a
    matrix on one line: that line)."""
    lines = text.splitlines()[start - 1:]
    first = lines[0].split("=", 1)[1].strip()[1:]  # after the matrix's own "["
    seen = 0
    for n, body in enumerate([first, *lines[1:]], start=start):
        seen += body.strip().startswith("[")
        if seen == row:
            return n
    return start


def locate(text: str, key: str) -> int | None:
    """The line (from 1) of the text a LessonError's key points at ("projections.w_q row 4", "vocab.the",
    "contexts.river token 3", "focus"; a TOML error's own "line N"), or None."""
    if not key:
        return None
    path, *rest = key.split(" ")
    where = {(table, k): n for n, table, k in _tables(text)}
    parts = path.split(".")
    for cut in range(len(parts) - 1, -1, -1):  # the longest table the key can be under first
        table, name = ".".join(parts[:cut]), ".".join(parts[cut:])
        if (table, name) in where:
            n = where[(table, name)]
            return _row_line(text, n, int(rest[1])) if rest[:1] == ["row"] else n
    return where.get((path, None))


def error_line(text: str, error: LessonError) -> int | None:
    """The line a LessonError about this text points at: its key's, or a TOML error's own."""
    if not error.key and (m := re.search(r"at line (\d+)", error.found or "")):
        return int(m.group(1))
    if not error.key and "at end of document" in (error.found or ""):
        return max(1, len(text.splitlines()))
    return locate(text, error.key)
