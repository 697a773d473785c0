"""A lesson of 8 tokens and 8 dimensions (tests/lessons/deep.toml, the widest tables a lesson may have):
the scenes re-laid out for it (issue 30) pass the layout check at every step, their main tables' numbers
30 px tall at 1080p, by the arrangements made for it (place_best's fallbacks): projection's sum with its
note beside it, normalizers' values as columns with the outputs beside them, mistakes' scores as a row.
One build per scene in en (and normalizers in zh, its longest labels), each checked once."""

from __future__ import annotations

import pytest

from attention_core import MODES, attend, load
from scenes.common import style as S
from scenes.common.layout import fill
from scenes.common.mobjects import NumberGrid
from scenes.registry import BY_ID

from .scene_harness import LESSONS, Watch, build
from .test_scenes import missing_numbers

DEEP = str(LESSONS / "deep.toml")
SCENES = ("projection", "scores", "lookup", "normalizers", "mistakes")
CASES = [(s, "en") for s in SCENES] + [("normalizers", "zh")]
# the steps whose numbers fell short of 30 px at 8 dimensions before they were re-laid out
RELAID = {"projection": ["query_product"], "scores": ["one_dot_product"], "lookup": ["hard_pick", "soft_mix"],
          "normalizers": ["outputs"], "mistakes": ["qkv"]}


def grids_on_screen(scene) -> list[NumberGrid]:
    out = []

    def walk(m):
        if isinstance(m, NumberGrid):
            out.append(m)
        else:
            for sub in m.submobjects:
                walk(sub)

    for m in scene.mobjects:
        walk(m)
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """(scene, watch, {step: (layout.fill, [main grids' values])}) per case, one build each."""
    media = tmp_path_factory.mktemp("deep-media")
    seen = {}
    call = Watch.__call__

    def watching(self, scene, step):
        call(self, scene, step)
        seen[(scene.scene_id, scene.settings.lang)][step] = (
            fill(scene), [g.values.copy() for g in grids_on_screen(scene) if g.main])

    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Watch, "__call__", watching)
        for scene_id, lang in CASES:
            seen[(scene_id, lang)] = {}
            scene, watch = build(BY_ID[scene_id], media, lesson=DEEP, lang=lang)
            out[(scene_id, lang)] = (scene, watch, seen[(scene_id, lang)])
    return out


@pytest.mark.parametrize("scene_id,lang", CASES, ids=[f"{s}-{lang}" for s, lang in CASES])
def test_deep_lesson_fills_the_screen(builds, scene_id, lang):
    scene, watch, steps = builds[(scene_id, lang)]
    assert watch.problems == [], "\n".join(watch.problems)
    assert list(steps) == scene.step_keys
    for step in RELAID[scene_id]:  # a table is read there, at full size
        figures, _ = steps[step]
        assert figures.table_cap is not None and figures.table_cap >= S.TABLE_CAP_PX - 0.05, (step, figures)
        assert max(figures.width, figures.height) >= S.FILL_SHARE
    if lang == "en":
        assert missing_numbers(scene_id, load(DEEP), None, watch.all_texts()) == []


def test_the_fallback_arrangements_are_taken(builds):
    """Where the usual arrangement falls short at 8 dimensions, the fallback's tables are on screen: the
    outputs of the three normalizers as columns (one row per dimension) beside the values as columns,
    the focus's scores as one row."""
    att = attend(load(DEEP), None)
    d, n = att.v.shape[1], att.n
    for lang in ("en", "zh"):
        _, grids = builds[("normalizers", lang)][2]["outputs"]
        shapes = sorted(g.shape for g in grids)
        assert (d, n) in shapes and (d, len(MODES)) in shapes, shapes
        v_t = next(g for g in grids if g.shape == (d, n))
        assert (abs(v_t - att.v.T) < 1e-12).all()
    scene, _, steps = builds[("mistakes", "en")]
    grids = steps["qkv"][1]
    rows = [g for g in grids if g.shape == (1, n) and (abs(g[0] - att.scores[scene.focus]) < 1e-12).all()]
    assert len(rows) == 1 and not any(g.shape == (n, 1) for g in grids), [g.shape for g in grids]
