"""4. softmax: along the key axis the focus row's scaled scores become weights that sum to one; the
rounded values on screen need not add to exactly one; how the focus token's attention is shared out."""

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Arrow,
    Brace,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    Rectangle,
    ReplacementTransform,
    Text,
    VGroup,
    Write,
)

from attention_core import strongest_other
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import listing
from scenes.common.labels import math, mixed_line, word, wrapped
from scenes.common.masked import MINUS_INF
from scenes.common.mobjects import WeightBars, number_text, outline, shared_format


class Softmax(LessonScene):
    scene_id = "softmax"

    def construct(self):
        self.show_heading()
        self.scores_in()
        self.to_weights()
        self.sum_to_one()
        self.reading()

    # -- numbers and text ----------------------------------------------------------------------------
    @property
    def row(self) -> np.ndarray:
        return self.att.weights[self.focus]

    @property
    def top(self) -> int:
        """The key that gets the most weight, the focus token itself aside."""
        return strongest_other(self.row, self.focus)

    @property
    def hidden(self) -> list[int]:
        """The keys a causal mask hides from the focus (those after it); none without a mask."""
        mask = self.att.mask
        return [] if mask is None else [j for j in range(self.att.n) if not mask[self.focus, j]]

    @property
    def rest(self) -> list[int]:
        return [j for j in range(self.att.n) if j not in (self.focus, self.top, *self.hidden)]

    def reading_variant(self) -> str:
        """Which reading: the focus sees only itself ("alone": the first token under a mask); no third
        token to share the rest ("pair"); keys the mask hides ("masked", "pair_masked"); "" otherwise."""
        if self.hidden and self.top in self.hidden:
            return "alone"
        return "_".join(v for v in ("" if self.rest else "pair", "masked" if self.hidden else "") if v)

    def variants(self) -> list[str]:
        """Lines of their own: the reading's (reading_variant); the input of the softmax in the
        diagnostic modes (raw dot products, or scores ignored)."""
        return [v for v in [self.reading_variant()] if v] + [self.att.mode]

    def fields(self) -> dict:
        a, w = self.att, self.row
        as_text = shared_format(w)  # as the bars print them
        shown = [as_text(x) for x in w]
        return {**super().fields(),
                "top": self.tr.token(a.tokens[self.top]), "top_pct": w[self.top], "self_pct": w[self.focus],
                "rest": listing((self.tr.token(a.tokens[j]) for j in self.rest), self.lang),
                "hidden": listing((self.tr.token(a.tokens[j]) for j in self.hidden), self.lang),
                "shown_sum": number_text(sum(float(s) for s in shown)), "exact_sum": number_text(np.sum(w)),
                "terms": " + ".join(shown),
                "scores": "[" + ", ".join(MINUS_INF if np.isneginf(x) else number_text(x)
                                          for x in a.scaled[self.focus]) + "]",
                "weights": "[" + ", ".join(shown) + "]"}

    # -- pieces ------------------------------------------------------------------------------------
    def build(self):
        """Everything the scene shows, laid out once: the bars (scores, and the weights they become)
        over the key axis, the formula beside them, and below them a slot for the sum and the reading."""
        bars = self.score_bars()
        # new_values() places bars by the positions WeightBars was built at: make the target now
        weights = bars.new_values(self.row, scale_to=1, fills=style.heat_color)
        axis, axis_name = self.key_axis(bars)
        chart = VGroup(bars, weights, axis, axis_name)
        head_scores, head_weights = self.chart_heads(chart, bars)
        side = self.formula_beside(bars, axis_name)
        unit_bar = self.unit_bar(chart, bars)
        sums = self.paragraph("shown", style.BODY_SIZE, style.TEXT)
        reading = self.reading_lines(VGroup(head_scores, chart, side, unit_bar))
        self.place_lines(unit_bar, bars, (sums, reading))
        self.layout = VGroup(head_scores, head_weights, chart, side, unit_bar, sums, reading)
        self.bars, self.weights, self.axis, self.axis_name = bars, weights, axis, axis_name
        self.head_scores, self.head_weights = head_scores, head_weights
        self.formula, self.formula_note = side
        self.stack, self.brace, self.exact = unit_bar
        self.sums, self.reading_text = sums, reading

    def score_bars(self) -> WeightBars:
        """The focus row's scaled scores as bars, about half the width whatever n is; the key names
        kept clear of bars that hang below the line; the focus's name in purple."""
        a, f = self.att, self.focus
        step = self.body_box()[0] / 2 / a.n  # the chart takes about half the width, whatever n is
        bar_w = float(np.clip(step * 2 / 3, style.BAR_W, style.BAR_W * 2))
        bars = WeightBars(a.scaled[f], a.tokens, color=style.DIM, bar_w=bar_w,
                          buff=max(step - bar_w, style.GAP),
                          max_height=style.SOFTMAX_BAR_H)
        low = min(m.get_bottom()[1] for m in (*bars.bars, *bars.value_labels))
        clash = bars.token_labels.get_top()[1] - (low - style.GAP / 2)
        if clash > 0:  # negative scores hang below the line: keep the key names clear of them
            bars.token_labels.shift(DOWN * clash)
        bars.token_labels[f][1].set_color(style.EMPHASIS)
        return bars

    def key_axis(self, bars: WeightBars) -> tuple[Arrow, VGroup]:
        """An arrow under the key names, and its name at its tip."""
        axis = Arrow(bars.baseline.get_left(), bars.baseline.get_right(), buff=0, stroke_color=style.GRID,
                     stroke_width=2, max_tip_length_to_length_ratio=style.GAP * 2 / 3 / bars.baseline.width)
        axis.next_to(bars.token_labels, DOWN, buff=style.GAP / 2)
        axis_name = word(self.t("key_axis", focus=self.lesson.focus), style.LABEL_SIZE, style.DIM)
        axis_name.next_to(axis, RIGHT, buff=style.GAP / 2)
        return axis, axis_name

    def chart_heads(self, chart: VGroup, bars: WeightBars) -> tuple[VGroup, VGroup]:
        """What the bars show, before and after the softmax, both in one place above the chart."""
        head_scores = word(self.t(f"scores_of_{self.att.mode}", focus=self.lesson.focus), style.BODY_SIZE,
                           style.TEXT)
        head_weights = word(self.t("weights_of", focus=self.lesson.focus), style.BODY_SIZE, style.TEXT)
        for h in (head_scores, head_weights):
            h.next_to(chart, UP, buff=style.GAP).match_x(bars.baseline)
        return head_scores, head_weights

    def formula_beside(self, bars: WeightBars, axis_name: VGroup) -> VGroup:
        """The softmax formula and its note, right of the bars, level with their middle."""
        formula = math("w_j", "=", "frac(e^(s_j), sum_i e^(s_i))")
        formula_note = self.paragraph("formula_note", style.LABEL_SIZE, style.DIM)
        side = VGroup(formula, formula_note).arrange(DOWN, buff=style.GAP)
        side.next_to(VGroup(bars.bars, bars.baseline), RIGHT, buff=style.BIG_GAP * 2)
        side.shift(UP * (bars.baseline.get_y() + bars.max_height / 2 - side.get_y()))
        side.set_x(max(side.get_x(), axis_name.get_right()[0] - side.width / 2))
        return side

    def unit_bar(self, chart: VGroup, bars: WeightBars) -> VGroup:
        """The slot under the chart: the weights stacked into one bar as wide as the axis, its brace
        and the exact sum."""
        unit = bars.baseline.width
        stack = VGroup(*(
            Rectangle(width=x * unit, height=style.BAR_W / 2, stroke_color=style.BACKGROUND, stroke_width=2,
                      fill_color=style.heat_color(x), fill_opacity=1)
            for x in self.row
        )).arrange(RIGHT, buff=0)
        brace = Brace(stack, DOWN, buff=style.GAP / 3, color=style.DIM)
        exact = self.paragraph("exact", style.LABEL_SIZE, style.TEXT).next_to(brace, DOWN, buff=style.GAP / 3)
        unit_bar = VGroup(stack, brace, exact).next_to(chart, DOWN, buff=style.BIG_GAP)
        unit_bar.match_x(bars.baseline)
        return unit_bar

    def reading_lines(self, rest: VGroup) -> VGroup:
        """The reading, under the rest of the picture: its lines as they are, or, where they would make
        the picture so small that its smallest text falls below MIN_FONT_SIZE (longer words), wrapped
        to its width (a line with a formula in it stays whole)."""
        variant = self.reading_variant()
        key = f"reading_{variant}" if variant else "reading"
        reading = self.paragraph(key, style.BODY_SIZE, style.TEXT).next_to(rest, DOWN, buff=style.GAP)
        both = VGroup(rest, reading)
        smallest = min(m.font_size for m in both.get_family() if isinstance(m, Text))
        if smallest * self.fill_transform(both)[0] >= style.MIN_FONT_SIZE:
            return reading
        lines = self.tr.lines(f"softmax.{key}", **self.fields())
        return VGroup(*(mixed_line(t, style.BODY_SIZE, style.TEXT) if "$" in t
                        else wrapped(t, rest.width, self.lang, style.BODY_SIZE, style.TEXT)
                        for t in lines)).arrange(DOWN, buff=style.GAP / 2)

    def place_lines(self, unit_bar: VGroup, bars: WeightBars, lines: tuple[VGroup, ...]):
        """The sum (step 3) and the reading (step 4), one at a time in the slot under the unit bar."""
        for m in lines:
            m.next_to(unit_bar, DOWN, buff=style.GAP).match_x(bars.baseline)

    # -- steps -------------------------------------------------------------------------------------
    def scores_in(self):
        """The focus row's scaled scores, one bar per key, along the key axis."""
        self.step("scores_in")
        self.build()
        self.reframe(self.head_scores, self.bars, self.axis, self.axis_name, layout=self.layout)
        self.play(FadeIn(self.head_scores))
        self.play(FadeIn(self.bars, shift=UP * style.GAP))
        self.play(GrowArrow(self.axis), FadeIn(self.axis_name))

    def to_weights(self):
        """softmax: every score through e^s, divided by the row's total; the bars become weights."""
        self.step("to_weights")
        self.reframe(*self.on_screen(), self.formula, self.formula_note, self.weights, layout=self.layout)
        self.play(Write(self.formula), FadeIn(self.formula_note))
        # replaced, not morphed in place: the bars' labels are the weights' own text from here on
        self.play(ReplacementTransform(self.bars, self.weights),
                  FadeTransform(self.head_scores, self.head_weights), run_time=style.SLOW)
        self.bars = self.weights

    def sum_to_one(self):
        """The weights stack into one unit bar: the exact sum is one, the rounded labels need not be."""
        self.step("sum_to_one")
        self.reframe(*self.on_screen(), self.stack, self.brace, self.exact, self.sums, layout=self.layout)
        pieces = [bar.copy() for bar in self.bars.bars]
        self.play(*(ReplacementTransform(p, s) for p, s in zip(pieces, self.stack)), run_time=style.SLOW)
        self.play(FadeIn(self.brace), FadeIn(self.exact))
        self.play(FadeIn(self.sums, shift=UP * style.GAP))

    def reading(self):
        """How the focus token's attention is shared: most to the top key, some to itself, the rest."""
        self.step("reading")
        w, top = self.row, self.top
        self.play(FadeOut(self.sums), run_time=style.FAST)
        self.reframe(*self.on_screen(), self.reading_text, layout=self.layout)
        marks = VGroup()
        if all(w[top] > w[j] for j in range(self.att.n) if j != top):  # a main key only if there is one
            marks.add(outline(self.bars.bar(top), style.EMPHASIS, buff=style.GAP / 3),
                      outline(self.stack[top], style.EMPHASIS))
        self.play(*(Write(m) for m in marks), FadeIn(self.reading_text))
