"""mask: a causal mask (a lesson with mask = "causal"). The n×n softmax inputs (rows = queries, columns =
keys); the keys after each query struck out as −∞; the softmax over what is left, the masked weights
exactly 0 and every row summing to one; the first token seeing only itself; the focus's row with and
without the mask; why a decoder needs it (it writes one token at a time)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    ReplacementTransform,
    RoundedRectangle,
    VGroup,
)

from attention_core import attend
from attention_core.diagnostics import mask_contrast
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import even_labels, label, math
from scenes.common.masked import masked_format, strike_masked
from scenes.common.mobjects import NumberGrid, TokenChip, outline, percent_text

# the softmax's input, per mode (no words: those are in the catalog)
INPUT_MATH = {"scaled": "q dot k slash sqrt(d_k)", "unscaled": "q dot k", "uniform": "0"}
MASK_MATH = "j > i thick => thick -infinity"  # the rule, in the matrix's own indices (row i, column j)
SOFTMAX_MATH = "e^(-infinity) = 0"
GRID_H = 2.8  # the matrix's cells are at least this tall together (a 2×2 matrix is not lost in the frame)
ROW_ZOOM = 1.5  # the focus's two rows: cells this much larger than a table's, the note wraps to them
EMPTY_OPACITY = 0.5  # the decoder's staircase: a place not yet written, a dashed outline this faint


class Mask(LessonScene):
    scene_id = "mask"

    def setup(self):
        super().setup()
        self.row = mask_contrast(self.lesson, self.context_name, self.att.mode, self.focus)
        self.free = attend(self.lesson, self.context_name, self.att.mode, masked=False)  # the contrast

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        r = self.row
        return {**super().fields(), "first": self.token(0), "hidden": int((~self.att.mask).sum()),
                "free_top": self.token(r.free_top), "free_share": percent_text(r.free[r.free_top]),
                "top": self.token(r.top), "share": percent_text(r.masked[r.top]),
                "seen": int(r.allowed.sum())}

    def variants(self) -> list[str]:
        """The focus's row: nothing masked (the last token), equal weights (uniform: no favourite), its
        unmasked favourite hidden, or kept."""
        r = self.row
        if r.unchanged:
            return ["last"]
        return ["uniform" if np.allclose(r.free, r.free[0]) else "hidden" if r.hidden else "kept"]

    # -- steps -----------------------------------------------------------------------------------
    def construct(self):
        self.show_heading()
        self.build()
        self.scores()
        self.strike()
        self.softmax()
        self.first_row()
        self.focus_row()
        self.decoder()

    def build(self):
        """The matrix of the softmax's inputs with its axis names, the sums beside it (shown later),
        one caption under it at a time."""
        att = self.att
        self.inputs = self.grid(self.free.scaled, None)
        self.keys = label(self.t("common.keys_axis") + " →", style.LABEL_SIZE, style.K_COLOR)
        self.keys.next_to(self.inputs.col_labels, UP, buff=style.GAP / 2).match_x(self.inputs.boxes)
        self.queries = label(self.t("common.queries_axis") + " ↓", style.LABEL_SIZE, style.Q_COLOR)
        self.queries.next_to(self.inputs.row_labels, LEFT, buff=style.GAP).match_y(self.inputs.boxes)
        self.masked = self.grid(att.scaled, att.mask, masked_format(att.scaled))
        self.weights = self.grid(att.weights, att.mask, fills=style.heat_color)
        self.sums = NumberGrid(att.weights.sum(axis=1)[:, None], col_labels=[self.t("common.sum")],
                               cell_h=self.weights.box(0, 0).height)  # level with the matrix's rows
        self.sums.boxes.set_stroke(style.GRID)
        self.sums.next_to(self.weights.boxes, RIGHT, buff=style.GAP)
        self.sums.shift(UP * (self.weights.boxes.get_top()[1] - self.sums.boxes.get_top()[1]))
        self.captions = {key: self.caption(key, formula) for key, formula in (
            ("inputs_caption", INPUT_MATH[att.mode]), ("mask_caption", MASK_MATH),
            ("softmax_caption", SOFTMAX_MATH), ("first_note", None))}
        table = VGroup(self.queries, self.keys, self.inputs, self.masked, self.weights, self.sums)
        for c in self.captions.values():
            c.next_to(table, DOWN, buff=style.BIG_GAP)
        self.layout = VGroup(table, *self.captions.values())
        self.matrix = VGroup(self.queries, self.keys, self.inputs)

    def grid(self, values, allowed, formatter=None, fills=None) -> NumberGrid:
        """An n×n grid of the context (queries down the side, keys across the top), its masked cells
        struck out; the later grids in the first one's place."""
        toks = self.att.tokens
        ch = max(style.CELL_H, GRID_H / self.att.n)  # a small matrix's cells larger: it fills the frame too
        g = NumberGrid(values, row_labels=toks, col_labels=toks, formatter=formatter, fills=fills,
                       cell_h=ch, cell_w=ch * style.CELL_W / style.CELL_H)
        g.row_labels.set_color(style.Q_COLOR)
        g.col_labels.set_color(style.K_COLOR)
        even_labels(g.col_labels)
        strike_masked(g, allowed, style.WRONG if fills is None else style.DIM)
        if hasattr(self, "inputs"):
            g.shift(self.inputs.boxes.get_center() - g.boxes.get_center())
        return g

    def caption(self, key: str, formula: str | None) -> VGroup:
        words = label(self.t(key, **self.fields()), style.LABEL_SIZE, style.TEXT)
        return VGroup(words, math(formula)).arrange(RIGHT, buff=style.GAP) if formula else VGroup(words)

    def swap_caption(self, key: str, *more):
        """The caption under the matrix becomes `key`'s, the camera on the matrix, `more` and it."""
        old = [c for c in self.captions.values() if c in self.mobjects]
        if old:
            self.play(*(FadeOut(c) for c in old), run_time=style.FAST)
        self.reframe(*self.on_screen(), self.matrix, *more, self.captions[key], layout=self.layout)
        self.play(FadeIn(self.captions[key], shift=UP * style.GAP / 2), run_time=style.FAST)

    def scores(self):
        """Every query against every key: the n×n inputs of the softmax, nothing masked yet."""
        self.step("scores")
        self.reframe(self.matrix, self.captions["inputs_caption"], layout=self.layout)
        self.play(FadeIn(self.inputs.boxes), FadeIn(self.inputs.row_labels), FadeIn(self.inputs.col_labels),
                  FadeIn(self.keys), FadeIn(self.queries), run_time=style.RUN)
        self.play(LaggedStart(*(FadeIn(r) for r in self.inputs.numbers), lag_ratio=style.FAST),
                  run_time=style.RUN)
        self.swap_caption("inputs_caption")

    def strike(self):
        """The keys after each query: struck out, −∞ before the softmax."""
        self.step("strike")
        self.play(ReplacementTransform(self.inputs, self.masked), run_time=style.SLOW)
        self.swap_caption("mask_caption")

    def softmax(self):
        """The softmax row by row over what is left: masked weights exactly 0, every row sums to one."""
        self.step("softmax")
        self.play(ReplacementTransform(self.masked, self.weights), run_time=style.SLOW)
        self.swap_caption("softmax_caption", self.sums)
        self.play(FadeIn(self.sums, shift=LEFT * style.GAP / 2))

    def first_row(self):
        """The first token sees only itself: its whole weight on itself."""
        self.step("first_row")
        self.mark = outline(VGroup(self.weights.row_labels[0], self.weights.row(0), self.sums.row(0)),
                            style.HIGHLIGHT, buff=(style.GAP / 3, style.OUTLINE_PAD), corner=style.CORNER)
        self.swap_caption("first_note", self.mark)
        self.play(Create(self.mark), run_time=style.RUN)

    def focus_row(self):
        """The focus's row without the mask and with it: what it would attend to, and what it may."""
        self.step("focus_row")
        self.clear_body()
        r, toks = self.row, self.att.tokens
        rows = NumberGrid(np.vstack([r.free, r.masked]), row_labels=[self.t("unmasked"), self.t("masked")],
                          col_labels=toks, fills=style.heat_color, cell_w=style.CELL_W * ROW_ZOOM,
                          cell_h=style.CELL_H * ROW_ZOOM, number_size=style.NUMBER_SIZE * ROW_ZOOM)
        rows.col_labels.set_color(style.K_COLOR)
        even_labels(rows.col_labels)
        strike_masked(rows, np.vstack([np.ones_like(r.allowed), r.allowed]), style.DIM)
        title = label(self.t("common.focus_row", **self.fields()), style.LABEL_SIZE, style.EMPHASIS)
        title.next_to(rows, UP, buff=style.GAP).match_x(rows.boxes)
        frames = [outline(rows.cell(0, r.free_top), style.EMPHASIS, corner=style.CORNER),
                  outline(rows.cell(1, r.free_top), style.WRONG if r.hidden else style.EMPHASIS,
                          corner=style.CORNER)]
        note = self.note(self.narration_note(), rows, style.LABEL_SIZE)
        note.next_to(rows, DOWN, buff=style.BIG_GAP)
        body = self.place_body(VGroup(title, rows, *frames, note))
        self.play(FadeIn(title), FadeIn(rows.row_labels), FadeIn(rows.col_labels), FadeIn(rows.row(0)))
        self.play(Create(frames[0]), run_time=style.FAST)
        self.play(FadeIn(rows.row(1)), FadeIn(rows.strikes), run_time=style.RUN)
        self.play(Create(frames[1]), FadeIn(note, shift=UP * style.GAP / 2))
        self.focus_body = body

    def narration_note(self) -> str:
        return self.t(f"row_{self.variants()[0]}", **self.fields())

    def decoder(self):
        """Why a decoder needs it: it writes one token at a time; at token i, the later ones are not
        written yet (the mask's lower triangle, as a staircase)."""
        self.step("decoder")
        self.clear_body()
        stairs = self.staircase()
        caption = label(self.t("decoder_caption"), style.BODY_SIZE, style.TEXT)
        caption.next_to(stairs, UP, buff=style.BIG_GAP)
        note = self.note(self.t("decoder_note"), stairs, style.LABEL_SIZE)
        note.next_to(stairs, DOWN, buff=style.BIG_GAP)
        self.place_body(VGroup(caption, stairs, note))
        self.play(FadeIn(caption))
        self.play(LaggedStart(*(FadeIn(row) for row in stairs), lag_ratio=style.FAST), run_time=style.SLOW)
        self.play(FadeIn(note, shift=UP * style.GAP / 2))

    def staircase(self) -> VGroup:
        """Row i: the tokens written so far (token i, being written, in the focus's colour), then an
        empty place for each token not written yet."""
        toks, n = self.att.tokens, self.att.n
        chips = [[TokenChip(t, style.EMPHASIS if j == i else style.TEXT, style.BODY_SIZE) for j,
                  t in enumerate(toks)]
                 for i in range(n)]
        w = max(c.width for row in chips for c in row)
        h = chips[0][0].height
        rows = VGroup()
        for i in range(n):
            places = [chips[i][j] if j <= i else
                      RoundedRectangle(corner_radius=style.CORNER, width=w, height=h, stroke_color=style.DIM,
                                       stroke_width=style.OUTLINE_THIN, stroke_opacity=EMPTY_OPACITY)
                      for j in range(n)]
            row = VGroup(*places)
            for j, m in enumerate(places):
                m.move_to(RIGHT * j * (w + style.GAP))
            rows.add(row)
        return rows.arrange(DOWN, buff=style.GAP / 2)
