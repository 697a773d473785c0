"""The geometry scene (scenes/geometry.py) against the core: the arrows end where attention_core.geometry
puts them, each shadow is as long as its score says (to the display's rounding), the weighted values
laid tip to tail end on the output; its words for the default lesson and for one of a single context;
its golden frames for river and savings in zh and en (the river-zh ones, dark and light, are
test_scenes.py's)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import load
from attention_core.geometry import picture
from scenes.registry import BY_ID

from .goldens import compare_all
from .scene_harness import LESSONS, build

ROUNDING = 0.005  # the display's: two decimals


# one worker builds this module's scenes once (its fixtures are module-scoped; xdist's --dist loadgroup)
pytestmark = pytest.mark.xdist_group("geometry-scene")

@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    """manim's formula and text caches for this module's builds (never shared between processes)."""
    return tmp_path_factory.mktemp("media-geometry")


def plane_xy(plane, point) -> np.ndarray:
    """A point on screen as the plane's coordinates (lesson units)."""
    return (np.asarray(point)[:2] - plane.at((0, 0))[:2]) / plane.unit


@pytest.fixture(scope="module")
def river_en(media_dir, tmp_path_factory):
    frames = tmp_path_factory.mktemp("geometry-river-en")
    scene, watch = build(BY_ID["geometry"], media_dir, context="river", lang="en", keyframes=frames)
    return scene, watch, frames


def test_the_arrows_and_shadows_are_the_cores(river_en):
    scene, watch, _ = river_en
    assert watch.problems == []
    p, plane = picture(load(), "river"), scene.qk_plane
    np.testing.assert_allclose(plane_xy(plane, scene.query.get_end()), p.query, atol=1e-6)
    for arrow, key in zip(scene.keys, p.keys):
        np.testing.assert_allclose(plane_xy(plane, arrow.get_end() if hasattr(arrow, "tip") else
                                            arrow.get_center()), key, atol=1e-6)
    for sh, shown in zip(scene.shadows, p.shown):
        foot = plane_xy(plane, sh[2].get_center())  # the foot, on the query's line
        assert abs(foot @ p.query) == pytest.approx(abs(shown), abs=ROUNDING)  # |shadow| × |q| = score
    for band, scaled in zip(scene.scaled_bands, scene.att.scaled[scene.focus]):
        length = np.linalg.norm(plane_xy(plane, band.get_end()) - plane_xy(plane, band.get_start()))
        assert length * p.query_length == pytest.approx(abs(scaled), abs=ROUNDING)


def test_the_weighted_values_tip_to_tail_end_on_the_output(river_en):
    scene, _, _ = river_en
    p, plane = picture(load(), "river"), scene.v_plane
    drawn = [a for a in scene.chain if hasattr(a, "tip")]
    assert len(drawn) == 3  # the's value has no length on this plane: a dot
    np.testing.assert_allclose(plane_xy(plane, scene.chain[0].get_start()), [0, 0], atol=1e-6)
    for a, b in zip(drawn, drawn[1:]):  # each starts where the one before it ends
        np.testing.assert_allclose(a.get_end(), b.get_start(), atol=1e-6)
    np.testing.assert_allclose(plane_xy(plane, drawn[-1].get_end()), p.output, atol=1e-6)
    np.testing.assert_allclose(plane_xy(plane, scene.output.get_end()), p.output, atol=1e-6)
    assert scene.context_names[0][0][1].text == "river" and scene.context_names[1][0][1].text == "savings"


def test_the_contexts_pull_the_focus_their_ways(river_en):
    scene, _, _ = river_en
    said = {s.step: s.narration for s in scene.steps}
    assert said["contexts"] == ("Now in the same axes, one arrow for each sentence (“river” and “savings”): "
                                "“bank”'s output is pulled toward geography and finance respectively: 1.43 "
                                "and 1.49.")
    assert said["shadows"].endswith("the query's length 3.25. “river” casts the longest shadow, a dot "
                                    "product of 4.6.")
    assert said["sharpen"].startswith("Without √dₖ the scores are larger") and "69%" in said["sharpen"]


def test_one_context_has_nothing_to_compare(media_dir):
    scene, watch = build(BY_ID["geometry"], media_dir, lesson=str(LESSONS / "tiny.toml"), lang="en")
    assert watch.problems == []
    assert scene.steps[-1].narration.startswith("This lesson has one context")
    assert len(scene.context_arrows) == 0 and len(scene.context_names) == 1


@pytest.mark.parametrize("context, lang", [("river", "en"), ("savings", "zh"), ("savings", "en")])
def test_golden_frames(context, lang, river_en, media_dir, tmp_path, request):
    """The other three of river and savings in zh and en, dark: tests/golden/geometry-<context>-<lang>-*."""
    if (context, lang) == ("river", "en"):
        frames = river_en[2]
    else:
        frames = tmp_path
        build(BY_ID["geometry"], media_dir, context=context, lang=lang, keyframes=frames)
    name = f"geometry-{context}-{lang}"
    renamed = tmp_path / name
    renamed.mkdir()
    for f in frames.glob("geometry-[0-9]*.png"):
        (renamed / f.name.replace("geometry-", f"{name}-", 1)).write_bytes(f.read_bytes())
    problems = compare_all(name, renamed, update=request.config.getoption("--update-goldens"))
    assert not problems, "golden frames differ:\n" + "\n".join(map(str, problems))
