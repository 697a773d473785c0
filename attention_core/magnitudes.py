"""How large a lesson's numbers may get: finite always (an error otherwise), legible below SCIENTIFIC_FROM
(a warning from `check`: checks.py), and how a number past that bound is written, the one rule every
table follows (scenes/common/formats.py for the scenes, the handout and the CLI; web/explorer-state.js's
`fmt` for the pages).

The bound, 1e5: with the scenes' 2 decimals the widest number written out below it, "-99999.99", has 9
characters, as many as the widest in scientific notation, "-1.23e308"; from 1e5 on the fixed form only
grows ("-100000.00" is 10, 1e308 would be 312), so from there every table writes "1.00e5". A lesson's own
numbers are a few units, their products tens: an intermediate that reaches 1e5 is a typo or a stress
test, and `check` says so. Past the largest float (1.8e308) an intermediate overflows to inf, and the
weights to nan: the lesson cannot be shown at all, a LessonError. Both name the number to blame: the
largest of those the entry is made of (`blame`), a vocabulary entry or a projection's row.
"""

from __future__ import annotations

import math

import numpy as np

from .errors import LessonError, ph

SCIENTIFIC_FROM = 1e5  # |x| from this on: scientific notation in every table, and a warning from `check`
NAMES = ("x", "q", "k", "v", "scores", "output")  # the intermediates that can grow (weights are 0..1)
# what an entry [i, j] of each is made of: the vocabulary rows (of tokens i, j, or all) and projections
MADE_OF = {"x": ("i", ()), "q": ("i", ("w_q",)), "k": ("i", ("w_k",)), "v": ("i", ("w_v",)),
           "scores": ("ij", ("w_q", "w_k")), "output": ("all", ("w_v",))}


def scientific(x: float, places: int) -> str | None:
    """x in scientific notation with `places` decimals when |x| is at least SCIENTIFIC_FROM ("1.23e5",
    "-4.00e308": no "+", no leading zeros in the exponent), or "inf", "-inf", "nan"; else None (the
    caller writes it out)."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if abs(x) < SCIENTIFIC_FROM:
        return None
    mantissa, exponent = f"{x:.{places}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _products(lesson, tokens) -> dict[str, np.ndarray]:
    """X, Q, K, V and the raw scores of a token list (overflow left to show as inf)."""
    with np.errstate(over="ignore", invalid="ignore"):
        x = lesson.embed(tokens)  # [n, d_model]
        q, k, v = x @ lesson.w_q, x @ lesson.w_k, x @ lesson.w_v  # [n, d_k], [n, d_k], [n, d_v]
        return {"x": x, "q": q, "k": k, "v": v, "scores": q @ k.T}  # scores [n, n]


def _sources(lesson, what: str, tokens, at: tuple[int, int]) -> list[tuple[str, float]]:
    """The lesson's own numbers entry `at` of an intermediate is made of, each as (its key, its largest
    |value|): the vocabulary entries of the tokens involved and the projections' rows."""
    rows, projections = MADE_OF[what]
    picked = {"i": [at[0]], "ij": [at[0], at[1]], "all": range(len(tokens))}[rows]
    found = [(f"vocab.{tokens[r]}", float(np.abs(lesson.vocab[tokens[r]]).max())) for r in picked]
    for name in projections:
        m = np.abs(getattr(lesson, name))  # [d_model, d]
        found.append((f"projections.{name} row {int(m.max(axis=1).argmax()) + 1}", float(m.max())))
    return found


def blame(lesson, what: str, tokens, at: tuple[int, int]) -> str:
    """The key of the number most to blame for an entry of an intermediate being so large: the largest
    of the numbers it is made of (a vocabulary entry, else a projection's row), so a teacher is sent to
    the line with 1e200 on it, not to the matrix that multiplied it."""
    return max(_sources(lesson, what, tokens, at), key=lambda source: source[1])[0]


def check_finite(lesson) -> None:
    """LessonError when an intermediate of a context overflows (Q, K, V or the scores past ±1.8e308): the
    weights would be nan. The output is a weighted mean of V's rows and stays finite with them."""
    for name, tokens in lesson.contexts.items():
        for what, m in _products(lesson, tokens).items():
            if not np.all(np.isfinite(m)):  # X is the file's own numbers, finite: Q, K, V or the scores
                at = tuple(int(i) for i in np.argwhere(~np.isfinite(m))[0])
                raise LessonError(lesson.source, blame(lesson, what, tokens, at),
                                  ph("finite_result", what=ph(what)),
                                  ph("overflow", value=str(float(m[at])), context=name))
