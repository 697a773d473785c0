"""learning: projections that learn (a lesson with [training]). The query's weights and the loss
−log w(query→target); the gradients of W_Q and W_K; the loss falling step by step while the target's
weight grows; the weights before and after; the same step for the hard argmax lookup: its slope is
exactly zero, so nothing moves. Every number from the core (attention_core/next/training.py)."""

from __future__ import annotations

import numpy as np
from manim import VGroup

from attention_core import geometry as G
from attention_core.claims import quotes_of_run
from scenes.common import style
from scenes.common.arrows import ARROW_STROKE, Plane, name_tips, plane_arrow
from scenes.common.base import LessonScene
from scenes.common.mobjects import cell_width_for, number_text, outline, percent_text, word
from scenes.common.panels import Panels, bars, mark_cells, table

MARK_PAD = 0.25  # the target's bar: its outline this many gaps out
PLANE_W = 5.0  # the turn step's plane: its longer side, scene units (then scaled with the body)
PLANE_PAD, PLANE_LEAST = 0.15, 0.6  # around its arrows; its shorter side's least share (geometry.bounds)
MOST_BARS = 9  # the descent's charts show at most this many steps (the first and the last among them)
ANGLE_PLACES = 2  # degrees, in the turn step's table and its lines alike
K_UNDER = 2.4  # the turn step's key arrows: this much wider than the queries', drawn under them (a query
# that ends along its key shows as a line inside the key's band, not hidden under it)


class Learning(Panels, LessonScene):
    scene_id = "learning"

    def setup(self):
        super().setup()
        self.run = self.facts.run  # the training run the claims read (next.training.train)
        self.quotes = quotes_of_run(self.run)  # the numbers its lines quote, from the core
        self.shown = shown_steps(len(self.run.steps))

    def fields(self) -> dict:
        r, v = self.run, self.quotes
        a, b = self.qk_axes()
        return {**super().fields(), "query": self.token(r.query), "target": self.token(r.target),
                "rate": number_text(r.learning_rate), "steps": len(r.steps) - 1,
                "choice": self.token(r.hard.choice), "a": a + 1, "b": b + 1,
                **{k: number_text(v[k]) for k in ("loss0", "loss1", "q0", "q1", "k0", "k1")},
                "w0": percent_text(v["w0"]), "w1": percent_text(v["w1"]),
                **{k: number_text(v[k], ANGLE_PLACES) for k in ("angle0", "angle1")}}

    def qk_axes(self) -> tuple[int, int]:
        """The two d_k axes the turn step draws: the lesson's [geometry] qk, else the first two."""
        return self.lesson.geometry.get("qk", (0, 1))

    def construct(self):
        self.show_heading()
        for name in ("loss", "gradient", "descent", "turn", "after", "hard"):
            self.step(name)
            getattr(self, f"show_{name}")()

    def show_loss(self):
        """The query's weights over the keys, the target's outlined, and its loss."""
        r = self.run
        chart = bars(r.steps[0].weights, self.att.tokens)
        frame = VGroup(chart.bar(r.target), chart.token_labels[r.target])
        mark = outline(frame, style.HIGHLIGHT, buff=style.GAP * MARK_PAD, corner=style.CORNER)
        self.panel(self.titled(self.t("weights_title", **self.fields()), VGroup(chart, mark)),
                   note=self.t("loss_note", **self.fields()))

    def show_gradient(self):
        """The gradients of W_Q and W_K at the first step, side by side."""
        first, dims = self.run.steps[0], self.lesson.model_dim_names(self.lang)
        cols = [str(j + 1) for j in range(first.grad_w_q.shape[1])]
        self.side_by_side(self.titled(self.t("grad_q"), table(first.grad_w_q, dims, cols), style.Q_COLOR),
                          self.titled(self.t("grad_k"), table(first.grad_w_k, [], cols),
                                 style.K_COLOR),  # W_Q's rows
                          note=self.t("update_note", **self.fields()))

    def show_descent(self):
        """The loss and the target's weight at each step shown: one falls, the other grows."""
        r, names = self.run, [str(i) for i in self.shown]
        loss = bars([r.steps[i].loss for i in self.shown], names, style.WRONG, narrow=True)
        weight = bars([r.steps[i].weights[r.target] for i in self.shown], names, style.V_COLOR, narrow=True)
        self.side_by_side(self.titled(self.t("loss_title"), loss),
                          self.titled(self.t("weight_title", **self.fields()), weight),
                          note=self.t("descent_note", **self.fields()))

    def show_turn(self):
        """The query's arrow and the target's key before the first step and after the last, in the plane
        of two d_k axes (the lesson's [geometry] qk, else the first two); the angle between them (in every
        d_k dimension) beside it."""
        r, (a, b) = self.run, self.qk_axes()
        ends = (r.steps[0], r.steps[-1])
        points = np.array([s.q[[a, b]] for s in ends] + [s.k[r.target][[a, b]] for s in ends])  # [4, 2]
        box = G.bounds(points, PLANE_PAD, PLANE_LEAST)
        span = max(box[1] - box[0], box[3] - box[2])
        plane = Plane(box, PLANE_W / span, G.grid_step(span), [f"d{a + 1}", f"d{b + 1}"])
        looks = [(style.DIM, "q_before"), (style.Q_COLOR, "q_after"), (style.DIM, "k_before"),
                 (style.K_COLOR, "k_after")]
        widths = [ARROW_STROKE, ARROW_STROKE, ARROW_STROKE * K_UNDER, ARROW_STROKE * K_UNDER]
        arrows = VGroup(*(plane_arrow(plane, (0, 0), points[i], looks[i][0], widths[i])
                          for i in (2, 3, 0, 1)))  # the keys first (under), then the queries over them
        names = [word(self.t(key, **self.fields()), style.LABEL_SIZE, color) for color, key in looks]
        leaders = name_tips(plane, names, points)  # the names moved beside the tips; lines to far ones
        when = [self.t("before"), self.t("after_row", steps=len(r.steps) - 1)]
        v, cols = self.quotes, [self.t("angle"), self.t("length_q"), self.t("length_k")]
        angles = table([[v[f"angle{e}"], v[f"q{e}"], v[f"k{e}"]] for e in "01"], when, cols,
                       cell_w=cell_width_for(cols))  # score = |q| |k| cos θ: the lengths beside the angle
        notes = [self.t("turn_note", **self.fields()), self.t("plane_note_projected", **self.fields())]
        self.side_by_side(VGroup(plane, arrows, VGroup(*names), leaders), angles,
                          note=[n for n in notes if n])  # a line each

    def show_after(self):
        """The query's weights before the first step and after the last."""
        r = self.run
        rows = [self.t("before"), self.t("after_row", steps=len(r.steps) - 1)]
        grid = table(np.vstack([r.steps[0].weights, r.steps[-1].weights]), rows, self.att.tokens, heat=True)
        self.panel(VGroup(grid, mark_cells(grid, [(0, r.target), (1, r.target)])),
                   note=self.t("after_note", **self.fields()))

    def show_hard(self):
        """The softmax's slopes against the hard lookup's: every one exactly zero."""
        h = self.run.hard
        grid = table(np.vstack([h.soft_slopes, h.slopes]), [self.t("soft_row"), self.t("hard_row")],
                     self.att.tokens)
        self.panel(self.titled(self.t("slopes_title", **self.fields()), VGroup(grid, mark_cells(grid, [
            (1, j) for j in range(len(h.slopes))], style.WRONG))), note=self.t("hard_note", **self.fields()))


def shown_steps(n: int) -> list[int]:
    """The records the descent's charts show: every one, or every k-th at one stride (so equal spacing
    means equal steps) and the last, at most MOST_BARS in all."""
    if n <= MOST_BARS:
        return list(range(n))
    stride = -(-(n - 1) // (MOST_BARS - 1))  # ceil: the last comes at or before the (MOST_BARS)th
    return sorted(set(range(0, n - 1, stride)) | {n - 1})
