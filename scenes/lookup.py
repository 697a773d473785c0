"""8. lookup: hard argmax lookup against soft lookup, and why only the soft one lets the scores learn."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Axes,
    Create,
    CurvedArrow,
    DashedLine,
    Dot,
    FadeIn,
    GrowArrow,
    Line,
    Rectangle,
    RoundedRectangle,
    VGroup,
    VMobject,
)

from attention_core import dominant, strongest_other, weight_as_score_moves
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import even_labels, fit, label, math, word
from scenes.common.masked import masked_format
from scenes.common.mobjects import (
    WeightBars,
    number_text,
    percent_text,
    vector,
)

SAMPLES = 241  # points on the soft curve
OUTPUT, NOTE = 3, 4  # a panel's parts: title, chart, output's title, output, note
PANEL_BAR_H = 0.9  # a panel's tallest bar (a weight of 1): two panels stacked still leave the tables room


class Lookup(LessonScene):
    scene_id = "lookup"

    def setup(self):
        super().setup()
        f = self.focus
        self.s = self.att.visible_scores[f]  # the focus query's raw scores, one per key (−∞: masked)
        self.chosen = int(self.hard.choice[f])
        self.runner = strongest_other(self.s, self.chosen)  # the best key the hard lookup ignores

    def fields(self) -> dict:
        return {**super().fields(), "chosen": self.token(self.chosen),
                "runner": self.token(self.runner),
                "share": percent_text(self.att.weights[self.focus][self.chosen])}

    def variants(self) -> list[str]:
        """shared: the soft weights give no key more than half (the chosen one does not dominate)."""
        return ["shared"] if dominant(self.att.weights[self.focus]) != self.chosen else []

    def construct(self):
        self.show_heading()
        self.hard_pick()
        self.soft_mix()
        self.gradient_step()
        self.value_gradient()
        self.learn()

    # -- steps -------------------------------------------------------------------------------------
    def hard_pick(self):
        """Argmax: one value row is taken whole; the near match next to it gives nothing."""
        self.step("hard_pick")
        f, r = self.focus, self.runner
        self.hard_panel = self.panel(
            self.t("hard_title"), WeightBars(self.hard.weights[f], self.att.tokens, color=style.DIM,
                                             scale_to=1,
                       max_height=PANEL_BAR_H, buff=style.GAP / 2),
            self.t("hard_out", chosen=self.att.tokens[self.chosen]), self.hard.output[f],
            self.t("near", runner=self.att.tokens[r], score=number_text(self.s[r]),
                   w=number_text(self.hard.weights[f][r])),
            style.DIM)
        self.soft_panel = self.panel(
            self.t("soft_title"),
            WeightBars(self.att.weights[f], self.att.tokens, fills=style.heat_color, scale_to=1,
                       max_height=PANEL_BAR_H, buff=style.GAP / 2),
            self.t("soft_out"), self.att.output[f],
            self.t("near", runner=self.att.tokens[r], score=number_text(self.s[r]),
                   w=number_text(self.att.weights[f][r])),
            style.TEXT)
        body = self.place_panels(VGroup(self.hard_panel, self.soft_panel))
        self.panels = body
        self.reframe(self.hard_panel, layout=body)
        title, chart, out_t, out, note = self.hard_panel
        bar = chart[0].bars[self.chosen]
        self.play(FadeIn(title), FadeIn(chart))
        self.play(bar.animate.set_fill(style.HIGHLIGHT), run_time=style.FAST)
        self.play(bar.animate.set_fill(style.DIM), FadeIn(out_t), FadeIn(out, shift=DOWN * style.GAP))
        self.play(FadeIn(note))

    def place_panels(self, body: VGroup) -> VGroup:
        """The two panels side by side or one above the other, each with its output under its chart or
        (wide) beside it: whichever fills the screen with the largest numbers, the hard panel alone
        (the first step) as much as both. When none fits (long words), the outputs beside their charts,
        each chart's scores named under them and each note no wider than its output (a smaller line
        before smaller numbers)."""

        # each note as it is, and (long words) no wider than its output
        notes = [(p[NOTE], fit(p[NOTE].copy(), p[OUTPUT].width, p[NOTE].height)) for p in body]

        def arranged(side_by_side: bool, wide: bool, compact: bool = False):
            for p, note_ways in zip(body, notes):
                p.submobjects[NOTE] = note_ways[compact]
                t, chart, out_t, out, note = p
                self.name_scores(chart, under=compact)
                if wide:  # the output and the note on the chart's right (many tokens: close by)
                    right = VGroup(out_t, out, note).arrange(DOWN, buff=style.GAP)
                    VGroup(t, VGroup(chart, right).arrange(RIGHT, buff=style.GAP)).arrange(DOWN,
                                                                                           buff=style.GAP)
                else:
                    p.arrange(DOWN, buff=style.GAP)
            if not side_by_side:
                return body.arrange(DOWN, buff=style.GAP * 2)
            body.arrange(RIGHT, buff=style.BIG_GAP * 2, aligned_edge=DOWN)
            self.soft_panel[0].match_y(self.hard_panel[0])  # titles on one line, bars on one baseline
            return body

        return self.place_best(*(lambda s=s, w=w: arranged(s, w)
                                 for s, w in ((True, False), (False, False), (False, True))),
                               shown=lambda body: [self.hard_panel, body],
                               last=(lambda: arranged(False, True, compact=True),))

    @staticmethod
    def name_scores(chart: VGroup, under: bool = False) -> None:
        """The scores' row name on the row's left, or `under` it (left-aligned: no wider than the bars)."""
        _, scores, scores_t = chart
        if under:
            scores_t.next_to(scores, DOWN, buff=style.GAP / 3).align_to(scores, LEFT)
        else:
            scores_t.next_to(scores, LEFT, buff=style.GAP).match_y(scores)

    def soft_mix(self):
        """Softmax weights: every value row takes part, in proportion to its match."""
        self.step("soft_mix")
        self.reframe(self.panels, layout=self.panels)
        title, chart, out_t, out, note = self.soft_panel
        self.play(FadeIn(title), FadeIn(chart))
        self.play(FadeIn(out_t), FadeIn(out, shift=DOWN * style.GAP))
        self.play(FadeIn(note))

    def gradient_step(self):
        """Move the chosen key's score: the hard weight jumps once and is flat elsewhere; the soft one
        glides."""
        self.step("step")
        self.clear_body()
        # the current score and the one where argmax switches
        sc, t = float(self.s[self.chosen]), float(self.s[self.runner])
        margin = max(sc - t, self.att.sqrt_d_k)
        lo, hi = t - margin, sc + margin
        ax, p = self.score_axes(lo, hi)
        curves = self.weight_curves(p, lo, hi, sc, t)
        labels = self.plot_labels(ax, p, lo, sc, t)
        plot = VGroup(ax, *curves, *labels)
        self.legend = self.step_legend(t)
        body = VGroup(plot, self.legend).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        self.show_plot(ax, curves, labels)

    def value_gradient(self):
        """The hard output is the chosen value row itself: that row still has a gradient."""
        self.step("value_gradient")
        self.play(FadeIn(self.legend[2], shift=UP * style.GAP))

    def learn(self):
        """Both pipelines, column by column: the soft one is differentiable end to end, so the error
        reaches the projections; the hard one breaks at argmax and only the chosen value row learns."""
        self.step("learn")
        self.clear_body()
        hard_row, soft_row = self.pipelines()
        hard_t = label(self.t("hard_title"), style.BODY_SIZE, style.DIM)
        soft_t = label(self.t("soft_title"), style.BODY_SIZE, style.TEXT)
        key = VGroup(label(self.t("ok"), style.LABEL_SIZE, style.HIGHLIGHT),
                     label(self.t("broken"), style.LABEL_SIZE, style.WRONG)).arrange(RIGHT,
                                                                                     buff=style.BIG_GAP)
        hard = VGroup(hard_row, self.back_arrow(hard_row, -1, -2, style.V_COLOR, self.t("hard_back"),
                                                style.BACK_ANGLE))
        soft = VGroup(soft_row, self.back_arrow(soft_row, -1, 0, style.HIGHLIGHT, self.t("backprop"),
                                                style.BACK_ANGLE / 2))  # a long chord
        self.place_pipelines(hard_t, hard, soft_t, soft, key)
        self.show_pipelines(hard_t, hard, soft_t, soft, key)

    # -- the score plot (step) ---------------------------------------------------------------------
    def score_axes(self, lo: float, hi: float):
        """Axes for scores lo..hi against weights 0..1, and p(score, weight): a point on them."""
        ax = Axes(x_range=[0, hi - lo, hi - lo], y_range=[0, 1, 1], x_length=style.PLOT_W,
                  y_length=style.PLOT_H, tips=False,
                  axis_config={"color": style.GRID, "include_ticks": False})
        p = lambda x, y: ax.c2p(x - lo, y)  # noqa: E731  a (score, weight) point
        return ax, p

    def weight_curves(self, p, lo: float, hi: float, sc: float, t: float) -> tuple:
        """The chosen key's weight as its score moves: hard (flat, a jump at t), the current score sc,
        soft (a smooth curve), and the current weights as dots."""
        c = self.chosen
        xs = np.linspace(lo, hi, SAMPLES)
        soft_w = weight_as_score_moves(self.s, c, xs, self.att.scale)  # [SAMPLES]
        soft = VMobject(stroke_color=style.HIGHLIGHT, stroke_width=style.CURVE_WIDTH)
        soft.set_points_smoothly([p(x, w) for x, w in zip(xs, soft_w)])
        hard = VGroup(
            Line(p(lo, 0), p(t, 0), stroke_color=style.DIM, stroke_width=style.CURVE_WIDTH),
            Line(p(t, 1), p(hi, 1), stroke_color=style.DIM, stroke_width=style.CURVE_WIDTH),
        )
        jump = DashedLine(p(t, 0), p(t, 1), stroke_color=style.WRONG, stroke_width=style.CURVE_WIDTH / 2)
        now = DashedLine(p(sc, 0), p(sc, 1), stroke_color=style.GRID)
        dots = VGroup(Dot(p(sc, 1), radius=style.DOT_R, color=style.DIM),
                      Dot(p(sc, self.att.weights[self.focus][c]), radius=style.DOT_R, color=style.HIGHLIGHT))
        return hard, jump, now, soft, dots

    def plot_labels(self, ax, p, lo: float, sc: float, t: float) -> tuple:
        """The axes' ends and names, the current score and the switching score under the x axis."""
        c = self.chosen
        y0 = label(number_text(0), style.LABEL_SIZE, style.DIM).next_to(p(lo, 0), LEFT, buff=style.GAP / 2)
        y1 = label(number_text(1), style.LABEL_SIZE, style.DIM).next_to(p(lo, 1), LEFT, buff=style.GAP / 2)
        y_title = label(self.t("y_axis", chosen=self.att.tokens[c]), style.LABEL_SIZE, style.DIM)
        y_title.next_to(ax.y_axis, UP, buff=style.GAP / 2).align_to(ax.y_axis, LEFT)
        x_now = label(number_text(sc), style.LABEL_SIZE, style.HIGHLIGHT).next_to(p(sc, 0), DOWN,
                                                                                  buff=style.GAP / 2)
        x_jump = label(number_text(t), style.LABEL_SIZE, style.WRONG).next_to(p(t, 0), DOWN,
                                                                              buff=style.GAP / 2)
        if x_jump.get_right()[0] > x_now.get_left()[0] - style.GAP / 2:  # close scores: one label lower
            x_jump.shift(DOWN * (x_jump.height + style.GAP / 2))
        x_title = VGroup(label(self.t("x_axis", chosen=self.att.tokens[c]), style.LABEL_SIZE, style.DIM),
                         math("q dot k", color=style.DIM)).arrange(RIGHT, buff=style.GAP / 2)
        x_title.next_to(ax.x_axis, DOWN, buff=style.GAP / 2).align_to(ax.x_axis, RIGHT)
        x_title.shift(DOWN * (max(x_now.height, x_jump.height) + style.GAP / 2))
        return y0, y1, y_title, x_now, x_jump, x_title

    def step_legend(self, t: float) -> VGroup:
        """What each curve is, and (shown a step later) the value row's gradient."""
        c, r = self.chosen, self.runner
        return VGroup(
            self.legend_line(style.DIM,
                             self.t("hard_curve", score=number_text(t), runner=self.att.tokens[r])),
            self.legend_line(style.HIGHLIGHT, self.t("soft_curve")),
            self.legend_line(style.V_COLOR, self.t("value_grad", chosen=self.att.tokens[c]), cell=True),
        ).arrange(DOWN, buff=style.GAP / 2, aligned_edge=LEFT)

    def show_plot(self, ax, curves, labels):
        """The axes, the current score, the hard curve and its jump, then the soft curve."""
        hard, jump, now, soft, dots = curves
        y0, y1, y_title, x_now, x_jump, x_title = labels
        self.play(Create(ax), FadeIn(VGroup(y0, y1, y_title, x_title)), run_time=style.FAST)
        self.play(FadeIn(now), FadeIn(x_now))
        self.play(Create(hard), FadeIn(dots[0]), run_time=style.RUN)
        self.play(Create(jump), FadeIn(x_jump), FadeIn(self.legend[0]))
        self.play(Create(soft), FadeIn(dots[1]), run_time=style.SLOW)
        self.play(FadeIn(self.legend[1]))

    # -- the two pipelines (learn) -----------------------------------------------------------------
    def projections(self, color) -> VGroup:
        """The first node of a pipeline: "projections" over W_Q, W_K, W_V in their role colours."""
        mats = VGroup(*(math(m, color=c) for m, c in (
            ("W_Q", style.Q_COLOR), ("W_K", style.K_COLOR), ("W_V", style.V_COLOR)))
        ).arrange(RIGHT, buff=style.GAP / 2)
        return VGroup(label(self.t("projections"), style.LABEL_SIZE, color), mats).arrange(DOWN,
                                                                                           buff=style.GAP / 2)

    def pipelines(self) -> tuple[VGroup, VGroup]:
        """The hard and the soft pipeline, their boxes the same size column by column."""
        hard_steps = [self.projections(style.DIM)] + [word(self.t(k), style.LABEL_SIZE, style.DIM)
                                                  for k in ("scores", "argmax", "pick_row", "output")]
        soft_steps = [self.projections(style.TEXT)] + [word(self.t(k), style.LABEL_SIZE, style.TEXT)
                                                   for k in ("scores", "softmax", "weighted_sum", "output")]
        widths = [max(h.width, s.width) for h, s in zip(hard_steps, soft_steps)]
        height = max(m.height for m in hard_steps + soft_steps)
        hard = self.pipeline(hard_steps, widths, height, [True, False, True, True], style.GRID)
        soft = self.pipeline(soft_steps, widths, height, [True, True, True, True], style.DIM)
        return hard, soft

    def pipeline(self, steps, widths, height: float, marks, color) -> VGroup:
        """One pipeline: its steps boxed in a row, an arrow between neighbours, over each arrow a mark
        (the gradient passes, or breaks)."""
        nodes = VGroup()
        for m, w in zip(steps, widths):
            box = RoundedRectangle(corner_radius=style.CORNER, width=w + style.TOKEN_PAD * 2,
                                   height=height + style.TOKEN_PAD * 2, stroke_color=color, stroke_width=2)
            nodes.add(VGroup(box, m.move_to(box)))
        nodes.arrange(RIGHT, buff=style.BIG_GAP + style.GAP)
        arrows, ticks = VGroup(), VGroup()
        for a, b, ok in zip(nodes[:-1], nodes[1:], marks):
            arr = Arrow(a.get_right(), b.get_left(), buff=style.GAP / 3, stroke_color=style.DIM,
                        max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO * 2)
            arrows.add(arr)
            ticks.add(label(self.t("ok_mark") if ok else self.t("broken_mark"), style.LABEL_SIZE,
                            style.HIGHLIGHT if ok else style.WRONG).next_to(arr, UP, buff=style.GAP / 3))
        return VGroup(nodes, arrows, ticks)

    def back_arrow(self, pipeline, start: int, end: int, color, text: str, bend: float) -> VGroup:
        """The gradient's way back under a pipeline, from node `start` to node `end`, and its text."""
        arc = CurvedArrow(pipeline[0][start].get_bottom() + DOWN * style.GAP / 3,
                          pipeline[0][end].get_bottom() + DOWN * style.GAP / 3, angle=-bend,
                          color=color, stroke_width=style.CURVE_WIDTH)
        t = label(text, style.LABEL_SIZE, color).next_to(arc, DOWN, buff=style.GAP / 3)
        return VGroup(arc, t)

    def place_pipelines(self, hard_t, hard, soft_t, soft, key):
        """The hard pipeline under its title (the key beside it), the soft one below."""
        body = VGroup(hard_t, hard, soft_t, soft)
        body.arrange(DOWN, buff=style.GAP, aligned_edge=LEFT)
        soft_t.shift(DOWN * style.GAP)
        soft.shift(DOWN * style.GAP)
        key.next_to(hard_t, RIGHT, buff=style.BIG_GAP).align_to(hard[0], RIGHT)
        body.add(key)
        self.place_body(body)

    def show_pipelines(self, hard_t, hard, soft_t, soft, key):
        """Each pipeline, its marks, then its way back."""
        (hard_row, hard_back), (soft_row, soft_back) = hard, soft
        self.play(FadeIn(hard_t), FadeIn(hard_row[0]), *(GrowArrow(a) for a in hard_row[1]))
        self.play(FadeIn(hard_row[2]), FadeIn(key))
        self.play(Create(hard_back[0]), FadeIn(hard_back[1]))
        self.play(FadeIn(soft_t), FadeIn(soft_row[0]), *(GrowArrow(a) for a in soft_row[1]))
        self.play(FadeIn(soft_row[2]))
        self.play(Create(soft_back[0]), run_time=style.SLOW)
        self.play(FadeIn(soft_back[1]))

    # -- pieces ------------------------------------------------------------------------------------
    def panel(self, title, bars, out_title, out, note, color):
        """Title, weight bars over the raw scores, the output vector and a note on the near match."""
        t = label(title, style.BODY_SIZE, color)
        as_text = masked_format(self.s)  # one row, one number format (−∞: a key the mask hides)
        top = bars.token_labels.get_bottom()[1] - style.GAP / 3  # below every token name, staggered or not
        scores = VGroup(*(
            fit(label(as_text(x), style.LABEL_SIZE, style.DIM), bars.step * style.LABEL_FILL, style.CELL_H)
            .set_x(tok.get_x()).align_to([0, top, 0], UP)
            for x, tok in zip(self.s, bars.token_labels)))
        chart = VGroup(bars, scores, label(self.t("scores_row"), style.LABEL_SIZE, style.DIM))
        self.name_scores(chart)
        o_t = label(out_title, style.LABEL_SIZE, style.DIM)
        o = vector(out, style.V_COLOR, col_labels=self.dims)
        even_labels(o.col_labels)
        n = label(note, style.LABEL_SIZE, style.DIM)
        return VGroup(t, chart, o_t, o, n).arrange(DOWN, buff=style.GAP)

    def legend_line(self, color, text, cell=False):
        """A line sample (or, for a value, a vector cell) and its text."""
        swatch = Line(LEFT * style.SWATCH / 2, RIGHT * style.SWATCH / 2, stroke_color=color,
                      stroke_width=style.CURVE_WIDTH)
        if cell:
            swatch = VGroup(Rectangle(width=style.SWATCH / 2, height=style.SWATCH / 3, stroke_color=color,
                                      stroke_width=2), Rectangle(width=style.SWATCH / 2,
                                      height=style.SWATCH / 3, stroke_color=color, stroke_width=2)
                            ).arrange(RIGHT, buff=0)
        return VGroup(swatch, label(text, style.LABEL_SIZE, style.TEXT)).arrange(RIGHT, buff=style.GAP)
