"""The lessons the lesson points to, their core (attention_core/next/: training.py, positions.py, tiling.py):
every gradient-descent step against torch autograd and torch.optim.SGD to 1e-9; RoPE against a torch
reference written as complex multiplication; the sinusoidal table against its formula written out;
permutation equivariance without positions and its breaking with them; RoPE's scores unchanged when every
position shifts; the online softmax equal to the full one to 1e-12 for every block size; on the built-in
lessons and on seeded random ones. And the three tables' keys: bad values named FILE:LINE."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import LessonError, attend, attend_tokens, load, loads, numbers_json
from attention_core.attention import causal_mask, softmax
from attention_core.lesson import resolve
from attention_core.next.positions import attend_positioned, rope_angles, rotate, sinusoidal, study
from attention_core.next.tables import Positions, Training
from attention_core.next.tiling import online_softmax, tile
from attention_core.next.training import train

from .random_lessons import random_lesson
from .random_next_lessons import random_next_lesson

torch = pytest.importorskip("torch")
SEEDS = range(12)


def t(a):
    return torch.tensor(np.asarray(a), dtype=torch.float64)


def random_lessons():
    """Seeded random lessons: one head unmasked, one head masked, the focus head of several."""
    for seed in SEEDS:
        yield loads(random_lesson(seed), f"r{seed}.toml")
        yield loads(random_next_lesson(seed, heads=0, mask=True), f"m{seed}.toml")
        yield loads(random_next_lesson(seed, heads=2 + seed % 3, mask=bool(seed % 2)), f"h{seed}.toml")


def with_training(lesson, seed: int):
    """The lesson with a [training] of a random query and a key it may see, in its first context."""
    rng = np.random.default_rng(seed)
    tokens = lesson.context()
    q = int(rng.integers(0, len(tokens)))
    hi = tokens.index(tokens[q]) + 1 if lesson.mask else len(tokens)  # train takes a token's first place
    target = tokens[int(rng.integers(0, hi))]
    return replace(lesson, training=Training(tokens[q], target, float(rng.uniform(0.05, 1.5)), 6))


def torch_descent(lesson):
    """The same run by torch: autograd for the gradients, torch.optim.SGD for the steps."""
    plan, tokens = lesson.training, lesson.context()
    x, (w_q, w_k, _) = t(lesson.embed(tokens)), lesson.projections()
    i, j = tokens.index(plan.query), tokens.index(plan.target)
    seen = t(causal_mask(len(tokens))[i] if lesson.mask else np.ones(len(tokens))).bool()
    wq, wk = torch.nn.Parameter(t(w_q)), torch.nn.Parameter(t(w_k))
    opt = torch.optim.SGD([wq, wk], lr=plan.learning_rate)
    out = []
    for _ in range(plan.steps + 1):
        opt.zero_grad()
        s = ((x[i] @ wq) @ (x @ wk).T / math.sqrt(w_q.shape[1])).masked_fill(~seen, float("-inf"))
        loss = -torch.log_softmax(s, 0)[j]
        loss.backward()
        out.append((loss.item(), wq.detach().clone().numpy(), wk.detach().clone().numpy(),
                    wq.grad.clone().numpy(), wk.grad.clone().numpy(), torch.softmax(s, 0).detach().numpy()))
        opt.step()
    return out


def test_every_training_step_is_torchs():
    lessons = [load("learning")] + [with_training(les, n) for n, les in enumerate(random_lessons())]
    for lesson in lessons:
        run = train(lesson)
        theirs = torch_descent(lesson)
        assert len(run.steps) == len(theirs) == lesson.training.steps + 1
        for ours, (loss, wq, wk, gq, gk, weights) in zip(run.steps, theirs):
            for a, b in ((ours.loss, loss), (ours.w_q, wq), (ours.w_k, wk), (ours.grad_w_q, gq),
                         (ours.grad_w_k, gk), (ours.weights, weights)):
                np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9, err_msg=lesson.source)


def test_the_hard_lookups_gradient_is_exactly_zero_and_the_softmaxs_is_torchs():
    for lesson in [load("learning")] + [with_training(les, n) for n, les in enumerate(random_lessons())]:
        run = train(lesson)
        first = run.steps[0]
        top = np.sort(np.log(first.weights[first.weights > 0]))
        if len(top) < 2 or top[-1] - top[-2] > 1e-3:  # at a tie the step jumps: no slope there at all
            assert np.all(run.hard.slopes == 0.0)  # flat: a small move of any score changes nothing
        assert run.hard.target_weight == float(run.hard.choice == run.target)
        s = t(np.where(first.weights > 0, np.log(np.maximum(first.weights, 1e-300)), -np.inf))
        jac = torch.autograd.functional.jacobian(lambda z: torch.softmax(z, 0)[run.target], s).numpy()
        np.testing.assert_allclose(run.hard.soft_slopes, jac, atol=1e-12)


def test_the_built_in_learning_lessons_story():
    """river's weight grows every step (0.18 -> 0.91) while the loss falls; the hard lookup picks by."""
    lesson = load("learning")
    run = train(lesson)
    w = [s.weights[run.target] for s in run.steps]
    loss = [s.loss for s in run.steps]
    assert all(b > a for a, b in zip(w, w[1:])) and all(b < a for a, b in zip(loss, loss[1:]))
    assert round(w[0], 2) == 0.18 and round(w[-1], 2) == 0.91 and round(loss[0], 2) == 1.69
    assert run.tokens[run.hard.choice] == "by" and run.hard.target_weight == 0.0
    q, k = run.steps[0].q, run.steps[0].k[run.target]  # the angle, written out: 79 degrees, then about 0
    cos = q @ k / np.linalg.norm(q) / np.linalg.norm(k)
    assert run.steps[0].angle == pytest.approx(np.degrees(np.arccos(cos)))
    assert round(run.steps[0].angle) == 79 and run.steps[-1].angle < 1
    np.testing.assert_allclose(loss, -np.log(w), rtol=1e-12)
    np.testing.assert_array_equal(run.steps[-1].w_q[:3], lesson.w_q[:3])  # only bank's row of W_Q moves
    assert np.all(run.steps[-1].grad_w_q[2] == 0.0)  # "function" is not in bank's embedding


def torch_rope(m: np.ndarray, base: float, start: int = 0) -> np.ndarray:
    """RoPE as the reference implementations write it: pairs as complex numbers times e^{i p θ_i}."""
    n, d = m.shape
    freqs = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    angles = torch.outer(torch.arange(start, start + n, dtype=torch.float64), freqs)
    z = torch.view_as_complex(t(m).reshape(n, d // 2, 2).contiguous())
    return torch.view_as_real(z * torch.polar(torch.ones_like(angles), angles)).reshape(n, d).numpy()


def test_rope_is_torchs_complex_multiplication():
    rng = np.random.default_rng(3)
    for n, d, base, start in ((2, 2, 10000.0, 0), (8, 8, 10000.0, 0), (5, 6, 100.0, 7), (8, 4, 2.5, 3)):
        m = rng.uniform(-3, 3, (n, d))
        np.testing.assert_allclose(rotate(m, rope_angles(n, d, base, start)), torch_rope(m, base, start),
                                   rtol=1e-12, atol=1e-12)


def test_sinusoidal_is_its_formula_written_out():
    for n, d, base in ((8, 4, 10000.0), (3, 5, 10000.0), (6, 2, 50.0), (8, 7, 3.0)):
        expected = [[math.sin(p / base ** (j / d)) if j % 2 == 0 else math.cos(p / base ** ((j - 1) / d))
                     for j in range(d)] for p in range(n)]
        np.testing.assert_allclose(sinusoidal(n, d, base), expected, rtol=1e-12, atol=1e-15)


def positioned(lesson, kind: str, base: float = 10000.0):
    return replace(lesson, positions=Positions(kind, base), mask=None)


def test_without_positions_a_shuffle_shuffles_the_output_and_with_them_it_does_not():
    rng, broken, total = np.random.default_rng(5), 0, 0
    for lesson in random_lessons():
        lesson = replace(lesson, mask=None)
        tokens = lesson.context()
        order = rng.permutation(len(tokens))
        shuffled = [tokens[i] for i in order]
        plain = attend_tokens(lesson, tokens)
        np.testing.assert_allclose(attend_tokens(lesson, shuffled).output, plain.output[order], atol=1e-12)
        for kind in ("sinusoidal", "rope") if lesson.d_k % 2 == 0 else ("sinusoidal",):
            placed = positioned(lesson, kind)
            gap = np.abs(attend_positioned(placed, shuffled).output
                         - attend_positioned(placed, tokens).output[order]).max()
            total, broken = total + 1, broken + (gap > 1e-6 or list(shuffled) == list(tokens))
    assert broken >= 0.9 * total, (broken, total)  # a shuffle of equal tokens changes nothing anyway


def test_rope_scores_depend_only_on_the_distance():
    rng = np.random.default_rng(11)
    for lesson in random_lessons():
        if lesson.d_k % 2:
            continue
        placed = positioned(lesson, "rope", float(rng.uniform(2, 20000)))
        tokens = lesson.context()
        here = attend_positioned(placed, tokens)
        shift = int(rng.integers(1, 200))
        there = attend_positioned(placed, tokens, start=shift)
        big = max(1, np.abs(here.scores).max())
        np.testing.assert_allclose(there.scores, here.scores, rtol=1e-9, atol=1e-9 * big)
        assert not np.allclose(here.scores, attend_tokens(placed, tokens).scores) or len(tokens) < 2


def test_the_built_in_positions_lessons_story():
    """Without positions, reversing the sentence reverses the output rows and bites's output is the same
    in both sentences (dog 50%, man 43%); with RoPE bites takes in the noun before it (95%, 93%);
    shifting every position changes no score."""
    lesson = load("positions")
    for context, subject, share in (("dog_first", "dog", 0.95), ("man_first", "man", 0.93)):
        s = study(lesson, context)
        assert s.plain_gap < 1e-12 and s.placed_gap > 0.5 and s.shift_gap < 1e-12
        b = s.plain.index("bites")
        assert round(s.plain.weights[b, s.plain.index("dog")], 2) == 0.50
        assert s.placed.tokens[int(np.argmax(s.placed.weights[b]))] == subject
        assert round(s.placed.weights[b].max(), 2) == share
    one, two = (attend(lesson, c).output[1] for c in lesson.contexts)
    np.testing.assert_allclose(one, two, atol=1e-15)  # bites cannot tell who bit whom


@pytest.mark.parametrize("masked", [False, True])
def test_tiles_equal_the_full_softmax_for_every_block(masked):
    for lesson in random_lessons():
        att = attend(lesson, masked=masked)
        for block in range(1, att.n + 2):
            tl = tile(att, block)
            scale = max(1.0, np.abs(att.v).max())
            np.testing.assert_allclose(tl.output, att.output, rtol=1e-12, atol=1e-12 * scale)
            np.testing.assert_allclose(tl.m[-1], att.scaled.max(axis=1), rtol=0, atol=0)
            total = np.exp(att.scaled - tl.m[-1][:, None]).sum(axis=1)
            np.testing.assert_allclose(tl.l[-1], total, rtol=1e-12)
            assert len(tl.spans) == -(-att.n // block)
            assert tl.memory == (att.n * min(block, att.n), att.n ** 2)


@settings(max_examples=60, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 8), st.integers(1, 8)), elements=st.floats(-300, 300)),
       st.integers(1, 9), st.booleans())
def test_tiles_equal_the_full_softmax_on_any_scores(scaled, block, masked):
    n_q, n_k = scaled.shape
    if masked and n_q == n_k:
        scaled = np.where(causal_mask(n_q), scaled, -np.inf)
    v = np.arange(n_k * 3, dtype=float).reshape(n_k, 3) - 4
    np.testing.assert_allclose(online_softmax(scaled, v, block).output, softmax(scaled) @ v,
                               rtol=1e-12, atol=1e-12 * 30)


def test_the_built_in_tiled_lessons_story():
    lesson = load("tiled")
    att = attend(lesson)
    tl, i = tile(att, lesson.tiling.block), att.index("bank")
    assert [round(m, 2) for m in tl.m[:, i]] == [0.0, 0.69, 2.3]
    assert round(tl.alpha[-1, i], 2) == 0.20 and tl.memory == (12, 36)
    assert np.abs(tl.output - att.output).max() < 1e-12


def test_numbers_json_carries_every_feature():
    learning, positions, tiled = (numbers_json(load(n)) for n in ("learning", "positions", "tiled"))
    steps = learning["training"]["steps"]
    assert len(steps) == 9 and set(steps[0]) >= {"loss", "w_q", "w_k", "grad_w_q", "grad_w_k", "weights"}
    assert learning["training"]["hard"]["slopes"] == [0.0] * 4 and "positions" not in learning
    assert positions["positions"]["kind"] == "rope" and positions["positions"]["shift_gap"] < 1e-12
    assert tiled["tiles"]["memory"] == {"tiled": 12, "full": 36} and len(tiled["tiles"]["m"]) == 3
    assert "tiles" not in numbers_json(load("default"))


@pytest.mark.parametrize("table, line, expected", [
    ('[training]\ntarget = "river"\nlearning_rate = -1', 3,
     "training.learning_rate: expected a number above 0"),
    ('[training]\ntarget = "river"\nlearning_rate = 1e200', 3,
     "training.learning_rate: expected numbers that keep the gradient descent of [training] finite"),
    ('[training]\ntarget = "river"\nsteps = 0', 3, "training.steps: expected a whole number from 1 to 40"),
    ('[training]\ntarget = "river"\nsteps = 2.5', 3, "training.steps: expected a whole number from 1 to 40"),
    ("[training]\ntarget = \"moon\"", 2, "training.target: expected a token of every context"),
    ("[training]\nquery = 3\ntarget = \"river\"", 2, "training.query: expected a token string"),
    ("[training]\ntarget = \"river\"\nrate = 1", 3, "training.rate: expected one of learning_rate, query"),
    ("[training]\nsteps = 3", 1, "training.target: expected a token string, found nothing"),
    ("[positions]\nkind = \"alibi\"", 2, "positions.kind: expected one of sinusoidal, rope"),
    ("[positions]\nbase = 1", 2, "positions.base: expected a number above 1"),
    ("[positions]\nbase = \"10000\"", 2, "positions.base: expected a number, found the text '10000'"),
    ("[tiling]\nblock = 0", 2, "tiling.block: expected a whole number from 1 to 8"),
    ("[tiling]\nsize = 2", 2, "tiling.size: expected one of block"),
])
def test_a_wrong_table_is_named_at_its_line(table, line, expected):
    eye = "[[1.0, 0.0], [0.0, 1.0]]"
    base = (f'focus = "bank"\n[vocab]\nriver = [1.0, 0.0]\nbank = [0.0, 1.0]\n[projections]\nw_q = {eye}\n'
            f'w_k = {eye}\nw_v = {eye}\n[contexts]\na = ["river", "bank"]\n')
    with pytest.raises(LessonError) as e:
        loads(base + table, "bad.toml")
    message = e.value.message("en")
    assert message.startswith(f"bad.toml:{base.count(chr(10)) + line}: {expected}"), message
    assert e.value.message("zh").startswith(f"bad.toml:{base.count(chr(10)) + line}:")


def test_a_hidden_target_and_an_odd_rope_are_named():
    causal = resolve("causal").read_text(encoding="utf-8")
    with pytest.raises(LessonError) as e:
        loads(causal + '\n[training]\nquery = "the"\ntarget = "river"\n', "c.toml")
    assert "training.target: expected a token the causal mask lets the query see" in e.value.message("en")
    three = "[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]"
    odd = (f"[vocab]\na = [1.0, 0.0]\nb = [0.0, 1.0]\n[projections]\nw_q = {three}\nw_k = {three}\n"
           f'w_v = [[1.0, 0.0], [0.0, 1.0]]\n[contexts]\nc = ["a", "b"]\n[positions]\nkind = "rope"\n')
    with pytest.raises(LessonError) as e:
        loads(odd, "odd.toml")
    assert e.value.message("en").startswith("odd.toml:11: positions.kind: expected an even d_k for rope")
