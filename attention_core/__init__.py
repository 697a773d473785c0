"""attention_core: the lesson's numbers. Lesson files in (`lesson.py`), scaled dot-product attention
with every intermediate out (`attention.py`), and the quantities the lesson's contrasts and mistakes
show (`diagnostics.py`), the language a lesson is shown in (`language.py`: --lang, the file's `lang`,
ATTENTION_LESSON_LANG, zh). What it says of a lesson, in either language: `errors.py` (LessonError,
LessonWarning, `FILE:LINE: message`, words from `messages.py`), `lines.py` (the line a key is on),
`checks.py` (check's warnings), `magnitudes.py` (how large a number may get, and how it is then written).
numpy only: never manim, never a file it did not read.

`check`'s warnings, the diagnostics and the explorer's numbers are imported when first asked for (PEP 562):
a command that only loads a lesson and plans, such as a re-run with nothing to do, does not load them."""

import importlib

from .attention import (
    MODES,
    AttentionPass,
    HardLookup,
    Intermediates,
    attend,
    attend_tokens,
    dot_product_attention,
    hard_lookup,
    scale_for,
    softmax,
)
from .errors import LessonWarning
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
from .lines import error_line, locate
from .magnitudes import SCIENTIFIC_FROM, scientific

__version__ = "0.1.0"

_LATER = {  # name -> the module of this package that defines it, imported when the name is first used
    "lesson_warnings": "checks", "numbers_json": "numbers",
    **dict.fromkeys(("LARGE_CHANGE", "SLIGHT_CHANGE", "change_size", "dominant", "gain_source",
                     "magnified_softmax", "strongest_other", "total_variation", "weight_as_score_moves",
                     "wrong_axis_weights"), "diagnostics"),
}


def __getattr__(name: str):
    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LATER[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "MODES", "LANGS", "MAX_DIMS", "MAX_TOKENS", "AttentionPass", "HardLookup", "Intermediates",
    "Lesson", "LessonError", "LessonWarning", "SCIENTIFIC_FROM", "attend", "error_line", "lesson_warnings",
    "locate", "scientific", "dominant", "attend_tokens", "dot_product_attention", "hard_lookup",
    "load", "loads", "numbers_json", "magnified_softmax", "parse", "scale_for", "softmax", "strongest_other",
    "total_variation", "weight_as_score_moves", "change_size", "gain_source",
    "SLIGHT_CHANGE", "LARGE_CHANGE", "wrong_axis_weights", "__version__",
]
