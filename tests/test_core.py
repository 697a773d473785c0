"""The core against the lesson text's numbers, an independent loop, torch, and properties."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import (
    attend,
    attend_tokens,
    dot_product_attention,
    hard_lookup,
    magnified_softmax,
    softmax,
    strongest_other,
    total_variation,
    weight_as_score_moves,
    wrong_axis_weights,
)

# -- the lesson text's numbers -------------------------------------------------------------------

def test_river_bank_reproduces_the_lesson_text(lesson):
    att = attend(lesson, "river")
    b = att.index("bank")
    assert att.tokens == ("by", "the", "river", "bank")
    assert att.d_k == 4 and att.sqrt_d_k == 2
    np.testing.assert_allclose(att.q[b], [2.3, 2.3, 0, 0], atol=1e-12)
    np.testing.assert_allclose(att.scores[b], [0.92, 0, 4.6, 1.38], atol=1e-12)
    np.testing.assert_allclose(att.scaled[b], [0.46, 0, 2.3, 0.69], atol=1e-12)
    assert list(np.round(att.weights[b], 2)) == [0.11, 0.07, 0.69, 0.14]
    assert list(np.round(att.output[b], 2) + 0.0) == [1.43, 0.06, 0.14, 0.0]
    # "about 69% to river, 14% to itself, the rest to the function words"
    assert round(att.weights[b, 2] * 100) == 69 and round(att.weights[b, 3] * 100) == 14


def test_geography_strengthened_in_river_finance_in_savings(lesson):
    geo, fin = 0, 1
    assert lesson.dim_names("en")[geo] == "geography" and lesson.dim_names("zh")[geo] == "地理"
    river, savings = attend(lesson, "river"), attend(lesson, "savings")
    b_r, b_s = river.index("bank"), savings.index("bank")
    # the same bank embedding in both contexts
    np.testing.assert_array_equal(river.x[b_r], savings.x[b_s])
    np.testing.assert_array_equal(river.q[b_r], savings.q[b_s])
    assert river.output[b_r, geo] > river.output[b_r, fin]
    assert savings.output[b_s, fin] > savings.output[b_s, geo]
    assert savings.output[b_s, fin] > river.output[b_r, fin] + 1


def test_displayed_weights_need_not_sum_to_one(lesson):
    w = attend(lesson, "river").weights[3]
    assert math.isclose(w.sum(), 1.0, abs_tol=1e-12)
    assert not math.isclose(np.round(w, 2).sum(), 1.0)  # 0.11+0.07+0.69+0.14 = 1.01


@pytest.mark.parametrize("context", ["river", "savings"])
def test_modes_on_the_lesson(lesson, context):
    s, u, f = (attend(lesson, context, m) for m in ("scaled", "unscaled", "uniform"))
    b = s.index("bank")
    np.testing.assert_allclose(u.scaled, s.scores)
    np.testing.assert_allclose(s.scaled, s.scores / 2)
    # unscaled is sharper: more weight on the best key, lower entropy
    assert u.weights[b].max() > s.weights[b].max()
    ent = lambda w: -(w * np.log(w)).sum()  # noqa: E731
    assert ent(u.weights[b]) < ent(s.weights[b])
    np.testing.assert_allclose(f.weights, np.full((4, 4), 0.25))
    np.testing.assert_allclose(f.output, np.tile(s.v.mean(axis=0), (4, 1)))


def test_unscaled_river_numbers(lesson):
    u = attend(lesson, "river", "unscaled")
    e = np.exp([0.92, 0, 4.6, 1.38])
    np.testing.assert_allclose(u.weights[3], e / e.sum())


def test_asymmetry_bank_river(lesson):
    att = attend(lesson, "river")
    b, r = att.index("bank"), att.index("river")
    assert att.weights[b, r] > 0.6 and att.weights[r, b] < 0.25


def test_hard_lookup_picks_the_best_key(lesson):
    att = attend(lesson, "river")
    hard = hard_lookup(att)
    b, r = att.index("bank"), att.index("river")
    assert hard.choice[b] == r
    np.testing.assert_array_equal(hard.output[b], att.v[r])
    np.testing.assert_array_equal(hard.weights.sum(axis=1), np.ones(4))
    assert set(np.unique(hard.weights)) == {0.0, 1.0}


# -- an independent reference ------------------------------------------------------------------

def loop_reference(x, w_q, w_k, w_v, scale):
    """Attention written the slow way, one query at a time with plain Python sums."""
    n = len(x)
    proj = lambda row, w: [sum(row[i] * w[i][j] for i in range(len(row))) for j in range(len(w[0]))]  # noqa: E731
    q = [proj(r, w_q) for r in x]
    k = [proj(r, w_k) for r in x]
    v = [proj(r, w_v) for r in x]
    out, weights = [], []
    for i in range(n):
        s = [scale * sum(a * b for a, b in zip(q[i], k[j])) for j in range(n)]
        m = max(s)
        e = [math.exp(t - m) for t in s]
        z = sum(e)
        w = [t / z for t in e]
        weights.append(w)
        out.append([sum(w[j] * v[j][c] for j in range(n)) for c in range(len(v[0]))])
    return np.array(weights), np.array(out)


@pytest.mark.parametrize("context", ["river", "savings"])
@pytest.mark.parametrize("mode", ["scaled", "unscaled", "uniform"])
def test_matches_loop_reference(lesson, context, mode):
    att = attend(lesson, context, mode)
    scale = {"scaled": 0.5, "unscaled": 1.0, "uniform": 0.0}[mode]
    w, out = loop_reference(att.x.tolist(), lesson.w_q.tolist(), lesson.w_k.tolist(),
                            lesson.w_v.tolist(), scale)
    np.testing.assert_allclose(att.weights, w, atol=1e-12)
    np.testing.assert_allclose(att.output, out, atol=1e-12)


@pytest.mark.parametrize("context", ["river", "savings"])
def test_matches_torch_sdpa(lesson, context):
    torch = pytest.importorskip("torch")
    att = attend(lesson, context)
    t = lambda a: torch.tensor(a, dtype=torch.float64)  # noqa: E731
    out = torch.nn.functional.scaled_dot_product_attention(t(att.q), t(att.k), t(att.v))
    np.testing.assert_allclose(out.numpy(), att.output, atol=1e-12)


# -- properties ----------------------------------------------------------------------------------

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw):
    n, d_k, d_v = draw(st.integers(2, 8)), draw(st.integers(2, 8)), draw(st.integers(2, 8))
    q = draw(arrays(float, (n, d_k), elements=finite))
    k = draw(arrays(float, (n, d_k), elements=finite))
    v = draw(arrays(float, (n, d_v), elements=finite))
    return q, k, v


@settings(max_examples=150, deadline=None)
@given(qkv(), st.sampled_from([0.5, 1.0, 0.0]))
def test_rows_sum_to_one(data, scale):
    q, k, v = data
    _, _, w, _ = dot_product_attention(q, k, v, scale)
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)


@settings(max_examples=150, deadline=None)
@given(qkv(), st.data())
def test_permutation_equivariance(data, draw):
    q, k, v = data
    p = np.array(draw.draw(st.permutations(range(len(q)))))
    _, _, w, out = dot_product_attention(q, k, v, 0.5)
    _, _, w_p, out_p = dot_product_attention(q[p], k[p], v[p], 0.5)
    np.testing.assert_allclose(w_p, w[p][:, p], atol=1e-9)
    np.testing.assert_allclose(out_p, out[p], atol=1e-9)


@settings(max_examples=150, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 8), st.integers(2, 8)), elements=finite),
       st.floats(-1e3, 1e3))
def test_softmax_shift_invariant(scores, c):
    np.testing.assert_allclose(softmax(scores + c), softmax(scores), atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(qkv())
def test_uniform_output_is_mean_of_v(data):
    q, k, v = data
    _, _, w, out = dot_product_attention(q, k, v, 0.0)
    np.testing.assert_allclose(w, 1 / len(q))
    np.testing.assert_allclose(out, np.tile(v.mean(axis=0), (len(q), 1)), atol=1e-9)


def test_softmax_is_stable_for_huge_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = softmax(np.array([[1e6, -1e6, 0.0], [-1e6, -1e6, -1e6], [1e6, 1e6, -1e6]]))
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3], [0.5, 0.5, 0]])


# -- any token list, and the quantities of the contrasts and mistakes ---------------------------------

def test_attend_tokens_of_a_context_is_attend(lesson):
    a, b = (attend(lesson, "savings", "unscaled"),
            attend_tokens(lesson, lesson.contexts["savings"], "unscaled"))
    for name in ("x", "q", "k", "v", "scores", "scaled", "weights", "output"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_reversed_sentence_gives_reversed_outputs(lesson):
    """The lesson's permutation claim on its own numbers: bank reads the same in either order."""
    att = attend(lesson, "river")
    rev = attend_tokens(lesson, att.tokens[::-1])
    assert rev.tokens == ("bank", "river", "the", "by")
    np.testing.assert_allclose(rev.output, att.output[::-1], atol=1e-12)
    np.testing.assert_allclose(rev.weights, att.weights[::-1, ::-1], atol=1e-12)
    np.testing.assert_allclose(rev.output[0], [1.43, 0.06, 0.14, 0], atol=0.005)


def test_strongest_other(lesson):
    w = attend(lesson, "river").weights[3]  # bank: 0.11, 0.07, 0.69, 0.14
    assert strongest_other(w, 3) == 2  # river, itself aside
    assert strongest_other(w, 2) == 3  # the runner-up to river is bank itself (0.14)
    assert strongest_other(np.array([1.0, 5.0, 5.0]), 0) == 1  # ties go to the first


def test_wrong_axis_sums_columns_not_rows(lesson):
    att = attend(lesson, "river")
    wrong = wrong_axis_weights(att.scaled)
    np.testing.assert_allclose(wrong.sum(axis=0), 1.0)
    assert not np.allclose(wrong.sum(axis=1), 1.0)
    np.testing.assert_allclose(wrong, softmax(att.scaled.T).T)
    e = np.exp(att.scaled[:, 2])  # the river column, by hand
    np.testing.assert_allclose(wrong[:, 2], e / e.sum())


def test_total_variation():
    assert total_variation([1, 0, 0], [0, 1, 0]) == 1.0
    assert total_variation([0.5, 0.5], [0.5, 0.5]) == 0.0
    assert math.isclose(total_variation([0.7, 0.2, 0.1], [0.5, 0.3, 0.2]), 0.2)


def test_dropping_sqrt_dk_moves_a_lot_of_weight(lesson):
    s, u = (attend(lesson, "river", m).weights[3] for m in ("scaled", "unscaled"))
    tv = total_variation(s, u)
    assert 0.2 < tv < 0.3  # river 0.69 -> 0.94: about a quarter of the weight moves
    assert math.isclose(tv, u[2] - s[2], rel_tol=1e-9)  # all of it onto river


def test_magnified_softmax_saturates_at_the_first_factor_that_does(lesson):
    scores = attend(lesson, "river").scores[3]  # 0.92, 0, 4.6, 1.38, d_k = 4
    factor, w = magnified_softmax(scores, 4, (1, 2, 4, 8), 0.99)
    assert factor == 4  # ×2: river 0.96; ×4: 0.998
    np.testing.assert_allclose(w, softmax(scores * 4 / 2))
    assert w.max() >= 0.99 and softmax(scores * 2 / 2).max() < 0.99
    factor, w = magnified_softmax(scores, 4, (1, 2), 0.999999)  # never: the last factor's weights
    assert factor == 2 and w.max() < 0.999999


def test_weight_curve_follows_attend(lesson):
    att = attend(lesson, "river")
    s = att.scores[3]
    xs = np.linspace(-2, 8, 11)
    curve = weight_as_score_moves(s, 2, xs, att.scale)
    assert np.all(np.diff(curve) > 0) and 0 < curve[0] < curve[-1] < 1  # smooth, rising, never a jump
    at_now = weight_as_score_moves(s, 2, np.array([s[2]]), att.scale)[0]
    assert math.isclose(at_now, att.weights[3, 2])  # at today's score: today's weight
