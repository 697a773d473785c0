"""What the next lessons' scenes share: a step's picture shown whole (a panel), a title over a table, a
row of bars with a caption, outlines around a table's cells. Their numbers come from the core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, ORIGIN, RIGHT, UP, FadeIn, LaggedStart, VGroup

from . import style
from .labels import even_labels, text_line
from .mobjects import NumberGrid, WeightBars, outline

STACK_GAIN = 1.15  # side_by_side stacks its parts only when that lets them be this much larger


def titled(title: str, m, color=None, size: float = style.LABEL_SIZE) -> VGroup:
    """A label over a mobject, centred on it (its `$...$` parts as formulas: `$W_Q$`)."""
    words = text_line(title, size, color or style.EMPHASIS)
    return VGroup(words, m).arrange(DOWN, buff=style.GAP)


def table(values, rows: Sequence[str], cols: Sequence[str], heat: bool = False, **kw) -> NumberGrid:
    """A grid with row and column labels (keys across in the key colour when `heat`: weights)."""
    g = NumberGrid(np.asarray(values, dtype=float), row_labels=list(rows), col_labels=list(cols),
                   fills=style.heat_color if heat else None, **kw)
    even_labels(g.col_labels)
    return g


def bars(values, names: Sequence[str], color=None, narrow: bool = False) -> WeightBars:
    """A bar per value (`narrow`: many of them, closer together)."""
    kw = {"bar_w": style.BAR_W * 0.8, "buff": style.GAP * 0.6} if narrow else {}
    return WeightBars(np.asarray(values, dtype=float), list(names), color=color or style.V_COLOR, **kw)


def mark_cells(grid: NumberGrid, cells, color=None) -> VGroup:
    """Outlines around (row, column) cells of a grid."""
    return VGroup(*(outline(grid.cell(i, j), color or style.HIGHLIGHT, corner=style.CORNER) for i,
                    j in cells))


class Panels:
    """A LessonScene mixin: each step one picture, placed to fill the body and shown part by part."""

    def panel(self, *parts, note: str | None = None):
        """Clear the body, lay the parts out (one above the other, a note under them), fill the body with
        them and show them in order; the note (wrapped to their width) last."""
        self.clear_body()
        group = VGroup(*parts).arrange(DOWN, buff=style.BIG_GAP)
        return self._show(group, list(parts), note)

    def side_by_side(self, *parts, note: str | None = None):
        """The parts beside each other or one above the other, whichever lets them be larger."""
        self.clear_body()
        row = VGroup(*parts)

        def room(direction):
            row.arrange(direction, buff=style.BIG_GAP, aligned_edge=DOWN if direction is RIGHT else ORIGIN)
            return self.room(row)

        across, down = room(RIGHT), room(DOWN)  # beside each other unless stacked is clearly larger:
        direction = DOWN if down[:2] > (across[0], across[1] * STACK_GAIN) else RIGHT  # rows read across
        row.arrange(direction, buff=style.BIG_GAP, aligned_edge=DOWN if direction is RIGHT else ORIGIN)
        return self._show(VGroup(row), list(parts), note)

    def _show(self, group: VGroup, parts: list, note: str | None):
        shown = parts
        if note:
            words = self.note(note, group, style.LABEL_SIZE)
            words.next_to(group, DOWN, buff=style.BIG_GAP)
            group.add(words)
            shown.append(words)
        self.place_body(group)
        self.play(LaggedStart(*(FadeIn(p, shift=UP * style.GAP / 3) for p in shown), lag_ratio=0.5),
                  run_time=style.SLOW)
        return group
