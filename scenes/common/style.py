"""The visual constants every scene shares, in one place: palette, type, spacing, the shared mobjects'
sizes, timing. A constant only one scene uses sits at the top of that scene's file.

The palette is a theme: one named set of colours (`THEMES`: dark, the default for videos and decks, and
light, for bright rooms and paper) for the background, text, muted text, grid lines, cells, the Q/K/V
roles, embeddings, emphasis, highlight, mistakes and the heat ramp. Scenes name a colour only through
this module (`style.TEXT`, `style.Q_COLOR`, `style.heat_color(w)`): each name reads the active theme,
set by the scene as it starts (`use_theme`), so it must be read while drawing, never at import (a default
argument, a module constant). Whoever colours outside a scene (handout, contact sheet, explorer) names
the theme: `THEMES["light"].q`.

Both themes keep the rules tests/test_palette.py checks: every text colour at least 4.5:1 against the
background and the cells (WCAG AA), grid lines 3:1; the six role colours at least 12 apart (CAM02-UCS
ΔE) for normal vision and simulated deuteranopia, protanopia and tritanopia; Q, K and V at least 10 apart
in lightness (L*, and the L* of the grey a naive printer driver makes, 0.299 R + 0.587 G + 0.114 B), so
they stay apart printed in grey; a heat ramp whose lightness moves away from the background as the weight
grows, for every viewer; black or white text on any heat colour at 4.5:1 (text_on). Dark is the
Okabe–Ito set, lightened where it failed (Q, emphasis, wrong, grid), with viridis for heat; light was
searched under the same rules (docs/palette.md), with ColorBrewer's YlGnBu for heat. Q, K and V keep
their colour for the whole lesson.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class Color(str):
    """A colour as "#RRGGBB": manim takes it wherever it takes a colour, and the pipeline (handout,
    contact sheet, the palette tests) reads it without importing manim. Only scenes draw."""

    def __new__(cls, value: str):
        return super().__new__(cls, value.upper())

    def to_rgb(self) -> tuple[float, float, float]:
        return tuple(int(self[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def to_hex(self) -> str:
        return str(self)

    def interpolate(self, other: "Color", alpha: float) -> "Color":
        """The colour `alpha` of the way from this one to `other`, linearly in sRGB (as manim does)."""
        a, b = np.array(self.to_rgb()), np.array(Color(other).to_rgb())
        return Color("#" + "".join(f"{round(c * 255):02X}" for c in a + (b - a) * alpha))


# -- palette ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Theme:
    """One named set of colours: every colour a scene, the handout, the contact sheet or the explorer
    uses."""

    name: str
    background: Color
    text: Color
    dim: Color  # secondary text: labels of rows and columns, the sentence
    grid: Color  # cell borders, baselines
    cell: Color  # a number cell's fill
    q: Color  # what a token looks for
    k: Color  # what a token offers to be matched
    v: Color  # what a token gives when attended to
    x: Color  # embeddings: neutral
    emphasis: Color  # main targets, the focus
    highlight: Color  # "look here", the right way
    wrong: Color  # a mistake
    heat: tuple[Color, ...]  # stops from weight 0 to weight 1


DARK = Theme(
    "dark", background=Color("#111318"), text=Color("#EDEDED"), dim=Color("#9AA0A8"), grid=Color("#686D77"),
    cell=Color("#1D2129"),
    q=Color("#87D6FC"),  # sky blue, lighter than Okabe–Ito's #56B4E9: apart from K in grey
    k=Color("#E69F00"),  # orange
    v=Color("#009E73"),  # bluish green
    x=Color("#C8C8C8"),
    emphasis=Color("#A970DB"),  # purple (darker than Q for deuteranopes), 4.6:1 on a cell
    highlight=Color("#F0E442"),  # yellow
    wrong=Color("#DB6624"),  # vermillion, 4.6:1 on a cell
    # viridis: perceptually uniform and colour-blind safe, dark (low weight) to bright (high)
    heat=tuple(Color(c) for c in ("#440154", "#3B528B", "#21918C", "#5EC962", "#FDE725")),
)
LIGHT = Theme(
    "light", background=Color("#FFFFFF"), text=Color("#1A1C20"), dim=Color("#5F656E"), grid=Color("#878C94"),
    cell=Color("#FFFFFF"),  # white cells: text at full contrast, no tint to print
    q=Color("#0A1E9C"),  # deep blue
    k=Color("#AA6509"),  # ochre orange
    v=Color("#046740"),  # green
    x=Color("#474747"),
    emphasis=Color("#7428E0"),  # violet
    highlight=Color("#D01F86"),  # magenta: a highlighter pen (no yellow reads as text on white)
    wrong=Color("#920B12"),  # dark red
    # ColorBrewer YlGnBu (print-friendly, colour-blind safe), pale (low weight) to blue (high); it stops
    # at #225EA8: its darker stops are Q's deep blue
    heat=tuple(Color(c) for c in ("#EDF8B1", "#C7E9B4", "#7FCDBB", "#41B6C4", "#1D91C0", "#225EA8")),
)
THEMES = {t.name: t for t in (DARK, LIGHT)}
DEFAULT_THEME = DARK.name  # videos and decks; the handout's default is light
INKS = (Color("#000000"), Color("#FFFFFF"))  # text on a heat colour: whichever reads better
# the module's colour names, each a field of the active theme (module __getattr__ below)
PALETTE = {"BACKGROUND": "background", "TEXT": "text", "DIM": "dim", "GRID": "grid", "CELL_FILL": "cell",
           "Q_COLOR": "q", "K_COLOR": "k", "V_COLOR": "v", "X_COLOR": "x", "EMPHASIS": "emphasis",
           "HIGHLIGHT": "highlight", "WRONG": "wrong", "HEAT_STOPS": "heat"}
_active = DARK


def use_theme(name: str) -> Theme:
    """Make `name` the theme the palette's names read (a scene does this as it starts); returns it."""
    global _active
    if name not in THEMES:
        raise ValueError(f"unknown theme {name!r}; the themes are: {', '.join(THEMES)}")
    _active = THEMES[name]
    return _active


def theme(name: str | None = None) -> Theme:
    """The theme called `name`, or the active one."""
    return _active if name is None else THEMES[name]


def __getattr__(name: str):
    """style.TEXT, style.Q_COLOR, ...: the active theme's colour (PEP 562: names not defined here)."""
    if name in PALETTE:
        return getattr(_active, PALETTE[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def luminance(color) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in Color(color).to_rgb()]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def heat_color(value: float, low: float = 0.0, high: float = 1.0, theme: Theme | None = None) -> Color:
    """The one number-to-colour function: value in [low, high] along the theme's heat ramp."""
    stops = (theme or _active).heat
    t = 0.0 if high == low else float(np.clip((value - low) / (high - low), 0.0, 1.0))
    pos = t * (len(stops) - 1)
    i = min(int(pos), len(stops) - 2)
    return stops[i].interpolate(stops[i + 1], pos - i)


def text_on(fill) -> Color:
    """Black or white text, whichever has the higher contrast on the fill (a colour of this module or
    manim's): at least 4.58:1 on any colour."""
    c = Color(fill if isinstance(fill, str) else fill.to_hex()[:7])
    return max(INKS, key=lambda ink: contrast(ink, c))


# -- type ---------------------------------------------------------------------------------------
FONT = "Noto Sans CJK SC"  # covers Chinese and Latin; Chinese never goes into a formula (labels.math)
DEFAULT_FONT = FONT  # zh's and en's; a scene in another language draws in its own (languages.font)
# The colour a label's glyphs are first made in, then recoloured to the one asked for (labels.label):
# not a theme's colour, never on screen, and none that a label is drawn in, so that no other colour in
# a label is taken for it.
UNMADE_COLOUR = "#123456"


def use_font(family: str) -> None:
    """Make `family` the font every label is drawn in from now on (a scene does this as it starts)."""
    global FONT
    FONT = family

TITLE_SIZE = 40
BODY_SIZE = 26
LABEL_SIZE = 22
NUMBER_SIZE = 25  # a table's numbers: about 34 px tall (cap height) at 1080p unscaled
SMALL_SIZE = 18
MATH_SCALE = 0.8  # a formula (labels.math) relative to its default size
MIXED_MATH_SCALE = 1.4  # labels.mixed_line: a formula beside Noto text, relative to the text's font size

NUMBER_PLACES = 2  # decimals shown on screen (the core keeps full precision)
# The smallest a text may end up after every scale-down, as Text's font_size (a line is about 0.93 of
# it in px at 480p): 10.5 is about 10 px at 480p, 22 px at 1080p. The layout check enforces it at the
# end of every step; a layout that would shrink text below it wraps, staggers its labels or arranges
# its parts another way instead (LessonScene.place_best, mobjects.label_line).
MIN_FONT_SIZE = 10.5

# -- the frame and spacing ------------------------------------------------------------------------
MARGIN = 0.35  # kept free at every frame edge
SAFE_MARGIN = 0.25  # no text nearer the frame's edge than this (the layout check)
GAP = 0.3  # between neighbouring mobjects
BIG_GAP = 0.7
LINE_GAP = GAP * 0.6  # between lines of a caption
TITLE_SHARE = 0.7  # of the frame width: the longest a title may be; the sentence gets the rest
SENTENCE_SHARE = 0.35
SHARE_ROW = 0.3  # height shares of the body area for place_body(): a row of tokens, a main body
SHARE_BODY = 0.8
# A frame that fills the screen (layout.fill, checked at every step's end): the body (the heading left
# out) spans at least FILL_SHARE of the safe area's width or of its height (the safe area: the frame less
# SAFE_MARGIN, below the heading), its centre within FILL_CENTRE of the safe area's (a share of its width
# and of its height); the numbers of its tables at least TABLE_CAP_PX tall (cap height) at 1080p.
FILL_SHARE = 0.75
FILL_CENTRE = 0.05
TABLE_CAP_PX = 30
NOTE_MIN_W = 6.0  # LessonScene.note: a note wraps to the width of what it is under, at least this
FILL_MAX_TEXT = TITLE_SIZE  # LessonScene.place_body scales a body up to fill, no text beyond this size

# -- the shared mobjects (mobjects.py) --------------------------------------------------------------
CELL_W = 0.95  # NumberGrid: a number cell, before any scale-down to fit
CELL_H = 0.5
GRID_STROKE = 1.5
ROW_LABEL_GAP = GAP * 0.6  # row labels to the cells, column labels to the cells
COL_LABEL_GAP = GAP * 0.5
LABEL_FILL = 0.95  # share of a cell (or bar step) a label may take
COL_LABEL_MAX_H = 1.5  # column label height, in cell heights
STAGGER_AT = 0.75  # labels that would shrink below this share of their size take two staggered lines
NUMBER_FILL_W, NUMBER_FILL_H = 0.9, 0.8  # share of its cell a number may take
TOKEN_PAD = 0.18  # TokenChip: text to frame
CORNER = 0.08  # rounded corners of chips, boxes and outlines
BAR_MAX_H = 2.4  # WeightBars
BAR_W = 0.6
BAR_OPACITY = 0.9
BAR_MIN_H = 0.02  # a zero bar still shows as a hairline
SOFTMAX_BAR_H = 1.8  # softmax: tallest bar (a weight of 1), leaving room for the sum below the chart
NORMALIZER_BAR_H = 1.1  # normalizers: tallest bar (weight 1) in the three stacked weight charts
PLOT_W, PLOT_H = 7.0, 2.6  # lookup: the "weight as the chosen key's score moves" plot
CURVE_WIDTH = 4.0  # lookup: a curve's stroke
DOT_R = 0.08  # lookup: the marker of the current score on a curve
SWATCH = 0.6  # lookup: length of a legend's line sample
BACK_ANGLE = 1.1  # lookup: radians, the bend of the gradient arrow back to the projections
VALUE_LABEL_W = 1.4  # a bar's value label may be this many bar widths wide
VALUE_LABEL_STEP = 0.8  # and at most this share of the step from bar to bar: neighbours keep a gap
VALUE_LABEL_GAP = GAP * 0.4
LINE_MIN, LINE_MAX = 1.0, 14.0  # attention_lines: stroke width for weight 0 .. 1
LINE_MIN_OPACITY = 0.35  # and opacity for weight 0 (rising with the weight)
ARROW_BUFF = GAP * 0.3  # weight_arrow
ARROW_MAX = (LINE_MIN + LINE_MAX) / 2  # weight arrows are thinner than attention lines
ARROW_TIP_RATIO = 0.1
OUTLINE_STROKE = 3  # outline(): a frame around what the narration points at
OUTLINE_THIN = 2  # a secondary frame beside a main one
MARK_STROKE = 4  # a bold frame: the cell a verdict or a note is about
OUTLINE_PAD = 0.06  # a padded frame around a cell or a row

# -- timing (seconds) ----------------------------------------------------------------------------
RUN = 1.0
FAST = 0.5
SLOW = 1.6
READ_CHARS_PER_SECOND = {"zh": 6.0, "en": 16.0}  # narration pacing: a step lasts at least this long
MIN_BEAT = 1.5
VOICE_LEAD = 0.3  # seconds of a step before its voice starts
VOICE_TAIL = 0.6  # and after its voice ends, at the least
