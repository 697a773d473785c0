"""Text in the lesson's font, and its layout: labels, words that share a baseline, rows of labels over
cells or under bars, formulas (Typst math), lines that mix the two; fitting a mobject to a box.

The mobjects built from arrays (mobjects.py) label their cells and bars with these.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    ManimColor,
    Mobject,
    Rectangle,
    Text,
    VGroup,
    config,
)

from . import stored, style
from .manim_private import recolour, stroked_bars, typst_document


def _light(m: Mobject) -> Mobject:
    """Drop the parsed SVG path each glyph keeps after its points are made (svgelements objects, used
    only while building it): every copy manim makes of a text (each FadeIn, Transform) deep-copies
    them. A Text also drops its SVG's groups by id (`id_to_vgroup_dict`, which only a formula reads, to
    find its parts): a second set of mobjects for its glyphs. Together they were a quarter of a scene
    build's time and two thirds of a label's memory (docs/performance.md, "The figures behind the
    code")."""
    for sub in m.get_family():
        if getattr(sub, "path_obj", None) is not None:
            sub.path_obj = None
    if isinstance(m, Text):
        m.id_to_vgroup_dict = {}
    return m


# (kind, its arguments) -> the mobject as first made: a lesson's every label (the default's 789: some
# 16 MB of pickles, 55 MB in memory) and the newest numbers of the edits before; the older ones on disk
MATH_SPACE = 1.4  # mixed_line: the space beside a formula, in word spaces
CLOSE_SPACE = 0.15  # and where the line has none: set close, not touching
WIDE_OPENING, WIDE_CLOSING = set("（「『“"), set("，。；：！？、）」』”")  # full-width marks: air on one side

_MADE = stored.Recent(24 * 2**20)


def _made(key, make):
    """A copy of what `make()` made for the same key before (made once: a Text or a formula parses its
    SVG, about 30 ms; a copy takes 0.8 ms, loading it from disk 2.3 ms, and layouts tried several ways,
    `place_best`, make the same labels again and again). The least recently used go first when it is
    full: a warm studio worker keeps every label of the lesson across edits (emptying it all at once
    made one scene of a redraw 7 s instead of 1), but not every number of every edit."""
    kept = _MADE.get(key)
    if kept is None:
        kept, size = stored.load_or_make_sized(key, make)  # on disk for every process (stored.py)
        _MADE.put(key, kept, size)
    return kept.copy()


def label(s: str, size: float = style.LABEL_SIZE, color: ManimColor | None = None, **kw) -> Text:
    """A text in the lesson's font (in the theme's text colour unless given one)."""
    color = color or style.TEXT
    key = ("label", s, float(size), str(color), tuple(sorted(kw.items())))
    key += (style.FONT,
            ) if style.FONT != style.DEFAULT_FONT else ()  # (the default's keys as they always were)
    if kw or not _exact(color):
        return _made(key, lambda: _light(Text(s, font=style.FONT, font_size=size, color=color, **kw)))
    glyphs = ("any colour", *key[1:3], *key[4:])
    return _made(key, lambda: _recoloured(stored.load_or_make(glyphs, lambda: _light(
        Text(s, font=style.FONT, font_size=size, color=_ANY))), ManimColor(color))
                 or _light(Text(s, font=style.FONT, font_size=size, color=color)))


# The colour a label is first made in (kept on disk only, stored.py), to be recoloured to the one asked
# for: the same text in another colour is the same glyphs (Pango draws the shapes whatever their fill),
# and making them is most of a label's time.
_ANY = ManimColor(style.UNMADE_COLOUR)


def _exact(color) -> bool:
    """Whether the colour is what its hex code reads (a label's glyphs take their fill from the SVG
    Pango writes, in hex; the Text itself takes the colour as given): a colour mixed from others may
    not be, and is made as it is."""
    c = ManimColor(color)
    return np.array_equal(ManimColor(c.to_hex()).to_rgba(), c.to_rgba())


def _recoloured(m: Mobject, color: ManimColor) -> Mobject | None:
    """m, made in _ANY, as it would have been made in `color` (manim_private.recolour: every fill and
    stroke of _ANY in its family in `color` instead); None when manim's gate is shut (made again)."""
    return m if recolour(m, ManimColor(_ANY), color) else None


def word(s: str, size: float = style.LABEL_SIZE, color: ManimColor | None = None) -> VGroup:
    """A label whose box spans the font's full line height, so words in a row share a baseline
    ("by" and "the" sit on one line instead of each being centred on its own ink)."""
    ref = label("|" + s, size, color)  # the bar spans ascender to descender
    bar, glyphs = ref[0], ref[1:]
    t = label(s, size, color).move_to(glyphs)
    strut = Rectangle(width=t.width, height=bar.height, stroke_width=0, fill_opacity=0)
    strut.move_to([t.get_center()[0], bar.get_center()[1], 0])
    return VGroup(strut, t)


def fit(m: Mobject, width: float, height: float) -> Mobject:
    """Scale down (never up) so that m fits in width × height."""
    factor = min(1.0, width / max(m.width, 1e-9), height / max(m.height, 1e-9))
    if factor < 1.0:
        m.scale(factor)
    return m


def frame_box() -> tuple[float, float]:
    """Usable width and height of the frame, margins removed."""
    return config.frame_width - 2 * style.MARGIN, config.frame_height - 2 * style.MARGIN


def caption_box(lines: Sequence[str], size: float = style.BODY_SIZE, color: ManimColor | None = None,
                width: float | None = None) -> VGroup:
    """Several lines of text, left-aligned, scaled down to a width if given."""
    g = VGroup(*(label(t, size, color) for t in lines)).arrange(DOWN, aligned_edge=LEFT, buff=style.LINE_GAP)
    if width is not None:
        fit(g, width, config.frame_height)
    return g


# Each part of a formula of several parts is drawn in a colour of its own, (0, 0, i + 1): one compile
# tells which glyphs (and fraction or root bars) are part i. MathTypst's `{{ }}` groups hide each group
# in a compile of its own to find them, about 100 ms each (most of it Typst reading the system's fonts):
# the five parts of o = Σ w v took 580 ms so, 120 ms in one compile.
_PART_TAG = "#let part(n, body) = text(fill: rgb(0, 0, n), body)"


def math(*parts: str, color: ManimColor | None = None, scale: float = style.MATH_SCALE):
    """A formula in Typst math (`sqrt(d_k)`, `q dot k`, `K^top`), its parts side by side, part i at
    [i] (to colour one: `f[2].set_color(...)`); a part must be whole on its own (its brackets closed,
    no top-level comma: write `\\,`; no colour of its own). Returns a MathTypst, in the theme's text
    colour unless given one. No Chinese inside: Chinese goes in `label`, in the lesson's font."""
    color = color or style.TEXT
    return _made(("math", parts, str(color), float(scale)),
                 lambda: _light(_typeset(parts, color).scale(scale)))


def _typeset(parts: Sequence[str], color: ManimColor):
    """The MathTypst of the parts, its submobjects the parts (each a VGroup of its glyphs and bars)
    when there are several."""
    from manim import MathTypst

    if len(parts) == 1:
        _compile(parts[0], "")
        return _solid_bars(MathTypst(parts[0], color=color))
    source = " ".join(f"part(#{i + 1}, {p})" for i, p in enumerate(parts))
    _compile(source, _PART_TAG)
    f = MathTypst(source, color=color, typst_preamble=_PART_TAG)
    groups = [VGroup() for _ in parts]
    for leaf in f.submobjects:
        drawn = leaf.get_fill_color() if leaf.get_fill_opacity() > 0 else leaf.get_stroke_color()
        groups[round(drawn.to_rgb()[2] * 255) - 1].add(leaf.set_color(color))
    f.submobjects = groups
    return _solid_bars(f)


_COMPILER = None  # one typst.Compiler for the process (it reads the system's fonts once)


def _compile(source: str, preamble: str) -> None:
    """Compile the formula's document into the SVG file MathTypst looks for before it compiles (manim
    names it by the document's hash, manim_private.typst_document), with one compiler for the process:
    typst.compile, which MathTypst calls, reads every system font again each time, 70 of its 80 ms.
    With manim's gate shut, or should manim name its files otherwise, MathTypst compiles as before."""
    global _COMPILER
    named = typst_document(source, preamble)
    if named is None:
        return
    document, stem = named
    svg = config.get_dir("tex_dir") / f"{stem}.svg"  # manim's folder of formula files
    if svg.exists():
        return
    import typst

    if _COMPILER is None:
        _COMPILER = typst.Compiler()
    made = _COMPILER.compile(input=document.encode("utf-8"), format="svg")
    svg.parent.mkdir(parents=True, exist_ok=True)
    part = svg.with_name(f".{svg.name}.{os.getpid()}")
    part.write_bytes(made)
    os.replace(part, svg)  # whole, whichever process writes it last


def _solid_bars(f):
    """f with its fraction and root bars (Typst draws them as stroked lines) as filled bars of the same
    thickness: they scale with the formula as its glyphs do. As strokes, MathTypst sets their width for
    the resolution at hand (a formula stored at 480p and drawn at 1080p keeps the 480p width) and
    thinner than the rule: 0.3 of it at 480p, 0.68 at 1080p, bars fainter than the glyphs. Returns f
    (as manim strokes it when its gate is shut: manim_private.stroked_bars)."""
    for bar, half in stroked_bars(f):
        start, end = bar.get_start(), bar.get_end()
        along = (end - start) / max(np.linalg.norm(end - start), 1e-9)
        side = np.array([-along[1], along[0], 0.0]) * half
        bar.set_points_as_corners([start + side, end + side, end - side, start - side, start + side])
        bar.set_fill(bar.get_stroke_color(), opacity=1).set_stroke(width=0)
    return f


def attention_formula():
    """Attention(Q,K,V) = softmax(QKᵀ/√d_k) V, with Q, K and V in their role colours (set in the
    source: Q and Kᵀ sit inside the fraction, no part of their own)."""
    q, k, v = (f'text(fill: #rgb("{c.to_hex()}"), {n})'
               for c, n in ((style.Q_COLOR, "Q"), (style.K_COLOR, "K"), (style.V_COLOR, "V")))
    kt = f'text(fill: #rgb("{style.K_COLOR.to_hex()}"), K^top)'
    return math(f'"Attention"({q}, {k}, {v}) = "softmax"(frac({q} {kt}, sqrt(d_k))) {v}')


def even_labels(labels: VGroup, about=DOWN) -> VGroup:
    """Give a row of labels one size: each was fitted to its own cell (NumberGrid col_labels,
    WeightBars token_labels), so a long name would end up smaller than its neighbours; scale them
    all down to the smallest, each about the edge that faces its cells so it keeps its place."""
    if len(labels) == 0:
        return labels
    h = min(m.height for m in labels)
    for m in labels:
        if m.height > h:
            m.scale(h / m.height, about_edge=about)
    return labels


def label_line(labels: VGroup, step: float, edge_y: float, away=UP, *,
               max_height: float | None = None) -> VGroup:
    """Lay out the labels of a row of cells (or bars) `step` apart, each already centred on its cell:
    one size for all, and one baseline (their edges facing the cells at `edge_y`; word() boxes span the
    font's line height). A label wider than its cell would have to shrink; when that would take the
    labels below STAGGER_AT of their size, they take two lines instead, every other label moved `away`
    from the cells, and each may be nearly twice as wide (a wide lesson's long token names)."""
    if len(labels) == 0:
        return labels
    limit = step * style.LABEL_FILL
    height = max_height or config.frame_height
    one_line = min(1.0, limit / max(m.width for m in labels))
    staggered = len(labels) > 1 and one_line < style.STAGGER_AT
    if staggered:
        limit = (2 * step - style.GAP / 2) * style.LABEL_FILL  # same-line neighbours are two steps apart
    for m in labels:
        fit(m, limit, height)
    even_labels(labels)
    for i, m in enumerate(labels):
        m.align_to([0, edge_y, 0], -away)
        if staggered and i % 2:
            m.shift(away * m.height)
    return labels


def cell_width_for(names: Sequence[str], size: float = style.LABEL_SIZE,
                   minimum: float = style.CELL_W) -> float:
    """A cell width that holds the widest of `names` at `size`, so column labels keep one size
    (NumberGrid shrinks each label that is wider than its cell on its own)."""
    widest = max((word(n, size).width for n in names), default=0.0)
    return max(minimum, widest + style.GAP / 2)


def number_formula(*parts: str, size: float = style.BODY_SIZE, color: ManimColor | None = None) -> VGroup:
    """A formula of the lesson's numbers and plain operators ('2.3', '×', '+', '=') in the lesson's
    font, its parts side by side on one baseline, part i at [i] as in `math`. Not `math`: a formula whose
    numbers change with every edit would be compiled again at each one (the studio redraws the step
    after an edit of W_Q); these parts are labels, each made once.
    """
    x = label("x", size, color).width
    pieces = VGroup(*(word(p, size, color) for p in parts))
    for i in range(1, len(pieces)):  # spaced as math spaces them: "×" tight, "+" and "=" wide
        wide = {parts[i - 1], parts[i]} & {"+", "=", "−"}
        pieces[i].next_to(pieces[i - 1], RIGHT, buff=x * (0.6 if wide else 0.3))
    return pieces


def mixed_line(s: str, size: float = style.BODY_SIZE, color: ManimColor | None = None) -> VGroup:
    """One line of text with formulas in it: "除以 $sqrt(d_k)$ = 2" -> label, math, label.

    Text between `$` signs goes to `math` (never put Chinese there), the rest to `label`; the math is
    scaled along with the text size; text pieces are `word`s, so they share a baseline. The pieces are
    spaced as the catalog writes them: a space where the line has one ("and $W_K$"), a word's space and
    a little more beside a formula (its italic letters lean into the text), and set close where it has
    none ("$W_K$;", "∂$W_Q$", "和$W_K$"); a full-width mark keeps the air its glyph has on one side
    ("$W_K$；$W_V$": close before the ；, a space after it).
    """
    from manim import DEFAULT_FONT_SIZE

    space = label("x x", size, color).width - 2 * label("x", size, color).width  # a word space, ink to ink
    pieces, gaps, parts = VGroup(), [], s.split("$")
    for i, part in enumerate(parts):
        if not part.strip():
            continue
        if len(pieces):  # the gap before this piece: is there white space between it and the one before?
            spaced = (part[:1].isspace() or parts[i - 1][-1:].isspace() or part[:1] in WIDE_OPENING
                      or parts[i - 1][-1:] in WIDE_CLOSING)  # a full-width mark's air is not in its ink
            gaps.append(space * (MATH_SPACE if i % 2 or pieces[-1].is_math else 1.0) if spaced
                        else space * CLOSE_SPACE)
        piece = (math(part, color=color, scale=style.MIXED_MATH_SCALE * size / DEFAULT_FONT_SIZE) if i % 2
                 else word(part.strip(), size, color))
        piece.is_math = bool(i % 2)
        pieces.add(piece)
    for k, gap in enumerate(gaps):
        pieces[k + 1].next_to(pieces[k], RIGHT, buff=gap)
    pieces.phrase = True  # one line read as one: the layout check lets its pieces sit this close
    return pieces.move_to(ORIGIN)


def text_line(s: str, size: float = style.BODY_SIZE, color: ManimColor | None = None) -> VGroup:
    """A line of a catalog: a `label`, or where it has `$...$` parts (`$W_Q$`, `$d_k$`: a subscript),
    a `mixed_line` (a label would print the underscore). A line with an odd number of `$` holds no
    formula (a token named "$5" in it): a label."""
    return mixed_line(s, size, color) if s.count("$") and not s.count("$") % 2 else label(s, size, color)


def _formulas_whole(parts: Sequence[str]) -> list[str]:
    """A line's pieces where it may break, joined where a break would fall inside a `$...$` formula."""
    out: list[str] = []
    for p in parts:
        if out and out[-1].count("$") % 2:
            out[-1] += p
        else:
            out.append(p)
    return out


def wrapped(s: str, width: float, lang: str, size: float = style.BODY_SIZE, color: ManimColor | None = None,
            line_gap: float = style.LINE_GAP) -> VGroup:
    """A line of text as centred lines no wider than `width` (where the subtitles may break a line:
    captions.pieces, between words, never inside a Chinese word), as few as that takes and about
    equally long; one line when it fits. A note under a table wraps to the table's width instead of
    widening the picture (and so shrinking the table) to its own length."""
    from .captions import pieces

    whole = text_line(s, size, color)
    if whole.width <= width:
        return VGroup(whole)
    parts = _formulas_whole(pieces(s, lang))
    share = [len(p) for p in parts]  # each piece's share of the line's width, by characters
    per_char = whole.width / sum(share)
    for count in range(2, len(parts) + 1):
        lines = _balanced(parts, [c * per_char for c in share], count)
        built = [text_line(line.strip(), size, color) for line in lines]
        if max(m.width for m in built) <= width or count == len(parts):
            return VGroup(*built).arrange(DOWN, buff=line_gap)
    return VGroup(whole)


def _balanced(parts: Sequence[str], widths: Sequence[float], count: int) -> list[str]:
    """The pieces in `count` lines, each line closed once it reaches an equal share of the whole."""
    target, lines, line, run = sum(widths) / count, [], "", 0.0
    for p, w in zip(parts, widths):
        if line and run + w / 2 > target * (len(lines) + 1) and len(lines) < count - 1:
            lines.append(line)
            line = ""
        line += p
        run += w
    return [*lines, line]
