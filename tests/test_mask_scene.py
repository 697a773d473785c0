"""The mask scene, and the matrix and edge-cases scenes telling the truth about a masked lesson:
each built once per case (the causal built-in in zh, context ahead; a random masked lesson in en; a 2- and
an 8-token masked lesson for the mask scene's layout), every check on that build: the numbers drawn are
the core's (and the core's an independent numpy reference's), a masked cell shows −∞ before the softmax
and 0 after, every row sums to one, the layout checks pass, every step has its line; golden frames of the
causal lesson's mask scene in zh (dark)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from attention_core import attend, attend_tokens, load
from attention_core.diagnostics import mask_contrast
from scenes.common.i18n import catalog
from scenes.common.masked import MINUS_INF
from scenes.common.mobjects import number_text, percent_text
from scenes.registry import BY_ID, available

from .goldens import compare_all
from .random_next_lessons import random_next_lesson
from .scene_harness import LESSONS, build

NUMBER = re.compile(r"^[+\-−]?\d+(\.\d+)?$")
RANDOM_SEED = 3  # a random masked lesson of 7 tokens whose focus is second: most of its row is masked


# one worker builds this module's scenes once (its fixtures are module-scoped; xdist's --dist loadgroup)
pytestmark = pytest.mark.xdist_group("mask-scene")

@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp(f"media-mask-{os.getpid()}")


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    """name -> path: the causal built-in, a random masked lesson, the 2- and 8-token test lessons masked."""
    folder = tmp_path_factory.mktemp("masked-lessons")
    paths = {"causal": "causal"}
    (folder / "random.toml").write_text(random_next_lesson(RANDOM_SEED), encoding="utf-8")
    paths["random"] = str(folder / "random.toml")
    for name in ("tiny", "wide"):  # a top-level key before the first table
        text = (LESSONS / f"{name}.toml").read_text(encoding="utf-8")
        (folder / f"{name}.toml").write_text('mask = "causal"\n' + text, encoding="utf-8")
        paths[name] = str(folder / f"{name}.toml")
    return paths


CASES = {"causal": ("causal", "ahead", "zh"), "random": ("random", None, "en")}
_BUILT: dict = {}


@pytest.fixture(scope="module")
def built(lessons, media_dir, tmp_path_factory):
    """(scene id, case) -> (scene, watch, keyframes folder or None), each built once, when first asked."""

    def get(scene_id: str, case: str):
        if (scene_id, case) not in _BUILT:
            name, context, lang = CASES[case]
            frames = tmp_path_factory.mktemp(f"{scene_id}-{case}") if (scene_id, case) == ("mask", "causal") \
                else None
            scene, watch = build(BY_ID[scene_id], media_dir, lesson=lessons[name], context=context, lang=lang,
                                 keyframes=frames)
            _BUILT[scene_id, case] = scene, watch, frames
        return _BUILT[scene_id, case]

    yield get
    _BUILT.clear()


def numbers_on(texts) -> set[float]:
    return {round(float(t.replace("−", "-")), 6) for t in texts if NUMBER.match(t)}


def missing(arrays, texts) -> list[str]:
    """The entries of `arrays` (to the 2 decimals shown) that no number on screen reads as."""
    shown = numbers_on(texts)
    expected = {round(float(x), 2) for a in arrays for x in np.ravel(a)}
    return [number_text(x) for x in sorted(expected) if round(x, 6) not in shown]


def grid_texts(grid) -> np.ndarray:
    return np.array([[t.text for t in row] for row in grid.numbers])


def reference(lesson, tokens, mode="scaled"):
    """Masked attention by hand (numpy only): the weights and the outputs of a token list."""
    x = np.array([lesson.vocab[t] for t in tokens])
    q, k, v = x @ lesson.w_q, x @ lesson.w_k, x @ lesson.w_v
    logits = q @ k.T / np.sqrt(q.shape[1])
    n = len(tokens)
    logits[np.triu_indices(n, 1)] = -np.inf  # key j after query i
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w, w @ v


# -- the core ---------------------------------------------------------------------------------------

def test_mask_contrast_is_the_row_with_and_without_the_mask():
    les = load("causal")
    c = mask_contrast(les, "ahead", "scaled", 1)  # bank, before river
    w, _ = reference(les, les.contexts["ahead"])
    assert np.allclose(c.masked, w[1]) and c.masked[2:].tolist() == [0.0, 0.0]
    assert c.allowed.tolist() == [True, True, False, False]
    assert les.contexts["ahead"][c.free_top] == "river" and round(c.free[c.free_top], 2) == 0.69
    assert c.hidden and not c.unchanged and c.top == 1 and round(c.masked[1], 2) == 0.67
    behind = mask_contrast(les, "behind", "scaled", 3)  # bank, last: nothing hidden
    assert behind.unchanged and not behind.hidden and np.allclose(behind.free, behind.masked)
    kept = mask_contrast(les, "behind", "scaled", 2)  # river, third: its favourite is itself
    assert not kept.hidden and kept.free_top == kept.top == 2 and not kept.unchanged


# -- the mask scene -----------------------------------------------------------------------------------

@pytest.mark.parametrize("case", list(CASES))
def test_mask_scene(case, built, lessons, request):
    scene, watch, frames = built("mask", case)
    name, context, lang = CASES[case]
    les = load(lessons[name])
    att, free = attend(les, context), attend(les, context, masked=False)
    assert watch.problems == [], "\n".join(watch.problems)
    assert watch.cjk_in_math == []
    assert 3 <= len(scene.step_keys) <= 6 and list(watch.texts) == scene.step_keys
    assert all(s.narration.strip() for s in scene.steps)
    n, hidden = att.n, int((~att.mask).sum())
    assert hidden == n * (n - 1) // 2
    # the inputs, unmasked; then −∞ exactly where the key comes after its query, the rest unchanged
    assert missing([free.scaled], watch.texts["scores"]) == []
    assert MINUS_INF not in watch.texts["scores"]
    masked = grid_texts(scene.masked)
    assert (masked == MINUS_INF).tolist() == (~att.mask).tolist()
    assert watch.texts["strike"].count(MINUS_INF) == hidden
    assert np.allclose([float(t) for t in masked[att.mask]], np.round(free.scaled[att.mask], 2))
    assert not [t for t in watch.all_texts() if NUMBER.match(t) and abs(float(t.replace("−", "-"))) > 1e3]
    # the softmax: masked weights exactly 0 on screen and in the core, every row summing to one
    w, _ = reference(les, att.tokens)
    assert np.allclose(att.weights, w) and np.all(att.weights[~att.mask] == 0)
    assert np.allclose(att.weights.sum(axis=1), 1)
    shown = grid_texts(scene.weights).astype(float)
    assert np.all(shown[~att.mask] == 0) and np.allclose(shown, np.round(att.weights, 2))
    assert [t.text for row in scene.sums.numbers for t in row] == ["1"] * n
    assert len(scene.weights.strikes) == hidden
    assert missing([att.weights], watch.texts["softmax"]) == []
    assert att.weights[0, 0] == 1 and "1.00" in watch.texts["first_row"]
    # the focus's row, unmasked and masked
    c = mask_contrast(les, context, "scaled", att.index(les.focus))
    assert missing([c.free, c.masked], watch.texts["focus_row"]) == []
    variant = "last" if c.unchanged else "uniform" if np.allclose(c.free, c.free[0]) else \
        "hidden" if c.hidden else "kept"
    tr = catalog(lang)
    line = next(s.narration for s in scene.steps if s.step == "focus_row")
    assert line == tr(f"mask.say.focus_row_{variant}", **scene.fields())
    for pct in re.findall(r"\d+%", line):  # every share named is one of the two rows' weights
        assert pct in {percent_text(x) for x in (*c.free, *c.masked)}, line
    if case == "causal":
        assert variant == "hidden" and "river" in line and "69%" in line and "67%" in line
        problems = compare_all("mask", frames, update=request.config.getoption("--update-goldens"))
        assert not problems, "golden frames differ:\n" + "\n".join(map(str, problems))


@pytest.mark.parametrize("name,lang,tokens", [("tiny", "zh", 2), ("wide", "en", 8)])
def test_mask_scene_lays_out_2_and_8_tokens(name, lang, tokens, lessons, media_dir):
    les = load(lessons[name])
    context = next(c for c, t in les.contexts.items() if len(t) == tokens)
    scene, watch = build(BY_ID["mask"], media_dir, lesson=lessons[name], context=context, lang=lang)
    assert watch.problems == [], "\n".join(watch.problems)
    assert watch.texts["strike"].count(MINUS_INF) == tokens * (tokens - 1) // 2


def test_the_mask_scene_is_only_for_masked_lessons():
    assert "mask" not in [s.id for s in available(load(None))]
    assert "mask" in [s.id for s in available(load("causal"))]


# -- the matrix and the edge cases, masked -------------------------------------------------------------

@pytest.mark.parametrize("case", list(CASES))
def test_matrix_shows_masked_cells(case, built, lessons):
    scene, watch, _ = built("matrix", case)
    name, context, lang = CASES[case]
    les = load(lessons[name])
    att = attend(les, context)
    f = att.index(les.focus)
    assert watch.problems == [], "\n".join(watch.problems)
    raw = grid_texts(scene.raw)[0]  # the focus's raw row (replaced by its weights in the next step)
    assert [t == MINUS_INF for t in raw] == (~att.mask[f]).tolist()
    assert watch.texts["raw_scores"].count(MINUS_INF) == int((~att.mask[f]).sum())
    assert missing([att.scores[f][att.mask[f]]], watch.texts["raw_scores"]) == []
    shown = grid_texts(scene.grid).astype(float)
    assert np.all(shown[~att.mask] == 0) and np.allclose(shown, np.round(att.weights, 2))
    assert missing([att.weights], watch.texts["parallel"]) == []
    assert len(scene.grid.strikes) == int((~att.mask).sum())
    assert all(line.text in watch.texts["parallel"] for line in scene.mask_note)  # the one line, wrapped
    lines = {s.step: s.narration for s in scene.steps}
    best = att.tokens[int(np.argmax(np.where(att.mask[f], att.scores[f], -np.inf)))]
    assert best in lines["raw_scores"] and catalog(lang)("matrix.say.parallel_masked", n=att.n) == \
        lines["parallel"]


@pytest.mark.parametrize("case", list(CASES))
def test_edge_cases_do_not_claim_equivariance_with_a_mask(case, built, lessons):
    scene, watch, _ = built("edge-cases", case)
    name, context, lang = CASES[case]
    les = load(lessons[name])
    att = attend(les, context)
    tr = catalog(lang)
    assert watch.problems == [], "\n".join(watch.problems)
    rev = att.tokens[::-1]
    _, out_rev = reference(les, rev)
    assert np.allclose(attend_tokens(les, rev).output, out_rev)
    assert not np.allclose(out_rev, att.output[::-1])  # the mask is a sense of order
    assert missing([att.output, out_rev], watch.texts["permutation"]) == []
    shown = [t.replace(" ", "") for t in watch.all_texts()]  # a Text's .text has no spaces
    assert tr("edge_cases.not_equivariant").replace(" ", "") in watch.texts["permutation"]
    assert tr("edge_cases.equivariant").replace(" ", "") not in shown
    assert tr("edge_cases.no_position").replace(" ", "") not in shown
    lines = {s.step: s.narration for s in scene.steps}
    assert lines["permutation"] == tr("edge_cases.say.permutation_masked", **scene.fields())
    key = next(k for v in scene.variants() if (k := f"edge_cases.say.no_positions_{v}") in tr)
    assert lines["no_positions"] == tr(key, **scene.fields())
    if case == "causal":  # bank's output changes: it sees other tokens reversed
        assert key.endswith("_masked") and number_text(out_rev[2][0]) in lines["no_positions"]
    shown = grid_texts(scene.heat).astype(float)
    assert np.all(shown[~att.mask] == 0) and len(scene.heat.strikes) == int((~att.mask).sum())


@pytest.mark.parametrize("case", list(CASES))
def test_the_overview_draws_and_says_only_what_the_mask_allows(case, built, lessons):
    """The first picture of a masked lesson: a line into the focus's new vector from each token up to it
    and none from the tokens after it (the mask gives them exactly 0); the note and the narration say
    the tokens up to it, never the whole sentence."""
    scene, watch, _ = built("overview", case)
    name, context, lang = CASES[case]
    att = attend(load(lessons[name]), context)
    f = att.tokens.index(load(lessons[name]).focus)
    assert watch.problems == [], "\n".join(watch.problems)
    assert f < att.n - 1 or case == "random"  # causal "ahead": tokens after the focus
    row, lines, new, note = scene.idea_row
    assert len(lines) == int(att.mask[f].sum()) == f + 1
    xs = [row.chip(j).get_bottom()[0] for j in range(att.n)]
    nearest = sorted(min(range(att.n), key=lambda j: abs(xs[j] - a.get_start()[0])) for a in lines)
    assert nearest == list(range(f + 1))  # one line under each token up to the focus, none after
    tr = catalog(lang)
    assert tr("overview.depends_masked").replace(" ", "") in watch.texts["idea"]
    said = {s.step: s.narration for s in scene.steps}["idea"]
    assert said == tr("overview.say.idea_masked", **scene.fields()) and said != tr("overview.say.idea",
                                                                                   **scene.fields())
