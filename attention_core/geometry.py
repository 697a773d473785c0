"""Attention as geometry: the focus's query, the keys and the values as arrows in a plane of two axes
(the geometry scene, the explorer's plane and the handout's draw what this returns; none computes).

A dot product is how far one arrow reaches along another: a key's shadow on the query's line is
k·q/|q| long, and that times |q| is the score. The output is the value arrows, each scaled by its
weight, laid tip to tail: the last tip is weights @ V.

A plane shows two of the d_k axes (queries and keys) or two of the d_v axes (values): the ones the
lesson names (`[geometry]`, read by axes.py) or the two that carry the most of the focus's q·k terms (of
its weighted values) summed over every context, so that the contexts are compared in one picture.
`share` says how much of those terms the plane holds (1.0: all; then the shadows are the scores).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import attend
from .lesson import Lesson


@dataclass(frozen=True)
class Plane:
    axes: tuple[int, int]  # the two dimensions shown (from 0, in order)
    share: float  # of the |terms| summed over every context, the part on these two axes (0..1]


@dataclass(frozen=True)
class Picture:
    """One context's focus in the two planes: every arrow and length a scene or a page draws."""

    tokens: tuple[str, ...]
    focus: int  # the focus's position in tokens
    qk: Plane
    v: Plane
    query: np.ndarray  # [2] the focus's query on the Q/K plane's axes
    keys: np.ndarray  # [n, 2] every key on them
    reach: np.ndarray  # [n] each key's shadow on the query's line, signed: k·q/|q| in the plane
    shown: np.ndarray  # [n] the plane's part of each score: reach × |query| (= scores when share is 1)
    scores: np.ndarray  # [n] the whole q·k, every axis
    weights: np.ndarray  # [n] the focus's softmax weights
    values: np.ndarray  # [n, 2] every value arrow on the V plane's axes
    tails: np.ndarray  # [n, 2] where each weighted value arrow starts: the sum of those before it
    output: np.ndarray  # [2] the last tip: weights @ values, the output on the V plane's axes
    output_full: np.ndarray  # [d_v] the whole output
    scale: float = 1.0  # what the scores are multiplied by before the softmax: 1/√d_k, 1 or 0 (the mode's)

    @property
    def feet(self) -> np.ndarray:  # [n, 2] where each key's shadow ends on the query's line
        return self.reach[:, None] * _unit(self.query)[None, :]

    @property
    def tips(self) -> np.ndarray:  # [n, 2] where each weighted value arrow ends
        return self.tails + self.weighted

    @property
    def weighted(self) -> np.ndarray:  # [n, 2] each value arrow scaled by its weight: tip minus tail
        return self.weights[:, None] * self.values

    @property
    def query_length(self) -> float:  # |query| in the plane: a shadow times it is the plane's score
        return float(np.linalg.norm(self.query))

    @property
    def scaled_feet(self) -> np.ndarray:  # [n, 2] the shadows times the mode's scale: the scaled scores'
        return self.feet * self.scale

    @property
    def line(self) -> np.ndarray:
        """[2, 2] the stretch of the query's line a picture draws: from the farthest foot behind the
        origin to the farthest point ahead (the query's tip or a foot beyond it)."""
        u = _unit(self.query)
        return np.array([min(0.0, self.reach.min()) * u, max(self.query_length, self.reach.max()) * u])


def _unit(x: np.ndarray) -> np.ndarray:  # [2] -> [2]; a zero arrow has no direction: itself
    norm = np.linalg.norm(x)
    return x / norm if norm > 0 else x


def best_axes(terms: np.ndarray) -> Plane:
    """[d] summed |terms| per axis -> the two largest (ties to the first axis), with their share."""
    order = sorted(range(len(terms)), key=lambda a: (-terms[a], a))
    a, b = sorted(order[:2])
    total = float(np.sum(terms))
    return Plane((a, b), float((terms[a] + terms[b]) / total) if total > 0 else 1.0)


def given_plane(terms: np.ndarray, axes: tuple[int, int]) -> Plane:
    total = float(np.sum(terms))
    return Plane(axes, float(np.sum(terms[list(axes)]) / total) if total > 0 else 1.0)


def terms(lesson: Lesson, mode: str = "scaled") -> tuple[np.ndarray, np.ndarray]:
    """[d_k], [d_v]: the focus's |q_a k_a| and |w_j v_ja| summed over keys and every context."""
    qk, v = np.zeros(lesson.d_k), np.zeros(lesson.d_v)
    for name in lesson.contexts:
        att = attend(lesson, name, mode)
        i = att.index(lesson.focus)
        qk += np.abs(att.q[i][None, :] * att.k).sum(axis=0)  # [n, d_k] -> [d_k]
        v += np.abs(att.weights[i][:, None] * att.v).sum(axis=0)  # [n, d_v] -> [d_v]
    return qk, v


def planes(lesson: Lesson) -> tuple[Plane, Plane]:
    """The Q/K plane and the V plane of a lesson: its [geometry] axes, else the strongest two (chosen
    with the scaled weights, so that every normalizer is drawn in the same axes)."""
    qk_terms, v_terms = terms(lesson)
    chosen = lesson.geometry
    qk = given_plane(qk_terms, chosen["qk"]) if "qk" in chosen else best_axes(qk_terms)
    v = given_plane(v_terms, chosen["values"]) if "values" in chosen else best_axes(v_terms)
    return qk, v


def picture(lesson: Lesson, context: str | None = None, mode: str = "scaled",
            plane: tuple[Plane, Plane] | None = None) -> Picture:
    """The focus of one context as arrows on the lesson's planes (or the ones given)."""
    qk, vp = plane or planes(lesson)
    att = attend(lesson, context, mode)
    i = att.index(lesson.focus)
    query, keys = att.q[i, list(qk.axes)], att.k[:, list(qk.axes)]  # [2], [n, 2]
    reach = keys @ _unit(query)  # [n]
    values, w = att.v[:, list(vp.axes)], att.weights[i]  # [n, 2], [n]
    steps = w[:, None] * values  # [n, 2]
    tails = np.vstack([np.zeros((1, 2)), np.cumsum(steps, axis=0)[:-1]])  # [n, 2]
    return Picture(att.tokens, i, qk, vp, query, keys, reach, reach * np.linalg.norm(query),
                   att.scores[i], w, values, tails, steps.sum(axis=0), att.output[i], scale=att.scale)


def strongest(values: np.ndarray) -> int:
    """[n] -> the position of the largest (ties to the first): the longest shadow, the top weight."""
    return int(np.argmax(values))


def lean(output: np.ndarray) -> int:
    """[2] an output on the V plane -> the plane's axis (0 or 1) it lies most along (ties to the first):
    the dimension a context pulls its focus toward (or, negative, away from)."""
    return int(np.argmax(np.abs(output)))


def qk_points(p: Picture) -> np.ndarray:
    """[2n + 2, 2] every point the Q/K plane draws: the origin, the query, the keys, their feet."""
    return np.vstack([np.zeros((1, 2)), p.query[None], p.keys, p.feet])


def v_points(pictures: list[Picture]) -> np.ndarray:
    """[m, 2] every point the V plane draws for these pictures (every context, so that their outputs
    share one pair of axes): the origin, the values, the tips of the weighted arrows."""
    return np.vstack([np.zeros((1, 2))] + [np.vstack([p.values, p.tips]) for p in pictures])


def bounds(points: np.ndarray, pad: float = 0.1, least: float = 0.5) -> tuple[float, float, float, float]:
    """[m, 2] -> (x0, x1, y0, y1): a box holding the points and the origin, each side at least `least`
    of the longer one (a plane of one long row of arrows still has room above and below for their
    names), `pad` of the longer side around it. One unit for both axes: the box's shape is the plane's."""
    lo, hi = np.minimum(points.min(axis=0), 0.0), np.maximum(points.max(axis=0), 0.0)  # [2], [2]
    longest = float(np.max(hi - lo)) or 1.0
    grow = np.maximum(least * longest - (hi - lo), 0.0) / 2  # [2] each side's shortfall, split
    lo, hi = lo - grow - pad * longest, hi + grow + pad * longest
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def grid_step(span: float, lines: int = 6) -> float:
    """The spacing of a plane's grid: 1, 2 or 5 times a power of ten, about `lines` lines across span."""
    raw = span / lines if span > 0 else 1.0
    power = 10.0 ** np.floor(np.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9)))


def picture_json(p: Picture) -> dict:
    """A picture as plain lists (full precision), for the pages."""
    return {"tokens": list(p.tokens), "focus": p.focus, "qk_axes": list(p.qk.axes), "qk_share": p.qk.share,
            "v_axes": list(p.v.axes), "v_share": p.v.share,
            **{f: getattr(p, f).tolist() for f in ("query", "keys", "reach", "shown", "scores", "weights",
                                                    "values", "tails", "output", "output_full", "feet",
                                                    "tips")}}
