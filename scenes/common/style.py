"""The visual constants every scene shares, in one place: palette, type, spacing, the shared mobjects'
sizes, timing. A constant only one scene uses sits at the top of that scene's file.

The palette is the Okabe–Ito set (distinguishable with the common colour-vision deficiencies; checked by
tests/test_palette.py with a CVD simulation) and viridis for heat. Q, K and V keep their colour for the
whole lesson.
"""

from __future__ import annotations

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
BACKGROUND = Color("#111318")
TEXT = Color("#EDEDED")
DIM = Color("#9AA0A8")
GRID = Color("#4A4F59")
CELL_FILL = Color("#1D2129")

Q_COLOR = Color("#56B4E9")  # sky blue: what a token looks for
K_COLOR = Color("#E69F00")  # orange: what a token offers to be matched
V_COLOR = Color("#009E73")  # bluish green: what a token gives when attended to
X_COLOR = Color("#C8C8C8")  # embeddings: neutral
EMPHASIS = Color("#9B59D0")  # purple: main targets, the focus (darker than Q for deuteranopes)
HIGHLIGHT = Color("#F0E442")  # yellow: "look here", the right way
WRONG = Color("#D55E00")  # vermillion: a mistake


# viridis stops: perceptually uniform and colour-blind safe, dark (low weight) to bright (high)
HEAT_STOPS = [Color(c) for c in ("#440154", "#3B528B", "#21918C", "#5EC962", "#FDE725")]


def heat_color(value: float, low: float = 0.0, high: float = 1.0) -> Color:
    """The one number-to-colour function: value in [low, high] along viridis."""
    t = 0.0 if high == low else float(np.clip((value - low) / (high - low), 0.0, 1.0))
    pos = t * (len(HEAT_STOPS) - 1)
    i = min(int(pos), len(HEAT_STOPS) - 2)
    return HEAT_STOPS[i].interpolate(HEAT_STOPS[i + 1], pos - i)


def text_on(fill) -> Color:
    """Dark or light text, whichever reads on the given fill (a colour of this module or manim's)."""
    r, g, b = Color(fill if isinstance(fill, str) else fill.to_hex()[:7]).to_rgb()
    return Color("#111111") if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else TEXT


# -- type ---------------------------------------------------------------------------------------
FONT = "Noto Sans CJK SC"  # covers Chinese and Latin; Chinese never goes into MathTex

TITLE_SIZE = 40
BODY_SIZE = 26
LABEL_SIZE = 22
NUMBER_SIZE = 22
SMALL_SIZE = 18
MATH_SCALE = 0.8  # MathTex relative to its default size
MIXED_MATH_SCALE = 1.4  # mobjects.mixed_line: TeX beside Noto text, relative to the text's font size

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
READ_CHARS_PER_SECOND = {"zh": 6.0, "en": 16.0}  # narration pacing: a beat lasts at least this long
MIN_BEAT = 1.5
VOICE_LEAD = 0.3  # seconds of a step before its voice starts
VOICE_TAIL = 0.6  # and after its voice ends, at the least

# -- LaTeX ----------------------------------------------------------------------------------------
# article + empty page style instead of manim's default `standalone` class: it needs only
# texlive-latex-base (dvisvgm crops to the drawing), not the 80 MB texlive-latex-extra.
TEX_DOCUMENTCLASS = r"\documentclass{article}"
TEX_PREAMBLE = r"\usepackage{amsmath}\usepackage{amssymb}\pagestyle{empty}"
