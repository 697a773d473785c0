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
EMPHASIS = ManimColor("#B57BE0")  # purple: the lines to the main targets, the focus token
HIGHLIGHT = ManimColor("#F0E442")  # yellow: "look here", the right way
WRONG = ManimColor("#D55E00")  # vermillion: a mistake

ROLE_COLORS = {"x": X_COLOR, "q": Q_COLOR, "k": K_COLOR, "v": V_COLOR}

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
MONO = "Noto Sans Mono CJK SC"

TITLE_SIZE = 40
HEADING_SIZE = 30
BODY_SIZE = 26
LABEL_SIZE = 22
NUMBER_SIZE = 22
SMALL_SIZE = 18
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
SHARE_ROW = 0.3  # height shares of the body area for place_body(): a row of tokens, a main body
SHARE_BODY = 0.8
ARROW_TIP_RATIO = 0.1

# -- timing (seconds) ----------------------------------------------------------------------------
RUN = 1.0
FAST = 0.5
SLOW = 1.6
PAUSE = 0.6
READ_CHARS_PER_SECOND = {"zh": 6.0, "en": 16.0}  # narration pacing: a beat lasts at least this long
MIN_BEAT = 1.5

# -- LaTeX ----------------------------------------------------------------------------------------
# article + empty page style instead of manim's default `standalone` class: it needs only
# texlive-latex-base (dvisvgm crops to the drawing), not the 80 MB texlive-latex-extra.
TEX_DOCUMENTCLASS = r"\documentclass{article}"
TEX_PREAMBLE = r"\usepackage{amsmath}\usepackage{amssymb}\pagestyle{empty}"
