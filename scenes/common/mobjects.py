"""Reusable mobjects built from arrays: geometry comes from the data's shape, never from a token count.

Numbers are Pango `Text`, not formulas: a 4×4 DecimalMatrix typesets digit by digit and costs seconds.
Texts, formulas and their layout are in labels.py (its helpers are importable from here too).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Line,
    ManimColor,
    Mobject,
    Rectangle,
    RoundedRectangle,
    Text,
    VGroup,
    config,
)

from . import style
from .formats import number_text, percent_text, shared_format, shared_places  # noqa: F401 - the scenes' formats
from .labels import (  # noqa: F401 - the text helpers (labels.py), importable from here as before
    attention_formula,
    caption_box,
    cell_width_for,
    even_labels,
    fit,
    frame_box,
    label,
    label_line,
    math,
    mixed_line,
    word,
)
from .masked import masked_format


class NumberGrid(VGroup):
    """A matrix of numbers in cells, from an [r, c] array, with optional row and column labels.

    Accessors: cell(i, j), box(i, j), number(i, j), row(i), column(j); rows are the array's first axis.
    A grid is one of its step's main tables (`main`, the default): the fill check holds its numbers to
    style.TABLE_CAP_PX. `main=False` marks an overview, several whole matrices at once whose numbers the
    next steps read one row at a time (projection's X, Q, K, V): only the floor of every text holds.

    Parameters
    ----------
    values : np.ndarray
        [r, c] (a vector [c] is one row): the numbers, one cell each.
    row_labels : sequence of str, optional
        A label left of every row (the tokens).
    col_labels : sequence of str, optional
        A label over every column (the tokens, or the dimensions' names).
    color : ManimColor, optional
        The numbers' colour (style.TEXT); ignored where `fills` colours the cells.
    fills : callable, optional
        value -> a cell's fill (a heatmap); the number is then drawn in the colour that reads on it.
    formatter : callable, optional
        value -> the text shown; default: the same decimals for the whole table (`shared_format`).
    cell_w : float
        A cell's width, before the grid is scaled to fit.
    cell_h : float
        A cell's height.
    number_size : float
        The numbers' font size.
    label_color : ManimColor, optional
        The labels' colour (style.DIM).
    label_size : float
        The labels' font size.
    main : bool
        One of its step's main tables (held to style.TABLE_CAP_PX), or an overview of several.

    Examples
    --------
    bank's weights in the river context as one row, the tokens over the columns:

    >>> grid = NumberGrid(np.array([[0.11, 0.07, 0.69, 0.14]]), row_labels=["bank"],
    ...                   col_labels=["by", "the", "river", "bank"])
    >>> grid.shape, grid.number(0, 2).text
    ((1, 4), '0.69')

    In a scene, `self.play(FadeIn(grid))`; `grid.new_values(...)` is the target of a Transform.
    """

    def __init__(
        self,
        values: np.ndarray,
        *,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        color: ManimColor | None = None,
        fills: Callable[[float], ManimColor] | None = None,
        formatter: Callable[[float], str] | None = None,
        cell_w: float = style.CELL_W,
        cell_h: float = style.CELL_H,
        number_size: float = style.NUMBER_SIZE,
        label_color: ManimColor | None = None,
        label_size: float = style.LABEL_SIZE,
        main: bool = True,
    ):
        super().__init__()
        self.main = main
        self.values = np.atleast_2d(np.asarray(values, dtype=float))  # [r, c]
        self.color, self.fills = color or style.TEXT, fills
        self.shared = formatter is None  # one table, one number format (recomputed for new values)
        self.formatter = formatter or shared_format(self.values)
        self.number_size, self.built_cell_w = number_size, cell_w
        self._add_cells(cell_w, cell_h)
        self._add_labels(row_labels or [], col_labels or [], cell_w, cell_h, label_color or style.DIM,
                         label_size)

    def _add_cells(self, cell_w: float, cell_h: float) -> None:
        """The boxes, rows stacked, and a number in each."""
        r, c = self.values.shape
        self.boxes = VGroup(*(
            VGroup(*(self._box(i, j, cell_w, cell_h) for j in range(c))).arrange(RIGHT, buff=0)
            for i in range(r)
        )).arrange(DOWN, buff=0)
        self.numbers = VGroup(*(
            VGroup(*(self._number(self.values[i, j], self.boxes[i][j]) for j in range(c)))
            for i in range(r)
        ))
        self.add(self.boxes, self.numbers)

    def _add_labels(self, row_labels: Sequence[str], col_labels: Sequence[str], cell_w: float,
                    cell_h: float, color: ManimColor, size: float) -> None:
        """A label left of every row and over every column (one size, one baseline: label_line)."""
        self.row_labels = VGroup(*(
            word(t, size, color).next_to(self.boxes[i], LEFT, buff=style.ROW_LABEL_GAP)
            for i, t in enumerate(row_labels)
        ))
        self.col_labels = VGroup(*(
            word(t, size, color).set_x(self.boxes[0][j].get_x())
            for j, t in enumerate(col_labels)
        ))
        label_line(self.col_labels, cell_w, self.boxes.get_top()[1] + style.COL_LABEL_GAP, UP,
                   max_height=cell_h * style.COL_LABEL_MAX_H)
        self.add(self.row_labels, self.col_labels)

    def _fill(self, value: float) -> tuple[ManimColor, float]:
        return (self.fills(value), 1.0) if self.fills else (style.CELL_FILL, 1.0)

    def _box(self, i: int, j: int, w: float, h: float) -> Rectangle:
        fill, opacity = self._fill(self.values[i, j])
        return Rectangle(width=w, height=h, stroke_color=style.GRID, stroke_width=style.GRID_STROKE,
                         fill_color=fill, fill_opacity=opacity)

    def _number(self, value: float, box: Rectangle) -> Text:
        """A number in its cell, at the grid's size as it is now (a grid scaled to fill the frame makes
        new numbers, new_values(), at its new size)."""
        color = style.text_on(box.fill_color) if self.fills else self.color
        t = label(self.formatter(value), self.number_size * box.width / self.built_cell_w, color)
        fit(t, box.width * style.NUMBER_FILL_W, box.height * style.NUMBER_FILL_H)
        return t.move_to(box)

    @property
    def shape(self) -> tuple[int, int]:
        return self.values.shape

    def box(self, i: int, j: int) -> Rectangle:
        return self.boxes[i][j]

    def number(self, i: int, j: int) -> Text:
        return self.numbers[i][j]

    def cell(self, i: int, j: int) -> VGroup:
        return VGroup(self.boxes[i][j], self.numbers[i][j])

    def row(self, i: int) -> VGroup:
        return VGroup(self.boxes[i], self.numbers[i])

    def column(self, j: int) -> VGroup:
        return VGroup(*(self.cell(i, j) for i in range(self.shape[0])))

    def new_values(self, values: np.ndarray, fills: Callable[[float], ManimColor] | None = None,
                   formatter: Callable[[float], str] | None = None) -> "NumberGrid":
        """A copy with other values in the same place (the target of a Transform)."""
        target = self.copy()
        target.values = np.atleast_2d(np.asarray(values, dtype=float))
        target.fills = fills if fills is not None else self.fills
        target.formatter = formatter or (shared_format(target.values) if self.shared else self.formatter)
        for i, j in np.ndindex(*target.shape):
            box = target.boxes[i][j]
            fill, opacity = target._fill(target.values[i, j])
            box.set_fill(fill, opacity)
            new = target._number(target.values[i, j], box)
            target.numbers[i].submobjects[j] = new  # a new Text: its .text is the number shown
        return target


def vector(values: np.ndarray, color: ManimColor, *, vertical: bool = False, **kw) -> NumberGrid:
    """A vector as one row (or one column) of cells, outlined in its role colour."""
    v = np.asarray(values, dtype=float)
    g = NumberGrid(v[:, None] if vertical else v[None, :], color=color, **kw)
    g.boxes.set_stroke(color, width=2)
    return g


def heatmap(weights: np.ndarray, tokens: Sequence[str], **kw) -> NumberGrid:
    """An [n, n] weights matrix: rows are the querying tokens, columns the keys."""
    return NumberGrid(weights, row_labels=tokens, col_labels=tokens, fills=style.heat_color, **kw)


class TokenChip(VGroup):
    def __init__(self, token: str, color: ManimColor | None = None, size: float = style.BODY_SIZE):
        super().__init__()
        color = color or style.TEXT
        self.token = token
        self.text = word(token, size, color)
        self.frame = RoundedRectangle(
            corner_radius=style.CORNER, width=self.text.width + 2 * style.TOKEN_PAD,
            height=self.text.height + 2 * style.TOKEN_PAD, stroke_color=color, stroke_width=2,
        ).move_to(self.text)
        self.add(self.frame, self.text)


class TokenRow(VGroup):
    """A sentence as a row of token chips; chip(i) is the i-th token."""

    def __init__(self, tokens: Sequence[str], color: ManimColor | None = None, size: float = style.BODY_SIZE,
                 buff: float = style.GAP):
        super().__init__(*(TokenChip(t, color, size) for t in tokens))
        self.arrange(RIGHT, buff=buff)

    def chip(self, i: int) -> TokenChip:
        return self[i]


class WeightBars(VGroup):
    """One bar per key, labelled below with the token and above with its value.

    Bars share a baseline; heights follow |value| / max|value| (negative values hang below). A masked
    score (−∞: a causal mask's later key) has no height and reads −∞.

    Parameters
    ----------
    values : np.ndarray
        [n]: one value per key (a row of weights or of scores; −∞ where masked).
    labels : sequence of str
        The n tokens, one under each bar.
    color : ManimColor, optional
        The bars' colour (style.TEXT), where `fills` does not colour them.
    max_height : float
        The tallest bar's height.
    bar_w : float
        A bar's width.
    buff : float
        The gap between two bars.
    scale_to : float, optional
        The value drawn max_height tall; default: the largest |value| (a row of weights: set 1.0 to
        compare rows).
    formatter : callable, optional
        value -> the text over a bar; default: shared decimals, −∞ for a masked score.
    fills : callable, optional
        value -> a bar's colour.

    Examples
    --------
    >>> bars = WeightBars(np.array([0.11, 0.07, 0.69, 0.14]), ["by", "the", "river", "bank"])
    >>> [t.text for t in bars.value_labels]
    ['0.11', '0.07', '0.69', '0.14']
    >>> [round(float(bar.height / bars.max_height), 2) for bar in bars.bars]  # river's is the tallest
    [0.16, 0.1, 1.0, 0.2]

    In a scene, `self.play(GrowFromEdge(bars.bars[2], DOWN))`; `bars.bar(i)` is a bar with its value.
    """

    def __init__(self, values: np.ndarray, labels: Sequence[str], *, color: ManimColor | None = None,
                 max_height: float = style.BAR_MAX_H, bar_w: float = style.BAR_W, buff: float = style.GAP,
                 scale_to: float | None = None, formatter: Callable[[float], str] | None = None,
                 fills: Callable[[float], ManimColor] | None = None):
        super().__init__()
        self.max_height, self.bar_w, self.color = max_height, bar_w, color or style.TEXT
        self.fills = fills
        self.values = np.asarray(values, dtype=float)
        self.shared = formatter is None  # one row of bars, one number format (recomputed for new values)
        self.formatter = formatter or masked_format(self.values)
        n = len(self.values)
        self.step = bar_w + buff
        self.baseline = Line(LEFT * (n * self.step) / 2, RIGHT * (n * self.step) / 2,
                             stroke_color=style.GRID)
        self.built_width = self.baseline.width
        self.scale_to = scale_to or _largest(self.values)
        self.bars = VGroup(*(self._bar(i, x) for i, x in enumerate(self.values)))
        self.value_labels = VGroup(*(self._value_label(i) for i in range(n)))
        self.token_labels = VGroup(*(word(t, style.LABEL_SIZE, style.TEXT).set_x(self.xs[i])
                                     for i, t in enumerate(labels)))
        label_line(self.token_labels, self.step, self.baseline.get_y() - style.COL_LABEL_GAP, DOWN)
        self.add(self.baseline, self.bars, self.value_labels, self.token_labels)

    @property
    def zoom(self) -> float:
        """How much the chart has been scaled since it was built (place_body, fit)."""
        return self.baseline.width / self.built_width

    @property
    def xs(self) -> list[float]:
        """Centre x of every bar, from where the baseline is now."""
        left, step = self.baseline.get_left()[0], self.step * self.zoom
        return [left + step * (i + 0.5) for i in range(len(self.values))]

    def _bar(self, i: int, value: float) -> Rectangle:
        k = self.zoom
        height = abs(value) / self.scale_to * self.max_height * k if np.isfinite(value) else 0.0
        h = max(height, style.BAR_MIN_H * k)
        fill = self.fills(value) if self.fills and np.isfinite(value) else self.color
        bar = Rectangle(width=self.bar_w * k, height=h, stroke_width=0, fill_color=fill,
                        fill_opacity=style.BAR_OPACITY)
        edge = DOWN if value >= 0 or np.isneginf(value) else UP
        return bar.move_to([self.xs[i], self.baseline.get_y(), 0], aligned_edge=edge)

    def _value_label(self, i: int) -> Text:
        k = self.zoom
        t = label(self.formatter(self.values[i]), style.NUMBER_SIZE, style.TEXT).scale(k)
        fit(t, min(self.bar_w * style.VALUE_LABEL_W, self.step * style.VALUE_LABEL_STEP) * k,
            config.frame_height)
        bar = self.bars[i]
        above = self.values[i] >= 0 or np.isneginf(self.values[i])  # −∞ sits on the line, as a zero does
        return t.next_to(bar, UP if above else DOWN, buff=style.VALUE_LABEL_GAP * k)

    def bar(self, i: int) -> VGroup:
        return VGroup(self.bars[i], self.value_labels[i])

    def new_values(self, values: np.ndarray, scale_to: float | None = None,
                   fills: Callable[[float], ManimColor] | None = None) -> "WeightBars":
        """A copy with other values on the same baseline (the target of a Transform)."""
        target = self.copy()
        target.values = np.asarray(values, dtype=float)
        target.scale_to = scale_to or _largest(target.values)
        target.fills = fills if fills is not None else self.fills
        if self.shared:
            target.formatter = masked_format(target.values)
        for i, v in enumerate(target.values):
            target.bars[i].become(target._bar(i, v))
            target.value_labels.submobjects[i] = target._value_label(i)  # its .text is the value shown
        return target


def _largest(values: np.ndarray) -> float:
    """The largest finite |value| (what the tallest bar stands for), never 0."""
    finite = np.abs(values[np.isfinite(values)])
    return max(finite.max() if finite.size else 0.0, 1e-9)


def outline(m: Mobject, color: ManimColor | None = None, *, buff: float | tuple[float, float] = 0.0,
            stroke: float = style.OUTLINE_STROKE, corner: float = 0.0,
            height: float | None = None) -> Rectangle:
    """A frame around a cell, a row or a bar the narration points at: `buff` away from it (one value,
    or x and y), rounded with `corner`; `height` fixes its height (a band exactly one cell high never
    crosses the text of the rows around it)."""
    from manim import SurroundingRectangle

    frame = SurroundingRectangle(m, color=color or style.HIGHLIGHT, buff=buff, stroke_width=stroke,
                                 corner_radius=corner)
    if height is not None:
        frame.stretch_to_fit_height(height)
    return frame


def attention_lines(src: Mobject, targets: Sequence[Mobject], weights: Sequence[float],
                    color: ManimColor | None = None, threshold: float = 0.0) -> VGroup:
    """Lines from one query to its keys, thicker and more opaque the larger the weight."""
    lines = VGroup()
    for t, w in zip(targets, weights):
        if w <= threshold:
            continue
        width = style.LINE_MIN + (style.LINE_MAX - style.LINE_MIN) * float(w)
        lines.add(Line(src.get_bottom(), t.get_top(), stroke_color=color or style.EMPHASIS,
                       stroke_width=width,
                       stroke_opacity=min(1.0, style.LINE_MIN_OPACITY + float(w))))
    return lines


def weight_arrow(start, end, w: float, color: ManimColor | None = None):
    """An arrow whose thickness follows an attention weight in [0, 1]."""
    from manim import Arrow

    return Arrow(start, end, buff=style.ARROW_BUFF, stroke_color=color or style.EMPHASIS,
                 stroke_width=style.LINE_MIN + (style.ARROW_MAX - style.LINE_MIN) * float(w),
                 max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO)
