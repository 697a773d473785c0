"""Every intermediate of one context as plain lists (full precision): what `attention-lesson numbers
--json` prints and the studio's API returns. A masked cell of the softmax's input is null (JSON has no
-inf); a lesson of several heads adds each head's pass, the heads side by side, W_O and its output; a lesson
with [training], [positions] or [tiling] adds `training` (every step), `positions` (the passes without and
with positions, shuffled and shifted) or `tiles` (m, l, o after each block)."""

from __future__ import annotations

import numpy as np

from .attention import AttentionPass, attend, hard_lookup, scale_for
from .lesson import Lesson
from .multihead import attend_heads
from .next.positions import positions_json, study
from .next.tiling import tile, tiles_json
from .next.training import train, training_json

FIELDS = ("q", "k", "v", "scores", "weights", "output")


def _finite_or_none(m: np.ndarray) -> list:
    return [[x if np.isfinite(x) else None for x in row] for row in m.tolist()]


def pass_json(att: AttentionPass) -> dict:
    hard = hard_lookup(att)
    return {"d_k": att.d_k, "scale": att.scale, **{f: getattr(att, f).tolist() for f in FIELDS},
            "scaled": _finite_or_none(att.scaled), "hard_choice": hard.choice.tolist(),
            "hard_output": hard.output.tolist()}


def numbers_json(lesson: Lesson, context: str | None = None, mode: str = "scaled",
                 head: str | None = None) -> dict:
    """One context's every intermediate as plain lists: what `attention-lesson numbers --json` prints.

    Parameters
    ----------
    lesson : Lesson
        A lesson (`load`).
    context : str or None
        The name of one of its contexts; None: the first.
    mode : str
        "scaled", "unscaled" or "uniform".
    head : str or None
        The head to show, in a lesson of several heads (all of them are added too); None: the focus head.

    Returns
    -------
    dict
        lesson, context, tokens, mode, mask, x, d_k, scale, q, k, v, scores, scaled (null where
        masked), weights, output, hard_choice and hard_output, plus the optional tables' numbers.

    Examples
    --------
    >>> from attention_core import load
    >>> numbers = numbers_json(load("default"), "savings")
    >>> numbers["tokens"], numbers["scale"]
    (['at', 'the', 'savings', 'bank'], 0.5)
    >>> [round(w, 2) for w in numbers["weights"][3]]
    [0.07, 0.07, 0.71, 0.14]
    """
    name = lesson.context_name(context)
    att = attend(lesson, name, mode, head=head)
    out = {"lesson": lesson.source, "context": name, "tokens": list(att.tokens), "mode": att.mode,
           "mask": lesson.mask, "x": att.x.tolist(), **pass_json(att)}
    if lesson.heads:
        mh = attend_heads(lesson, name, mode)
        out |= {"head": head or lesson.focus_head,
                "heads": {k: pass_json(p) for k, p in zip(mh.keys, mh.heads)},
                "concat": mh.concat.tolist(), "w_o": mh.w_o.tolist(), "multi_head_output": mh.output.tolist()}
    return out | features_json(lesson, name, mode, att)


def features_json(lesson: Lesson, context: str, mode: str, att: AttentionPass) -> dict:
    """The next lessons' sections, each only when the lesson has the feature (through the focus head)."""
    out = {}
    if lesson.training:
        out["training"] = training_json(train(lesson, context, scale_for(mode, lesson.d_k)))
    if lesson.positions:
        out["positions"] = positions_json(lesson, study(lesson, context, mode))
    if lesson.tiling:
        out["tiles"] = tiles_json(tile(att, lesson.tiling.block), att)
    return out
