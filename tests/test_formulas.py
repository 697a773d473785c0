"""Formulas (labels.math): Typst math, typeset in-process by the `typst` package, so no TeX system is
needed (a scene with formulas builds with latex and dvisvgm out of PATH); a formula of several parts
keeps part i at [i], left to right; its fraction and root bars are filled, so they scale with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from manim import Typst, tempconfig

from scenes.common.labels import math

ROOT = Path(__file__).parent.parent

# Builds two scenes whose formulas have fractions, roots, several parts and colours of their own, with
# a PATH that holds nothing: no latex, no dvisvgm (nor anything else a formula might call)
WITHOUT_TEX = """
import shutil, sys
from pathlib import Path
assert shutil.which("latex") is None and shutil.which("dvisvgm") is None
from scenes.registry import available
from tests.scene_harness import build
for info in available():
    if info.id in ("overview", "scores", "softmax"):
        scene, watch = build(info, Path(sys.argv[1]) / info.id)
        assert watch.problems == [], watch.problems
        print(info.id, "built")
"""


def test_a_scene_with_formulas_builds_without_tex(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path / "empty"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", WITHOUT_TEX, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split("\n").count("scores built") == 1, done.stdout


@pytest.fixture
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path)}):  # the formulas' SVG files
        yield


def test_parts_are_at_their_index_left_to_right(media):
    f = math("o", "=", "sum_j", "w_j thin", "v_j")
    assert isinstance(f, Typst) and len(f) == 5
    assert all(len(part) > 0 for part in f)
    xs = [part.get_center()[0] for part in f]
    assert xs == sorted(xs)
    assert len(f[2]) == 2  # the sum sign and its j


def test_a_part_takes_its_own_colour(media):
    f = math("times W_Q", "=", "Q", color="#FF0000")
    f[1].set_color("#FFFFFF")
    assert {str(leaf.get_fill_color()).upper() for leaf in f[0]} == {"#FF0000"}
    assert {str(leaf.get_fill_color()).upper() for leaf in f[1]} == {"#FFFFFF"}


def test_bars_are_filled_and_scale_with_the_formula(media):
    f = math("frac(1, sqrt(d_k))")
    bars = [m for m in f.family_members_with_points() if m.height < 0.05 * f.height]
    assert len(bars) == 2  # the fraction's and the root's
    thickness = [b.height for b in bars]
    assert all(b.get_fill_opacity() == 1 and b.get_stroke_width() == 0 for b in bars)
    f.scale(2)
    assert [b.height for b in bars] == pytest.approx([2 * t for t in thickness])


def test_one_compiler_serves_every_formula(media, monkeypatch):
    """MathTypst finds each formula's SVG file already made by the process's compiler: its own way,
    typst.compile, reads every system font again (70 ms a formula)."""
    import typst

    def fail(*args, **kwargs):
        raise AssertionError("typst.compile called")

    monkeypatch.setattr(typst, "compile", fail)
    assert len(math("w_j", "=", "frac(e^(s_j), sum_i e^(s_i))", color="#00FF00")) == 3
    assert len(math("sqrt(d_k) = 1.41", color="#00FF00")) > 0
