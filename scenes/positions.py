"""positions: where each token is (a lesson with [positions]). Without positions, reversing the sentence
reverses the output rows and nothing else (permutation equivariance); what the positions add (the
sinusoidal table added to X, or RoPE's angles); with them the reversed sentence's rows are no longer the
same rows reversed; the focus's weights without and with positions; every position shifted: with RoPE
the scores unchanged, with sinusoidal positions changed. Every number from the core
(attention_core/next/positions.py)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, VGroup

from attention_core.multihead import strongest_keys
from attention_core.next.positions import SHIFT, rope_angles, sinusoidal
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import listing
from scenes.common.labels import wrapped
from scenes.common.mobjects import cell_width_for, number_text, percent_text
from scenes.common.panels import Panels, mark_cells, table

WORDS_W = 4.5  # the codes step's words beside the table wrap to this width
GAP_PLACES = 6  # a difference that should be 0 is written with this many decimals: rounding shows, or not


def sub(i: int) -> str:
    """A column's index as subscript digits: θ₀, PE₁₀ (the formula's i and column, from 0)."""
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


class Positions(Panels, LessonScene):
    scene_id = "positions"

    def setup(self):
        super().setup()
        self.study = self.facts.study  # the study the claims read (next.positions.study)
        self.kind = self.lesson.positions.kind

    def fields(self) -> dict:
        s, f = self.study, self.focus
        mirrored = s.order.index(f)  # where the focus is in the reversed sentence
        return {**super().fields(), "kind": self.t(f"kind_{self.kind}"), "shift": SHIFT,
                "plain_gap": number_text(s.plain_gap, GAP_PLACES), "placed_gap": number_text(s.placed_gap),
                "shift_gap": number_text(s.shift_gap, GAP_PLACES), "shift_moved": number_text(s.shift_gap),
                "reversed": " ".join(s.plain_shuffled.tokens),
                "top_plain": self.tops(s.plain.weights[f]),
                "share_plain": percent_text(s.plain.weights[f].max()),
                "top_placed": self.tops(s.placed.weights[f]),
                "share_placed": percent_text(s.placed.weights[f].max()),
                "moved": number_text(np.abs(s.placed_shuffled.output[mirrored] - s.placed.output[f]).max())}

    def tops(self, weights: np.ndarray) -> str:
        """The keys with the largest weight (several when they tie), named as the catalog joins them."""
        return listing([self.token(j) for j in strongest_keys(weights)], self.lang)

    def variants(self) -> list[str]:
        """The codes step says what kind of positions the lesson has."""
        return [self.kind]

    def construct(self):
        self.show_heading()
        for name in ("plain", "codes", "placed", "focus_row", "shift"):
            self.step(name)
            getattr(self, f"show_{name}")()

    def outputs(self, one, two):
        """The output rows of the sentence and of its reversal, side by side, the focus's rows outlined."""
        dims = self.dims
        f, g = self.focus, self.study.order.index(self.focus)
        w = cell_width_for(dims)
        first, second = (table(p.output, p.tokens, dims, cell_w=w, main=False) for p in (one, two))
        row = range(len(dims))
        return (self.titled(self.t("in_order"), VGroup(first, mark_cells(first, [(f, j) for j in row]))),
                self.titled(self.t("reversed"), VGroup(second, mark_cells(second, [(g, j) for j in row],
                                                                     style.EMPHASIS))))

    def show_plain(self):
        self.side_by_side(*self.outputs(self.study.plain, self.study.plain_shuffled),
                          note=self.t("plain_note", **self.fields()))

    def show_codes(self):
        """What the positions are: the table added to X, or the angles Q and K turn by."""
        n, pos = self.att.n, self.lesson.positions
        rows = [f"{p}: {t}" for p, t in enumerate(self.att.tokens)]
        if self.kind == "sinusoidal":
            values = sinusoidal(n, self.att.x.shape[1], pos.base)
            cols = [f"PE{sub(j)}" for j in range(values.shape[1])]  # from 0, as the formula counts
        else:
            values = rope_angles(n, self.att.d_k, pos.base)
            cols = [f"θ{sub(i)}" for i in range(values.shape[1])]  # θ_i: the pair (2i, 2i+1), radians
        parts = (("", style.EMPHASIS), ("_formula", style.TEXT), ("_note", style.TEXT))
        words = VGroup(*(wrapped(self.t(f"codes_{self.kind}{part}", **self.fields()), WORDS_W, self.lang,
                                 style.LABEL_SIZE, color) for part, color in parts))
        self.side_by_side(table(values, rows, cols), words.arrange(DOWN, buff=style.GAP))

    def show_placed(self):
        self.side_by_side(*self.outputs(self.study.placed, self.study.placed_shuffled),
                          note=self.t("placed_note", **self.fields()))

    def show_focus_row(self):
        """The focus's weights over the keys, without positions and with them."""
        s, f = self.study, self.focus
        grid = table(np.vstack([s.plain.weights[f], s.placed.weights[f]]),
                     [self.t("without"), self.t("with", **self.fields())], self.att.tokens, heat=True)
        self.panel(self.titled(self.t("focus_title", **self.fields()), grid),
                   note=self.t("focus_note", **self.fields()))

    def show_shift(self):
        """Every position moved by SHIFT: RoPE's scores the same, sinusoidal's not (attention_core.claims
        says which)."""
        s, toks = self.study, self.att.tokens
        here = table(s.placed.scores, toks, toks, main=False)  # two whole matrices, read as equal
        there = table(s.shifted.scores, toks, toks, main=False)
        self.side_by_side(self.titled(self.t("at_zero"), here),
                          self.titled(self.t("at_shift", **self.fields()), there),
                          note=self.t("shift_note", **self.fields()))
