"""Where things are in a lesson file's text: the line a LessonError points at (every message's
`FILE:LINE:`, the studio's problem line and its squiggle), and how deeply its arrays and tables nest.

The core names a problem by its key ("projections.w_q row 4", "vocab.the", "contexts.river token 3",
"focus") or, for a TOML error, by tomllib's own "at line N". tomllib keeps no positions, so the key's
line is found by reading the text's table headers and key = value lines.
"""

from __future__ import annotations

import re

from .errors import Phrase, split_key

# Every repetition is possessive (`*+`, `++`: nothing given back), so that each pattern reads a line, or
# the text, once: in time and in memory linear in its length (a 1 MB title, a 1 MB line of spaces).
_HEADER = re.compile(r"^\s*+\[([^\[\]]++)\]\s*+(#.*)?$")
_ASSIGN = re.compile(r'^\s*+("[^"\\]*+(?:\\.[^"\\]*+)*+"|'"'"r"[^']*+'|[A-Za-z0-9_-]++)\s*+=")
# what the nesting scan reads: strings and comments (skipped whole), runs of brackets and braces (counted)
_TOKENS = re.compile(r'"""[^"\\]*+(?:(?:\\.|"(?!""))[^"\\]*+)*+"""|'
                     r"'''[^']*+(?:'(?!'')[^']*+)*+'''|"
                     r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'
                     r"'[^'\n]*+'|#[^\n]*+|[\[{]++|[\]}]++", re.S)


def _unquote(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" else key


def _tables(text: str):
    """(line number, table, key or None) of every table header and key = value line."""
    table = ""
    for n, line in enumerate(text.splitlines(), start=1):
        if (m := _HEADER.match(line)) and m.group(1).strip():
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
    "contexts.river token 3", "focus"); a key the text lacks: the line of what it is written in
    ("context_labels.river.fr": the line of river = { fr = ... }; "projections.w_v" missing: the header
    [projections]); None if none of it is there."""
    if not key:
        return None
    path, rest = split_key(key)
    where = {(table, k): n for n, table, k in _tables(text)}
    parts = path.split(".")
    for end in range(len(parts), 0, -1):  # the key itself first, then what it is written inside
        for cut in range(end - 1, -1, -1):  # under the longest table it can be under first
            table, name = ".".join(parts[:cut]), ".".join(parts[cut:end])
            if (table, name) in where:
                n = where[(table, name)]
                row = end == len(parts) and rest[:1] and rest[0][0] == "row"
                return _row_line(text, n, rest[0][1]) if row else n
        if (".".join(parts[:end]), None) in where:
            return where[(".".join(parts[:end]), None)]
    return None


def toml_line(text: str, reason: str) -> int | None:
    """The line tomllib's message names: "(at line N, column M)", or the last line "at end of document"."""
    if m := re.search(r"\(at line (\d+), column \d+\)$", reason):
        return int(m.group(1))
    if reason.endswith("(at end of document)"):
        return max(1, len(text.splitlines()))
    return None


def error_line(text: str, error) -> int | None:
    """The line a LessonError about this text points at: its own (a TOML error's, the nesting's), its
    key's, or for a missing top-level table the last line (where it would be added)."""
    if error.line is not None:
        return error.line
    if (n := locate(text, error.key)) is not None:
        return n
    nothing = isinstance(error.found, Phrase) and error.found.code == "nothing"
    if nothing and error.key and "." not in error.key:
        return max(1, len(text.splitlines()))
    return None


def nesting(text: str, limit: int) -> tuple[int, int] | None:
    """(the line where arrays and tables first nest deeper than `limit`, the deepest they nest), or None
    when they never do: read before tomllib, whose parser recurses once per level."""
    depth = deepest = 0
    first = None
    for m in _TOKENS.finditer(text):
        run = m.end() - m.start()
        if (c := text[m.start()]) in "[{":
            depth += run
            deepest = max(deepest, depth)
            if depth > limit and first is None:
                first = text.count("\n", 0, m.start()) + 1  # (a run is on one line)
        elif c in "]}":
            depth = max(0, depth - run)
    return None if first is None else (first, deepest)


def key_lines(text: str) -> dict[str, int]:
    """The line (from 1) of every `key = value` of a TOML text, by its dotted name under its table
    ("softmax.say.reading"): where a catalog's or a words folder's entry is written."""
    return {f"{table}.{key}" if table else key: n for n, table, key in _tables(text) if key is not None}
