"""The lesson file's `[geometry]` table: which two axes the geometry scene's planes show.

    [geometry]
    qk = [1, 2]                         # two of the d_k axes, counted from 1 as every table labels them
    values = ["geography", "finance"]   # two value dimensions: names (any language's) or numbers from 1

Either key may be left out: the core then takes the two axes that carry the most (geometry.py).
"""

from __future__ import annotations

from .errors import LessonError, ph

KEYS = {"qk": "the two d_k axes (from 1) of the plane of queries and keys",
        "values": "the two value dimensions (names, or numbers from 1) of the plane of values"}


def _axis(file: str, key: str, value, names: dict[str, int], d: int) -> int:
    """One axis, from 0: a name of `names` or a whole number 1..d."""
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= d:
        return value - 1
    raise LessonError(file, key, ph("axis_name_or_number", d=d) if names else ph("axis_number", d=d), value)


def parse(file: str, table: dict, d_k: int, d_v: int, dimensions: dict[str, tuple[str, ...]]) -> dict:
    """{"qk": [1, 2], "values": ["geography", "finance"]} -> {"qk": (0, 1), "values": (0, 1)}: two
    different axes each, in order."""
    out = {}
    for key, value in table.items():
        if not isinstance(value, list) or len(value) != 2:
            raise LessonError(file, f"geometry.{key}", ph("two_axes"), value)
        names = {n: i for lang in dimensions.values() for i, n in enumerate(lang)} if key == "values" else {}
        d = d_k if key == "qk" else d_v
        axes = tuple(_axis(file, f"geometry.{key} number {i + 1}", x, names, d) for i, x in enumerate(value))
        if axes[0] == axes[1]:
            raise LessonError(file, f"geometry.{key}", ph("two_axes"), value)
        out[key] = tuple(sorted(axes))
    return out
