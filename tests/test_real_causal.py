"""The real scene on a causal model (SmolLM2-135M, the built-in lesson real_causal): the [real] table read
without the model; the study's weights (rows sum to 1, exactly 0 above the diagonal), its next token
(" Paris" for "The capital of France is"); the explorer's data; the scene run dry (en, zh, ja), every
step's layout checked, each line it says chosen by the numbers and quoting them. The model is loaded
once for the module."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attention_core import LessonError, load, loads
from attention_core.real import model_missing
from attention_core.real.study import study
from scenes.registry import BY_ID
from tests.scene_harness import build

pytestmark = pytest.mark.xdist_group("real-causal")  # SmolLM2 loaded once, in one worker

LESSON = Path(__file__).parents[1] / "attention_core" / "lessons" / "real_causal.toml"
TEXT = LESSON.read_text(encoding="utf-8")


def test_the_table_is_read_without_the_model():
    r = load("real_causal").real
    assert (r.sentence, r.focus, r.expect, r.model) == ("The capital of France is", "is", "France", "smollm2")


@pytest.fixture(scope="module")
def causal():
    if why := model_missing("smollm2"):
        pytest.skip(f"SmolLM2 is not installed ({why})")
    return study(load("real_causal").real, "real_causal.toml")


def test_the_study_keeps_causal_softmax_rows_and_the_next_token(causal):
    w, n = causal.att.weights, len(causal.att.tokens)
    assert w.shape == (30, 9, n, n) and causal.att.tokens == ("The", " capital", " of", " France", " is")
    assert np.allclose(w.sum(axis=-1), 1.0, atol=1e-5) and (w >= 0).all()
    assert (w[..., np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] == 0).all() and causal.above == 0.0
    assert causal.top[0][0] == " Paris" and round(causal.top[0][1], 2) == 0.77 and len(causal.top) == 5
    assert all(a[1] >= b[1] for a, b in zip(causal.top, causal.top[1:]))
    assert causal.focus == 4 and causal.sinks == (0,) and causal.total == 270
    assert causal.counts[0] == ("France", 102) and causal.expect_top
    assert round(100 * causal.share) == 74 and round(100 * causal.even) == 32 and causal.rope_gap < 1e-5


def test_a_focus_on_the_first_token_is_refused_when_it_runs(causal):
    text = TEXT.replace('focus = "is"', 'focus = "The"').replace('expect = "France"', "")
    real = loads(text, "x.toml").real
    with pytest.raises(LessonError) as e:
        study(real, "x.toml")
    assert "real.focus: expected a part of the sentence after its first token" in e.value.message("en")


KEYS = ["real.say.tokens_causal", "real.say.mask", "real.say.heads_causal", "real.say.sinks_causal",
        "real.say.rope", "real.say.next"]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_the_scene_says_what_the_numbers_show(lang, causal, tmp_path):
    scene, watch = build(BY_ID["real"], tmp_path / "media", lesson="real_causal", lang=lang)
    assert watch.problems == []
    assert [s.key for s in scene.steps] == KEYS
    said = {step.step: step.narration for step in scene.steps}
    assert "102" in said["heads"] and "270" in said["heads"] and "France" in said["heads"]
    share, even = (f"{round(100 * x)}%" for x in (causal.share, causal.even))
    assert share in said["sinks"] and even in said["sinks"]
    assert "Paris" in said["next"] and "77%" in said["next"] and "London" in said["next"]
    assert str(len(causal.att.tokens)) in said["tokens"]


def test_the_explorer_gets_the_causal_weights(causal):
    from attention_lesson.outputs.explorer_real import real_data

    data = real_data(load("real_causal"))["real"]
    assert (data["layers"], data["heads"], data["focus"], data["expect"]) == (30, 9, 4, "France")
    assert data["words"] == ["The", "capital", "of", "France", "is"] and data["counts"][0] == ["France", 102]
