"""Layout checks a test can run on a scene's current mobjects: inside the frame, no text over text."""

from __future__ import annotations

from itertools import combinations

from manim import SingleStringMathTex, Text, config

from .style import MIN_FONT_SIZE, SAFE_MARGIN

TOLERANCE = 0.02  # scene units; shared edges and antialiasing are not overlaps
TEXT_TYPES = (Text, SingleStringMathTex)


def _visible(m) -> bool:
    """Drawn at all: a MathTex holds its glyphs in submobjects and has no opacity of its own."""
    return any(max(s.get_fill_opacity(), s.get_stroke_opacity()) > 0.05
               for s in m.get_family() if s.has_points())


def _texts(m, out):
    """The outermost text mobjects in m's family (a Text's glyphs are not texts of their own)."""
    if isinstance(m, TEXT_TYPES):
        if _visible(m) and m.width > 0:
            out.append(m)
        return
    for sub in m.submobjects:
        _texts(sub, out)


def _box(m):
    (x0, y0, _), (x1, y1, _) = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
    return x0, y0, x1, y1


def visible_texts(scene) -> list:
    """Every visible text mobject on screen (a Text, or one piece of a MathTex), outermost only."""
    texts = []
    for top in scene.mobjects:
        _texts(top, texts)
    return texts


def _name(m) -> str:
    return f"{type(m).__name__}({getattr(m, 'text', getattr(m, 'tex_string', ''))!r})"


def layout_problems(scene) -> list[str]:
    """What is wrong with the frame as it stands: anything reaching off the frame, any two text labels
    overlapping (beyond TOLERANCE), any text scaled below MIN_FONT_SIZE or nearer the frame's edge than
    SAFE_MARGIN. One line per problem, naming the text."""
    problems = []
    for t in visible_texts(scene):
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
    boxed = [(t, _box(t)) for t in visible_texts(scene)]  # each box once: get_corner walks every point
    for t, (x0, y0, x1, y1) in boxed:
        edge = min(x0 + half_w, half_w - x1, y0 + half_h, half_h - y1)
        if -TOLERANCE <= edge < SAFE_MARGIN - TOLERANCE:  # (beyond the frame is reported above)
            problems.append(f"at the edge: {_name(t)} {edge:.2f} from the frame's edge "
                            f"(at least {SAFE_MARGIN})")
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in combinations(boxed, 2):
        dx = min(ax1, bx1) - max(ax0, bx0)
        dy = min(ay1, by1) - max(ay0, by0)
        if dx > TOLERANCE and dy > TOLERANCE:
            problems.append(f"overlap: {_name(a)} and {_name(b)}")
    return problems
