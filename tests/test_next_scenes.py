"""The step-by-step scenes on the next lessons: a one-head scene's heading names the head it expands and
the causal mask (the heads scene's names no head); softmax of a masked row shows the hidden keys' scores
as −∞ with no bar, weight 0, and says so, the first token of a masked lesson giving itself everything."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Text

from attention_core import attend, load
from scenes.common.i18n import catalog
from scenes.common.masked import MINUS_INF
from scenes.registry import BY_ID

from .scene_harness import build


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("media-next-scenes")


def heading(scene) -> list[str]:
    return [t.text for t in scene.header.get_family() if isinstance(t, Text)]


def test_a_masked_row_through_softmax(media_dir):
    les = load("causal")
    att = attend(les, None)
    f = att.index(les.focus)
    hidden = [att.tokens[j] for j in range(att.n) if not att.mask[f, j]]
    assert hidden == ["by", "river"]  # the built-in's story: bank cannot see what comes after it
    scene, watch = build(BY_ID["softmax"], media_dir, lesson="causal", lang="en")
    assert watch.problems == []
    first = watch.texts["scores_in"]
    assert first.count(MINUS_INF) == len(hidden)
    weights = scene.weights  # the bars as the softmax leaves them: the hidden keys' weight 0, no height
    assert [weights.value_labels[j].text for j in range(att.n) if not att.mask[f, j]] == ["0.00", "0.00"]
    assert max(weights.bars[j].height for j in range(att.n) if not att.mask[f, j]) < 0.1
    assert "causalmask" in "".join(heading(scene))
    line = scene.steps[-1].narration
    assert "The mask gives nothing to the keys after “bank”: “by” and “river”." in line
    assert np.allclose(att.weights[f][att.mask[f]].sum(), 1) and (att.weights[f][~att.mask[f]] == 0).all()


def test_the_first_token_sees_itself_alone(media_dir, tmp_path):
    path = tmp_path / "first.toml"
    text = load("causal").source  # the built-in's file, its focus moved to the first token of its context
    path.write_text(open(text, encoding="utf-8").read().replace('focus = "bank"', 'focus = "the"'),
                    encoding="utf-8")
    scene, watch = build(BY_ID["softmax"], media_dir, lesson=str(path), lang="zh")
    assert watch.problems == []
    tr = catalog("zh")
    assert scene.steps[-1].narration == tr("softmax.say.reading_alone", focus="the",
                                           hidden="bank、by 和 river")


def test_a_heads_lesson_names_the_head_of_each_one_head_scene(media_dir):
    les = load("two_heads")
    scene, watch = build(BY_ID["scores"], media_dir, lesson="two_heads", lang="en")
    assert watch.problems == []
    focus = next(h for h in les.heads if h.key == les.focus_head)
    assert f"head:{focus.name('en')}" in "".join(heading(scene))
    heads, _ = build(BY_ID["heads"], media_dir, lesson="two_heads", lang="en")
    assert "head:" not in "".join(heading(heads))
