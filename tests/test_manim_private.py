"""Private manim and manim-slides members are reached only behind the gate (scenes/common/manim_gate.py):
the speed-ups (pipeline/drawing/manim_speedups/), the slides (pipeline/drawing/slides.py) and the scenes'
own (scenes/common/manim_private.py). Any other module naming one fails here; each gated module names
what it reaches in its RELIES_ON; and with the gate shut (another release) each takes its plain path."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import manim
import manim_slides
import pytest

from scenes.common import manim_gate, manim_private

ROOT = Path(__file__).parent.parent
GATED = {ROOT / "attention_lesson/pipeline/drawing/slides.py", ROOT / "scenes/common/manim_private.py",
         *(ROOT / "attention_lesson/pipeline/drawing/manim_speedups").glob("*.py")}
OURS = [p for top in ("attention_core", "attention_lesson", "scenes") for p in (ROOT / top).rglob("*.py")]


def private_names(package) -> set[str]:
    """Every private name a package's source defines or sets: `def _x`, `self._x`, `_x =`."""
    found = set()
    for path in Path(package.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="ignore")
        found |= set(re.findall(r"(?:def |self\.|^\s*)(_[a-z][A-Za-z0-9_]*)\b", text, re.M))
    return found


def named(path: Path) -> set[str]:
    """The private attributes a module reaches (`x._name`, `getattr(x, "_name")`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return {s for s in attrs | strings if re.fullmatch(r"_[a-z]\w*", s)}


def defined_by_us() -> set[str]:
    """The private functions and classes our own modules define (a name manim happens to share)."""
    return {n.name for p in OURS for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


THEIRS = private_names(manim) | private_names(manim_slides)


def test_no_module_outside_the_gate_names_a_private_member_of_manims():
    ours = defined_by_us()
    found = {str(p.relative_to(ROOT)): sorted(named(p) & THEIRS - ours) for p in OURS if p not in GATED}
    assert {p: names for p, names in found.items() if names} == {}
    assert len(THEIRS) > 250  # (the scan reads manim's source: a scan that found nothing would pass)


def test_each_gated_module_names_what_it_reaches_in_its_relies_on():
    from attention_lesson.pipeline.drawing import manim_speedups

    relied = {name.split(".")[-1] for name in manim_speedups.relied_on()}
    read_if_there = {"_typst_source_stroke_width", "_typst_reference_size"}  # getattr with a default
    for path in GATED:
        reached = named(path) & THEIRS - defined_by_us() - read_if_there
        assert reached <= relied, (path.name, sorted(reached - relied))
    assert "scenes.common.manim_private" in manim_speedups.ALSO_RELYING and manim_speedups.missing() == []


@pytest.fixture
def shut(monkeypatch):
    """The gate shut as another manim release shuts it."""
    monkeypatch.setattr(manim_gate, "WRITTEN_FOR", {"manim": "0.0.1"})
    manim_gate.open_for.cache_clear()
    yield
    manim_gate.open_for.cache_clear()


def test_with_the_gate_shut_the_scenes_take_manims_public_ways(shut):
    from manim import BLUE, RED, MathTypst, Text

    assert manim_private.typst_document("x^2", "") is None  # MathTypst compiles it itself
    # a source no other test makes: manim's second MathTypst of one source is a copy of its first,
    # its stroked bars no longer tracked
    formula = MathTypst("frac(x_1, sqrt(y_1))")
    tracked = list(formula._stroke_width_tracked_submobjects)
    assert len(tracked) == 2 and manim_private.stroked_bars(formula) == []
    assert formula._stroke_width_tracked_submobjects == tracked  # manim keeps rescaling their strokes
    text = Text("bank", color=RED)
    assert manim_private.recolour(text, RED, BLUE) is False and text.get_color() == RED


def test_with_the_gate_open_the_same_calls_do_their_work():
    from manim import BLUE, RED, MathTypst, Text

    manim_gate.open_for.cache_clear()
    document, stem = manim_private.typst_document("x^2", "")
    assert "$ x^2 $" in document and re.fullmatch(r"[0-9a-f]{16,}", stem)
    formula = MathTypst("frac(x_2, sqrt(y_2))")  # the fraction's bar and the root's (a source of its own)
    bars = manim_private.stroked_bars(formula)
    assert len(bars) == 2 and all(half > 0 for _, half in bars)
    assert formula._stroke_width_tracked_submobjects == []
    text = Text("bank", color=RED)
    assert manim_private.recolour(text, RED, BLUE) is True and text.get_color() == BLUE
