"""real, a causal model's steps (a lesson whose [real] model is "smollm2"): the causal mask, one head's
weights a triangle with exactly 0 above the diagonal; RoPE, q and k turned by the position, drawn as dials
for two of their pairs; the next token, the five most probable with their probabilities. A mixin of
scenes/real.py's Real; every number from attention_core/real/study.py."""

from __future__ import annotations

import numpy as np
from manim import DOWN, RIGHT, UP, Arrow, Circle, Rectangle, VGroup

from scenes.common import style
from scenes.common.formats import number_text, percent_text
from scenes.common.labels import label
from scenes.common.panels import bars, table

SQUARE = (0.34, 0.17)  # the heads' grid, 30 layers × 9 heads: a cell's width and height, no word in it
PAIRS = (0, 4)  # the rotary pairs drawn as dials: the fastest turn, and one slower
DIAL = 0.32  # a dial's radius
HEAD_DIM = 64  # SmolLM2's numbers in a head's q and k: half as many pairs


class CausalSteps:
    """show_mask, show_rope, show_next and their fields, for Real (self.study a causal RealStudy)."""

    def causal_fields(self) -> dict:
        s = self.study
        layer, head = s.mask_head
        token, p = s.top[0]
        return {"first": self.tr.token(s.att.tokens[0]), "mask_layer": layer + 1, "mask_head": head + 1,
                "pairs": HEAD_DIM // 2, "next": self.tr.token(token.strip() or token), "p": percent_text(p),
                "shown": len(s.top), "others": self.tr("common.list_sep").join(
                    f"{self.tr.token(t.strip() or t)} {percent_text(q)}" for t, q in s.top[1:])}

    def square_grid(self) -> VGroup:
        """layers × heads squares, each the colour of the word the focus weighs most there, a legend under
        them (a word and its count); every layer's and head's number would not fit, every fifth is named."""
        s, (w, h) = self.study, SQUARE
        shown = [word for word, _ in s.counts]
        palette = [style.HIGHLIGHT, style.Q_COLOR, style.K_COLOR, style.V_COLOR, style.X_COLOR, style.DIM]
        colour = {word: palette[min(i, len(palette) - 1)] for i, word in enumerate(shown)}
        cells = VGroup(*(Rectangle(width=w, height=h, stroke_color=style.BACKGROUND, stroke_width=1,
                                   fill_color=colour[s.label(int(k))], fill_opacity=1)
                         for row in s.keys for k in row)).arrange_in_grid(s.att.layers, s.att.heads, buff=0)
        rows = VGroup(*(label(self.t("layer", n=i + 1), style.SMALL_SIZE, style.DIM)
                        .next_to(cells[i * s.att.heads], direction=-RIGHT, buff=style.GAP / 3)
                        for i in range(0, s.att.layers, 5)))
        cols = VGroup(*(label(self.t("head", n=j + 1), style.SMALL_SIZE, style.DIM).scale(0.8)
                        .next_to(cells[j], UP, buff=style.GAP / 3) for j in range(s.att.heads)))
        legend = VGroup(*(VGroup(Rectangle(width=w, height=h, stroke_width=0, fill_color=colour[word],
                                           fill_opacity=1),
                                 label(self.t("count", word=self.tr.token(word), n=n, total=s.total),
                                       style.SMALL_SIZE, style.TEXT)).arrange(RIGHT, buff=style.GAP / 3)
                          for word, n in s.counts)).arrange(DOWN, buff=style.GAP / 3, aligned_edge=RIGHT * -1)
        return VGroup(VGroup(cells, rows, cols), legend).arrange(RIGHT, buff=style.BIG_GAP)

    def show_mask(self):
        """The mask head's n × n weights: the cells above the diagonal (later keys) dim and empty."""
        s = self.study
        layer, head = s.mask_head
        names = list(s.att.tokens)
        grid = table(s.att.weights[layer, head], names, names, heat=True)
        n = len(names)
        for i in range(n):
            for j in range(i + 1, n):
                grid.box(i, j).set_fill(opacity=0)
                grid.number(i, j).set_color(style.DIM)
        self.panel(self.titled(self.t("mask_title", **self.fields()), grid),
                   note=self.t("mask_note", **self.fields()))

    def rope_row(self, pair: int) -> VGroup:
        """A dial per token: the angle p · base^(-2i/d) that pair i of its q and k is turned by."""
        s = self.study
        step = s.rope_base ** (-2 * pair / HEAD_DIM)
        dials = VGroup()
        for p, token in enumerate(s.att.tokens):
            circle = Circle(radius=DIAL, stroke_color=style.GRID, stroke_width=style.GRID_STROKE)
            angle = p * step
            hand = Arrow(circle.get_center(), circle.get_center() + DIAL * np.array(
                [np.cos(angle), np.sin(angle), 0.0]), buff=0, stroke_width=3, color=style.HIGHLIGHT,
                max_tip_length_to_length_ratio=0.3)
            name = label(token, style.SMALL_SIZE, style.DIM).next_to(circle, DOWN, buff=style.GAP / 3)
            dials.add(VGroup(circle, hand, name))
        dials.arrange(RIGHT, buff=style.GAP, aligned_edge=DOWN)
        head = label(self.t("rope_pair", i=pair + 1, angle=number_text(step)), style.SMALL_SIZE, style.TEXT)
        return VGroup(head, dials).arrange(RIGHT, buff=style.GAP)

    def show_rope(self):
        rows = VGroup(*(self.rope_row(i) for i in PAIRS)).arrange(DOWN, buff=style.GAP, aligned_edge=RIGHT)
        self.panel(self.titled(self.t("rope_title", **self.fields()), rows),
                   note=self.t("rope_note", **self.fields()))

    def show_next(self):
        """The next token's most probable, a bar each, the first named under them."""
        s = self.study
        names = [t.strip() or t for t, _ in s.top]  # the space a piece starts with, dropped as the tokens'
        self.panel(self.titled(self.t("next_title", **self.fields()),
                               bars([p for _, p in s.top], names)),
                   note=self.t("next_note", **self.fields()))
