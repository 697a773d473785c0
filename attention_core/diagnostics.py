"""The quantities the lesson's contrasts and common mistakes show, as small pure functions.

Each takes rows or matrices of an `AttentionPass` (rows = queries, columns = keys) and returns numbers a
scene only places and animates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .attention import attend, softmax


def strongest_other(row: np.ndarray, exclude: int) -> int:  # [n], index -> index
    """The index of the largest entry of a row other than `exclude` (ties go to the first): the key a
    query favours most besides itself, or the runner-up to the chosen key."""
    others = row.astype(float).copy()
    others[exclude] = -np.inf
    return int(np.argmax(others))


def dominant(row: np.ndarray) -> int | None:  # [n] weights -> index or None
    """The key that holds more than half of a query's weight (a value that "dominates" the mix), or
    None when no single key does."""
    top = int(np.argmax(row))
    return top if row[top] > 0.5 else None


def wrong_axis_weights(scaled: np.ndarray) -> np.ndarray:  # [n_q, n_k] -> [n_q, n_k]
    """The common mistake: softmax over the queries (each column sums to one) instead of each query's
    keys (each row sums to one)."""
    return softmax(scaled, axis=0)


def total_variation(p: np.ndarray, q: np.ndarray) -> float:  # [n], [n] -> scalar in [0, 1]
    """Total-variation distance of two distributions: the share of weight that moves."""
    return float(np.abs(np.asarray(p) - np.asarray(q)).sum() / 2)


# How big a change is, in words (one rule for every comparative the lesson says: "far more", "slightly"):
# its size as a fraction of the scale it is read against, "slight" under SLIGHT_CHANGE, "large" from
# LARGE_CHANGE, "clear" between. A weight moving 0.05 of the total is slight; 0.24, clear; an output
# dimension gaining 1.43 when the outputs reach 1.49, large.
SLIGHT_CHANGE = 0.1
LARGE_CHANGE = 0.5


def change_size(change: float, scale: float = 1.0) -> str:  # scalars -> "slight" | "clear" | "large"
    """How big `change` is against `scale` (the largest magnitude of what is compared; 1 for weights,
    whose total is 1): "slight", "clear" or "large", by SLIGHT_CHANGE and LARGE_CHANGE."""
    ratio = abs(change) / scale if scale > 0 else 0.0
    return "slight" if ratio < SLIGHT_CHANGE else "large" if ratio >= LARGE_CHANGE else "clear"


def gain_source(weights: np.ndarray, values: np.ndarray, dim: int) -> int:  # [n], [n, d_v], index -> index
    """The key that brings the most of value dimension `dim` into the output (weight × value), ties to the
    first: where a gain in that dimension comes from, which need not be the most-weighted key."""
    return int(np.argmax(weights * values[:, dim]))


def magnified_softmax(scores: np.ndarray, d_k: int, factors: Sequence[float],
                      saturated: float) -> tuple[float, np.ndarray]:
    # [n] raw scores -> (factor, [n] weights)
    """Scores grown by each factor in turn, then scaled by √d_k and put through softmax: the first
    factor whose top weight reaches `saturated` and those weights (the last factor if none does).
    Dividing by √d_k does not keep a softmax from saturating when the scores themselves grow."""
    for factor in factors:
        weights = softmax(np.asarray(scores, dtype=float) * factor / np.sqrt(d_k))
        if weights.max() >= saturated:
            break
    return factor, weights


def weight_as_score_moves(scores: np.ndarray, key: int, xs: np.ndarray, scale: float) -> np.ndarray:
    # [n] raw scores, key index, [m] trial scores -> [m]
    """The weight `key` gets when its raw score is each of xs in turn and the others stay: the smooth
    curve that soft lookup follows (hard lookup jumps from 0 to 1 where the key takes the lead)."""
    trial = np.tile(np.asarray(scores, dtype=float), (len(xs), 1))  # [m, n]
    trial[:, key] = xs
    return softmax(trial * scale)[:, key]


TIE = 1e-9  # weights closer than this are equal


def focus_ties(lesson) -> dict[str, list[str]]:
    """The contexts where the focus's largest weight is shared, with the tied keys in order: the hard
    lookup then picks the first of them, and "the most" in the narration names one of several."""
    ties = {}
    for name in lesson.contexts:
        att = attend(lesson, name)
        row = att.weights[att.index(lesson.focus)]  # [n]
        top = np.flatnonzero(row >= row.max() - TIE)
        if len(top) > 1:
            ties[name] = [att.tokens[i] for i in top]
    return ties


@dataclass(frozen=True)
class MaskContrast:
    """One query's row with and without a causal mask (the mask scene's focus row, the edge cases'
    reversal): what it would attend to unmasked and what the mask leaves it."""

    query: int  # the query's position
    free: np.ndarray  # [n] its weights without the mask
    masked: np.ndarray  # [n] its weights with the mask (0 exactly after the query)
    allowed: np.ndarray  # [n] bool: the keys it may see (positions 0..query)
    free_top: int  # the key it favours unmasked (ties to the first)
    top: int  # the key it favours masked

    @property
    def hidden(self) -> bool:
        """Its unmasked favourite comes after it: the mask takes it away."""
        return not bool(self.allowed[self.free_top])

    @property
    def unchanged(self) -> bool:
        """The mask hides nothing from it (it is the last token)."""
        return bool(self.allowed.all())


def mask_contrast(lesson, context: str | None, mode: str, query: int) -> MaskContrast:
    """The row of `query` in a context, through the lesson's projections with and without a causal
    mask (whatever the lesson's own mask)."""
    free = attend(lesson, context, mode, masked=False)
    masked = attend(lesson, context, mode, masked=True)
    return MaskContrast(query, free.weights[query], masked.weights[query], masked.mask[query],
                        int(np.argmax(free.weights[query])), int(np.argmax(masked.weights[query])))
