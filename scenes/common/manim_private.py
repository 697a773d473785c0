"""The private manim members the scenes reach (labels.py), behind the gate (manim_gate.open_for): each
use has a plain path, taken on another manim release or when a member is gone, that draws the same
lesson with manim's public ways only (slower, or a formula's bars as manim strokes them).

- a formula's SVG file named as manim names it (`typst_file_stem`), so one Typst compiler per process
  can write it before MathTypst looks (plain: MathTypst compiles it, 70 ms more a formula);
- a formula's stroked bars (`stroked_bars`), redrawn as filled ones that scale with the glyphs
  (plain: manim's strokes, fainter at 480p);
- a stored label's colours swapped in its mobjects' own attributes (`recolour`), so one set of glyphs
  serves every colour (plain: the label made again in its colour).
"""

from __future__ import annotations

from typing import Any

from .manim_gate import open_for, wanted

RELIES_ON = (
    "manim.utils.typst_file_writing._typst_hash",
    "manim.utils.typst_file_writing.TYPST_TEMPLATE",
    "manim.utils.typst_file_writing.TYPST_COMPILATION_FONT_SIZE",
    "manim.mobject.text.typst_mobject.MathTypst._stroke_width_tracked_submobjects",
)  # (the colour arrays recolour() rewrites, fill_rgbas and the like, are public attributes)
_RGBAS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


def _open() -> bool:
    return open_for(__name__)


def typst_document(source: str, preamble: str) -> tuple[str, str] | None:
    """The Typst document MathTypst writes for a formula and the stem manim names its SVG by; None when
    the gate is shut or the speed-ups are off (MathTypst compiles it itself)."""
    if not (wanted() and _open()):
        return None
    from manim.utils import typst_file_writing as w

    document = w.TYPST_TEMPLATE.format(text_size=w.TYPST_COMPILATION_FONT_SIZE, preamble=preamble,
                                       body=f"$ {source} $")
    return document, w._typst_hash(document)


def stroked_bars(formula: Any) -> list[tuple[Any, float]]:
    """A MathTypst's bars drawn as strokes (fraction and root bars), each with half its stroke's width in
    scene units, untracked by the formula (it no longer rescales their strokes); [] when the gate is
    shut or a bar lacks what manim records of it."""
    if not _open():
        return []
    found = []
    for bar in formula._stroke_width_tracked_submobjects:
        width = getattr(bar, "_typst_source_stroke_width", None)
        size = getattr(bar, "_typst_reference_size", None)
        if width is None or not size:
            return []
        found.append((bar, width * max(bar.width, bar.height) / size / 2))
    formula._stroke_width_tracked_submobjects = []
    return found


def recolour(mobject: Any, was: Any, now: Any) -> bool:
    """Every colour `was` (a ManimColor) in the mobject's family made `now`, in place, in the arrays and
    colours its mobjects keep: False (nothing changed) when the gate is shut."""
    import numpy as np
    from manim import ManimColor

    if not _open():
        return False
    old, new = was.to_rgb(), now.to_rgb()
    for sub in mobject.get_family():
        for name in _RGBAS:
            rgbas = sub.__dict__.get(name)
            if isinstance(rgbas, np.ndarray) and len(rgbas):
                rgbas = rgbas.copy()
                rgbas[(rgbas[:, :3] == old).all(axis=1), :3] = new
                sub.__dict__[name] = rgbas
        for name, value in list(sub.__dict__.items()):
            if isinstance(value, ManimColor) and value == was:
                sub.__dict__[name] = now
    return True
