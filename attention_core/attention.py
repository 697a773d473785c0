"""Scaled dot-product attention ("Attention Is All You Need", §3.2.1), every intermediate kept.

Convention, once for the whole project: in every [n, n] matrix the rows are the querying tokens and
the columns are the keys they look at; weights[i] is query i's distribution over the keys.

The pieces, smallest first: `softmax`, `scale_for` (the normalizer), `dot_product_attention` (Q, K, V
in, every intermediate out), `attend` / `attend_tokens` (a lesson's context or any token list through
the projections and attention: an `AttentionPass`), `hard_lookup` (argmax instead of softmax).
The quantities the lesson's contrasts and mistakes show live here too (`diagnostics.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .lesson import Lesson

MODES = ("scaled", "unscaled", "uniform")


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:  # [..., n] -> [..., n]
    """exp(x) / sum(exp(x)) along one axis: scores in, a distribution out.

    Parameters
    ----------
    x : np.ndarray
        Any scores, of any shape; -inf is allowed (its weight is exactly 0) if one score is finite.
    axis : int
        The axis that sums to 1 (the last: the keys, in a weights matrix).

    Returns
    -------
    np.ndarray
        The same shape as `x`, every entry in [0, 1], summing to 1 along `axis`.

    Examples
    --------
    >>> softmax(np.array([1.0, 2.0, 3.0])).round(3).tolist()
    [0.09, 0.245, 0.665]
    >>> softmax(np.array([0.0, -np.inf])).tolist()
    [1.0, 0.0]
    """
    # Subtracting the maximum changes nothing mathematically and keeps exp() finite for any score.
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def project(x: np.ndarray, w: np.ndarray) -> np.ndarray:  # [n, d_model], [d_model, d] -> [n, d]
    return x @ w


def scale_for(mode: str, d_k: int) -> float:
    """The factor the raw scores are multiplied by before the softmax.

    Parameters
    ----------
    mode : str
        One of MODES: "scaled" (1/√d_k, the paper's), "unscaled" (1) or "uniform" (0: every weight 1/n).
    d_k : int
        The length of a query and of a key.

    Returns
    -------
    float

    Examples
    --------
    >>> scale_for("scaled", 4), scale_for("unscaled", 4), scale_for("uniform", 4)
    (0.5, 1.0, 0.0)
    """
    if mode == "scaled":
        return float(1.0 / np.sqrt(d_k))
    if mode == "unscaled":
        return 1.0
    if mode == "uniform":
        return 0.0  # every logit 0: the softmax of a constant row is 1/n, whatever the scores
    raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")


class Intermediates(NamedTuple):
    """What attention computes from Q, K and V, in order."""

    scores: np.ndarray  # [n_q, n_k] raw q·k
    scaled: np.ndarray  # [n_q, n_k] the softmax input: scores × scale
    weights: np.ndarray  # [n_q, n_k] softmax along the key axis
    output: np.ndarray  # [n_q, d_v] weights @ V


def causal_mask(n: int) -> np.ndarray:  # -> [n, n] bool: query i may look at key j when j <= i
    return np.tril(np.ones((n, n), dtype=bool))


def dot_product_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float,
                          mask: np.ndarray | None = None) -> Intermediates:
    """softmax(scale · Q Kᵀ) V, every intermediate kept.

    Parameters
    ----------
    q : np.ndarray
        The queries, [n_q, d_k]: one token a row.
    k : np.ndarray
        The keys, [n_k, d_k].
    v : np.ndarray
        The values, [n_k, d_v].
    scale : float
        What the raw scores are multiplied by (`scale_for`).
    mask : np.ndarray or None
        [n_q, n_k] bool, True where query i may look at key j (`causal_mask`); None: every key.

    Returns
    -------
    Intermediates
        scores [n_q, n_k], scaled [n_q, n_k] (-inf where masked), weights [n_q, n_k], output [n_q, d_v].

    Examples
    --------
    >>> q = k = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> v = np.array([[10.0], [20.0]])
    >>> r = dot_product_attention(q, k, v, scale=1.0, mask=causal_mask(2))
    >>> r.weights.round(2).tolist(), r.output.round(2).tolist()
    ([[1.0, 0.0], [0.27, 0.73]], [[10.0], [17.31]])
    """
    # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] bool -> [n_q, n_k] ×3, [n_q, d_v]
    scores = q @ k.T
    scaled = scores * scale
    if mask is not None:  # a masked cell is -inf, not a large negative number: its weight is exactly 0
        scaled = np.where(mask, scaled, -np.inf)
    weights = softmax(scaled)
    return Intermediates(scores, scaled, weights, weights @ v)


@dataclass(frozen=True)
class AttentionPass:
    """One attention pass over one token list (a lesson's context), with everything the pictures need."""

    mode: str
    tokens: tuple[str, ...]
    x: np.ndarray  # [n, d_model] the embeddings
    q: np.ndarray  # [n, d_k]
    k: np.ndarray  # [n, d_k]
    v: np.ndarray  # [n, d_v]
    scores: np.ndarray  # [n, n] raw q·k
    scaled: np.ndarray  # [n, n] what goes into the softmax: scores × scale, -inf where masked
    weights: np.ndarray  # [n, n] softmax along the key axis; every row sums to 1
    output: np.ndarray  # [n, d_v] weights @ v
    mask: np.ndarray | None = None  # [n, n] bool, True where query i may look at key j; None: no mask

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def d_k(self) -> int:
        return self.q.shape[1]

    @property
    def d_v(self) -> int:
        return self.v.shape[1]

    @property
    def scale(self) -> float:
        return scale_for(self.mode, self.d_k)

    @property
    def sqrt_d_k(self) -> float:
        return float(np.sqrt(self.d_k))

    @property
    def visible_scores(self) -> np.ndarray:  # -> [n, n]
        """The raw scores a query may use: -inf where the mask hides the key (the scores without one)."""
        return self.scores if self.mask is None else np.where(self.mask, self.scores, -np.inf)

    def index(self, token: str) -> int:
        """Position of a token in this pass (its first occurrence)."""
        return self.tokens.index(token)


def attend_tokens(lesson: Lesson, tokens: Sequence[str], mode: str = "scaled", masked: bool | None = None,
                  head: str | None = None) -> AttentionPass:
    """Run any list of the lesson's tokens (a context, a permuted sentence) through attention: with
    the lesson's mask (masked=None) or with / without a causal one, through the focus head or `head`."""
    tokens = tuple(tokens)
    w_q, w_k, w_v = lesson.projections(head)
    x = lesson.embed(tokens)  # [n, d_model]
    q = project(x, w_q)  # [n, d_k]
    k = project(x, w_k)  # [n, d_k]
    v = project(x, w_v)  # [n, d_v]
    mask = causal_mask(len(tokens)) if (lesson.mask == "causal" if masked is None else masked) else None
    r = dot_product_attention(q, k, v, scale_for(mode, q.shape[1]), mask)
    return AttentionPass(mode, tokens, x, q, k, v, r.scores, r.scaled, r.weights, r.output, mask)


def attend(lesson: Lesson, context: str | None = None, mode: str = "scaled", masked: bool | None = None,
           head: str | None = None) -> AttentionPass:
    """Run one context of a lesson through its projections and attention: the lesson's entry point.

    Parameters
    ----------
    lesson : Lesson
        A lesson (`load`).
    context : str or None
        The name of one of its contexts; None: the first.
    mode : str
        "scaled", "unscaled" or "uniform" (`scale_for`).
    masked : bool or None
        With a causal mask (True) or without one (False); None: as the lesson says (its `mask` key).
    head : str or None
        The head whose projections are used, in a lesson of several heads; None: the focus head.

    Returns
    -------
    AttentionPass
        The tokens, x, q, k, v, scores, scaled, weights and output; `weights[i]` is token i's row.

    Examples
    --------
    >>> from attention_core import load
    >>> lesson = load("default")
    >>> river = attend(lesson, "river")
    >>> river.tokens, lesson.focus
    (('by', 'the', 'river', 'bank'), 'bank')
    >>> river.weights[river.index("bank")].round(2).tolist()
    [0.11, 0.07, 0.69, 0.14]
    >>> attend(lesson, "river", "unscaled").weights[3].round(2).tolist()
    [0.02, 0.01, 0.93, 0.04]
    """
    return attend_tokens(lesson, lesson.context(context), mode, masked, head)


@dataclass(frozen=True)
class HardLookup:
    """Argmax lookup: each query takes exactly one value row, the best-scoring key's."""

    choice: np.ndarray  # [n] index of the chosen key for every query
    weights: np.ndarray  # [n, n] one-hot rows
    output: np.ndarray  # [n, d_v] the chosen value rows


def hard_lookup(att: AttentionPass) -> HardLookup:
    """What a dictionary lookup would take: every query the value of its best-scoring visible key.

    Parameters
    ----------
    att : AttentionPass
        A pass (`attend`); its mask, if any, hides keys as it does from the softmax.

    Returns
    -------
    HardLookup
        The chosen key of every query (ties go to the first), the one-hot weights, the chosen values.

    Examples
    --------
    >>> from attention_core import load
    >>> hard_lookup(attend(load("default"), "river")).choice.tolist()  # bank takes river's value
    [3, 3, 2, 2]
    """
    choice = np.argmax(att.visible_scores, axis=-1)  # [n]; ties go to the first key
    weights = np.eye(att.n)[choice]  # [n, n]
    return HardLookup(choice, weights, att.v[choice])
