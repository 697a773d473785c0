"""5. mixing: every value scaled by the focus's weight for it, then summed; the top key dominates; the
output's most-strengthened dimension, compared with the focus's own value; still a mix, not a pick."""

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_core import change_size, dominant
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import cell_width_for, label, math, word
from scenes.common.layout import CROWD_GAP
from scenes.common.mobjects import (
    NumberGrid,
    WeightBars,
    number_text,
    outline,
    percent_text,
    vector,
)


def bracketed(values) -> str:
    return "[" + ", ".join(number_text(x) for x in values) + "]"


def band(group, height: float, color):
    """A frame around a row of cells exactly one cell high, so it never crosses the neighbours' text."""
    return outline(group, color, buff=(style.GAP / 2, 0), height=height)


class Mixing(LessonScene):
    scene_id = "mixing"

    def setup(self):
        super().setup()
        f = self.focus
        self.w = self.att.weights[f]  # [n] the focus's weights over the keys
        self.own = self.att.v[f]  # [d_v] the focus's own value
        self.out = self.att.output[f]  # [d_v] the weighted sum
        self.top = int(np.argmax(self.w))
        self.flat = bool(np.allclose(self.w, self.w[0]))  # uniform weights: nobody dominates
        growth = self.out - self.own
        self.grown = int(np.argmax(growth))  # the dimension the mix strengthens most
        self.grows = bool(growth[self.grown] > 0)

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        g = self.grown
        return {**super().fields(), "top": self.token(self.top),
                "share": percent_text(self.w[self.top]),
                "output": bracketed(self.out), "own": bracketed(self.own), "dim": self.dims[g],
                "dim_phrase": self.t("dim_named" if self.lesson.names_dims(self.lang) else "dim_unnamed",
                                     dim=self.dims[g]),
                "before": number_text(self.own[g]), "after": number_text(self.out[g])}

    def variants(self) -> list[str]:
        """uniform: every weight 1/n; shared: no value holds more than half of the weight; flat: no
        dimension grows."""
        return (["uniform"] if self.flat else []) + (["shared"] if dominant(self.w) is None else []) \
            + ([] if self.grows else ["flat"]) + [self.growth_size()]

    def growth_size(self) -> str:
        """How much the strengthened dimension grows, against the larger of the two vectors compared
        (attention_core.change_size): "slight" lines say it grows only slightly."""
        g, scale = self.grown, float(max(np.abs(self.own).max(), np.abs(self.out).max()))
        return change_size(self.out[g] - self.own[g], scale)

    # -- steps -----------------------------------------------------------------------------------
    def construct(self):
        self.show_heading()
        self.build_table()
        self.values_and_weights()
        self.scale_values()
        self.sum_columns()
        self.strengthened()
        self.still_a_mix()

    def build_table(self):
        """weights × values = weighted rows, then the column sums under a rule: built once, in the
        arrangement that lets it be largest (the formula beside or above it; cells as wide as the
        dimension names, or plain cells under staggered names)."""
        self.place_best(*(lambda wide=wide, beside=beside: self.compose_table(wide, beside)
                          for wide in (True, False) for beside in (True, False)),
                        shown=lambda body: [VGroup(self.formula, self.wcol, self.vgrid, self.w_head,
                                                   self.v_head), body])  # the values first, then the sum

    def compose_table(self, wide: bool, beside: bool) -> VGroup:
        """The table, its formula beside it or above it: sets the parts, returns self.body."""
        self.cw = cell_width_for(self.dims) if wide else style.CELL_W
        self.build_rows()
        self.build_heads()
        self.build_sum()
        self.formula = math("o", "=", "sum_j", "w_j thin", "v_j")
        self.formula[-1].set_color(style.V_COLOR)
        table = VGroup(self.wcol, self.times, self.vgrid, self.w_head, self.v_head, self.wv_head,
                       self.rule, self.outv, self.out_label)
        self.formula.next_to(table, RIGHT if beside else UP, buff=style.BIG_GAP if beside else style.GAP)
        self.top_frame = band(
            VGroup(self.wcol.row_labels[self.top], self.wcol.row(self.top), self.vgrid.row(self.top)),
            self.vgrid.box(self.top, 0).height, style.EMPHASIS)
        self.arrows = VGroup(*(label("→", style.BODY_SIZE, style.DIM).move_to(t) for t in self.times))
        self.body = VGroup(self.formula, table, self.top_frame, self.arrows)
        return self.body

    def build_rows(self):
        """The values, one row per token; left of them the focus's weights, a × between each pair."""
        toks = self.att.tokens
        self.vgrid = NumberGrid(self.att.v, col_labels=self.dims, cell_w=self.cw)
        self.vgrid.boxes.set_stroke(style.V_COLOR, width=2)
        self.wcol = NumberGrid(self.w[:, None], row_labels=toks, fills=style.heat_color)
        self.wcol.shift(self.vgrid.boxes.get_left() - self.wcol.boxes.get_right() + LEFT * style.BIG_GAP)
        self.times = VGroup(*(
            label("×", style.BODY_SIZE, style.DIM).move_to(
                (self.wcol.box(i, 0).get_right() + self.vgrid.box(i, 0).get_left()) / 2)
            for i in range(len(toks))
        ))

    def build_heads(self):
        """The columns' heads on one line: the weights, and the values (later: the weighted values)."""
        col_top = self.vgrid.col_labels.get_top()[1]
        self.w_head = word(self.t("weights_of", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT)
        self.w_head.next_to(self.wcol.boxes, UP, buff=style.GAP / 2)
        self.w_head.align_to(self.wcol.boxes, RIGHT)
        self.v_head = word(self.t("common.value"), style.LABEL_SIZE, style.V_COLOR)
        self.wv_head = word(self.t("weighted"), style.LABEL_SIZE, style.V_COLOR)
        for h in (self.v_head, self.wv_head):
            h.move_to([self.vgrid.boxes.get_center()[0], col_top, 0],
                      aligned_edge=DOWN).shift(UP * style.GAP / 2)
            # longer words: a head so wide that it would touch the weights' (read as one) starts a gap
            # after it instead of centred over the values (a head that keeps clear stays where it was)
            if h.get_left()[0] - self.w_head.get_right()[0] < CROWD_GAP * min(h.height, self.w_head.height):
                h.shift(RIGHT * (self.w_head.get_right()[0] + style.GAP - h.get_left()[0]))
        self.w_head.match_y(self.v_head)

    def build_sum(self):
        """A rule under the values, the output under it, its label on the left."""
        self.rule = Line(self.vgrid.boxes.get_left(), self.vgrid.boxes.get_right(), stroke_color=style.DIM)
        self.rule.next_to(self.vgrid.boxes, DOWN, buff=style.GAP)
        self.outv = vector(self.out, style.V_COLOR, cell_w=self.cw)
        self.outv.next_to(self.rule, DOWN, buff=style.GAP).align_to(self.vgrid.boxes, LEFT)
        self.out_label = word(self.t("output_of", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT)
        self.out_label.next_to(self.outv.boxes, LEFT, buff=style.GAP)

    def values_and_weights(self):
        """The value of every token, and beside it the focus's weight for that token."""
        self.step("values")
        self.reframe(self.formula, self.vgrid, self.v_head, self.wcol, self.w_head, self.times,
                     layout=self.body)
        self.play(Write(self.formula))
        self.play(FadeIn(self.vgrid), FadeIn(self.v_head))
        self.play(FadeIn(self.wcol, shift=RIGHT * style.GAP), FadeIn(self.w_head), FadeIn(self.times))

    def scale_values(self):
        """Every row multiplied by its weight: the top key's row stays large, the others shrink."""
        self.step("scale")
        scaled = self.vgrid.new_values(self.w[:, None] * self.att.v)
        self.play(ReplacementTransform(self.vgrid, scaled), ReplacementTransform(self.v_head, self.wv_head),
                  ReplacementTransform(self.times, self.arrows), run_time=style.SLOW)
        self.vgrid = scaled
        if not self.flat:
            self.play(FadeIn(self.top_frame))

    def sum_columns(self):
        """Each column summed into one number of the output."""
        self.step("sum")
        self.reframe(*self.on_screen(), self.rule, self.outv, self.out_label, layout=self.body)
        self.play(FadeIn(self.rule), FadeIn(self.outv.boxes), FadeIn(self.out_label))
        self.play(LaggedStart(*(
            TransformFromCopy(VGroup(*(self.vgrid.number(i, j) for i in range(self.att.n))),
                              self.outv.number(0, j))
            for j in range(self.att.d_v)
        ), lag_ratio=style.FAST / style.SLOW), run_time=style.SLOW)

    def strengthened(self):
        """The output beside the focus's own value: the most-grown dimension framed."""
        self.step("strengthened")
        compared = self.comparison()
        shares, mix_note = self.shares_chart()
        self.place_strengthened(VGroup(compared, shares), mix_note)
        self.strengthened_body = VGroup(compared, shares, mix_note)
        self.show_comparison(compared)
        self.mix = VGroup(*shares, mix_note)

    def comparison(self) -> VGroup:
        """The focus's own value over its output, each labelled, and under them the note on the
        most-grown dimension: VGroup(VGroup(own, out, labels), note)."""
        focus = self.lesson.focus
        own = vector(self.own, style.V_COLOR, col_labels=self.dims, cell_w=self.cw)
        own_label = word(self.t("own_value", focus=focus), style.LABEL_SIZE, style.DIM)
        out = vector(self.out, style.V_COLOR, cell_w=self.cw)
        out_label = word(self.t("output_of", focus=focus), style.LABEL_SIZE, style.TEXT)
        out.next_to(own.boxes, DOWN, buff=style.GAP).align_to(own.boxes, LEFT)  # column under column (a wide
        # dimension name reaches left of its cell)
        labels = VGroup(own_label, out_label)
        for lab, vec in zip(labels, (own, out)):
            lab.next_to(vec.boxes, LEFT, buff=style.GAP)
        g = self.grown
        key = "grown" if self.grows else "no_growth"
        note = label(self.t(key, dim=self.dims[g], before=number_text(self.own[g]),
                            after=number_text(self.out[g])),
                     style.LABEL_SIZE, style.HIGHLIGHT if self.grows else style.DIM)
        compare = VGroup(own, out, labels)
        below, beside = (VGroup(compare, note.copy().next_to(compare, d, buff=style.GAP)) for d in (DOWN,
                                                                                                    RIGHT))
        note.next_to(compare, RIGHT if self.room(beside) > self.room(below) else DOWN,
                     buff=style.GAP)  # (shown
        return VGroup(compare, note)  # alone first: whichever lets it be larger)

    def shares_chart(self) -> tuple[VGroup, VGroup]:
        """Every key's share of the mix as bars under their title; the note that the output is a mix."""
        step = cell_width_for(self.att.tokens, minimum=style.BAR_W + style.GAP)
        bars = WeightBars(self.w, self.att.tokens, fills=style.heat_color, max_height=style.BAR_MAX_H / 2,
                          buff=step - style.BAR_W)
        bars_title = label(self.t("shares", focus=self.lesson.focus), style.BODY_SIZE, style.TEXT)
        mix_note = label(self.t("mix_note"), style.BODY_SIZE, style.EMPHASIS)
        shares = VGroup(bars_title, bars).arrange(DOWN, buff=style.GAP)
        return shares, mix_note

    def place_strengthened(self, top: VGroup, mix_note: VGroup):
        """The comparison and the shares on top (beside each other, or stacked if that lets them be
        larger), the note under them."""
        body = VGroup(top, mix_note)

        def arranged(side):
            top.arrange(side, buff=style.BIG_GAP * (2 if side is RIGHT else 1))
            return body.arrange(DOWN, buff=style.BIG_GAP)

        self.place_best(lambda: arranged(RIGHT), lambda: arranged(DOWN))

    def show_comparison(self, compared: VGroup):
        """The table makes way; the output moves into the comparison; the own value and the note."""
        (own, out, (own_label, out_label)), note = compared
        g = self.grown
        self.play(FadeOut(VGroup(self.formula, self.wcol, self.arrows, self.vgrid, self.w_head,
                                 self.wv_head, self.rule, self.top_frame)), run_time=style.FAST)
        self.reframe(compared, layout=self.strengthened_body)
        self.play(ReplacementTransform(VGroup(self.outv, self.out_label), VGroup(out, out_label)))
        self.play(FadeIn(own, shift=DOWN * style.GAP), FadeIn(own_label))
        if self.grows:
            frame = outline(VGroup(own.box(0, g), out.box(0, g)), style.HIGHLIGHT, buff=style.GAP / 3)
            frame.stretch_to_fit_width(own.box(0, g).width)  # the column's cells (its name may be wider)
            name = own.col_labels[g]
            self.play(FadeIn(frame), name.animate.set_color(style.HIGHLIGHT), Write(note))
        else:
            self.play(Write(note))

    def still_a_mix(self):
        """Every key's share of the mix: the output is a blend, not one token's value."""
        self.step("mix")
        bars_title, bars, mix_note = self.mix
        self.reframe(*self.on_screen(), self.mix, layout=self.strengthened_body)
        self.play(FadeIn(bars_title), FadeIn(bars, shift=UP * style.GAP))
        self.play(FadeIn(mix_note))
