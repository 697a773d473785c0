"""The rules every subtitle cue keeps, checked on cues as a scene made them (manim's subcaptions), as an
.srt holds them or as `captions.timed` plans them: shown at least 5/6 s and at most 7 s, read at most 9
characters a second in Chinese and 20 in English (every character but the line break), inside its own
step, after the cue before it; the cues of a step say its line, and no word is split across two cues or
two lines (in Chinese: as jieba cuts the line; in English: lines break at spaces)."""

from __future__ import annotations

import re
from datetime import timedelta

import srt

from scenes.common.captions import words

MIN_CUE = 5 / 6
MAX_CUE = 7.0  # seconds: the longest a cue may stay (Netflix's timed-text guidelines)
CPS = {"zh": 9.0, "en": 20.0}
EPS = 1e-6  # seconds: float noise, far below the millisecond an .srt holds


def seconds(t) -> float:
    return t.total_seconds() if isinstance(t, timedelta) else float(t)


def srt_cues(text: str) -> list[tuple[str, float, float]]:
    """(content, start, end) of every cue of an .srt, in order."""
    return [(s.content, seconds(s.start), seconds(s.end)) for s in srt.parse(text)]


def timing_problems(cues: list[tuple[str, float, float]], lang: str) -> list[str]:
    """Each cue (text, start, end): long enough, not too long, slow enough, after the one before."""
    found, last_end = [], -1.0
    for text, start, end in cues:
        shown, n = end - start, len(text.replace("\n", ""))
        if shown < MIN_CUE - EPS:
            found.append(f"{start:.3f}-{end:.3f} shown {shown:.3f} s < 5/6 s: {text!r}")
        elif shown > MAX_CUE + EPS:
            found.append(f"{start:.3f}-{end:.3f} shown {shown:.3f} s > {MAX_CUE:g} s: {text!r}")
        elif n / shown > CPS[lang] + EPS:
            found.append(f"{start:.3f}-{end:.3f} {n / shown:.1f} characters a second > {CPS[lang]:g}: "
                         f"{text!r}")
        if start < last_end - EPS:
            found.append(f"{start:.3f} starts before the cue before ends ({last_end:.3f}): {text!r}")
        last_end = end
    return found


def split_words(line: str, parts: list[str]) -> list[str]:
    """The Chinese words of `line` that the cut into `parts` (cues or lines, in order) splits."""
    squeeze = lambda s: re.sub(r"\s", "", s)  # noqa: E731
    if squeeze("".join(parts)) != squeeze(line):
        return [f"the parts do not say the line: {parts!r}"]
    ends, at = set(), 0
    for w in words(line):
        at += len(squeeze(w))
        ends.add(at)
    found, at = [], 0
    for part in parts[:-1]:
        at += len(squeeze(part))
        if at not in ends:
            word = next(w for w, e in _word_ends(line) if e > at)
            found.append(f"{word!r} split after {squeeze(line)[:at][-6:]!r}")
    return found


def _word_ends(line: str):
    at = 0
    for w in words(line):
        at += len(re.sub(r"\s", "", w))
        yield w, at


def step_problems(steps, cues, lang: str) -> list[str]:
    """Cues (text, start, end) against the steps they belong to (each with .narration, .start, .end):
    every cue inside one step, each step's cues saying its line, no Chinese word split."""
    found = timing_problems(cues, lang)
    for step in steps:
        own = [c for c in cues if c[1] >= step.start - EPS and c[2] <= step.end + EPS and c[1] < step.end]
        lines = [line for c in own for line in c[0].split("\n")]
        said = re.sub(r"\s", "", "".join(lines))
        if said != re.sub(r"\s", "", step.narration):
            found.append(f"step {step.start:.3f}-{step.end:.3f} says {said!r}, "
                         f"not its line {step.narration!r}")
        elif lang == "zh":
            found += split_words(step.narration, lines)
        elif " ".join(lines) != " ".join(step.narration.split()):
            found.append(f"lines not broken at spaces: {lines!r}")
    return found
