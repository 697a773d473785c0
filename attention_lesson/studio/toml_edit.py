"""One key of a TOML text set or removed in place, every other line (comments, order, blank lines) as it
was: the studio's edits of a words file and of the lesson file's `words = "..."`.

No TOML library here keeps comments (tomllib only reads; tomlkit is not a dependency), so the edit is a
small one on lines: the key's line found by attention_core.lines.key_lines, its value's extent found by
parsing (a value may run over several lines: a multi-line string, an array), and the result checked by
parsing it back: every other key keeps its value, the key has the new one. An edit that would not pass
that check is refused (EditError), never written.
"""

from __future__ import annotations

import json
import re
import tomllib

from attention_core.lines import key_lines

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_HEADER = re.compile(r"^\s*\[")


class EditError(ValueError):
    """An edit the studio cannot make without touching other lines: one line saying why."""


def quoted(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; DEL, which TOML wants escaped, too)."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def flat(text: str) -> dict:
    """Every key of a TOML text by its dotted name, with its value; EditError if it is not TOML."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise EditError(f"not valid TOML: {e}") from None
    out: dict = {}

    def walk(prefix: str, table: dict) -> None:
        for k, v in table.items():
            key = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(key, v)
            else:
                out[key] = v
    walk("", data)
    return out


def _parses(chunk: str) -> bool:
    try:
        tomllib.loads("v =" + chunk)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _extent(lines: list[str], i: int) -> tuple[int, int, str]:
    """The key on line i: where its `=` is, the last line of its value and the comment after it."""
    eq = lines[i].index("=")
    for end in range(i, len(lines)):
        head = [lines[i][eq + 1:], *lines[i + 1:end + 1]]
        if not _parses("\n".join(head)):
            continue
        last = head[-1]
        for j in (m.start() for m in re.finditer("#", last)):
            if last[:j].strip() and _parses("\n".join([*head[:-1], last[:j]])):
                return eq, end, "  " + last[j:].rstrip()
        return eq, end, ""
    raise EditError(f"line {i + 1}: cannot find where this key's value ends")


def _insert_at(lines: list[str], table: str) -> int | None:
    """Where a new key of `table` goes: after the table's last key (before the comments and blank lines
    that open the next table), or None when the text has no such table."""
    header = re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\]\s*(#.*)?$")
    start = next((n for n, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return None
    end = next((n for n in range(start + 1, len(lines)) if _HEADER.match(lines[n])), len(lines))
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def set_key(text: str, key: str, value: str, note: str | None = None) -> str:
    """`text` with `key` (dotted, under its table) set to the string `value`: its line replaced where it
    is (its trailing comment kept), else added at the end of its table (under `note`, a comment line),
    else in a new table at the end. EditError if that would change anything else."""
    lines = text.splitlines()
    table, leaf = key.rsplit(".", 1)
    at = key_lines(text).get(key)
    if at is not None:
        eq, end, comment = _extent(lines, at - 1)
        lines[at - 1:end + 1] = [f"{lines[at - 1][:eq].rstrip()} = {quoted(value)}{comment}"]
    else:
        new = [*([note] if note else []), f"{leaf if _BARE.match(leaf) else quoted(leaf)} = {quoted(value)}"]
        where = _insert_at(lines, table)
        if where is None:
            lines += [*([""] if lines and lines[-1].strip() else []), f"[{table}]", *new]
        else:
            lines[where:where] = new
    out = "\n".join(lines) + "\n"
    _verify(text, out, {key: value}, set())
    return out


def drop_key(text: str, key: str, note: str | None = None) -> str:
    """`text` without `key` (and the comment line `note` right above it, the one set_key wrote); the
    text as it is when it has no such key. EditError if that would change anything else."""
    lines = text.splitlines()
    at = key_lines(text).get(key)
    if at is None:
        return text
    _, end, _ = _extent(lines, at - 1)
    start = at - 2 if note and at >= 2 and lines[at - 2].strip() == note.strip() else at - 1
    del lines[start:end + 1]
    out = "\n".join(lines) + ("\n" if lines else "")
    _verify(text, out, {}, {key})
    return out


def _verify(before: str, after: str, given: dict, gone: set) -> None:
    old, new = flat(before), flat(after)
    want = {k: v for k, v in old.items() if k not in gone} | given
    if new != want:
        changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        raise EditError(f"the edit would change other keys too ({', '.join(changed)}): not written")


def with_top_key(text: str, key: str, value: str, note: str = "") -> str:
    """`text` with a top-level `key = "value"` before its first table (after the comments that open that
    table stay with it), every other line as it was; the text as it is when it has the key already."""
    lines = text.splitlines()
    if key in flat(text):
        return text
    end = next((n for n, line in enumerate(lines) if _HEADER.match(line)), len(lines))
    while end > 0 and end < len(lines) and lines[end - 1].lstrip().startswith("#"):
        end -= 1  # the comments right above the first table are that table's
    while end > 0 and not lines[end - 1].strip():
        end -= 1  # after the last top-level line, before the blank lines
    lines[end:end] = [f"{key} = {quoted(value)}" + (f"  # {note}" if note else "")]
    out = "\n".join(lines) + "\n"
    _verify(text, out, {key: value}, set())
    return out
