"""The verified numeric core of attention-lesson: numpy only, never manim."""

from .attention import MODES, Attention, HardLookup, attend, attention, hard_lookup, softmax
from .lesson import LANGS, MAX_DIMS, MAX_TOKENS, Lesson, LessonError, load, parse

__version__ = "0.1.0"

__all__ = [
    "MODES", "LANGS", "MAX_DIMS", "MAX_TOKENS", "Attention", "HardLookup", "Lesson", "LessonError",
    "attend", "attention", "hard_lookup", "load", "parse", "softmax", "__version__",
]
