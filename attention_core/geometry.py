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

    @property
    def feet(self) -> np.ndarray:  # [n, 2] where each key's shadow ends on the query's line
        return self.reach[:, None] * _unit(self.query)[None, :]

    @property
    def tips(self) -> np.ndarray:  # [n, 2] where each weighted value arrow ends
        return self.tails + self.weights[:, None] * self.values


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
                   att.scores[i], w, values, tails, steps.sum(axis=0), att.output[i])


def picture_json(p: Picture) -> dict:
    """A picture as plain lists (full precision), for the pages."""
    return {"tokens": list(p.tokens), "focus": p.focus, "qk_axes": list(p.qk.axes), "qk_share": p.qk.share,
            "v_axes": list(p.v.axes), "v_share": p.v.share,
            **{f: getattr(p, f).tolist() for f in ("query", "keys", "reach", "shown", "scores", "weights",
                                                    "values", "tails", "output", "output_full", "feet",
                                                    "tips")}}
