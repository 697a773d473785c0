"""The next lessons' core: a causal mask and several heads (attention_core/attention.py, multihead.py),
against PyTorch's scaled_dot_product_attention(is_causal=True) and torch.nn.MultiheadAttention loaded
with the same weights (no biases), to 1e-12, on random arrays including scores of ±1e8; the mask's
own promises (exact zeros, rows that sum to 1, -inf before the softmax); the heads' lesson keys."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import LessonError, load, loads
from attention_core.attention import attend, causal_mask, dot_product_attention, hard_lookup
from attention_core.multihead import attend_heads, multi_head_attention

torch = pytest.importorskip("torch")
small = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
huge = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)  # q·k up to ±1e8 and more


def t(a):
    return torch.tensor(a, dtype=torch.float64)


def close(ours, theirs, scale=1.0, slack=0.0):
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=(1e-12 + slack) * max(1.0, scale))


@st.composite
def qkv(draw, elements):
    n, d_k, d_v = draw(st.integers(2, 8)), draw(st.integers(2, 8)), draw(st.integers(2, 8))
    return tuple(draw(arrays(float, shape, elements=elements)) for shape in ((n, d_k), (n, d_k), (n, d_v)))


@settings(max_examples=120, deadline=None)
@given(st.one_of(qkv(small), qkv(huge)))
def test_causal_attention_is_torchs(data):
    q, k, v = data
    r = dot_product_attention(q, k, v, 1 / np.sqrt(q.shape[1]), causal_mask(len(q)))
    theirs = torch.nn.functional.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True).numpy()
    # torch scales q before the product, we the product: their logits differ by rounding, eps·|logit|,
    # which moves a weight by as much (relatively) when keys tie at ±1e6; below |logit| 1e3, under 1e-12
    logit = np.abs(r.scores).max() / np.sqrt(q.shape[1])
    np.testing.assert_allclose(r.output, theirs, rtol=1e-12,
                               atol=(1e-12 + 8 * np.finfo(float).eps * logit) * max(1.0, np.abs(v).max()))
    assert np.all(r.weights[np.triu_indices(len(q), 1)] == 0.0)  # exactly 0, not small
    assert np.all(np.isneginf(r.scaled[np.triu_indices(len(q), 1)]))  # -inf, not a large negative
    np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, atol=1e-12)
    assert r.weights[0, 0] == 1.0  # the first query has only itself


@st.composite
def heads_case(draw, elements):
    """x [n, d_model], h heads of d_model / h each (what torch's MultiheadAttention takes), W_O."""
    h = draw(st.sampled_from([1, 2, 4]))
    d_model = h * draw(st.integers(1, 2)) * (2 if h == 1 else 1)
    n = draw(st.integers(2, 8))
    m = lambda shape: draw(arrays(float, shape, elements=elements))  # noqa: E731
    heads = [tuple(m((d_model, d_model // h)) for _ in range(3)) for _ in range(h)]
    return m((n, d_model)), heads, m((d_model, d_model))


def torch_mha(x, heads, w_o, causal: bool):
    d_model, h = x.shape[1], len(heads)
    mha = torch.nn.MultiheadAttention(d_model, h, bias=False, batch_first=True, dtype=torch.float64)
    full = [np.concatenate([hd[i] for hd in heads], axis=1) for i in range(3)]  # [d_model, d_model] each
    with torch.no_grad():
        mha.in_proj_weight.copy_(t(np.concatenate([w.T for w in full], axis=0)))
        mha.out_proj.weight.copy_(t(w_o.T))
    mask = torch.ones(len(x), len(x), dtype=torch.bool).triu(1) if causal else None
    out, weights = mha(t(x)[None], t(x)[None], t(x)[None], attn_mask=mask, average_attn_weights=False)
    return out[0].detach().numpy(), weights[0].detach().numpy()


@settings(max_examples=80, deadline=None)
@given(st.one_of(heads_case(small), heads_case(st.floats(-100, 100))), st.booleans())
def test_multi_head_attention_is_torchs(case, causal):
    x, heads, w_o = case
    mask = causal_mask(len(x)) if causal else None
    parts, concat, out = multi_head_attention(x, heads, w_o, "scaled", mask)
    theirs, weights = torch_mha(x, heads, w_o, causal)
    # torch scales q before the product (as in the one-head test): the logits differ by eps·|logit|, and
    # so the weights, relatively, and the output by that times the values through W_O (a case of x and
    # weights up to ±100 had logits near 1e4: outputs of 285 apart by 2.2e-9, 7.8e-12 relatively)
    logit = max(np.abs(p.scores).max() for p in parts) / np.sqrt(x.shape[1] // len(heads))
    slack = 8 * np.finfo(float).eps * logit
    close(out, theirs, np.abs(concat).max() * np.abs(w_o).sum(axis=0).max(), slack)
    for p, w in zip(parts, weights):
        np.testing.assert_allclose(p.weights, w, atol=1e-12 + slack)


TWO_HEADS = """
focus = "it"
mask = "causal"
focus_head = "grammar"
[dimensions]
en = ["a", "b", "c", "d"]
[vocab]
cat = [1.0, 0.0, 0.0, 0.0]
sat = [0.0, 1.0, 0.0, 0.0]
it = [0.0, 0.0, 1.0, 0.5]
[heads.meaning]
zh = "词义"
en = "meaning"
w_q = [[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [0.0, 0.0]]
w_k = [[2.0, 0.0], [0.0, 2.0], [0.0, 0.0], [0.0, 1.0]]
w_v = [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.5, 0.5]]
[heads.grammar]
w_q = [[0.0, 1.0], [1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]
w_k = [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]
w_v = [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
[projections]
w_o = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
[contexts]
one = ["cat", "sat", "it"]
two = ["it", "sat", "cat"]
"""


def test_a_lesson_of_two_masked_heads_is_torchs():
    lesson = loads(TWO_HEADS)
    assert [h.key for h in lesson.heads] == ["meaning", "grammar"] and lesson.mask == "causal"
    assert lesson.heads[0].name("zh") == "词义" and lesson.heads[1].name("zh") == "grammar"
    np.testing.assert_array_equal(lesson.w_q, lesson.heads[1].w_q)  # the scenes expand the focus head
    for context in lesson.contexts:
        mh = attend_heads(lesson, context)
        x = lesson.embed(lesson.context(context))
        theirs, weights = torch_mha(x, [(h.w_q, h.w_k, h.w_v) for h in lesson.heads], lesson.w_o, True)
        close(mh.output, theirs)
        close(mh.head("grammar").weights, weights[1])
        assert np.all(attend(lesson, context).weights == mh.head("grammar").weights)
    two = attend(lesson, "two")
    assert two.weights[0].tolist() == [1.0, 0.0, 0.0]  # "it" first: it can only look at itself
    unmasked = attend(lesson, "two", masked=False)
    assert unmasked.weights[0, 1] > 0 and unmasked.mask is None
    assert hard_lookup(two).choice[0] == 0  # the hard lookup obeys the mask too


@pytest.mark.parametrize("change, key, expected", [
    (('mask = "causal"', 'mask = "future"'), "mask", "one of none, causal"),
    (('focus_head = "grammar"', 'focus_head = "syntax"'), "focus_head", "one of meaning, grammar"),
    (("[projections]", "[projections]\nw_q = [[1.0, 0.0]]"), "projections.w_q", "only w_o"),
    (("w_o = [[1.0, 0.0, 0.0, 0.0], ", "w_o = ["), "projections.w_o", "4 rows (the heads' d_v, added up)"),
    (("w_k = [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]",
      "w_k = [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]"),
     "heads.grammar.w_k", "2 columns (d_k, as w_q)"),
    (("[heads.grammar]", "[heads.grammar]\nname = 1"), "heads.grammar.name", "one of zh, en, ja, w_q"),
])
def test_a_wrong_heads_file_is_named(change, key, expected):
    text = TWO_HEADS.replace(*change)
    assert text != TWO_HEADS
    with pytest.raises(LessonError) as e:
        loads(text, "heads.toml")
    message = e.value.message("en")
    assert key in message and expected in message, message


def test_the_built_in_causal_lessons_story():
    """river after bank: masked, bank's weight on it is exactly 0; unmasked, river is bank's largest
    weight. river before bank: the mask changes nothing for bank."""
    lesson = load("causal")
    ahead, behind = lesson.contexts
    masked, unmasked = attend(lesson, ahead), attend(lesson, ahead, masked=False)
    i, r = masked.index("bank"), masked.index("river")
    assert r > i and masked.weights[i, r] == 0.0 and np.argmax(unmasked.weights[i]) == r
    assert np.argmax(masked.weights[i]) == i  # it takes in mostly itself: the commoner, financial sense
    assert masked.output[i, 1] > masked.output[i, 0] and unmasked.output[i, 0] > unmasked.output[i, 1]
    b = attend(lesson, behind)
    unmasked_behind = attend(lesson, behind, masked=False).weights[-1]
    np.testing.assert_array_equal(b.weights[b.index("bank")], unmasked_behind)
    assert np.argmax(b.weights[b.index("bank")]) == b.index("river")


def test_the_built_in_two_head_lessons_story():
    """meaning: bank finds river or savings; grammar: the function words, alike in both sentences;
    the heads' outputs differ and W_O mixes grammar's place into geography. torch agrees."""
    lesson = load("two_heads")
    assert [h.name("en") for h in lesson.heads] == ["meaning", "grammar"] and lesson.mask is None
    outs = {}
    for context, content in (("river", "river"), ("savings", "savings")):
        mh = attend_heads(lesson, context)
        i = mh.tokens.index("bank")
        meaning, grammar = mh.head("meaning").weights[i], mh.head("grammar").weights[i]
        assert mh.tokens[int(np.argmax(meaning))] == content
        assert {mh.tokens[j] for j in np.argsort(grammar)[-2:]} == {mh.tokens[0], "the"}
        assert not np.allclose(mh.head("meaning").output[i], mh.head("grammar").output[i])
        outs[context] = mh.output[i]
        x = lesson.embed(mh.tokens)
        close(mh.output, torch_mha(x, [(h.w_q, h.w_k, h.w_v) for h in lesson.heads], lesson.w_o, False)[0])
    assert outs["river"][0] > outs["river"][1] and outs["savings"][1] > outs["savings"][0]
    assert outs["river"][0] > attend_heads(lesson, "river").concat[3, 0]  # + half of grammar's place
