"""attention_core: the lesson's numbers. Lesson files in (`lesson.py`), scaled dot-product attention
with every intermediate out (`attention.py`), and the quantities the lesson's contrasts and mistakes
show (`diagnostics.py`). numpy only: never manim, never a file it did not read."""

from .attention import (
    MODES,
    AttentionPass,
    HardLookup,
    Intermediates,
    attend,
    attend_tokens,
    dot_product_attention,
    hard_lookup,
    numbers_json,
    scale_for,
    softmax,
)
from .diagnostics import (
    dominant,
    magnified_softmax,
    strongest_other,
    total_variation,
    weight_as_score_moves,
    wrong_axis_weights,
)
from .lesson import (
    LANGS,
    MAX_DIMS,
    MAX_TOKENS,
    Lesson,
    LessonError,
    load,
    loads,
    parse,
)

__version__ = "0.1.0"

__all__ = [
    "MODES", "LANGS", "MAX_DIMS", "MAX_TOKENS", "AttentionPass", "HardLookup", "Intermediates",
    "Lesson", "LessonError", "attend", "dominant", "attend_tokens", "dot_product_attention", "hard_lookup",
    "load", "loads", "numbers_json", "magnified_softmax", "parse", "scale_for", "softmax", "strongest_other",
    "total_variation", "weight_as_score_moves", "wrong_axis_weights", "__version__",
]
