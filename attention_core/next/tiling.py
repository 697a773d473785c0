"""Attention in tiles: the online softmax (Milakov & Gimelshein 2018; FlashAttention), the keys read a
block at a time, the n × n weights never built. Per query a running maximum m, a running sum l and a
running output o (unnormalised); as each block arrives:
    m' = max(m, max_j s_j)     α = exp(m - m')
    l' = α l + Σ_j exp(s_j - m')     o' = α o + Σ_j exp(s_j - m') v_j
and at the end output = o / l, the full softmax's output. Masked keys (-inf) add nothing; a query that has
seen nothing yet keeps m = -inf, l = 0, o = 0."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import AttentionPass


@dataclass(frozen=True)
class Tiles:
    block: int
    spans: tuple[tuple[int, int], ...]  # each block's keys [start, end)
    m: np.ndarray  # [blocks, n] after each block
    l: np.ndarray  # noqa: E741 [blocks, n]
    o: np.ndarray  # [blocks, n, d_v] unnormalised
    alpha: np.ndarray  # [blocks, n] the factor the old l and o were rescaled by
    output: np.ndarray  # [n, d_v] o / l after the last block

    @property
    def memory(self) -> tuple[int, int]:
        """Scores held at once: tiled n × block against the full n × n."""
        n = self.m.shape[1]
        return n * min(self.block, n), n * n


def online_softmax(scaled: np.ndarray, v: np.ndarray, block: int) -> Tiles:
    """scaled [n_q, n_k] (-inf where masked), v [n_k, d_v] -> the tiles, block keys at a time."""
    n_q, n_k = scaled.shape
    m, total, o = np.full(n_q, -np.inf), np.zeros(n_q), np.zeros((n_q, v.shape[1]))
    spans, ms, ls, os_, alphas = [], [], [], [], []
    for lo in range(0, n_k, block):
        hi = min(lo + block, n_k)
        s = scaled[:, lo:hi]
        m_new = np.maximum(m, s.max(axis=1))
        seen = np.isfinite(m_new)  # a query with nothing visible yet stays at -inf, 0, 0
        safe = np.where(seen, m_new, 0.0)
        alpha = np.where(np.isfinite(m), np.exp(m - safe), 0.0)
        p = np.where(seen[:, None], np.exp(s - safe[:, None]), 0.0)  # exp(-inf) = 0 for hidden keys
        total, o, m = alpha * total + p.sum(axis=1), alpha[:, None] * o + p @ v[lo:hi], m_new
        spans.append((lo, hi))
        ms.append(m), ls.append(total), os_.append(o), alphas.append(alpha)
    return Tiles(block, tuple(spans), np.array(ms), np.array(ls), np.array(os_), np.array(alphas),
                 o / total[:, None])


def largest_rescale(t: Tiles, query: int) -> int | None:
    """The block (from 0) where the query's running maximum rises most (its α smallest), or None when it
    never rises after the first block (the first rescales nothing: nothing came before it)."""
    alpha = t.alpha[1:, query]
    return int(np.argmin(alpha)) + 1 if len(alpha) and alpha.min() < 1 else None


def tile(att: AttentionPass, block: int) -> Tiles:
    return online_softmax(att.scaled, att.v, block)


def tiles_json(t: Tiles, att: AttentionPass) -> dict:
    def finite(a):
        return [x if np.isfinite(x) else None for x in a]
    tiled, full = t.memory
    return {"block": t.block, "spans": [list(s) for s in t.spans], "m": [finite(r) for r in t.m.tolist()],
            "l": t.l.tolist(), "o": t.o.tolist(), "alpha": t.alpha.tolist(), "output": t.output.tolist(),
            "full_output": att.output.tolist(), "gap": float(np.abs(t.output - att.output).max()),
            "memory": {"tiled": tiled, "full": full}}
