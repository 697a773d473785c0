"""Arrows in a plane (the geometry scene): two axes with one unit for both, so that a right angle drawn
is a right angle and a shadow's length reads as a length; arrows whose thickness is a weight; a key's
shadow on the query's line; names placed beside arrow tips where no other name is. The table beside
the plane is spread.py's.

Every coordinate is the core's (attention_core/geometry.py); this module only maps them to the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    DashedLine,
    Dot,
    FadeIn,
    Line,
    Mobject,
    Rectangle,
    VGroup,
)

from . import style
from .formats import shared_format
from .labels import label, word

AXIS_STROKE = 2.5
GRID_OPACITY = 0.35
ARROW_STROKE = 5.0  # an arrow before it shows a weight
TIP = 0.22  # an arrow's tip, scene units, before it is thickened
TIP_RATIO = 0.35  # at most this share of a short arrow
SHADOW_STROKE = 12.0  # wider than the query's arrow, drawn under it: a band along its line
FOOT_R = 0.06
LEADER_STROKE = 1.5
ZERO = 1e-3  # an arrow shorter than this (scene units) is drawn as a dot
LABEL_PAD = 0.08  # between a name and what it must not touch
RINGS = 14  # how far out a name may move from its arrow's tip, in steps of half its height
SHRINK, SHRINKS = 0.85, 3  # a name with no free place anywhere shrinks by this, at most this often


class Plane(VGroup):
    """A box of the plane, box = (x0, x1, y0, y1) in the lesson's units, `unit` scene units each: a
    faint grid every `step`, the two axes through the origin, their names at their ends. `at(xy)` is
    where a point of the plane is on screen, wherever the plane has been moved (never scaled)."""

    def __init__(self, box, unit: float, step: float, names: Sequence[str], size: float = style.LABEL_SIZE):
        super().__init__()
        self.box, self.unit = box, unit
        x0, x1, y0, y1 = box
        self.frame = Rectangle(width=(x1 - x0) * unit, height=(y1 - y0) * unit, stroke_width=0,
                               fill_opacity=0)
        self.origin = Dot(self.frame.get_center() - [(x0 + x1) / 2 * unit, (y0 + y1) / 2 * unit, 0],
                          radius=FOOT_R, color=style.DIM)
        grid = VGroup(*(Line(self.at((x, y0)), self.at((x, y1))) for x in _ticks(x0, x1, step)),
                      *(Line(self.at((x0, y)), self.at((x1, y))) for y in _ticks(y0, y1, step)))
        grid.set_stroke(style.GRID, width=1, opacity=GRID_OPACITY)
        self.axes = VGroup(Line(self.at((x0, 0)), self.at((x1, 0))), Line(self.at((0, y0)), self.at((0, y1))))
        self.axes.set_stroke(style.DIM, width=AXIS_STROKE)
        self.names = VGroup(word(names[0], size, style.DIM), word(names[1], size, style.DIM))
        self.names[0].next_to(self.at((x1, 0)), UP, buff=style.GAP / 3).align_to(self.frame, RIGHT)
        self.names[1].next_to(self.at((0, y1)), RIGHT, buff=style.GAP / 3).align_to(self.frame, UP)
        self.add(self.frame, grid, self.axes, self.origin, self.names)

    def at(self, xy) -> np.ndarray:
        return self.origin.get_center() + np.array([xy[0], xy[1], 0.0]) * self.unit

    def lines(self, tips=()) -> list[tuple[np.ndarray, np.ndarray]]:
        """The axes and the arrows from the origin to `tips`, as pairs of screen points."""
        axes = [(a.get_start(), a.get_end()) for a in self.axes]
        return axes + [(self.at((0, 0)), self.at(t)) for t in tips]


def _ticks(lo: float, hi: float, step: float) -> list[float]:
    """The grid lines' places in [lo, hi]: the multiples of step (0 among them)."""
    return [k * step for k in range(int(np.ceil(lo / step)), int(np.floor(hi / step)) + 1) if k]


def plane_arrow(plane: Plane, start, end, color, width: float = ARROW_STROKE, opacity: float = 1.0):
    """An arrow of the plane from `start` to `end` (lesson units); a dot where it has no length."""
    a, b = plane.at(start), plane.at(end)
    if np.linalg.norm(b - a) < ZERO:
        return Dot(b, radius=FOOT_R * width / ARROW_STROKE + FOOT_R, color=color, fill_opacity=opacity)
    tip = TIP * max(1.0, width / ARROW_STROKE) ** 0.5
    return Arrow(a, b, buff=0, stroke_width=width, color=color, tip_length=tip,
                 max_tip_length_to_length_ratio=TIP_RATIO, max_stroke_width_to_length_ratio=width * 10,
                 stroke_opacity=opacity, fill_opacity=opacity)


def weight_width(w: float) -> float:
    """The stroke of an arrow whose weight is w in [0, 1]: attention lines' range (style.py)."""
    return style.LINE_MIN + (style.LINE_MAX - style.LINE_MIN) * float(w)


def weight_opacity(w: float) -> float:
    return min(1.0, style.LINE_MIN_OPACITY + float(w))


def shadow(plane: Plane, key, foot, color) -> VGroup:
    """A key's shadow on the query's line: the dashed perpendicular from its tip to the foot, the
    shadow itself from the origin to the foot, the foot as a dot."""
    drop = DashedLine(plane.at(key), plane.at(foot), stroke_width=2, color=style.DIM)
    if np.linalg.norm(plane.at(key) - plane.at(foot)) < ZERO:
        drop.set_opacity(0)
    length = Line(plane.at((0, 0)), plane.at(foot), stroke_width=SHADOW_STROKE, color=color)
    if np.linalg.norm(plane.at(foot) - plane.at((0, 0))) < ZERO:
        length.set_opacity(0)
    return VGroup(drop, length, Dot(plane.at(foot), radius=FOOT_R, color=color))


# -- names beside their arrows ------------------------------------------------------------------------

def _box(m: Mobject, pad: float = 0.0) -> tuple[float, float, float, float]:
    (x0, y0, _), (x1, y1, _) = m.get_corner(DOWN + LEFT), m.get_corner(UP + RIGHT)
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _meets(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _inside(a, area) -> bool:
    return a[0] >= area[0] and a[1] >= area[1] and a[2] <= area[2] and a[3] <= area[3]


def _directions(outward: np.ndarray) -> list[np.ndarray]:
    """45° off the way out first (beside the arrow's line, not on it), then straight out, then
    turning further away both ways, 22.5° at a time."""
    base = np.arctan2(outward[1], outward[0]) if np.linalg.norm(outward) > ZERO else np.pi / 4
    turns = [2, -2, 1, -1, 0, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8]  # in sixteenths of a turn
    return [np.array([np.cos(base + t * np.pi / 8), np.sin(base + t * np.pi / 8), 0.0]) for t in turns]


def place_names(names: Sequence[Mobject], anchors: Sequence[np.ndarray], outwards: Sequence[np.ndarray],
                area: Mobject, avoid: Sequence[Mobject] = (), lines: Sequence[tuple] = ()) -> VGroup:
    """Put each name beside its anchor (an arrow's tip), off the way it points, inside `area`, clear of
    the names placed before it, of each mobject of `avoid` and of the `lines` (pairs of points: the
    arrows, the axes); a name that had to move away gets a leader line to its anchor. Returns the
    leaders."""
    taken = [_box(m, LABEL_PAD) for m in avoid]
    segments = [(np.asarray(a, dtype=float), np.asarray(b, dtype=float)) for a, b in lines]
    bounds = _box(area)
    leaders = VGroup()
    for name, anchor, out in zip(names, anchors, outwards):
        for _ in range(SHRINKS + 1):  # a name with no room anywhere: a little smaller, and again
            spot, free = _spot(name, np.asarray(anchor, dtype=float), np.asarray(out, dtype=float), bounds,
                               taken, segments)
            if free:
                break
            name.scale(SHRINK)
        name.move_to(spot)
        taken.append(_box(name, LABEL_PAD))
        if np.linalg.norm(spot - anchor) > max(name.width, name.height):
            end = name.get_critical_point(_side(anchor - spot, name))
            leaders.add(Line(anchor, end, stroke_width=LEADER_STROKE, color=style.DIM))
    return leaders


def _crosses(box, a: np.ndarray, b: np.ndarray) -> bool:
    """Does the segment a-b pass through the box? (Points along it, a tenth of the box apart.)"""
    steps = int(np.linalg.norm(b - a) / max(min(box[2] - box[0], box[3] - box[1]) / 10, 1e-3)) + 2
    t = np.linspace(0.0, 1.0, min(steps, 400))[:, None]  # [s, 1]
    xy = a[:2] + (b[:2] - a[:2]) * t  # [s, 2]
    return bool(np.any((box[0] < xy[:, 0]) & (xy[:, 0] < box[2]) & (box[1] < xy[:, 1]) & (xy[:, 1] < box[3])))


def _spot(name: Mobject, anchor: np.ndarray, out: np.ndarray, bounds, taken, segments) -> np.ndarray:
    """The first free place for `name` on rings around the anchor, nearest first; if none is free of
    the lines, the first free of the names; and whether it is free of the names."""
    half = np.array([name.width / 2, name.height / 2, 0.0])
    inside, clear = [], None
    lo, hi = np.array([bounds[0], bounds[1], 0]) + half, np.array([bounds[2], bounds[3], 0]) - half
    for ring in range(RINGS):
        for d in _directions(out):
            reach = np.abs(d) @ half + LABEL_PAD * 2 + ring * max(name.height, style.GAP) / 2
            centre = np.clip(anchor + d * reach, lo, np.maximum(lo, hi))  # pushed inside the area
            box = (centre[0] - half[0], centre[1] - half[1], centre[0] + half[0], centre[1] + half[1])
            if not _inside(box, bounds) or any(_meets(box, t) for t in taken):
                inside.append(centre) if _inside(box, bounds) else None
                continue
            padded = (box[0] - LABEL_PAD, box[1] - LABEL_PAD, box[2] + LABEL_PAD, box[3] + LABEL_PAD)
            if not any(_crosses(padded, a, b) for a, b in segments):
                return centre, True
            clear = centre if clear is None else clear
    return next(c for c in (clear, *inside[:1], anchor) if c is not None), clear is not None


def _side(towards: np.ndarray, m: Mobject) -> np.ndarray:
    """The edge or corner of m that faces `towards`."""
    return np.sign(np.round(towards / (np.abs(towards).max() or 1.0) * 1.5) / 1.5) * [1, 1, 0]


def coords(values: Sequence[str], color=None, size: float = style.NUMBER_SIZE) -> VGroup:
    """A point's coordinates as "(a, b)", each number a text of its own (the tests read it back)."""
    parts = [label("(", size, color)]
    for i, v in enumerate(values):
        parts += ([label(",", size, color)] if i else []) + [label(v, size, color)]
    group = VGroup(*parts, label(")", size, color)).arrange(RIGHT, buff=style.GAP / 4)
    for m in [m for m in group[1:-1] if m.text == ","]:  # the commas on the numbers' baseline
        m.align_to(group[1], DOWN)
    return group


def tip_marks(plane: Plane, points) -> VGroup:
    """Invisible boxes around arrow tips, for names to keep clear of."""
    return VGroup(*(Dot(plane.at(p), radius=FOOT_R * 2).set_opacity(0) for p in points))


def point_name(name: str, xy: Sequence[float], color=None, size: float = style.LABEL_SIZE) -> VGroup:
    """A point's name over its coordinates (an output's)."""
    fmt = shared_format(xy)
    color = color or style.EMPHASIS
    return VGroup(word(name, size, color), coords([fmt(x) for x in xy], color, size)).arrange(
        DOWN, buff=style.GAP / 4)


def grow(arrow):
    """An arrow grows from its start; a dot (an arrow of no length) fades in."""
    from manim import GrowArrow

    return GrowArrow(arrow) if hasattr(arrow, "tip") else FadeIn(arrow)


def name_tips(plane: Plane, names: Sequence[Mobject], points, marks=(), lines=()) -> VGroup:
    """Name the arrows from the origin to `points` (lesson units) beside their tips (place_names), clear
    of the axes' names, the origin, those tips and `marks`, the axes, the arrows and `lines`."""
    points = [np.asarray(x, dtype=float) for x in points]
    return place_names(names, [plane.at(x) for x in points], [np.append(x, 0) for x in points], plane.frame,
                       [*plane.names, *tip_marks(plane, [*points, *marks]), plane.origin],
                       plane.lines(points) + list(lines))
