"""A causal mask drawn on a grid (the mask, matrix and edge-cases scenes): a masked cell (a key after its
query) keeps its place but not its look: a plain fill, a stroke across it under its number, the number
(−∞ before the softmax, 0 after) dimmed. Nothing here computes: the mask is the core's
(`AttentionPass.mask`, True where query i may look at key j)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import Line, VGroup

from . import style
from .formats import shared_format

MINUS_INF = "−∞"  # a masked score: the glyph, never a large negative number
STRIKE_WIDTH = 2  # the stroke across a masked cell
STRIKE_OPACITY = 0.7


def masked_format(values: np.ndarray) -> Callable[[float], str]:
    """A grid's formatter: −∞ for a masked score, the finite numbers with their shared decimals."""
    finite = np.asarray(values, dtype=float)
    fmt = shared_format(finite[np.isfinite(finite)] if np.isfinite(finite).any() else np.zeros(1))
    return lambda x: MINUS_INF if np.isneginf(x) else fmt(x)


def strike_masked(grid, allowed: np.ndarray | None, color=None) -> VGroup:
    """Mark the masked cells of `grid` (allowed [r, c] bool, False where masked; None: no mask): each
    cell's fill plain, a stroke across it from corner to corner under its number, its number in `color`
    (the mistakes' colour unless given one). The strokes join the grid (drawn between its boxes and
    its numbers: grid.strikes) and are returned."""
    strikes, grid.strike_rows = VGroup(), {}
    if allowed is not None:
        for i, j in zip(*np.nonzero(~np.asarray(allowed, dtype=bool))):
            box = grid.box(i, j)
            box.set_fill(style.CELL_FILL, 1.0)
            line = Line(box.get_corner([-1, -1, 0]), box.get_corner([1, 1, 0]), stroke_color=style.GRID,
                        stroke_width=STRIKE_WIDTH, stroke_opacity=STRIKE_OPACITY)
            strikes.add(line)
            grid.strike_rows.setdefault(int(i), []).append(line)
            grid.number(i, j).set_color(color or style.WRONG)
    grid.strikes = strikes
    grid.submobjects.insert(1, strikes)  # over the boxes, under the numbers
    return strikes


def row_strikes(grid, i: int) -> VGroup:
    """The strokes across row i's masked cells (none: an empty group)."""
    return VGroup(*getattr(grid, "strike_rows", {}).get(i, []))
