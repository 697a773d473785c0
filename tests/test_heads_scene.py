"""The heads scene (scenes/heads.py) against the core: each step's numbers are attention_core.multihead's
(each head's weights and output for the focus, the concatenated vector, W_O, the final output, every
head's share), every head's name is on screen, the layout checks pass, every step has its line and the
lines say what the numbers say; for the two_heads built-in in zh (its golden frames, dark) and a random
4-head masked lesson in en; 2 and 4 heads over 2 and 8 tokens lay out. MultiHeadPass.shares and
strongest_keys against a plain numpy reference. The scope scene (cost) names a heads lesson's heads and
their d_k, and a masked lesson's mask."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core import load
from attention_core.multihead import attend_heads, strongest_keys
from scenes.common.formats import percent_text
from scenes.registry import BY_ID

from .cue_rules import step_problems
from .goldens import compare_all
from .random_next_lessons import random_next_lesson
from .scene_harness import build

STEPS = ["heads", "weights", "outputs", "concat", "w_o", "alone"]
NUMBER = re.compile(r"^[+\-−]?\d+(\.\d+)?$")


# one worker builds this module's scenes once (its fixtures are module-scoped; xdist's --dist loadgroup)
pytestmark = pytest.mark.xdist_group("heads-scene")

@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    """manim's formula and text caches for this module's builds (never shared between processes)."""
    return tmp_path_factory.mktemp("media-heads")


def make_two_heads_zh(media_dir, tmp_path_factory):
    frames = tmp_path_factory.mktemp("heads-two_heads-zh")
    scene, watch = build(BY_ID["heads"], media_dir, lesson="two_heads", context="river", lang="zh",
                         keyframes=frames)
    return load("two_heads"), "river", scene, watch, frames


def make_random_en(media_dir, tmp_path_factory):
    """4 heads (d_v 3, 2, 4, 3: 12 numbers end to end), 5 model dimensions, a causal mask, 7 tokens."""
    path = tmp_path_factory.mktemp("heads-random") / "random-4-heads.toml"
    path.write_text(random_next_lesson(1, heads=4, mask=True), encoding="utf-8")
    scene, watch = build(BY_ID["heads"], media_dir, lesson=str(path), context="beta", lang="en")
    return load(path), "beta", scene, watch, None


MAKERS = {"two_heads_zh": make_two_heads_zh, "random_en": make_random_en}


@pytest.fixture(scope="module")
def builds(media_dir, tmp_path_factory):
    """Each case built once for the module, when a test first asks for it (a parametrized fixture that
    asked for another by name had it torn down and built again at each switch of parameter)."""
    made = {}

    def get(name):
        if name not in made:
            made[name] = MAKERS[name](media_dir, tmp_path_factory)
        return made[name]

    return get


@pytest.fixture(scope="module")
def two_heads_zh(builds):
    return builds("two_heads_zh")


@pytest.fixture(scope="module", params=list(MAKERS))
def case(request, builds):
    return builds(request.param)


# -- the numbers -----------------------------------------------------------------------------------

def step_numbers(lesson, context) -> dict[str, list[np.ndarray]]:
    """What each step draws, from the core: arrays whose every entry is on screen at that step's end."""
    mh = attend_heads(lesson, context)
    f = mh.tokens.index(lesson.focus)
    return {
        "weights": [p.weights[f] for p in mh.heads],
        "outputs": [p.weights[f] for p in mh.heads] + [p.output[f] for p in mh.heads],
        "concat": [mh.concat[f]] + [p.output[f] for p in mh.heads],
        "w_o": [mh.concat[f], mh.w_o, mh.output[f]],
        "alone": [mh.shares[:, f], mh.output[f]],
    }


def missing(arrays, texts) -> list[float]:
    """The entries (to the 2 decimals shown) that no number on screen reads as."""
    shown = {round(float(t.replace("−", "-")), 6) for t in texts if NUMBER.match(t)}
    return sorted({round(float(x), 2) for a in arrays for x in np.ravel(a)} - shown)


def test_each_step_shows_the_cores_numbers(case):
    lesson, context, scene, watch, _ = case
    assert scene.step_keys == STEPS and list(watch.texts) == STEPS
    for step, arrays in step_numbers(lesson, context).items():
        assert missing(arrays, watch.texts[step]) == [], step


def test_numbers_check_can_fail(two_heads_zh):
    lesson, context, _, watch, _ = two_heads_zh
    mh = attend_heads(lesson, context)
    f = mh.tokens.index(lesson.focus)
    assert missing([mh.output[f]], watch.texts["w_o"]) == []
    assert missing([mh.output[f] + 0.01], watch.texts["w_o"]) != []  # off by one in the last place shown
    assert missing([mh.shares[:, f]], watch.texts["w_o"]) != []  # the shares come in the last step only


def test_layout_names_and_lines(case):
    lesson, context, scene, watch, _ = case
    assert watch.problems == [], "\n".join(watch.problems)
    assert watch.cjk_in_math == []
    lang = scene.lang
    for h in lesson.heads:  # (a text on screen is read without its spaces)
        for step in ("heads", "weights", "outputs", "concat", "w_o"):
            assert any(h.name(lang).replace(" ", "") in t for t in watch.texts[step]), (h.name(lang), step)
    lines = [s.narration for s in scene.steps]
    assert [s.step for s in scene.steps] == STEPS
    subs = scene.renderer.file_writer.subcaptions  # the subtitles say the lines, readably (cue_rules.py)
    cues = [(sub.content, sub.start.total_seconds(), sub.end.total_seconds()) for sub in subs]
    assert step_problems(scene.steps, cues, lang) == []
    assert all(line.strip() and "{" not in line for line in lines)
    mh = attend_heads(lesson, context)
    f = mh.tokens.index(lesson.focus)
    shares = {percent_text(w) for p in mh.heads for w in p.weights[f]}
    for line in lines:  # every percentage is one of the focus's weights in some head
        assert set(re.findall(r"\d+%", line)) <= shares, line
    said = dict(zip(STEPS, lines))
    for h, p in zip(lesson.heads, mh.heads):  # each head's strongest key named in the weights line
        top = mh.tokens[strongest_keys(p.weights[f])[0]]
        assert re.search(rf"{re.escape(h.name(lang))}」?\s?\S* ?“?{re.escape(top)}", said["weights"]), h.key
    assert f"{sum(h.d_v for h in lesson.heads)}" in said["concat"]
    assert f"{lesson.d_model}" in said["w_o"]


def test_two_heads_words(two_heads_zh):
    """The two_heads lesson's lines, in full where they state its numbers."""
    _, _, scene, _, _ = two_heads_zh
    said = {s.step: s.narration for s in scene.steps}
    assert said["weights"] == ("每个头用自己的 Query 和 Key 给 bank 算权重，结果各不相同："
                               "「词义」最看重 river（82%）；「语法」最看重 by 和 the（各 47%）。"
                               "不同的头看向不同的 token。")
    assert said["concat"].endswith("2 + 2 = 4。")
    assert said["w_o"].endswith("bank 的最终输出 [1.74, 0.04, 0.94, 0]。")
    assert said["alone"].endswith("只用「词义」是 [1.68, 0.04, 0, 0]；加上其他头，「功能」维从 0 变成 0.94。")


def test_golden_frames(two_heads_zh, request):
    """The two_heads lesson's river context in zh, dark: tests/golden/heads-<nn>-<step>.png."""
    frames = two_heads_zh[4]
    problems = compare_all("heads", frames, update=request.config.getoption("--update-goldens"))
    assert not problems, "golden frames differ:\n" + "\n".join(map(str, problems))


# -- the extremes lay out ------------------------------------------------------------------------

def extreme_lesson(heads: int, tokens: int, d_model: int, d_v: int, seed: int = 0) -> str:
    """A lesson of `heads` heads (each d_k 2, d_v `d_v`) over one context of `tokens` tokens."""
    rng = np.random.default_rng(seed)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"][:tokens]

    def matrix(rows, cols):
        return "[" + ", ".join("[" + ", ".join(f"{x:.2f}" for x in rng.uniform(-2, 2, cols)) + "]"
                               for _ in range(rows)) + "]"

    lines = [f'focus = "{words[-1]}"', "", "[vocab]"]
    lines += [f"{w} = [" + ", ".join(f"{x:.2f}" for x in rng.uniform(-1.5, 1.5, d_model)) + "]"
              for w in words]
    for h in range(heads):
        lines += ["", f"[heads.h{h + 1}]", f'zh = "第{h + 1}个头"', f'en = "position head {h + 1}"',
                  f"w_q = {matrix(d_model, 2)}", f"w_k = {matrix(d_model, 2)}",
                  f"w_v = {matrix(d_model, d_v)}"]
    lines += ["", "[projections]", f"w_o = {matrix(heads * d_v, d_model)}", "", "[contexts]",
              f"only = {words!r}".replace("'", '"')]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("heads, tokens, d_model, d_v, lang", [(2, 2, 2, 2, "en"), (4, 8, 6, 4, "zh")])
def test_extremes_lay_out(heads, tokens, d_model, d_v, lang, media_dir, tmp_path):
    """2 heads over 2 tokens, 4 heads over 8 (16 numbers end to end, 6 model dimensions)."""
    path = tmp_path / "extreme.toml"
    path.write_text(extreme_lesson(heads, tokens, d_model, d_v), encoding="utf-8")
    lesson = load(path)
    assert len(lesson.heads) == heads and lesson.w_o.shape == (heads * d_v, d_model)
    scene, watch = build(BY_ID["heads"], media_dir, lesson=str(path), lang=lang)
    assert watch.problems == [], "\n".join(watch.problems)
    assert len(scene.steps) == len(STEPS)


# -- the core's pieces -----------------------------------------------------------------------------

def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_shares_sum_to_the_output_and_match_a_reference():
    """Each head's share: its own attention (plain numpy, from the lesson's matrices) through its own
    rows of W_O; the shares add up to the output."""
    lesson = load("two_heads")
    mh = attend_heads(lesson, "savings")
    x = lesson.embed(lesson.contexts["savings"])
    start, outs = 0, []
    for h, r in zip(lesson.heads, mh.rows):
        o = softmax((x @ h.w_q) @ (x @ h.w_k).T / np.sqrt(h.d_k)) @ (x @ h.w_v)  # [n, d_v]
        assert (r.start, r.stop) == (start, start + h.d_v)
        outs.append(o @ lesson.w_o[start:start + h.d_v])
        start += h.d_v
    np.testing.assert_allclose(mh.shares, np.stack(outs), atol=1e-12)
    np.testing.assert_allclose(mh.shares.sum(axis=0), mh.output, atol=1e-12)
    assert mh.shares.shape == (2, 4, lesson.d_model)
    assert mh.shares[1, 3, 0] == pytest.approx(0.5 * mh.concat[3, 3])  # grammar's place: half to geography


def test_strongest_keys_ties():
    assert strongest_keys(np.array([0.1, 0.6, 0.3])) == (1,)
    assert strongest_keys(np.array([0.47, 0.47, 0.03, 0.03])) == (0, 1)
    assert strongest_keys(np.array([0.25, 0.25, 0.25, 0.25])) == (0, 1, 2, 3)
    mh = attend_heads(load("two_heads"), "river")
    assert strongest_keys(mh.head("grammar").weights[3]) == (0, 1)  # by and the
    assert strongest_keys(mh.head("meaning").weights[3]) == (2,)  # river


# -- the scope scene -------------------------------------------------------------------------------

def test_scope_names_the_heads_and_the_mask(media_dir):
    scene, watch = build(BY_ID["cost"], media_dir, lesson="two_heads", lang="zh")
    assert watch.problems == []
    scope = watch.texts["scope"]
    assert "2个头" in scope and "2和2维" in scope and "单头" not in scope  # (texts are read without spaces)
    said = {s.step: s.narration for s in scene.steps}
    assert "2 个头（d_k 分别为 2 和 2）" in said["scope"] and "单头" not in said["scope"]
    assert "掩码：" not in said["scope"]
    # the last step reads the final output (through W_O) in the model's dimensions
    assert "「地理」维最大" in said["named_dims"] and "1.74" in watch.texts["named_dims"]

    scene, watch = build(BY_ID["cost"], media_dir, lesson="causal", lang="en")
    assert watch.problems == []
    assert "nopositions;acausalmask" in watch.texts["scope"] and "one" in watch.texts["scope"]
    said = {s.step: s.narration for s in scene.steps}
    assert "one head" in said["scope"] and "it does use a causal mask" in said["scope"]
