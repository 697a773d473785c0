"""10. edge-cases: self-attention on the diagonal, rows that sum to one, an asymmetric matrix, and
permutation equivariance (no positions, no mask in the lesson); with a causal mask, its masked cells
struck out, and the reversal that the mask, a sense of order, does not let through unchanged."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Line, VGroup

from attention_core import attend_tokens, strongest_other
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import even_labels, fit, label, wrapped
from scenes.common.masked import strike_masked
from scenes.common.mobjects import NumberGrid, heatmap, number_text, outline

NOTE_LEAST = 0.8  # a note under the matrix, wrapped, may shrink to this share of its size before the numbers
WRAP_PARTS = (2, 3, 4)  # a long note wraps to a half, a third, a quarter of its widest line (EdgeCases.note)
OUT_CELL_H = 0.45  # the permutation's outputs grids: eight rows each, side by side, numbers still large


def _frame(m, color=None, stroke=style.MARK_STROKE):
    """A rounded, padded outline around a cell or a row the narration points at (highlight colour
    unless given one)."""
    return outline(m, color or style.HIGHLIGHT, buff=style.OUTLINE_PAD, stroke=stroke, corner=style.CORNER)


class EdgeCases(LessonScene):
    scene_id = "edge-cases"

    def setup(self):
        super().setup()
        self.other = strongest_other(self.att.weights[self.focus], self.focus)  # its favourite, itself aside
        self.perm = np.arange(self.att.n)[::-1]  # the new order: position r holds old token perm[r]
        reordered = attend_tokens(self.lesson, [self.att.tokens[i] for i in self.perm], self.att.mode)
        self.perm_out = reordered.output  # [n, d_v], rows in the new order
        self.r_focus = int(np.where(self.perm == self.focus)[0][0])  # the focus's row in the new order
        self.same = bool(np.allclose(self.perm_out, self.att.output[self.perm]))  # reordered the same way
        self.focus_same = bool(np.allclose(self.perm_out[self.r_focus], self.att.output[self.focus]))

    def fields(self) -> dict:
        f, o, w = self.focus, self.other, self.att.weights
        shown = np.round(w[f], style.NUMBER_PLACES)  # the focus row as displayed
        return {**super().fields(), "self_w": f"{w[f][f]:.0%}", "other": self.token(o),
                "w_fo": number_text(w[f][o]), "w_of": number_text(w[o][f]),
                "terms": " + ".join(number_text(x) for x in shown), "shown_sum": number_text(shown.sum()),
                "reversed": " ".join(self.att.tokens[i] for i in self.perm),
                "early": self.token(min(f, o)),
                "late": self.token(max(f, o)),
                "out": self.vector_text(self.att.output[f]),
                "out_rev": self.vector_text(self.perm_out[self.r_focus])}

    @staticmethod
    def vector_text(v) -> str:
        return "[" + ", ".join(number_text(x) for x in v) + "]"

    def variants(self) -> list[str]:
        """With a causal mask: the reversal gives the outputs reversed anyway (masked_same: these tokens
        happen to), or the focus's output unchanged though others change (masked_focus_same), else the
        masked lines."""
        if self.att.mask is None:
            return ["placed"] if self.lesson.positions else []  # its positions: the positions scene
        if self.same:
            return ["masked_same", "masked"]
        return (["masked_focus_same"] if self.focus_same else []) + ["masked"]

    def construct(self):
        self.show_heading()
        self.self_attention()
        self.row_sums()
        self.asymmetry()
        self.permutation()
        self.no_positions()

    # -- the matrix steps -------------------------------------------------------------------------
    def build_matrix(self):
        """The weights with their axes, the row sums beside them (shown later), notes below."""
        att = self.att
        self.heat = heatmap(att.weights, att.tokens)
        even_labels(self.heat.col_labels)
        if att.mask is not None:  # the keys after each query: struck out, weight 0
            strike_masked(self.heat, att.mask, style.DIM)
        self.sums = NumberGrid(att.weights.sum(axis=1)[:, None], col_labels=[self.t("common.sum")])
        self.sums.boxes.set_stroke(style.GRID)
        self.sums.next_to(self.heat.boxes, RIGHT, buff=style.GAP).align_to(self.heat.boxes, UP)
        self.sums.shift(UP * (self.heat.boxes.get_top()[1] - self.sums.boxes.get_top()[1]))
        keys = label(self.t("common.keys_axis"), style.LABEL_SIZE, style.DIM)
        keys.next_to(self.heat.col_labels, UP, buff=style.GAP / 2).match_x(self.heat.boxes)
        axis = self.t("common.queries_axis")
        queries = label(axis, style.LABEL_SIZE, style.DIM)
        if not self.numbers_fit(VGroup(queries.copy().next_to(self.heat, LEFT), self.heat, keys)):
            queries = wrapped(axis, queries.width / 2, self.lang, style.LABEL_SIZE, style.DIM)  # long words
        queries.next_to(self.heat.row_labels, LEFT, buff=style.GAP).match_y(self.heat.boxes)
        self.matrix = VGroup(queries, keys, self.heat)
        f = self.fields()
        rel = "same" if f["w_fo"] == f["w_of"] else "differ"
        table = VGroup(self.matrix, self.sums)
        self.notes = {  # under the matrix, one at a time
            "self": self.note(table, self.matrix, self.t("self_note", **f), self.t("self_normal")),
            "sums": self.note(table, table, self.t("sums_note"), self.t("shown_note", **f)),
            "asym": self.note(table, table, self.t(f"asym_{rel}", **f),  # with a mask, the why: the mask
                              self.t("asym_why" if att.mask is None else "asym_masked", **f)),
        }
        self.layout = VGroup(table, *self.notes.values())
        self.current_note = None
        self.marks = VGroup()

    def note(self, table: VGroup, shown: VGroup, *texts: str) -> VGroup:
        """A note under the table, its lines as they are where the numbers `shown` with it keep their
        size (numbers_fit); else, longer words, each line wrapped (to the table's width, a half of the
        widest line, a third, a quarter), then also smaller (NOTE_LEAST): the first way that lets them,
        widest first, or the one that lets them be largest."""
        whole = VGroup(*(label(t, style.LABEL_SIZE, style.TEXT) for t in texts))
        widths = sorted({w for w in (table.width, *(whole.width / n for n in WRAP_PARTS)) if w < whole.width},
                        reverse=True)
        ways = [(style.LABEL_SIZE, w) for w in (None, *widths)] + [
            (style.LABEL_SIZE * NOTE_LEAST, w / NOTE_LEAST) for w in widths]
        tried = []
        for size, width in ways:
            note = VGroup(*(wrapped(t, width, self.lang, size, style.TEXT) if width
                            else label(t, size, style.TEXT) for t in texts)).arrange(DOWN, buff=style.GAP / 2)
            note.next_to(table, DOWN, buff=style.BIG_GAP)
            if self.numbers_fit(VGroup(shown, note)):
                return note
            tried.append((self.fill_transform(VGroup(shown, note))[0], note))
        return max(tried, key=lambda kn: kn[0])[1]

    def show_note(self, key: str, *marks):
        """Swap the note under the matrix and the frames on it."""
        out = [FadeOut(m) for m in ([self.current_note] if self.current_note else []) + list(self.marks)]
        self.marks = VGroup(*marks)
        self.current_note = self.notes[key]
        if out:
            self.play(*out, run_time=style.FAST)
        self.reframe(*self.on_screen(), self.matrix, *marks, self.current_note, layout=self.layout)
        self.play(*(Create(m) for m in marks), run_time=style.RUN)
        self.play(FadeIn(self.current_note, shift=UP * style.GAP / 2))

    def self_attention(self):
        """The diagonal takes part: the focus gives itself a share."""
        self.step("self_attention")
        self.build_matrix()
        self.reframe(self.matrix, self.notes["self"], layout=self.layout)
        self.play(FadeIn(self.matrix))
        f = self.focus
        diag = [_frame(self.heat.box(i, i), style.EMPHASIS, stroke=style.OUTLINE_THIN)
                for i in range(self.att.n) if i != f]
        self.show_note("self", *diag, _frame(self.heat.box(f, f)))

    def row_sums(self):
        """Every row sums to one; the displayed, rounded numbers may not."""
        self.step("row_sums")
        self.play(FadeOut(self.current_note), *(FadeOut(m) for m in self.marks), run_time=style.FAST)
        self.current_note, self.marks = None, VGroup()
        self.reframe(*self.on_screen(), self.sums, self.notes["sums"], layout=self.layout)
        self.play(FadeIn(self.sums, shift=LEFT * style.GAP / 2))
        f = self.focus
        self.show_note("sums", _frame(VGroup(self.heat.row(f), self.sums.row(f))))

    def asymmetry(self):
        """focus→other and other→focus: two different cells, two different numbers."""
        self.step("asymmetry")
        f, o = self.focus, self.other
        self.show_note("asym", _frame(self.heat.box(f, o)), _frame(self.heat.box(o, f), style.EMPHASIS))

    # -- order ---------------------------------------------------------------------------------------
    def permutation(self):
        """Reverse the tokens with their vectors: the outputs come out reversed the same way."""
        self.step("permutation")
        self.clear_body()
        body = self.place_best(*(lambda gap=gap: self.compose_permutation(gap) for gap in (1, 2)),
                               shown=lambda body: [VGroup(*body[:2]), body])
        (left, right, links), verdict, _ = body
        self.reframe(VGroup(left, right, links), verdict, layout=body)
        lg, rg = left[1], right[1]
        r_focus = self.r_focus
        self.focus_frames = VGroup(_frame(VGroup(lg.row_labels[self.focus], lg.row(self.focus)),
                                          style.EMPHASIS),
                                   _frame(VGroup(rg.row_labels[r_focus], rg.row(r_focus)), style.EMPHASIS))
        self.play(FadeIn(left))
        self.play(FadeIn(right[0]), FadeIn(rg.row_labels), FadeIn(rg.col_labels),
                  *(Create(link) for link in links))
        self.play(FadeIn(VGroup(rg.boxes, rg.numbers), shift=LEFT * style.GAP / 2))
        self.play(FadeIn(verdict))

    def compose_permutation(self, gap: int) -> VGroup:
        """The outputs in the lesson's order and in the reversed one side by side (`gap` BIG_GAPs
        apart, the reversed grid's labels on its right), a line from each row to where it went, the
        verdict, the notes: VGroup(VGroup(left, right, links), verdict, notes)."""
        att, perm = self.att, self.perm
        left = self.outputs_grid(att.output, att.tokens, self.t("original"))
        right = self.outputs_grid(self.perm_out, [att.tokens[i] for i in perm], self.t("reversed"), True)
        lg, rg = left[1], right[1]
        right.shift(lg.boxes.get_right() - rg.boxes.get_left() + RIGHT * style.BIG_GAP * gap)
        right.shift(UP * (lg.boxes.get_top()[1] - rg.boxes.get_top()[1]))  # rows side by side
        links = VGroup(*(Line(lg.boxes[i].get_right() + RIGHT * style.GAP / 3,
                              rg.boxes[r].get_left() + LEFT * style.GAP / 3, stroke_width=2,
                              stroke_color=style.EMPHASIS if i == self.focus else style.GRID)
                         for r, i in enumerate(perm)))  # old row i is now row r
        same = self.same
        verdict = label(self.t("equivariant" if same else "not_equivariant"), style.LABEL_SIZE,
                        style.HIGHLIGHT if same else style.WRONG)
        fields, masked = self.fields(), att.mask is not None
        self.order_notes = VGroup(
            label(self.t("same_output" if self.focus_same else "other_output", **fields), style.LABEL_SIZE,
                  style.TEXT),
            label(self.t("mask_order" if masked else "no_position_placed" if self.lesson.positions
                         else "no_position"), style.LABEL_SIZE, style.TEXT),
            label(self.t("real_models"), style.LABEL_SIZE, style.DIM),
        ).arrange(DOWN, buff=style.GAP / 2)
        return VGroup(VGroup(left, right, links), verdict, self.order_notes).arrange(DOWN, buff=style.GAP)

    def no_positions(self):
        """The focus gets the same output in either order: nothing here sees word order."""
        self.step("no_positions")
        self.reframe(*self.on_screen(), self.focus_frames, self.order_notes, layout=self.order_notes)
        self.play(*(Create(fr) for fr in self.focus_frames))
        for n in self.order_notes:
            self.play(FadeIn(n, shift=UP * style.GAP / 2), run_time=style.RUN)

    def outputs_grid(self, values, tokens, title, labels_right: bool = False) -> VGroup:
        """A title over an [n, d_v] outputs grid with the tokens as row labels, on its left (or on its
        right: the second of two grids side by side, the lines between them meeting its rows). Not a
        main table (docs/fill.md): two whole grids side by side, whose rows' order is what is read; the
        focus's output, the number read, is written out in the note under them."""
        g = NumberGrid(values, row_labels=list(tokens), col_labels=self.dims, color=style.V_COLOR,
                       cell_h=OUT_CELL_H, main=False)
        g.boxes.set_stroke(style.V_COLOR, width=2)
        even_labels(g.col_labels)
        if labels_right:
            for row, name in zip(g.boxes, g.row_labels):
                name.next_to(row, RIGHT, buff=style.ROW_LABEL_GAP)
        t = label(title, style.LABEL_SIZE, style.TEXT)
        fit(t, g.width, t.height)
        t.next_to(g, UP, buff=style.GAP)
        return VGroup(t, g)
