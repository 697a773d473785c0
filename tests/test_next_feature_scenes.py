"""The scenes of the lessons the lesson points to (learning, positions, tiles): each built once per case,
without drawing (the built-in lesson in zh or en: 4 tokens for learning, 3 for positions, 6 for tiled;
the 2- and 8-token test lessons given the feature, in en), every
check on that build: the layout checks pass at every step, the numbers on screen are the core's (and the
core is checked against torch in test_learning_positions_tiles_core.py), the lines are the catalog's
with the lesson's numbers; each scene only for a lesson that has its feature."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from manim import tempconfig

from attention_core import attend, load
from attention_core.next.positions import study
from attention_core.next.tiling import tile
from attention_core.next.training import train
from scenes.common.formats import number_text, percent_text
from scenes.common.i18n import catalog
from scenes.common.settings import Settings
from scenes.registry import BY_ID, available

from .scene_harness import LESSONS, build

pytestmark = pytest.mark.xdist_group("next-feature-scenes")
NUMBER = re.compile(r"^[+\-−]?\d+(\.\d+)?$")
FEATURES = {  # what each scene needs, written into a test lesson (its tokens: in every context)
    "learning": {"tiny": '[training]\nquery = "cat"\ntarget = "the"\n',
                 "wide": '[training]\ntarget = "the"\nlearning_rate = 0.3\n'},
    "positions": {"tiny": '[positions]\nkind = "sinusoidal"\n',
                  "wide": '[positions]\nkind = "rope"\nbase = 100\n'},
    "tiles": {"tiny": "[tiling]\nblock = 1\n", "wide": "[tiling]\nblock = 3\n"},
}
BUILT_IN = {"learning": ("learning", "zh"), "positions": ("positions", "en"), "tiles": ("tiled", "zh")}
SIZES = {"tiny": ("short", 2, "en"), "wide": ("walk", 8, "en")}
_BUILT: dict = {}


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp(f"media-next-{os.getpid()}")


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    """(scene, size) -> a test lesson's path with the scene's feature added."""
    folder, paths = tmp_path_factory.mktemp("next-feature-lessons"), {}
    for scene_id, tables in FEATURES.items():
        for size, table in tables.items():
            text = (LESSONS / f"{size}.toml").read_text(encoding="utf-8")
            path = folder / f"{scene_id}-{size}.toml"
            path.write_text(text + "\n" + table, encoding="utf-8")
            paths[scene_id, size] = str(path)
    return paths


@pytest.fixture(scope="module")
def built(media_dir, lessons):
    """(scene, case) -> (lesson, context, lang, scene, watch), each built once when first asked."""
    def get(scene_id: str, case: str):
        if (scene_id, case) not in _BUILT:
            if case == "built-in":
                name, lang = BUILT_IN[scene_id]
                context = None
            else:
                name = lessons[scene_id, case]
                context, _, lang = SIZES[case]
            scene, watch = build(BY_ID[scene_id], media_dir, lesson=name, context=context, lang=lang)
            _BUILT[scene_id, case] = load(name), context, lang, scene, watch
        return _BUILT[scene_id, case]

    yield get
    _BUILT.clear()


def shown(texts) -> set[float]:
    return {round(float(t.replace("−", "-")), 6) for t in texts if NUMBER.match(t)}


def missing(arrays, texts) -> list[str]:
    """The entries of `arrays` (to the 2 decimals shown) no number on screen reads as."""
    on_screen = shown(texts)
    return [number_text(x) for x in sorted({round(float(x), 2) for a in arrays for x in np.ravel(a)})
            if round(x, 6) not in on_screen]


def formulas_drawn(watch, steps: dict[str, set[str]]) -> None:
    """No text on screen at any step with a literal underscore or caret (W_Q, d_k, e^(m − m′) written
    out instead of subscripted or raised), and each of `steps` drawing these as formulas (W_Q: W with a
    subscript Q)."""
    assert [t for texts in watch.texts.values() for t in texts if "_" in t or "^" in t] == []
    for step, names in steps.items():
        drawn = " ".join(watch.formulas[step])
        assert [n for n in names if n not in drawn] == [], (step, watch.formulas[step])


def said_turn(scene) -> str:
    return lines(scene)["turn"]


def lines(scene) -> dict[str, str]:
    return {s.step: s.narration for s in scene.steps}


CASES = ["built-in", "tiny", "wide"]  # learning's built-in has 4 tokens, positions' 3, tiled's 6


@pytest.mark.parametrize("case", CASES)
def test_learning_scene(case, built):
    lesson, context, lang, scene, watch = built("learning", case)
    assert watch.problems == [], "\n".join(watch.problems)
    run = train(lesson, context)
    assert scene.step_keys == ["loss", "gradient", "descent", "turn", "after", "hard"]
    first, last = run.steps[0], run.steps[-1]
    assert missing([first.weights], watch.texts["loss"]) == []
    assert missing([first.grad_w_q, first.grad_w_k], watch.texts["gradient"]) == []
    picked = [run.steps[i] for i in scene.shown]
    assert scene.shown[0] == 0 and scene.shown[-1] == len(run.steps) - 1 and len(scene.shown) <= 9
    assert missing([[s.loss for s in picked], [s.weights[run.target] for s in picked]],
                   watch.texts["descent"]) == []
    assert missing([first.weights, last.weights], watch.texts["after"]) == []
    assert missing([[first.angle, last.angle]], watch.texts["turn"]) == []  # degrees between q and k
    assert number_text(first.angle, 2) in said_turn(scene) and number_text(last.angle, 2) in said_turn(scene)
    assert missing([run.hard.soft_slopes], watch.texts["hard"]) == []
    assert watch.texts["hard"].count("0.00") >= len(run.hard.slopes) and not run.hard.slopes.any()
    formulas_drawn(watch, {"gradient": {"W_Q", "W_K", "W_V"}, "after": {"W_Q", "W_K"}})
    said, tr = lines(scene), catalog(lang)
    assert number_text(first.loss) in said["loss"]
    assert percent_text(last.weights[run.target]) in said["descent"]
    assert "W_Q" in said["gradient"] and "$" not in said["gradient"]  # the narration spells it as the others'
    variant = "_picks_target" if run.hard.choice == run.target else ""
    assert said["hard"] == tr(f"learning.say.hard{variant}", **scene.fields())
    if case == "built-in":  # the story: 18% -> 91%, the loss 1.69 -> 0.09, argmax takes "by"
        assert "18%" in said["descent"] and "91%" in said["descent"] and "1.69" in said["descent"]
        assert "by" in said["hard"] and "0.09" in said["descent"]
        assert "78.69" in said["turn"] and "0.27" in said["turn"]  # onto river's key, as the table says


@pytest.mark.parametrize("case", CASES)
def test_positions_scene(case, built):
    lesson, context, lang, scene, watch = built("positions", case)
    assert watch.problems == [], "\n".join(watch.problems)
    s = study(lesson, context)
    rope = lesson.positions.kind == "rope"
    assert scene.step_keys == ["plain", "codes", "placed", "focus_row", "shift"]
    assert missing([s.plain.output, s.plain_shuffled.output], watch.texts["plain"]) == []
    assert missing([s.placed.output, s.placed_shuffled.output], watch.texts["placed"]) == []
    np.testing.assert_allclose(s.plain_shuffled.output, s.plain.output[list(s.order)], atol=1e-12)
    f = s.plain.index(lesson.focus)
    assert missing([s.plain.weights[f], s.placed.weights[f]], watch.texts["focus_row"]) == []
    if rope:
        assert missing([s.placed.scores], watch.texts["shift"]) == [] and s.shift_gap < 1e-9
    assert missing([s.placed.scores, s.shifted.scores], watch.texts["shift"]) == []
    tr = catalog(lang)
    assert lines(scene)["codes"] == tr(f"positions.say.codes_{lesson.positions.kind}", **scene.fields())
    formulas_drawn(watch, {"codes": {'"base"^(-2i slash d_k)'} if rope else {"sin(", "cos("}})
    if case == "built-in":  # man bites dog: bites takes in dog (50%) without positions, man (93%) with
        said = lines(scene)["focus_row"]
        assert said.index("“dog”") < said.index("“man”") and "50%" in said and "93%" in said


@pytest.mark.parametrize("case", CASES)
def test_tiles_scene(case, built):
    lesson, context, lang, scene, watch = built("tiles", case)
    assert watch.problems == [], "\n".join(watch.problems)
    att = attend(lesson, context)
    t, f = tile(att, lesson.tiling.block), att.index(lesson.focus)
    assert missing([att.scaled[f]], watch.texts["blocks"]) == []
    assert missing([t.m[:, f], t.alpha[:, f], t.l[:, f], t.o[:, f]], watch.texts["running"]) == []
    assert missing([t.output, att.output], watch.texts["equal"]) == []
    formulas_drawn(watch, {"running": {"e^(m - m')", "sum_(j in B) e^(s_j - m')", "max_(j in B) s_j"}})
    tiled, full = t.memory
    memory = " ".join(watch.texts["memory"])  # a Text's .text has no spaces
    assert f"={full}" in memory and f"={tiled}" in memory, memory
    said = lines(scene)
    if case == "built-in":  # river, last, lifts m from 0.69 to 2.3: the old l and o times 0.2
        assert "0.69" in said["rescale"] and "2.3" in said["rescale"] and "0.2" in said["rescale"]
        assert full == 36 and tiled == 12
    if case == "tiny":  # a block of 1 key: 2 blocks
        assert len(t.spans) == 2


def test_the_scenes_are_only_for_lessons_with_the_feature():
    ids = lambda name: [s.id for s in available(load(name))]  # noqa: E731
    assert not {"learning", "positions", "tiles"} & set(ids(None) + ids("causal") + ids("two_heads"))
    assert "learning" in ids("learning") and "positions" not in ids("learning")
    assert "positions" in ids("positions") and "tiles" in ids("tiled") and "learning" not in ids("tiled")


def test_edge_cases_of_a_lesson_with_positions_do_not_say_it_has_none(tmp_path):
    """The edge-cases scene computes without positions; for a lesson that has them it says so, not "no
    position mechanism" (set up only, nothing built)."""
    opts = {"dry_run": True, "write_to_movie": False, "media_dir": str(tmp_path), "verbosity": "ERROR"}
    with tempconfig(opts):
        scene = BY_ID["edge-cases"].load()(settings=Settings("positions", None, "scaled", "en"))
        scene.setup()
    tr = catalog("en")
    assert scene.variants() == ["placed"] and scene.same
    assert scene.narration("permutation") == tr("edge_cases.say.permutation_placed", **scene.fields())
    assert "no position mechanism" not in scene.narration("permutation") + scene.narration("no_positions")



class SqrtStep:
    """The mistakes scene with its √dₖ step alone (what the harness builds: `load()` gives the class)."""

    id = "mistakes"

    @staticmethod
    def load():
        base = BY_ID["mistakes"].load()
        return type("MistakesSqrt", (base,), {"construct": lambda self: (self.show_heading(), self.sqrt())})


@pytest.mark.parametrize("lesson", ["tiny.toml", "positions"])
def test_mistakes_sqrt_step_keeps_its_numbers_large_in_english(lesson, media_dir):
    """The √dₖ step's long English verdicts over two small tables (two tokens; the positions lesson's
    three) drew the tables' numbers at 26.9 px: it takes wider lines or its blocks side by side instead,
    every check passing (no case of test_scenes builds these lessons in English)."""
    path = str(LESSONS / lesson) if lesson.endswith(".toml") else lesson
    scene, watch = build(SqrtStep, media_dir, lesson=path, lang="en")
    assert scene.step_keys == ["sqrt"] and watch.problems == [], "\n".join(watch.problems)
    les = load(path)
    f = attend(les, None).index(les.focus)
    rows = [attend(les, None, mode).weights[f] for mode in ("scaled", "unscaled")]
    assert missing(rows, watch.texts["sqrt"]) == []  # the tables show the core's weights


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_cost_scope_of_a_trained_or_placed_lesson_says_so(lang, tmp_path):
    """The cost scene's scope table and line: the learning lesson's W_Q and W_K are trained, the
    positions lesson has RoPE; neither says "no training" or "no positions" (set up only, nothing built)."""
    opts = {"dry_run": True, "write_to_movie": False, "media_dir": str(tmp_path), "verbosity": "ERROR"}
    tr, said = catalog(lang), {}
    for name in ("learning", "positions", None):
        with tempconfig(opts):
            scene = BY_ID["cost"].load()(settings=Settings(name, None, "scaled", lang))
            scene.setup()
        keys = {k[0]: k[1] for k in scene.scope_keys()}
        said[name] = scene.narration("scope"), keys["projections"], keys["positions"], scene.fields()
    line, projections, positions, fields = said["learning"]
    assert line == tr("cost.say.scope_trained", **fields)
    assert (projections, positions) == ("projections_here_trained", "positions_here")
    line, projections, positions, fields = said["positions"]
    assert line == tr("cost.say.scope_placed", **fields) and tr("positions.kind_rope") in line
    assert (projections, positions) == ("projections_here", "positions_here_placed")
    assert said[None][0] == tr("cost.say.scope", **said[None][3])
    assert said[None][1:3] == ("projections_here", "positions_here")
