"""Positions: the lesson has none, so shuffling its tokens shuffles its output rows the same way
(permutation equivariance); a position mechanism breaks that.

- sinusoidal: PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(p / base^(2i/d)), added to X (d = d_model);
- rope: each pair (2i, 2i+1) of a query's and a key's columns turned by the angle p · base^(-2i/d_k), so
  q_p · k_r depends on the positions only through r - p: shifting every position leaves the scores.
Positions count from 0. The other scenes show the lesson without positions; this module's passes add them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import AttentionPass, attend_tokens, causal_mask, dot_product_attention, scale_for
from ..lesson import Lesson

SHIFT = 3  # how far the shift test moves every position


def sinusoidal(n: int, d: int, base: float, start: int = 0) -> np.ndarray:  # -> [n, d]
    p = np.arange(start, start + n, dtype=float)[:, None]  # [n, 1]
    angle = p / base ** (np.arange(0, d, 2) / d)  # [n, ceil(d/2)]
    pe = np.zeros((n, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d // 2])
    return pe


def rope_angles(n: int, d_k: int, base: float, start: int = 0) -> np.ndarray:  # -> [n, d_k / 2]
    p = np.arange(start, start + n, dtype=float)[:, None]
    return p * base ** (-np.arange(0, d_k, 2) / d_k)


def rotate(m: np.ndarray, angles: np.ndarray) -> np.ndarray:  # [n, d_k], [n, d_k / 2] -> [n, d_k]
    """Each row's pairs (2i, 2i+1) turned by its angles."""
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty_like(m)
    out[:, 0::2] = m[:, 0::2] * cos - m[:, 1::2] * sin
    out[:, 1::2] = m[:, 0::2] * sin + m[:, 1::2] * cos
    return out


def attend_positioned(lesson: Lesson, tokens, mode: str = "scaled", start: int = 0) -> AttentionPass:
    """attend_tokens with the lesson's positions (from `start`): PE added to X, or Q and K turned."""
    tokens, pos = tuple(tokens), lesson.positions
    w_q, w_k, w_v = lesson.projections()
    x = lesson.embed(tokens)
    if pos.kind == "sinusoidal":
        x = x + sinusoidal(len(tokens), x.shape[1], pos.base, start)
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    if pos.kind == "rope":
        angles = rope_angles(len(tokens), q.shape[1], pos.base, start)
        q, k = rotate(q, angles), rotate(k, angles)
    mask = causal_mask(len(tokens)) if lesson.mask == "causal" else None
    r = dot_product_attention(q, k, v, scale_for(mode, q.shape[1]), mask)
    return AttentionPass(mode, tokens, x, q, k, v, r.scores, r.scaled, r.weights, r.output, mask)


@dataclass(frozen=True)
class PositionsStudy:
    order: tuple[int, ...]  # the shuffle: new position i holds the token at order[i]
    plain: AttentionPass  # no positions
    plain_shuffled: AttentionPass
    placed: AttentionPass  # with the lesson's positions
    placed_shuffled: AttentionPass
    shifted: AttentionPass  # every position moved by SHIFT

    @property
    def plain_gap(self) -> float:
        """How far the shuffled output is from the output's rows shuffled: 0 up to rounding."""
        return float(np.abs(self.plain_shuffled.output - self.plain.output[list(self.order)]).max())

    @property
    def placed_gap(self) -> float:
        return float(np.abs(self.placed_shuffled.output - self.placed.output[list(self.order)]).max())

    @property
    def shift_gap(self) -> float:
        """How far the scores move when every position shifts: 0 up to rounding for rope."""
        return float(np.abs(self.shifted.scores - self.placed.scores).max())


def study(lesson: Lesson, context: str | None = None, mode: str = "scaled") -> PositionsStudy:
    """The context, then reversed, without positions and with them; and every position shifted."""
    tokens = lesson.context(context)
    order = tuple(range(len(tokens) - 1, -1, -1))
    shuffled = [tokens[i] for i in order]
    return PositionsStudy(order, attend_tokens(lesson, tokens, mode), attend_tokens(lesson, shuffled, mode),
                          attend_positioned(lesson, tokens, mode), attend_positioned(lesson, shuffled, mode),
                          attend_positioned(lesson, tokens, mode, SHIFT))


def positions_json(lesson: Lesson, st: PositionsStudy) -> dict:
    pos, n = lesson.positions, st.plain.n
    extra = ({"pe": sinusoidal(n, st.plain.x.shape[1], pos.base).tolist()} if pos.kind == "sinusoidal"
             else {"angles": rope_angles(n, st.plain.d_k, pos.base).tolist()})
    def fields(p: AttentionPass) -> dict:
        return {"tokens": list(p.tokens), "x": p.x.tolist(), "q": p.q.tolist(), "k": p.k.tolist(),
                "scores": p.scores.tolist(), "weights": p.weights.tolist(), "output": p.output.tolist()}
    return {"kind": pos.kind, "base": pos.base, **extra, "order": list(st.order),
            "without": fields(st.plain), "without_shuffled": fields(st.plain_shuffled),
            "with": fields(st.placed), "with_shuffled": fields(st.placed_shuffled),
            "shift": SHIFT, "shifted": fields(st.shifted), "without_gap": st.plain_gap,
            "with_gap": st.placed_gap, "shift_gap": st.shift_gap}
