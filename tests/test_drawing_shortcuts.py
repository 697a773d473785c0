"""The drawing's shortcuts through manim (pipeline/drawing/manim_speedups/fast_copies.py, skip_jumps.py)
change only how quickly a scene is built: a mobject's copy is manim's deep copy, attribute by attribute;
a skipped play that jumps to its end leaves the frames manim's own play leaves, pixel for pixel."""

from __future__ import annotations

import copy
import enum
import types
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from attention_core import load
from attention_lesson.pipeline.drawing import worker
from attention_lesson.pipeline.drawing.manim_speedups import fast_copies, skip_jumps
from attention_lesson.pipeline.plan import FRAMES, RenderOptions, plan
from scenes import registry

LESSONS = Path(__file__).parent / "lessons"


def same(a, b, pairs: dict, path: str = "m") -> None:
    """a and b hold equal values of the same types, with the same sharing inside (pairs: id in a ->
    id in b of every object seen), and nothing of a's (but immutable values) is b's."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} against {type(b).__name__}"
    if isinstance(a, (int, float, str, bool, type(None), np.generic, type, enum.Enum, types.FunctionType,
                      types.BuiltinFunctionType)):  # what deepcopy shares
        assert a == b or (a != a and b != b), f"{path}: {a!r} against {b!r}"
        return
    if isinstance(a, tuple):  # immutable: deepcopy shares one of immutable values
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, pairs, f"{path}[{i}]")
        return
    if id(a) in pairs:
        assert pairs[id(a)] == id(b), f"{path}: shared in the original, not in the copy"
        return
    assert a is not b, f"{path}: the copy holds the original's {type(a).__name__}"
    pairs[id(a)] = id(b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides, path
        assert np.array_equal(a, b, equal_nan=True), path
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, pairs, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(map(repr, a)) == list(map(repr, b)), path
        for (k, x), y in zip(a.items(), b.values()):
            same(x, y, pairs, f"{path}[{k!r}]")
    elif isinstance(a, Path):
        assert a == b, path
    else:
        da = {k: v for k, v in vars(a).items() if k != "original_id"}
        same(da, {k: v for k, v in vars(b).items() if k != "original_id"}, pairs, path)


def lesson_mobjects():
    """What scenes copy: a label with Chinese, a formula, a table of the lesson's numbers with its
    labels, bars with their values, and a group holding one mobject's array twice."""
    from manim import VGroup

    from scenes.common.labels import label, math
    from scenes.common.mobjects import NumberGrid, WeightBars

    lesson = load()
    tokens = lesson.context()
    grid = NumberGrid(lesson.embed(tokens), row_labels=tokens, col_labels=list(lesson.model_dim_names("zh")))
    shared = VGroup(label("银行 bank"))
    shared.twin = shared[0].points  # one array in two places
    bars = WeightBars(np.array([0.1, -0.5, 2.0]), tokens[:3])
    return [label("注意力 0.42"), math("sqrt(d_k)"), grid, bars, shared]


def test_copy_is_manims(monkeypatch, tmp_path):
    from manim import Mobject, tempconfig

    with tempconfig({"media_dir": str(tmp_path)}):
        mobjects = lesson_mobjects()
    manims = Mobject.__deepcopy__
    fast_copies.install()
    assert Mobject.__deepcopy__ is fast_copies.mobject_deepcopy
    for m in mobjects:
        monkeypatch.setattr(Mobject, "__deepcopy__", manims)
        expected = copy.deepcopy(m)
        monkeypatch.setattr(Mobject, "__deepcopy__", fast_copies.mobject_deepcopy)
        actual = m.copy()
        same(expected, actual, {})
        pairs: dict = {}
        same(m, actual, pairs)  # and nothing mutable is the original's
        if hasattr(m, "twin"):
            assert actual.twin is actual[0].points and actual.twin is not m.twin
        before = m.get_center().copy()
        actual.shift([1.0, 2.0, 0.0]).set_color("#ff0000")
        assert np.array_equal(m.get_center(), before)


def keyframes(out: Path, lesson_file: Path, scene_ids) -> dict[str, np.ndarray]:
    lesson = load(lesson_file)
    options = RenderOptions(lesson=str(lesson_file), context=lesson.context_name(), kind=FRAMES, format="png")
    scenes = [s for s in registry.available(lesson) if s.id in scene_ids]
    todo, _ = plan(lesson, scenes, options, out, force=True)
    for job in todo:
        result = worker.render(job, out, quiet=True)
        assert result.ok, result.error
    return {p.name: np.asarray(Image.open(p)) for p in sorted((out / "frames").glob("*.png"))}


@pytest.mark.render
def test_jumped_plays_leave_manims_frames(monkeypatch, tmp_path):
    """FadeIn/FadeOut/Create/Write/GrowArrow jump, the Transforms (ReplacementTransform,
    TransformFromCopy, `.animate`) and LaggedStart go manim's way: the frames are manim's to the pixel."""
    scene_ids = ("scores", "mixing", "edge-cases")
    jumped = keyframes(tmp_path / "jumped", LESSONS / "tiny.toml", scene_ids)
    monkeypatch.setattr(skip_jumps, "can_jump", lambda scene: False)
    played = keyframes(tmp_path / "played", LESSONS / "tiny.toml", scene_ids)
    assert len(played) >= 14 and list(jumped) == list(played)
    for name, frame in played.items():
        assert np.array_equal(jumped[name], frame), name


def test_an_updater_leaves_plays_to_manim(monkeypatch):
    from manim import Square

    worker.install()
    monkeypatch.setattr(skip_jumps, "_updaters", False)

    class Scene:
        updaters: list = []

    assert skip_jumps.can_jump(Scene())
    Square().add_updater(lambda m, dt: m)
    assert not skip_jumps.can_jump(Scene())


def test_a_label_made_by_one_process_is_loaded_by_the_next(monkeypatch, tmp_path):
    """scenes/common/stored.py: a label made once is kept on disk, and so are its glyphs in the colour
    labels are first made in; a process with nothing in memory (the memory emptied here) loads it
    instead of making it, equal to the one made; the same text in another colour is its glyphs
    recoloured, not made again; a broken file is made again."""
    from manim import tempconfig

    from scenes.common import labels, stored, style

    monkeypatch.setattr(stored, "_folder", tmp_path / "mobjects")
    monkeypatch.setattr(labels, "_MADE", stored.Recent(2**20))
    with tempconfig({"media_dir": str(tmp_path / "media")}):
        made = labels.label("银行 0.42")
        kept = sorted((tmp_path / "mobjects").glob("*.pickle"))
        assert len(kept) == 2  # the label, and its glyphs in labels._ANY
        labels._MADE.clear()
        monkeypatch.setattr(labels, "Text", None)  # making it again would fail
        loaded = labels.label("银行 0.42")
        same(made, loaded, {})
        dim = labels.label("银行 0.42", color=style.DIM)  # its glyphs loaded and recoloured
        assert len(list((tmp_path / "mobjects").glob("*.pickle"))) == 3
        glyph_colours = {m.get_fill_color().to_hex() for m in dim.family_members_with_points()}
        assert glyph_colours == {labels.ManimColor(style.DIM).to_hex()} != {made.get_fill_color().to_hex()}
        for k in kept:
            k.write_bytes(b"not a pickle")
        labels._MADE.clear()
        monkeypatch.undo()
        monkeypatch.setattr(stored, "_folder", tmp_path / "mobjects")
        same(made, labels.label("银行 0.42"), {})
