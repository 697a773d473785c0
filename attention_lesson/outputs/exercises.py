"""The handout's exercises: the same set for any lesson, other numbers, every answer from the core; and,
for a lesson of the next lessons, exercises on its masked rows (a causal mask), its heads' outputs
(several heads, W_O), its training (the loss, one update, the hard lookup's zero gradient), its positions
(the reversed sentence, RoPE's distances) and its tiles (the rescaling, the memory)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core import attend, scale_for
from attention_core.claims import Facts, said
from attention_core.multihead import attend_heads
from attention_core.next.positions import SHIFT, study
from attention_core.next.tiling import tile
from attention_core.next.training import train
from scenes.common.formats import number_text, shared_format
from scenes.common.i18n import catalog


@dataclass
class Exercise:
    prompt: str  # with ___ for the blank
    answer: str
    value: float | str  # the answer's key number (or token), for tests


def vec(v) -> str:
    fmt = shared_format(np.asarray(v))
    return "[" + ", ".join(fmt(x) for x in np.ravel(v)) + "]"


def masked_vec(v) -> str:
    """A row of softmax inputs, a masked one written −∞ (as the scenes write it)."""
    v = np.ravel(np.asarray(v, dtype=float))
    fmt = shared_format(v[np.isfinite(v)] if np.isfinite(v).any() else np.zeros(1))
    return "[" + ", ".join("−∞" if np.isneginf(x) else fmt(x) for x in v) + "]"


def signed(x: float) -> str:
    """A number after an operator: in parentheses when negative ("0.5×(−0.53)")."""
    text = number_text(x)
    return f"({text.replace('-', '−')})" if text.startswith("-") else text


def exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """Every exercise of the lesson: the one-head set, then its mask's and its heads' (if it has them)."""
    return (one_head_exercises(lesson, context, mode, lang) + mask_exercises(lesson, context, mode, lang)
            + head_exercises(lesson, context, mode, lang) + training_exercises(lesson, context, mode, lang)
            + positions_exercises(lesson, context, mode, lang) + tiles_exercises(lesson, context, mode, lang))


def one_head_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """The same exercise set for any lesson: other numbers, every answer from the core."""
    tr, att = catalog(lang), attend(lesson, context, mode)
    f = att.index(lesson.focus)
    w, s = att.weights[f], att.scores[f]
    top = int(np.argmax(w))
    key, focus = att.tokens[top], lesson.focus
    q, k = att.q[f], att.k[top]
    terms = " + ".join(f"{number_text(a)}×{number_text(b)}" for a, b in zip(q, k))
    exps = np.exp(att.scaled[f])  # [n]
    dim = int(np.argmax(np.abs(att.output[f])))
    dims = lesson.dim_names(lang)
    dim_name = dims[dim] if len(dims) == att.v.shape[1] else f"v{dim + 1}"
    other = [c for c in lesson.contexts if c != context]
    t = lambda name, **kw: tr(f"handout.ex_{name}", **kw)  # noqa: E731
    out = [
        Exercise(t("dot", focus=focus, target=key, q=vec(q), k=vec(k)), f"{terms} = {number_text(s[top])}",
                 float(s[top])),
        Exercise(t("scale", score=number_text(s[top]), d_k=att.d_k, sqrt=number_text(att.sqrt_d_k)),
                 f"{number_text(s[top])} / {number_text(att.sqrt_d_k)} = {number_text(att.scaled[f][top])}",
                 float(att.scaled[f][top])) if mode == "scaled" else None,
        Exercise(t("softmax", focus=focus, exps=vec(exps), target=key),
                 f"{number_text(exps[top])} / {number_text(exps.sum())} = {number_text(w[top])}",
                 float(w[top])) if mode != "uniform" else None,
        Exercise(t("mix", focus=focus, weights=vec(w), values=vec(att.v[:, dim]), dim=dim_name),
                 " + ".join(f"{number_text(a)}×{number_text(b)}" for a, b in zip(w, att.v[:, dim]))
                 + f" = {number_text(att.output[f][dim])}", float(att.output[f][dim])),
        Exercise(t("matrix", focus=focus, target=key),
                 t("matrix_answer", row=f + 1, col=top + 1, value=number_text(att.weights[f][top])),
                 float(att.weights[f][top])),
        Exercise(t("uniform", n=att.n), t("uniform_answer", w=number_text(1 / att.n),
                                           mean=vec(att.v.mean(axis=0))), 1 / att.n),
    ]
    if other:
        o = attend(lesson, other[0], mode)
        of = o.index(lesson.focus)
        win = o.tokens[int(np.argmax(o.weights[of]))]
        out.append(Exercise(t("other", focus=focus, context=lesson.context_label(other[0], lang)),
                            t("other_answer", target=win, w=number_text(o.weights[of].max())), win))
    return [e for e in out if e is not None]


def mask_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """A causal lesson's rows: the first token sees itself only; the focus's weight on a later token."""
    if lesson.mask != "causal":
        return []
    t = lambda name, **kw: catalog(lang)(f"handout.ex_{name}", **kw)  # noqa: E731
    att, free = attend(lesson, context, mode), attend(lesson, context, mode, masked=False)
    f = att.index(lesson.focus)
    out = [Exercise(t("mask_first", first=att.tokens[0]),
                    t("mask_first_answer", first=att.tokens[0], w=number_text(att.weights[0, 0])),
                    float(att.weights[0, 0]))]
    if f < att.n - 1:
        later = f + 1 + int(np.argmax(free.weights[f, f + 1:]))  # the later key it would favour most
        out.append(Exercise(
            t("mask_focus", focus=lesson.focus, i=f + 1, n=att.n, later=att.tokens[later],
              w=number_text(free.weights[f, later])),
            t("mask_focus_answer", w=number_text(att.weights[f, later]),
              seen=catalog(lang)("common.list_sep").join(att.tokens[:f + 1]),
              total=number_text(att.weights[f, :f + 1].sum())), float(att.weights[f, later])))
    return out


def head_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """A lesson of several heads: each head's favourite key for the focus, the heads' outputs side by
    side, W_O's first output dimension."""
    if not lesson.heads:
        return []
    t = lambda name, **kw: catalog(lang)(f"handout.ex_{name}", **kw)  # noqa: E731
    mh = attend_heads(lesson, context, mode)
    f = mh.heads[0].index(lesson.focus)
    out = []
    for head, p in zip(lesson.heads, mh.heads):
        top = int(np.argmax(p.weights[f]))
        out.append(Exercise(t("head", head=head.name(lang), focus=lesson.focus, weights=vec(p.weights[f])),
                            t("head_answer", target=p.tokens[top], w=number_text(p.weights[f][top])),
                            p.tokens[top]))
    outs = catalog(lang)("common.list_sep").join(f"{h.name(lang)} {vec(p.output[f])}"
                                                 for h, p in zip(lesson.heads, mh.heads))
    width = mh.concat.shape[1]  # Σ d_v
    out.append(Exercise(t("concat", focus=lesson.focus, outs=outs),
                        t("concat_answer", concat=vec(mh.concat[f]), n=width), width))
    dim = lesson.model_dim_names(lang)[0]
    terms = " + ".join(f"{number_text(a)}×{number_text(b)}" for a, b in zip(mh.concat[f], mh.w_o[:, 0]))
    out.append(Exercise(t("w_o", focus=lesson.focus, column=vec(mh.w_o[:, 0]), dim=dim),
                        f"{terms} = {number_text(mh.output[f, 0])}", float(mh.output[f, 0])))
    return out


def training_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """[training]: the first loss, one update of W_Q's entry with the largest gradient, the hard lookup."""
    if lesson.training is None:
        return []
    t = lambda name, **kw: catalog(lang)(f"handout.ex_{name}", **kw)  # noqa: E731
    run = train(lesson, context, scale_for(mode, lesson.d_k))
    first, second = run.steps[0], run.steps[1]
    query, target = run.tokens[run.query], run.tokens[run.target]
    i, j = np.unravel_index(int(np.argmax(np.abs(first.grad_w_q))), first.grad_w_q.shape)
    rate, g, w = run.learning_rate, first.grad_w_q[i, j], first.w_q[i, j]
    flat = not np.abs(run.hard.slopes).any()  # no tie for the best score: the step is flat there
    return [
        Exercise(t("loss", query=query, target=target, w=number_text(first.weights[run.target])),
                 f"−log {number_text(first.weights[run.target])} = {number_text(first.loss)}", first.loss),
        Exercise(t("update", row=i + 1, col=j + 1, g=number_text(g), rate=number_text(rate),
                   w=number_text(w)),
                 f"{number_text(w)} − {number_text(rate)}×{signed(g)} = {number_text(second.w_q[i, j])}",
                 float(second.w_q[i, j])),
        *([Exercise(t("hard", choice=run.tokens[run.hard.choice], target=target), t("hard_answer"), 0.0)]
          if flat else []),
    ]


def positions_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """[positions]: the focus's output in the reversed sentence without positions; RoPE's shifted score
    (or a sinusoidal entry)."""
    if lesson.positions is None:
        return []
    t = lambda name, **kw: catalog(lang)(f"handout.ex_{name}", **kw)  # noqa: E731
    s = study(lesson, context, mode)
    f = s.plain.index(lesson.focus)
    mirrored = s.plain_shuffled.output[s.order.index(f)]  # the focus's row in the reversed sentence
    answer = said("handout.ex_reversed_answer", Facts(lesson, context, mode))  # "the same" only if it is
    out = [Exercise(t("reversed", focus=lesson.focus, sentence=" ".join(s.plain.tokens),
                      out=vec(s.plain.output[f]), reversed=" ".join(s.plain_shuffled.tokens)),
                    catalog(lang)(answer, out=vec(mirrored)), float(mirrored[0]))]
    if lesson.positions.kind == "rope":
        score = s.placed.scores[f, 0]
        out.append(Exercise(t("rope", focus=lesson.focus, first=s.plain.tokens[0], score=number_text(score),
                              shift=SHIFT), t("rope_answer", score=number_text(s.shifted.scores[f, 0])),
                            float(s.shifted.scores[f, 0])))
    else:
        out.append(Exercise(t("sinusoidal", base=number_text(lesson.positions.base)), t("sinusoidal_answer"),
                            1.0))
    return out


def tiles_exercises(lesson, context: str, mode: str, lang: str) -> list[Exercise]:
    """[tiling]: the focus's running maximum and its rescaling at the last block; the scores held."""
    if lesson.tiling is None:
        return []
    t = lambda name, **kw: catalog(lang)(f"handout.ex_{name}", **kw)  # noqa: E731
    att = attend(lesson, context, mode)
    tl, f = tile(att, lesson.tiling.block), att.index(lesson.focus)
    out = []
    if len(tl.spans) > 1:
        lo, hi = tl.spans[-1]
        m_old, m_new = tl.m[-2, f], tl.m[-1, f]
        out.append(Exercise(t("online", focus=lesson.focus, m=number_text(m_old),
                              scores=masked_vec(att.scaled[f, lo:hi])),
                            t("online_answer", m=number_text(m_new), old=number_text(m_old),
                              alpha=number_text(tl.alpha[-1, f])), float(tl.alpha[-1, f])))
    tiled, full = tl.memory
    out.append(Exercise(t("memory", n=att.n, block=tl.block), t("memory_answer", tiled=tiled, full=full),
                        tiled))
    return out
