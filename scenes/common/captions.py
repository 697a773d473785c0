"""Subtitle cues: a narration line cut into cues of at most two lines, each line about as long as a
subtitle line may be (42 characters in English, 16 in Chinese, where a Latin letter or digit counts
half), never inside a word or a number. No manim import."""

from __future__ import annotations

import re

LINE_WIDTH = {"zh": 16.0, "en": 42.0}  # per subtitle line, in full-width characters for zh
LINES_PER_CUE = 2
# a unit never split: a bracketed vector; a Latin word or number with its sign, decimals and percent; one CJK character;
# a run of spaces; any other character
_UNIT = re.compile(r"\[[^\[\]]{0,40}\][,.;:!?，。；：]?|[\[(]?[+\-−]?[A-Za-z0-9_.%·√ₖᵀ'’/=×→-]+[\]),.;:!?]?|\s+|.")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_BREAK_AFTER = set("，。；：！？、,.;:!?)")


def _width(s: str, lang: str) -> float:
    if lang != "zh":
        return float(len(s))
    return sum(1.0 if _CJK.match(c) else 0.5 for c in s)


def _units(text: str) -> list[str]:
    out = []
    for m in _UNIT.finditer(text):
        out.append(m.group())
    return out


def lines(text: str, lang: str) -> list[str]:
    """The text wrapped into as few subtitle lines as fit, of about even length, broken only between
    units, never before punctuation, and after punctuation where there is some late in the line."""
    limit = LINE_WIDTH.get(lang, LINE_WIDTH["en"])
    units = _units(text.strip())
    total = _width("".join(units), lang)
    target = min(limit, total / max(1, -(-total // limit)) * 1.1)  # even lines, as few as fit
    result, line = [], []
    for i, u in enumerate(units):
        if line and "".join(line).strip() and u[0] not in _BREAK_AFTER \
                and _width("".join(line) + u.rstrip(), lang) > target \
                and not _pause_within(line, units[i:], lang, limit):
            cut = _last_break(line, lang, target)
            result.append("".join(line[:cut]).strip())
            line = line[cut:]
        line.append(u)
    if "".join(line).strip():
        result.append("".join(line).strip())
    return [r for r in result if r]


def _pause_within(line: list[str], rest: list[str], lang: str, limit: float, reach: int = 3) -> bool:
    """Whether punctuation comes within `reach` units and the line still fits the limit with it: then
    the line runs on to it rather than breaking a word or phrase just before a pause."""
    for k, u in enumerate(rest[:reach], start=1):
        if u[-1] in _BREAK_AFTER:
            return _width("".join(line + rest[:k]).rstrip(), lang) <= limit
    return False


def _last_break(line: list[str], lang: str, limit: float) -> int:
    """How many of a full line's units to keep: up to its last punctuation in its second half, else
    up to its last space in its last third, else all."""
    for share, ends in ((1 / 2, _BREAK_AFTER), (2 / 3, {" "})):
        for k in range(len(line) - 1, 0, -1):
            if _width("".join(line[:k]), lang) < limit * share:
                break
            if line[k - 1][-1] in ends:
                return k
    return len(line)


def cues(text: str, lang: str) -> list[str]:
    """The text as subtitle cues of at most LINES_PER_CUE lines each (lines joined by a newline)."""
    ls = lines(text, lang)
    return ["\n".join(ls[i:i + LINES_PER_CUE]) for i in range(0, len(ls), LINES_PER_CUE)] or [text]


def timed(text: str, lang: str, start: float, end: float) -> list[tuple[str, float, float]]:
    """Cues spread over [start, end] in proportion to their length (a voice reads at an even pace)."""
    cs = cues(text, lang)
    weights = [max(_width(c.replace("\n", ""), lang), 1.0) for c in cs]
    total, t, out = sum(weights), start, []
    for c, w in zip(cs, weights):
        d = (end - start) * w / total
        out.append((c, t, t + d))
        t += d
    return out
