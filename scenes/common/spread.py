"""A plane beside a table of numbers (the geometry scene): the table as columns that come and go as
the steps need them, the plane and the columns moved together so that what shows is centred; a
column's numbers keep their full size (never scaled to fit: the room is the plane's to give).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, RIGHT, UP, FadeIn, FadeOut, Mobject, Rectangle, VGroup

from . import style
from .formats import shared_format
from .labels import fit, label, wrapped
from .mobjects import NumberGrid

CELL_PAD = 0.3  # a number cell's room beside its widest number
# longer words (a translation's) give way before the plane does: when the widest table would take more than
# PLANE_GIVES of the width the body's height gives the plane, its columns' heads shrink (one factor for a
# table, by tenths, down to HEAD_LEAST of their size) until the plane keeps that width (give_way)
HEAD_LEAST, PLANE_GIVES = 0.6, 0.1
NOTE_GAP = style.GAP / 4  # between the lines under a plane
# a note under a plane that would shrink below NOTE_LEAST of its size to fit the plane's width wraps
# instead, to as few lines as that size allows (zh's, en's and ja's notes do not: they shrink as before)
NOTE_LEAST = 0.6


# A column is a VGroup with .head (over its cells), .cells (shown with the column), .numbers (shown by
# the steps, empty for a column of names) and .grid (what columns line up by).

def table_cell_width(columns: Sequence[Sequence[str]], heads: Sequence[Mobject],
                     size: float = style.NUMBER_SIZE) -> float:
    """One cell width for a table: its widest number at full size (never shrunk), its widest head."""
    widest = max((label(t, size).width for col in columns for t in col), default=0.0)
    heads_w = max((h.width for h in heads), default=0.0)
    return max(style.CELL_W, widest / style.NUMBER_FILL_W + CELL_PAD, heads_w + style.GAP)


def _column(head_: Mobject, cells: Mobject, numbers: Mobject, grid: Mobject) -> VGroup:
    column = VGroup(*dict.fromkeys((head_, cells, numbers, grid)))  # cells may be the grid: added once
    head_.next_to(grid, UP, buff=style.COL_LABEL_GAP * 2)
    column.head, column.cells, column.numbers, column.grid = head_, cells, numbers, grid
    return column


def number_column(values, head_: Mobject, color, cell_w: float, formatter=None,
                  size: float = style.NUMBER_SIZE,
                  cell_h: float = style.CELL_H) -> VGroup:
    """[n] numbers in a column of cells under its head."""
    grid = NumberGrid(np.asarray(values, dtype=float)[:, None], color=color, cell_w=cell_w, cell_h=cell_h,
                      formatter=formatter or shared_format(values), number_size=size)
    grid.boxes.set_stroke(color, width=style.GRID_STROKE)
    return _column(head_, grid.boxes, grid.numbers, grid.boxes)


def name_column(names: Sequence[Mobject], head_: Mobject, rows: int, cell_h: float = style.CELL_H) -> VGroup:
    """Names, right-aligned, one a row (rows of NumberGrid cells' height), under their head, which is
    right-aligned with them: the strip as wide as the widest of names and head, so that a head wider
    than short names keeps the names' gap to the next column (centred, it would reach into it)."""
    width = max(max(m.width for m in names), head_.width) + style.ROW_LABEL_GAP
    strip = VGroup(*(Rectangle(width=width, height=cell_h, stroke_width=0, fill_opacity=0)
                     for _ in range(rows))).arrange(DOWN, buff=0)
    group = VGroup(*names)
    edge = strip.get_right() - [style.ROW_LABEL_GAP, 0, 0]
    for m, box in zip(group, strip):
        m.move_to(box).align_to(edge, RIGHT)
    column = _column(head_, group, VGroup(), strip)
    head_.align_to(edge, RIGHT)  # (_column centres it over the strip)
    return column


def head(*lines: Mobject) -> VGroup:
    """A column's head: one or more lines, centred, one over the other."""
    return VGroup(*lines).arrange(DOWN, buff=style.GAP / 4)


def line_up(columns: Sequence[VGroup]) -> VGroup:
    """Columns side by side, their cells' tops on one line (and so their heads' bottoms)."""
    if not columns:
        return VGroup()
    top, x = columns[0].grid.get_top()[1], columns[0].grid.get_left()[0]
    for c in columns:
        c.shift(UP * (top - c.grid.get_top()[1]) + RIGHT * (x - c.grid.get_left()[0]))
        x = c.grid.get_right()[0]
    return VGroup(*columns)


class Spread:
    """A plane's block on the left (`left`, the plane, and `parts`, everything on it, its notes), a
    table's columns to its right, centred together on `centre`, the cells' tops at one height whatever
    columns show (a row never moves up or down). `arrange(scene, keys)`: the animations that show
    these columns, in `order`, and move everything shown to its place."""

    def __init__(self, left: Mobject, left_w: float, parts: list, columns: dict[str, VGroup],
                 order: Sequence[str], centre, gap: float = style.BIG_GAP):
        self.left, self.left_w, self.parts = left, left_w, parts
        self.columns, self.order, self.centre, self.gap = columns, order, centre, gap
        full = line_up([c.copy() for c in columns.values()])
        self.top = centre[1] - full.height / 2 + full[0].grid.height
        self.shown: list[str] = []

    def width(self, keys: Sequence[str]) -> float:
        """How wide the table is with these columns."""
        return line_up([self.columns[k].copy() for k in self.order if k in keys]).width

    def place(self, keys: Sequence[str]) -> tuple[float, dict[str, np.ndarray]]:
        """Where the block's centre goes (x) and how far each of these columns moves."""
        ghosts = line_up([self.columns[k].copy() for k in keys])
        x0 = self.centre[0] - (self.left_w + (self.gap + ghosts.width if keys else 0)) / 2
        moves = {}
        if keys:
            d = np.array([x0 + self.left_w + self.gap - ghosts.get_left()[0],
                          self.top - ghosts[0].grid.get_top()[1], 0])
            moves = {k: g.grid.get_center() + d - self.columns[k].grid.get_center()
                     for k, g in zip(keys, ghosts)}
        return x0 + self.left_w / 2, moves

    def arrange(self, scene, keys: Sequence[str]) -> list:
        keys = [k for k in self.order if k in keys and k in self.columns]
        x, moves = self.place(keys)
        anims = shift_parts(scene, self.parts, RIGHT * (x - self.left.get_center()[0]))
        for k in keys:
            anims += shift_parts(scene, column_parts(self.columns[k]), moves[k])
        anims += [FadeIn(m) for k in keys if k not in self.shown
                  for m in (self.columns[k].head, self.columns[k].cells)]
        anims += [FadeOut(m) for k in self.shown if k not in keys
                  for m in column_parts(self.columns[k]) if m in scene.mobjects]
        self.shown = keys
        return anims


def column_parts(c: VGroup) -> list:
    """A column's parts, each once (a number column's cells are its grid)."""
    return list({id(m): m for m in (c.head, c.cells, c.numbers, c.grid)}.values())


def shift_parts(scene, parts, d) -> list:
    """Shift each part by d: on screen as an animation, off screen at once."""
    if not np.any(np.abs(d) > 1e-9):
        return []
    anims = []
    for m in parts:
        if m in scene.mobjects:
            anims.append(m.animate.shift(d))
        else:
            m.shift(d)
    return anims


def adopt(scene, group: VGroup) -> VGroup:
    """One mobject on screen for parts shown one by one, so that it moves and fades as one."""
    scene.remove(*group.submobjects)
    scene.add(group)
    return group


def give_way(make, widest, body: tuple[float, float], box, notes: VGroup):
    """make(head_scale): a table's columns; widest(columns): the table's width at its widest; a plane
    of `box` (x0, x1, y0, y1) with its notes beside it in the body (w, h). The columns with their heads
    at full size when the table and the plane as high as the body fit its width (the plane giving
    PLANE_GIVES of its width at the most); else with their heads shrunk by tenths until the plane keeps
    all of its width, or to HEAD_LEAST. Returns (the columns, the table's width)."""
    plane_w = plane_width(box, body[1], notes)
    room = body[0] - plane_w - style.BIG_GAP
    scale, cols = 1.0, make(1.0)
    if widest(cols) <= room + PLANE_GIVES * plane_w:
        return cols, widest(cols)
    while widest(cols) > room and scale > HEAD_LEAST + 1e-9:
        scale -= 0.1
        cols = make(scale)
    return cols, widest(cols)


def scaled(heads: dict, scale: float) -> dict:
    """Columns' heads, each scaled by `scale`."""
    for m in heads.values():
        m.scale(scale)
    return heads


def widest(tables) -> float:
    """The width of the widest of these tables (each a dict of columns)."""
    return max(line_up([c.copy() for c in cols.values()]).width for cols in tables)


def under_plane(lines: Sequence[str], size: float, lang: str, width: float) -> VGroup:
    """The notes under a plane, one over the other, no wider than `width`: shrunk to it, or wrapped
    (to width / NOTE_LEAST, then shrunk) where shrinking would take them below NOTE_LEAST of `size`."""
    notes = VGroup(*(label(s, size, style.TEXT) for s in lines)).arrange(DOWN, buff=NOTE_GAP)
    if len(notes) and width < NOTE_LEAST * notes.width:
        notes = VGroup(*(m for s in lines for m in wrapped(s, width / NOTE_LEAST, lang, size, style.TEXT,
                                                           NOTE_GAP))).arrange(DOWN, buff=NOTE_GAP)
    return fit(notes, width, notes.height)


def plane_width(box, body_h: float, notes: VGroup) -> float:
    """How wide a plane of this box (x0, x1, y0, y1) is when the body's height sizes it, its notes
    under it."""
    return (body_h - (notes.height + style.GAP if len(notes) else 0)) * (box[1] - box[0]) / (box[3] - box[2])
