"""Every visual constant of the lesson, in one place: palette, fonts, sizes, spacing, timing.

The palette is the Okabe–Ito set (distinguishable with the common colour-vision deficiencies; checked by
tests/test_palette.py with a CVD simulation) and viridis for heat. Q, K and V keep their colour for the
whole lesson.
"""

from __future__ import annotations

import numpy as np
from manim import ManimColor, interpolate_color

# -- palette ------------------------------------------------------------------------------------
BACKGROUND = ManimColor("#111318")
TEXT = ManimColor("#EDEDED")
DIM = ManimColor("#9AA0A8")
GRID = ManimColor("#4A4F59")
CELL_FILL = ManimColor("#1D2129")

Q_COLOR = ManimColor("#56B4E9")  # sky blue: what a token looks for
K_COLOR = ManimColor("#E69F00")  # orange: what a token offers to be matched
V_COLOR = ManimColor("#009E73")  # bluish green: what a token gives when attended to
X_COLOR = ManimColor("#C8C8C8")  # embeddings: neutral
EMPHASIS = ManimColor("#9B59D0")  # purple: main targets, the focus (darker than Q for deuteranopes)
HIGHLIGHT = ManimColor("#F0E442")  # yellow: "look here", the right way
WRONG = ManimColor("#D55E00")  # vermillion: a mistake


# viridis stops: perceptually uniform and colour-blind safe, dark (low weight) to bright (high)
HEAT_STOPS = [ManimColor(c) for c in ("#440154", "#3B528B", "#21918C", "#5EC962", "#FDE725")]


def heat_color(value: float, low: float = 0.0, high: float = 1.0) -> ManimColor:
    """The one number-to-colour function: value in [low, high] along viridis."""
    t = 0.0 if high == low else float(np.clip((value - low) / (high - low), 0.0, 1.0))
    pos = t * (len(HEAT_STOPS) - 1)
    i = min(int(pos), len(HEAT_STOPS) - 2)
    return interpolate_color(HEAT_STOPS[i], HEAT_STOPS[i + 1], pos - i)


def text_on(fill: ManimColor) -> ManimColor:
    """Dark or light text, whichever reads on the given fill."""
    r, g, b = fill.to_rgb()
    return ManimColor("#111111") if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else TEXT


# -- type ---------------------------------------------------------------------------------------
FONT = "Noto Sans CJK SC"  # covers Chinese and Latin; Chinese never goes into MathTex

TITLE_SIZE = 40
BODY_SIZE = 26
LABEL_SIZE = 22
NUMBER_SIZE = 22
SMALL_SIZE = 18
FOOTNOTE_SIZE = 20
MATH_SCALE = 0.8  # MathTex relative to its default size

NUMBER_PLACES = 2  # decimals shown on screen (the core keeps full precision)

# -- layout -------------------------------------------------------------------------------------
MARGIN = 0.35  # kept free at every frame edge
GAP = 0.3  # between neighbouring mobjects
BIG_GAP = 0.7
CELL_W = 0.95  # a number cell, before any scale-down to fit
CELL_H = 0.5
TOKEN_PAD = 0.18
BAR_MAX_H = 2.4
BAR_W = 0.6
LINE_MIN, LINE_MAX = 1.0, 14.0  # stroke width of attention lines for weight 0 .. 1
CORNER = 0.08
TITLE_SHARE = 0.7  # of the frame width: the longest a title may be; the sentence gets the rest
SENTENCE_SHARE = 0.35
SHARE_ROW = 0.3  # height shares of the body area for place_body(): a row of tokens, a main body
SHARE_BODY = 0.8
ARROW_TIP_RATIO = 0.1
ROW_LABEL_GAP = GAP * 0.6  # NumberGrid: row labels to the cells, column labels to the cells
COL_LABEL_GAP = GAP * 0.5
LABEL_FILL = 0.95  # share of a cell (or bar step) a label may take
COL_LABEL_MAX_H = 1.5  # column label height, in cell heights
NUMBER_FILL_W, NUMBER_FILL_H = 0.9, 0.8  # share of its cell a number may take
GRID_STROKE = 1.5
BAR_OPACITY = 0.9
BAR_MIN_H = 0.02  # a zero bar still shows as a hairline
VALUE_LABEL_W = 1.4  # a bar's value label may be this many bar widths wide
VALUE_LABEL_GAP = GAP * 0.4
LINE_MIN_OPACITY = 0.35  # attention lines: opacity for weight 0 (rising with the weight)
ARROW_BUFF = GAP * 0.3
ARROW_MAX = (LINE_MIN + LINE_MAX) / 2  # weight arrows are thinner than attention lines
LINE_GAP = GAP * 0.6  # between lines of a caption

# -- timing (seconds) ----------------------------------------------------------------------------
RUN = 1.0
FAST = 0.5
SLOW = 1.6
PULSE_SCALE = 1.06  # Indicate on a row: enough to see, not enough to jump
READ_CHARS_PER_SECOND = {"zh": 6.0, "en": 16.0}  # narration pacing: a beat lasts at least this long
MIN_BEAT = 1.5

# -- LaTeX ----------------------------------------------------------------------------------------
# article + empty page style instead of manim's default `standalone` class: it needs only
# texlive-latex-base (dvisvgm crops to the drawing), not the 80 MB texlive-latex-extra.
TEX_DOCUMENTCLASS = r"\documentclass{article}"
TEX_PREAMBLE = r"\usepackage{amsmath}\usepackage{amssymb}\pagestyle{empty}"

# -- mistakes and cost scenes ----------------------------------------------------------------------
MISTAKES_SCORE_FACTORS = (4, 8, 16, 32, 64)  # score magnifications tried, smallest first, to show saturation
MISTAKES_SATURATED = 0.99  # a top weight at least this large counts as a saturated softmax
MISTAKES_MARK_STROKE = 4  # outline of a cell the narration points at
COST_MULTIPLIERS = (1, 2, 4)  # the pair grids drawn: n, 2n, 4n tokens
COST_GRID_STROKE = 1.0
COST_UNIT = 0.32  # one row or column of a matrix-shape block

# -- mixing, matrix and contexts scenes -------------------------------------------------------------
MIX_PERCENT = 100  # a weight shown as a percentage

# -- lookup, normalizers and edge-cases scenes ------------------------------------------------------
LOOKUP_PLOT_W = 7.0  # the "weight as the chosen key's score moves" plot
LOOKUP_PLOT_H = 2.6
LOOKUP_SAMPLES = 241  # points on the soft curve
LOOKUP_CURVE_WIDTH = 4.0
LOOKUP_DOT_R = 0.08  # the marker of the current score on a curve
LOOKUP_SWATCH = 0.6  # length of a legend's line sample
LOOKUP_BACK_ANGLE = 1.1  # radians: the bend of the gradient arrow back to the projections
NORM_BAR_H = 1.1  # tallest bar (weight 1) in the three stacked weight charts
EDGE_FRAME_PAD = 0.06  # a highlight frame around a matrix cell or row
EDGE_FRAME_STROKE = 4
MISTAKES_MARK_BUFF = 0.05  # the outline sits just outside its cell, visible on any heat colour
MIX_FRAME_STROKE = 3  # the frame around the dominant row or the strengthened dimension
MISTAKES_MATRIX_ZOOM = 1.3  # the matrix read in the last mistake, larger than a plain heatmap
COST_GRID_H = 4.5  # height of the largest pair grid, before any scale-down
COST_SMALL_MATH = 0.6  # MathTex scale of the growth labels between the grids
COST_BLOCK_OPACITY = 0.25  # fill of a matrix-shape block
MATRIX_CELL_W = 1.2  # a cell of the attention-matrix scene, before any scale-down
MATRIX_CELL_H = 0.7
MIXED_MATH_SCALE = 1.4  # mobjects.mixed_line: TeX beside Noto text, relative to the text's font size
MISTAKES_BIG_CHANGE = 0.1  # total-variation distance from which dropping √dₖ counts as a large change
SOFTMAX_BAR_H = 1.8  # softmax scene: tallest bar (a weight of 1), leaving room for the sum below the chart
COST_MIN_BLOCK = 1.2  # the smallest matrix-shape block is at least this tall or wide
