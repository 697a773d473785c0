"""What the next lessons' scenes share: a step's picture shown whole (a panel), a title over a table, a
row of bars with a caption, outlines around a table's cells. Their numbers come from the core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, ORIGIN, RIGHT, UP, FadeIn, LaggedStart, VGroup

from . import style
from .labels import even_labels, text_line, wrapped
from .mobjects import NumberGrid, WeightBars, outline

STACK_GAIN = 1.15  # side_by_side stacks its parts only when that lets them be this much larger


def titled(title: str, m, color=None, size: float = style.LABEL_SIZE, lang: str | None = None) -> VGroup:
    """A label over a mobject, centred on it (its `$...$` parts as formulas: `$W_Q$`). Given the `lang`,
    a title longer than what it is over wraps to its width (NOTE_MIN_W at the least), as a note does:
    a long title would set the picture's width, shrink what it names and run to the frame's edges."""
    color = color or style.EMPHASIS
    words = (wrapped(title, max(m.width, style.NOTE_MIN_W), lang, size, color, style.LINE_GAP / 2) if lang
             else text_line(title, size, color))
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

    def titled(self, title: str, m, color=None) -> VGroup:
        """`titled` in the scene's language: a long title wraps to the width of what it is over."""
        return titled(title, m, color, lang=self.lang)

    def panel(self, *parts, note: str | Sequence[str] | None = None):
        """Clear the body, lay the parts out (one above the other, a note under them), fill the body with
        them and show them in order; the note (wrapped to their width) last."""
        self.clear_body()
        group = VGroup(*parts).arrange(DOWN, buff=style.BIG_GAP)
        return self._show(group, list(parts), note)

    def side_by_side(self, *parts, note: str | Sequence[str] | None = None):
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

    def _show(self, group: VGroup, parts: list, note: str | Sequence[str] | None):
        """Place the group (and its note under it: a line, or several lines each wrapped on its own, one
        under the other) and show them part by part."""
        shown, notes = parts, [n for n in ([note] if isinstance(note, str) else note or []) if n]
        if notes:
            words = VGroup(*(self.note(n, group, style.LABEL_SIZE) for n in notes)).arrange(DOWN,
                                                                                      buff=style.LINE_GAP)
            words.next_to(group, DOWN, buff=style.BIG_GAP)
            group.add(words)
            shown.append(words)
        self.place_body(group)
        self.play(LaggedStart(*(FadeIn(p, shift=UP * style.GAP / 3) for p in shown), lag_ratio=0.5),
                  run_time=style.SLOW)
        return group
