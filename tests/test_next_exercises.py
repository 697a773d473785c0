"""The handout's exercises for the next lessons (attention_lesson/outputs/exercises.py): a causal lesson's
masked rows and a lesson's heads, every answer checked against numpy written here from the lesson's
matrices (not the core's functions), for the built-ins and random lessons; none for a one-head lesson
without a mask; every word in both languages."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core import load
from attention_lesson.outputs.exercises import exercises
from scenes.common.i18n import catalog

from .random_next_lessons import random_next_lesson


def weights(x, w_q, w_k, causal: bool) -> np.ndarray:
    """[n, n] softmax(x W_Q (x W_K)ᵀ / √d_k), the later keys' scores -inf when causal."""
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(w_q.shape[1])
    if causal:
        scores = np.where(np.tril(np.ones_like(scores, dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def embedding(lesson, context=None) -> tuple[list[str], np.ndarray]:
    toks = list(lesson.context(context))
    return toks, np.array([lesson.vocab[t] for t in toks])


def lesson_of(source, tmp_path, **kinds):
    """A built-in lesson by name, or the random lesson of a seed (random_next_lesson's kinds)."""
    if isinstance(source, int):
        (tmp_path / "l.toml").write_text(random_next_lesson(source, **kinds), encoding="utf-8")
        source = str(tmp_path / "l.toml")
    return load(source)


def by_prompt(exs, words: str) -> list:
    return [e for e in exs if words in e.prompt]


@pytest.mark.parametrize("source", ["causal", 11, 12])
def test_the_masked_rows(source, tmp_path):
    les = lesson_of(source, tmp_path, heads=0, mask=True)
    toks, x = embedding(les)
    masked, free = weights(x, les.w_q, les.w_k, True), weights(x, les.w_q, les.w_k, False)
    f = toks.index(les.focus)
    exs = exercises(les, les.context_name(None), "scaled", "en")
    first = by_prompt(exs, "the first token")
    assert len(first) == 1 and first[0].value == pytest.approx(masked[0, 0]) == 1.0
    later = by_prompt(exs, "Without the mask")
    assert len(later) == (1 if f < len(toks) - 1 else 0)
    if later:
        j = f + 1 + int(np.argmax(free[f, f + 1:]))
        assert later[0].value == masked[f, j] == 0.0
        assert f"\"{toks[j]}\" would be {free[f, j]:.2f}" in later[0].prompt
    zh = exercises(les, les.context_name(None), "scaled", "zh")
    assert len(zh) == len(exs) and all("{" not in e.prompt + e.answer for e in zh + exs)


@pytest.mark.parametrize("source", ["two_heads", 21, 22])
def test_the_heads(source, tmp_path):
    les = lesson_of(source, tmp_path, heads=3, mask=False)
    toks, x = embedding(les)
    f = toks.index(les.focus)
    exs = exercises(les, les.context_name(None), "scaled", "en")
    outs = []
    for head in les.heads:
        w = weights(x, head.w_q, head.w_k, les.mask == "causal")
        (e,) = by_prompt(exs, f"Head \"{head.name('en')}\" gives")
        assert e.value == toks[int(np.argmax(w[f]))]
        outs.append(w[f] @ (x @ head.w_v))
    concat = np.concatenate(outs)
    (cat,) = by_prompt(exs, "Side by side")
    assert cat.value == concat.size == sum(h.w_v.shape[1] for h in les.heads)
    (w_o,) = by_prompt(exs, "W_O's first column")
    assert w_o.value == pytest.approx(concat @ les.w_o[:, 0], abs=1e-12)


def test_a_one_head_lesson_without_a_mask_has_none_of_them():
    exs = exercises(load("default"), "river", "scaled", "en")
    assert len(exs) == 7 and not by_prompt(exs, "mask") and not by_prompt(exs, "Head")


# -- learning, positions, tiles ---------------------------------------------------------------------

FEATURE_TABLES = {"training": '\n[training]\ntarget = "{t}"\nlearning_rate = 0.7\n',
                  "positions": '\n[positions]\nkind = "{kind}"\n', "tiling": "\n[tiling]\nblock = {b}\n"}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_learning_positions_tiles_exercises(seed, lang, tmp_path):
    """Each answer against numpy written here: the loss −log w, one gradient step on W_Q's entry (its
    gradient by finite differences), the reversed sentence's row, RoPE's shifted score (the same), the
    online softmax's α = e^(m_old − m_new), the memory n × block."""
    text = random_next_lesson(seed, mask=seed % 2 == 0)
    lesson = load_text(text, tmp_path)
    target = lesson.focus  # in every context, and the mask lets the focus see itself
    kind = "rope" if lesson.d_k % 2 == 0 else "sinusoidal"
    extra = FEATURE_TABLES["training"].format(t=target) + FEATURE_TABLES["positions"].format(kind=kind) \
        + FEATURE_TABLES["tiling"].format(b=1 + seed % 3)
    lesson = load_text(text + extra, tmp_path)
    exs = exercises(lesson, lesson.context_name(None), "scaled", lang)
    toks, x = embedding(lesson)
    f = toks.index(lesson.focus)
    w = weights(x, lesson.w_q, lesson.w_k, lesson.mask == "causal")
    loss = next(e for e in exs if e.answer.startswith("−log"))
    assert loss.value == pytest.approx(-np.log(w[f, toks.index(target)]), rel=1e-12)
    assert f"w({lesson.focus}→{target})" in loss.prompt  # the lesson's tokens, not the words query, target
    # one step: the entry the exercise names, moved by the learning rate times a finite difference
    update = exs[[i for i, e in enumerate(exs) if e is loss][0] + 1]
    row, col = (int(n) for n in re.findall(r"\d+", update.prompt)[:2])
    def loss_at(w_q):
        ww = weights(x, w_q, lesson.w_k, lesson.mask == "causal")
        return -np.log(ww[f, toks.index(target)])
    bumped = lesson.w_q.copy()
    bumped[row - 1, col - 1] += 1e-6
    grad = (loss_at(bumped) - loss_at(lesson.w_q)) / 1e-6
    assert update.value == pytest.approx(lesson.w_q[row - 1, col - 1] - 0.7 * grad, abs=1e-5)
    hard = [e for e in exs if e.answer == catalog(lang)("handout.ex_hard_answer")]
    best = np.flatnonzero(w[f] >= w[f].max() * (1 - 1e-9))  # the keys tied for the best score
    tied = len(best) > 1 and toks.index(target) in best  # a tie of the target's: the step jumps there
    assert len(hard) == (0 if tied else 1) and all(e.value == 0.0 for e in hard)
    # the tiles: memory n × block, and α = e^(m_old − m_new) from the focus's scaled row
    block = 1 + seed % 3
    assert exs[-1].value == len(toks) * min(block, len(toks))
    if len(toks) > block:
        s = (x[f] @ lesson.w_q) @ (x @ lesson.w_k).T / np.sqrt(lesson.d_k)
        if lesson.mask == "causal":
            s = np.where(np.arange(len(toks)) <= f, s, -np.inf)
        last = (len(toks) - 1) // block * block
        old, new = s[:last].max(), s.max()
        assert exs[-2].value == pytest.approx(np.exp(old - new), rel=1e-12)


def load_text(text: str, tmp_path):
    path = tmp_path / "l.toml"
    path.write_text(text, encoding="utf-8")
    return load(str(path))
