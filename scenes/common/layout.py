"""Layout checks a test can run on a scene's current mobjects: inside the frame, no text over text; for a
lesson scene at a step's end, a frame that fills the screen (`fill`: the body spans most of the safe area
below the heading, centred in it, its tables' numbers large enough for a room's back row); and what a
frame holds for print (`print_box`): where its body is and how small its smallest text is."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
from manim import Rectangle, Text, Typst, VMobject, config

from ..registry import step_name
from .style import (
    FILL_CENTRE,
    FILL_SHARE,
    FONT,
    GAP,
    MIN_FONT_SIZE,
    MIXED_MATH_SCALE,
    SAFE_MARGIN,
    TABLE_CAP_PX,
)

TOLERANCE = 0.02  # scene units; shared edges and antialiasing are not overlaps
# Two texts side by side on one line (their heights overlapping by at least half the smaller's) need a
# gap of at least this share of the smaller one's height between them: texts that touch read as one word
# ("0.130.09", "contextanimal"), which the overlap check (beyond TOLERANCE) lets pass.
CROWD_GAP = 0.15
CROWD_LINE = 0.5
TEXT_TYPES = (Text, Typst)  # a formula (labels.math) is a MathTypst


def _visible(m) -> bool:
    """Drawn at all: a formula holds its glyphs in submobjects and has no opacity of its own."""
    return any(max(s.get_fill_opacity(), s.get_stroke_opacity()) > 0.05
               for s in m.get_family() if s.has_points())


def _texts(m, out):
    """The outermost text mobjects in m's family (a Text's glyphs are not texts of their own)."""
    if isinstance(m, TEXT_TYPES):
        if _visible(m) and _width(m) > 0:
            out.append(m)
        return
    for sub in m.submobjects:
        _texts(sub, out)


def _width(m) -> float:
    """m.width, as manim measures it (every point of its family, handles too), in one numpy pass: manim
    takes Python's max and min over each member's points, one number at a time."""
    xs = [s.points[:, 0] for s in m.get_family() if len(s.points)]
    if not xs:
        return 0.0
    every = np.concatenate(xs)
    return float(every.max() - every.min())


def _box(m):
    """m's bounding box (x0, y0, x1, y1), as manim's get_corner finds it (the anchors of every curve in its
    family; a plain mobject's points), in one numpy pass instead of manim's walk for each corner."""
    points = [_anchors(s) for s in m.get_family() if len(s.points)]
    if not points:
        return 0.0, 0.0, 0.0, 0.0
    every = np.concatenate(points)
    (x0, y0), (x1, y1) = every[:, :2].min(axis=0), every[:, :2].max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _anchors(m) -> np.ndarray:
    """The points manim bounds m by (VMobject.get_anchors: each curve's start and end; Mobject: all)."""
    if not isinstance(m, VMobject) or len(m.points) == 1:
        return m.points
    n = m.n_points_per_curve
    return np.concatenate([m.points[::n], m.points[n - 1::n]])


def visible_texts(scene) -> list:
    """Every visible text mobject on screen (a Text or a formula), outermost only."""
    texts = []
    for top in scene.mobjects:
        _texts(top, texts)
    return texts


def _name(m) -> str:
    return f"{type(m).__name__}({getattr(m, 'text', getattr(m, 'typst_code', ''))!r})"


def layout_problems(scene, texts: list | None = None) -> list[str]:
    """What is wrong with the frame as it stands: anything reaching off the frame, any two text labels
    overlapping (beyond TOLERANCE) or touching on one line (crowded), any text scaled below MIN_FONT_SIZE
    or nearer the frame's edge than SAFE_MARGIN; and, for a lesson scene at the end of a step, a body that
    does not fill the screen (fill_problems). One line per problem, naming the text (or the scene, the
    step and the figure). `texts`: visible_texts(scene), when the caller has them already (finding them
    walks every mobject and bounds each text)."""
    problems = []
    texts = visible_texts(scene) if texts is None else texts
    for t in texts:
        size = getattr(t, "font_size", None)
        if size is not None and size < MIN_FONT_SIZE:
            problems.append(f"too small: {_name(t)} at font size {size:.1f} (at least {MIN_FONT_SIZE})")
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    for top in scene.mobjects:
        if top.width == 0 and top.height == 0:
            continue
        x0, y0, x1, y1 = _box(top)
        if x0 < -half_w - TOLERANCE or x1 > half_w + TOLERANCE or y0 < -half_h - TOLERANCE \
                or y1 > half_h + TOLERANCE:
            texts = []
            _texts(top, texts)
            what = _name(texts[0]) if texts else type(top).__name__
            problems.append(f"off frame: {what} spans x {x0:.2f}..{x1:.2f}, y {y0:.2f}..{y1:.2f}")
    boxed = [(t, _box(t)) for t in texts]  # each box once: get_corner walks every point
    for t, (x0, y0, x1, y1) in boxed:
        edge = min(x0 + half_w, half_w - x1, y0 + half_h, half_h - y1)
        if -TOLERANCE <= edge < SAFE_MARGIN - TOLERANCE:  # (beyond the frame is reported above)
            problems.append(f"at the edge: {_name(t)} {edge:.2f} from the frame's edge "
                            f"(at least {SAFE_MARGIN})")
    return problems + pair_problems(scene, boxed) + box_problems(scene, boxed) + fill_problems(scene)


def pair_problems(scene, boxed: list) -> list[str]:
    """Texts over texts (overlapping beyond TOLERANCE) and texts that touch on one line (`crowded`),
    but for the pieces of one phrase (labels.mixed_line: text and formulas set close as one line).
    `boxed`: the visible texts with their boxes."""
    phrases = {id(x): id(m) for top in scene.mobjects for m in top.get_family() if getattr(m, "phrase", False)
               for piece in m.submobjects for x in piece.get_family()}
    problems = []
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in combinations(boxed, 2):
        dx = min(ax1, bx1) - max(ax0, bx0)
        dy = min(ay1, by1) - max(ay0, by0)
        if dx > TOLERANCE and dy > TOLERANCE:
            problems.append(f"overlap: {_name(a)} and {_name(b)}")
        elif crowded((ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1)) and \
                phrases.get(id(a), id(a)) != phrases.get(id(b), id(b)):
            problems.append(f"crowded: {_name(a)} and {_name(b)} touch on one line")
    return problems


def crowded(a, b) -> bool:
    """Two text boxes (x0, y0, x1, y1) side by side on one line with less than CROWD_GAP of the smaller's
    height between them (not overlapping beyond TOLERANCE: that is an overlap)."""
    low = min(a[3] - a[1], b[3] - b[1])
    same_line = min(a[3], b[3]) - max(a[1], b[1]) >= CROWD_LINE * low
    gap = max(b[0] - a[2], a[0] - b[2])
    return same_line and -TOLERANCE <= gap < CROWD_GAP * low


def _rectangles(m, out):
    """The visible rectangles in m's family (cells, token boxes, bars, highlights, panels)."""
    if isinstance(m, Rectangle) and m.width > TOLERANCE and m.height > TOLERANCE and _drawn_box(m):
        out.append(m)
    for sub in m.submobjects:
        _rectangles(sub, out)


def _drawn_box(r) -> bool:
    """Filled or outlined (a strut, `labels.word`'s line-height box, is neither)."""
    return r.get_fill_opacity() > 0.05 or (r.get_stroke_opacity() > 0.05 and r.get_stroke_width() > 0)


def box_problems(scene, boxed: list) -> list[str]:
    """Texts a box cuts: a text may sit wholly inside a box (a number in its cell, a token in its box)
    or wholly outside it; a box over part of a text (a weight box over a dimension's name, a cell's
    border through a label) hides it. `boxed`: the visible texts with their boxes."""
    rects = []
    for top in scene.mobjects:
        _rectangles(top, rects)
    problems = []
    for r in rects:
        rx0, ry0, rx1, ry1 = _box(r)
        for t, (x0, y0, x1, y1) in boxed:
            cut = min(x1, rx1) - max(x0, rx0) > TOLERANCE and min(y1, ry1) - max(y0, ry0) > TOLERANCE
            inside = x0 >= rx0 - TOLERANCE and x1 <= rx1 + TOLERANCE and y0 >= ry0 - TOLERANCE \
                and y1 <= ry1 + TOLERANCE
            if cut and not inside:
                problems.append(f"box over text: {_name(t)} cut by a {type(r).__name__} at "
                                f"x {rx0:.2f}..{rx1:.2f}, y {ry0:.2f}..{ry1:.2f}")
    return problems


# -- a frame for print -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _cap_per_size(kind: type) -> float:
    """The height of a capital H per unit of font_size, in scene units: Text in the scenes' font, or a
    formula's (Typst math)."""
    if kind is Text:
        h = Text("H", font=FONT, font_size=100)
    else:
        from .labels import math

        h = math('"H"', scale=1)
    return h.height / h.font_size


def cap_height(t) -> float:
    """The cap height of a text mobject as drawn (scene units): what its smallest letters measure."""
    return t.font_size * _cap_per_size(Text if isinstance(t, Text) else Typst)


def print_box(scene) -> tuple[tuple[float, float, float, float], float | None]:
    """What a handout needs of the frame as it stands: the box of its body, everything visible but the
    heading (`scene.header`, which the handout's page heads anyway), GAP around it (above it no further
    than the heading's bottom), within the frame
    (x0, y0 at the top left, x1, y1, in scene units from the frame's top left corner); and the least cap
    height of the texts in it (scene units; None: no text)."""
    header = getattr(scene, "header", None)
    skip = {id(m) for m in header.get_family()} if header is not None else set()
    body = [m for m in scene.mobjects if id(m) not in skip and (m.width or m.height) and _visible(m)]
    texts = [t for t in visible_texts(scene) if id(t) not in skip]
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    if not body:
        return (0.0, 0.0, config.frame_width, config.frame_height), None
    boxes = [_box(m) for m in body]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    top = max(0.0, half_h - y1 - GAP)
    if header is not None and header.get_bottom()[1] >= y1:  # the gap above stops at the heading
        top = max(top, half_h - header.get_bottom()[1])
    box = (max(0.0, x0 - GAP + half_w), top,
           min(config.frame_width, x1 + GAP + half_w), min(config.frame_height, half_h - y0 + GAP))
    return box, min((cap_height(t) for t in texts), default=None)


# -- a frame that fills the screen ---------------------------------------------------------------------

def safe_area(scene, inset: float = 0.0) -> tuple[float, float, float, float]:
    """Where a step's body goes (x0, y0, x1, y1, scene units from the centre): the frame less SAFE_MARGIN
    at every edge, its top GAP under the heading (the title band is the heading's, not the body's);
    `inset` more at every edge (LessonScene.place_body fills it less MARGIN, so that the frame's edge
    keeps its air)."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    top = half_h - SAFE_MARGIN
    header = getattr(scene, "header", None)
    if header is not None:
        top = min(top, header.get_bottom()[1] - GAP)
    return (-half_w + SAFE_MARGIN + inset, -half_h + SAFE_MARGIN + inset, half_w - SAFE_MARGIN - inset,
            top - inset)


def _drawn(m) -> bool:
    """m itself puts ink on the frame: points, and a fill or a stroke of some width that shows (a
    word()'s strut, stroke_width 0 and no fill, spans the line height but draws nothing)."""
    if not m.has_points():
        return False
    return m.get_fill_opacity() > 0.05 or (m.get_stroke_opacity() > 0.05 and m.get_stroke_width() > 0)


def ink_box(mobjects) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) of everything the mobjects draw (their families' drawn members); None:
    nothing drawn."""
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    for top in mobjects:
        for m in top.get_family():
            if _drawn(m):
                pts = m.points[:, :2]  # [p, 2]
                lo, hi = np.minimum(lo, pts.min(axis=0)), np.maximum(hi, pts.max(axis=0))
    return None if not np.isfinite(lo).all() else (lo[0], lo[1], hi[0], hi[1])


def largest_text(m) -> float:
    """The largest text in m as a Text's font size, a formula's counted as the text it stands beside
    (its font size / MIXED_MATH_SCALE, as mixed_line sizes it), a table's numbers left out (they may
    grow as large as the frame lets them); 0: no text."""
    texts, numbers = [], []
    _texts(m, texts)
    _grid_numbers(m, numbers, every=True)
    skip = {id(t) for t in numbers}
    return max((t.font_size / (1 if isinstance(t, Text) else MIXED_MATH_SCALE) for t in texts
                if id(t) not in skip), default=0.0)


def body_mobjects(scene) -> list:
    """The scene's mobjects but the heading (`scene.header`)."""
    header = getattr(scene, "header", None)
    skip = {id(m) for m in header.get_family()} if header is not None else set()
    return [m for m in scene.mobjects if id(m) not in skip]


def _grid_numbers(m, out, every: bool = False):
    """The number texts of every main NumberGrid in m's family (a vector is a NumberGrid too; an
    overview's grids are not main: NumberGrid), or of `every` grid."""
    from .mobjects import NumberGrid

    if isinstance(m, NumberGrid):
        if m.main or every:
            out += [t for row in m.numbers for t in row if _visible(t)]
        return
    for sub in m.submobjects:
        _grid_numbers(sub, out, every)


def px_1080(units: float) -> float:
    """A length in scene units as pixels of a 1080p frame (the lesson's projected size)."""
    return units * 1080 / config.frame_height


@dataclass(frozen=True)
class Fill:
    """How a frame uses the screen: the share of the safe area's width and height its body spans, how far
    its centre is from the safe area's (shares of the safe area's width and height: + right, + up), and
    the cap height of its tables' smallest numbers in pixels at 1080p (None: no table)."""

    width: float
    height: float
    dx: float
    dy: float
    table_cap: float | None

    def problems(self, where: str) -> list[str]:
        """What falls short, each naming `where` (scene/step) and the figure."""
        out = []
        if max(self.width, self.height) < FILL_SHARE:
            out.append(f"fill: {where} spans {self.width:.0%} wide, {self.height:.0%} high "
                       f"(needs {FILL_SHARE:.0%})".replace("%", " %"))
        if max(abs(self.dx), abs(self.dy)) > FILL_CENTRE:
            out.append(f"off centre: {where} centre {abs(self.dx):.0%} {'right' if self.dx > 0 else 'left'},"
                       f" {abs(self.dy):.0%} {'up' if self.dy > 0 else 'down'} (within "
                       f"{FILL_CENTRE:.0%})".replace("%", " %"))
        if self.table_cap is not None and self.table_cap < TABLE_CAP_PX - 0.05:
            out.append(f"small numbers: {where} tables' numbers {self.table_cap:.1f} px tall at 1080p "
                       f"(at least {TABLE_CAP_PX} px)")
        return out


def fill(scene) -> Fill | None:
    """How the frame as it stands fills the safe area below the heading (None: an empty body)."""
    body = body_mobjects(scene)
    box = ink_box(body)
    if box is None:
        return None
    x0, y0, x1, y1 = safe_area(scene)
    w, h = x1 - x0, y1 - y0
    numbers = []
    for m in body:
        _grid_numbers(m, numbers)
    cap = min((px_1080(cap_height(t)) for t in numbers), default=None)
    return Fill((box[2] - box[0]) / w, (box[3] - box[1]) / h, ((box[0] + box[2]) - (x0 + x1)) / 2 / w,
                ((box[1] + box[3]) - (y0 + y1)) / 2 / h, cap)


def fill_problems(scene) -> list[str]:
    """The fill check of a lesson scene at the end of its latest step: its body spans FILL_SHARE of the
    safe area's width or of its height, its centre within FILL_CENTRE of the safe area's, its tables'
    numbers at least TABLE_CAP_PX tall at 1080p; one line per shortfall, naming scene/<nn>-<step>."""
    figures = fill(scene)
    if figures is None or not getattr(scene, "step_keys", None):
        return []
    return figures.problems(f"{scene.scene_id}/{step_name(len(scene.step_keys), scene.step_keys[-1])}")
