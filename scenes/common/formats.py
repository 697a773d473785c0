"""How numbers are written, on screen and in print: the one place (the scenes, the handout, the CLI, the
tests). No manim: the handout and the CLI use it without drawing. A number from the core's
SCIENTIFIC_FROM (1e5) on is written in scientific notation everywhere ("1.23e5"; magnitudes.py says
why), as the pages' `fmt` (web/explorer-state.js) writes it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attention_core import scientific

from .style import NUMBER_PLACES


def number_text(x: float, places: int = NUMBER_PLACES) -> str:
    """A number in running text as the lesson writes it: at most `places` decimals, no trailing zeros,
    no -0; from 1e5 on in scientific notation. Numbers side by side (a table, a row of bars) share their
    decimals: `shared_format`."""
    if (sci := scientific(x, places)) is not None:
        mantissa, e, exponent = sci.partition("e")
        return mantissa.rstrip("0").rstrip(".") + e + exponent if e else sci
    s = f"{round(float(x), places):.{places}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def fixed_text(x: float, places: int) -> str:
    """A number with exactly `places` decimals (a table's column), no -0; from 1e5 on in scientific
    notation with as many."""
    if (sci := scientific(x, places)) is not None:
        return sci
    s = f"{round(float(x), places):.{places}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def shared_places(values, most: int = NUMBER_PLACES) -> int:
    """The decimals a group of numbers shares: as many as its most precise number needs, at most `most`
    (0.2 beside 0.25 is written 0.20)."""
    values = [float(v) for v in np.ravel(values)]
    for places in range(most + 1):
        if all(abs(round(v, places) - round(v, most)) < 1e-9 for v in values):
            return places
    return most


def shared_format(values, most: int = NUMBER_PLACES) -> Callable[[float], str]:
    """A formatter for numbers shown side by side: every one with the same decimals, no -0."""
    places = shared_places(values, most)
    return lambda x: fixed_text(x, places)


def percent_text(share: float) -> str:
    """A weight as a whole percentage: 0.6854 -> "69%"."""
    return f"{share:.0%}"
