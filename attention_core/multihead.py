"""Multi-head attention ("Attention Is All You Need", §3.2.2), every intermediate kept: each head
attends with its own projections (and its own d_k, d_v), the heads' outputs are laid side by side and
W_O maps them back to d_model. With the lesson's causal mask, every head is masked alike.

`multi_head_attention` is the arithmetic on arrays (checked against torch.nn.MultiheadAttention);
`attend_heads` runs a lesson's context through it, a head at a time (attention.attend)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import MODES, AttentionPass, attend, dot_product_attention, scale_for
from .lesson import Lesson


@dataclass(frozen=True)
class MultiHeadPass:
    heads: tuple[AttentionPass, ...]  # one pass per head, in the file's order
    keys: tuple[str, ...]  # each head's key
    concat: np.ndarray  # [n, Σ d_v] the heads' outputs side by side
    w_o: np.ndarray  # [Σ d_v, d_model]
    output: np.ndarray  # [n, d_model] concat @ w_o

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.heads[0].tokens

    def head(self, key: str) -> AttentionPass:
        return self.heads[self.keys.index(key)]

    @property
    def rows(self) -> tuple[slice, ...]:
        """Each head's columns of concat, which are its rows of W_O, in the heads' order."""
        ends = np.cumsum([h.d_v for h in self.heads])  # [heads]
        return tuple(slice(int(e - h.d_v), int(e)) for e, h in zip(ends, self.heads))

    @property
    def shares(self) -> np.ndarray:
        """[heads, n, d_model] each head's output through its own rows of W_O (what the output would be
        with the other heads' outputs zero): they sum to `output`."""
        return np.stack([self.concat[:, r] @ self.w_o[r] for r in self.rows])


def strongest_keys(weights: np.ndarray) -> tuple[int, ...]:
    """[n] one query's weights -> the keys that have the largest (several when they tie), in order."""
    return tuple(int(i) for i in np.flatnonzero(np.isclose(weights, weights.max(), rtol=1e-9, atol=1e-12)))


def multi_head_attention(x: np.ndarray, heads: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                         w_o: np.ndarray, mode: str = "scaled", mask: np.ndarray | None = None
                         ) -> tuple[list, np.ndarray, np.ndarray]:
    """x [n, d_model], each head's (w_q [d_model, d_k], w_k, w_v [d_model, d_v]), w_o [Σ d_v, d_model]
    -> each head's Intermediates, concat [n, Σ d_v], output [n, d_model]."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    parts = [dot_product_attention(x @ w_q, x @ w_k, x @ w_v, scale_for(mode, w_q.shape[1]), mask)
             for w_q, w_k, w_v in heads]
    concat = np.concatenate([p.output for p in parts], axis=-1)  # [n, Σ d_v]
    return parts, concat, concat @ w_o


def attend_heads(lesson: Lesson, context: str | None = None, mode: str = "scaled",
                 masked: bool | None = None) -> MultiHeadPass:
    """Every head of a lesson over one context, and W_O over their outputs. A one-head lesson has no
    W_O: ValueError."""
    if not lesson.heads:
        raise ValueError(f"{lesson.source} has one head: no [heads] table, no w_o")
    passes = tuple(attend(lesson, context, mode, masked, h.key) for h in lesson.heads)
    concat = np.concatenate([p.output for p in passes], axis=-1)  # [n, Σ d_v]
    return MultiHeadPass(passes, tuple(h.key for h in lesson.heads), concat, lesson.w_o, concat @ lesson.w_o)
