"""Layout checks a test can run on a scene's current mobjects: inside the frame, no text over text; and
what a frame holds for print (`print_box`): where its body is and how small its smallest text is."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from manim import SingleStringMathTex, Text, config

from .style import FONT, GAP, MIN_FONT_SIZE, SAFE_MARGIN

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


# -- a frame for print -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _cap_per_size(kind: type) -> float:
    """The height of a capital H per unit of font_size, in scene units: Text in the scenes' font, or TeX."""
    if kind is Text:
        h = Text("H", font=FONT, font_size=100)
    else:
        from .labels import tex

        h = tex(r"\mathrm{H}", scale=1)
    return h.height / h.font_size


def cap_height(t) -> float:
    """The cap height of a text mobject as drawn (scene units): what its smallest letters measure."""
    return t.font_size * _cap_per_size(Text if isinstance(t, Text) else SingleStringMathTex)


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
