"""7. contexts: the same focus embedding in every context of the lesson; different keys to query give
different weights and a different output; the outputs compared dimension by dimension."""

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    GrowArrow,
    LaggedStart,
    Rectangle,
    VGroup,
    Write,
)

from attention_core import attend, change_size, gain_source
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import cell_width_for, label, label_line, word
from scenes.common.mobjects import (
    TokenChip,
    number_text,
    outline,
    percent_text,
    shared_format,
    vector,
)

VECTOR_W = 3.0  # the vectors' cells together are at least this wide (a 2-dimensional lesson's too)
# between the sentences: beside their outputs, or over the outputs' table (tighter: the table's
# staggered dimension names need the height)
SENTENCE_GAP, TABLE_SENTENCE_GAP = 2 * style.GAP, 1.2 * style.GAP


def signed(x: float) -> str:
    """A difference with its sign: +1.43, −1.41, 0."""
    return with_sign(number_text(x))


def signed_format(values):
    """`signed` for a row of differences: the same decimals in every cell (shared_format), 0 bare."""
    fmt = shared_format(values)
    return lambda x: with_sign(fmt(x))


def with_sign(s: str) -> str:
    """A formatted number with its sign (+, or a minus sign for the hyphen); a zero bare, "0"."""
    if float(s) == 0:
        return "0"
    return s.replace("-", "−") if s.startswith("-") else "+" + s


def bracketed(values) -> str:
    return "[" + ", ".join(number_text(x) for x in values) + "]"


class Contexts(LessonScene):
    scene_id = "contexts"
    contexts = "all"  # every context of the lesson, compared

    def setup(self):
        super().setup()
        self.names = list(self.lesson.contexts)[:2]  # more than two: compare the first two
        self.atts = [attend(self.lesson, name, self.settings.mode) for name in self.names]
        self.fs = [a.index(self.lesson.focus) for a in self.atts]
        self.single = len(self.names) == 1
        self.flat = all(np.allclose(a.weights[f], a.weights[f][0]) for a, f in zip(self.atts, self.fs))
        outs = [a.output[f] for a, f in zip(self.atts, self.fs)]
        self.diff = None if self.single else outs[1] - outs[0]  # [d_v] second minus first

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        out = {**super().fields(), "count": len(self.lesson.contexts)}
        for key, name, a, f in zip("ab", self.names, self.atts, self.fs):
            w = a.weights[f]
            top = int(np.argmax(w))
            out |= {key: self.lesson.context_label(name, self.lang), f"{key}_sentence": " ".join(a.tokens),
                    f"{key}_top": self.tr.token(a.tokens[top]), f"{key}_share": percent_text(w[top]),
                    f"{key}_out": bracketed(a.output[f])}
        if self.diff is not None:
            gain, loss = int(np.argmax(self.diff)), int(np.argmin(self.diff))
            big = int(np.argmax(np.abs(self.diff)))
            b, fb = self.atts[1], self.fs[1]
            out |= {"gain_dim": self.dims[gain], "gain": signed(self.diff[gain]),
                    "gain_from": self.tr.token(b.tokens[gain_source(b.weights[fb], b.v, gain)]),
                    "loss_dim": self.dims[loss], "loss": signed(self.diff[loss]),
                    "big_dim": self.dims[big], "big": signed(self.diff[big])}
        return out

    def two_way(self) -> bool:
        """The outputs differ in both directions: one dimension grows, another shrinks (as shown)."""
        if self.diff is None:
            return False
        return signed(self.diff.max()).startswith("+") and signed(self.diff.min()).startswith("−")

    def variants(self) -> list[str]:
        if self.single:
            return ["single"]
        return (["uniform"] if self.flat else []) + ([] if self.two_way() else ["one_way"]) + [self.size()]

    def size(self) -> str:
        """How large the largest gain is against the larger output: "slight", "clear" or "large" (the
        words "only slightly more", "more", "far more" follow it)."""
        outs = [a.output[f] for a, f in zip(self.atts, self.fs)]
        return change_size(self.diff.max(), float(np.abs(outs).max()))

    # -- steps -----------------------------------------------------------------------------------
    def construct(self):
        self.show_heading()
        self.build()
        self.same_embedding()
        self.weights()
        self.outputs()
        self.difference()

    def sentence(self, i: int) -> dict:
        """One context: its name, its tokens (focus in purple, the keys it can query in orange), the
        focus's weight under every token, and the focus's output."""
        a, f = self.atts[i], self.fs[i]
        name = word(self.lesson.context_label(self.names[i], self.lang), style.LABEL_SIZE, style.DIM)
        chips, cells = VGroup(), VGroup()
        as_text = shared_format(a.weights[f])  # one row, one number format
        for j, (t, w) in enumerate(zip(a.tokens, a.weights[f])):
            chip = TokenChip(t, style.EMPHASIS if j == f else style.K_COLOR, style.LABEL_SIZE)
            fill = style.heat_color(w)
            num = label(as_text(w), style.NUMBER_SIZE, style.text_on(fill))
            box = Rectangle(width=max(chip.width, num.width + style.GAP / 2), height=style.CELL_H,
                            stroke_color=style.GRID, stroke_width=1, fill_color=fill, fill_opacity=1)
            box.next_to(chip, DOWN, buff=style.GAP / 3)
            chips.add(chip)
            cells.add(VGroup(box, num.move_to(box)))
        columns = VGroup(*(VGroup(c, b) for c, b in zip(chips, cells)))
        columns.arrange(RIGHT, buff=style.GAP, aligned_edge=UP)
        block = VGroup(chips, cells)
        name.next_to(chips, LEFT, buff=style.GAP)
        out = vector(a.output[f], style.V_COLOR, cell_w=self.cw)
        return {"name": name, "chips": chips, "cells": cells, "block": block, "out": out,
                "context": self.lesson.context_label(self.names[i], self.lang)}

    def build(self):
        """Lay out everything once, in whichever arrangement lets it be larger: each context's output
        beside its sentence, or (long sentences) the outputs under the sentences in one table with the
        embedding; the difference's note beside it or under it."""
        ways = [(side, beside, wide) for wide in (True, False) for side in (True, False)
                for beside in (False, True)]
        # long names (a longer language): the table under the sentences flush with their right edge, its
        # row names reaching under the sentences' names instead of beyond them, when no way above fits
        flush = [(False, beside, wide, True) for wide in (True, False) for beside in (False, True)]
        body = self.place_best(*(lambda way=way: self.compose(*way) for way in ways),
                               shown=lambda body: [VGroup(self.emb_g, *(r["name"] for r in self.rows),
                                                          *(r["block"] for r in self.rows)), body],
                               last=tuple(lambda way=way: self.compose(*way) for way in flush))
        if not self.single:  # the largest gain and the largest loss, framed
            self.marks = VGroup(*(
                outline(self.diff_vec.box(0, j), style.HIGHLIGHT)
                for j in sorted({int(np.argmax(self.diff)), int(np.argmin(self.diff))})
                if signed(self.diff[j]) != "0"
            ))
        self.layout = VGroup(body, self.marks)

    def compose(self, side_by_side: bool, note_beside: bool, wide: bool, flush: bool = False) -> VGroup:
        """The shared embedding, one line per context, the difference (the vectors' cells as wide as
        the dimension names, or `wide` False: plain cells under staggered names); `flush`: the outputs'
        table under the sentences right-aligned with them; returns the body."""
        least = VECTOR_W / len(self.dims)  # a short vector is not small
        self.cw = max(cell_width_for(self.dims) if wide else style.CELL_W, least)
        self.rows = [self.sentence(i) for i in range(len(self.names))]
        lines = self.lay_out_rows(side_by_side)
        # below the sentences, the embedding joins the outputs' table when it has their columns
        self.in_table = not side_by_side and len(self.lesson.vocab[self.lesson.focus]) == len(self.dims)
        emb_g = self.embedding(self.in_table)
        top = self.rows[0]["out"]
        if self.in_table:
            self.emb_vec.next_to(top, UP, buff=style.GAP / 2).align_to(top, LEFT)
            self.emb_label.next_to(self.emb_vec.boxes, LEFT, buff=style.GAP / 2)
            top = self.emb_vec
        self.dim_labels = VGroup(*(word(d, style.LABEL_SIZE, style.DIM).set_x(top.box(0, j).get_x())
                                   for j, d in enumerate(self.dims)))
        label_line(self.dim_labels, self.cw, top.boxes.get_top()[1] + style.GAP / 2, UP)
        if not side_by_side:  # the sentences clear the names (two lines of them when staggered)
            sentences = VGroup(*(VGroup(r["name"], r["block"]) for r in self.rows))
            clash = self.dim_labels.get_top()[1] + style.GAP / 2 - sentences.get_bottom()[1]
            sentences.shift(UP * max(clash, 0))
        lower = VGroup(lines, self.dim_labels, *([emb_g] if self.in_table else []))
        self.marks = VGroup()
        self.compose_difference(lines, note_beside)
        lower.add(self.diff_group, self.diff_note)
        if flush and not side_by_side:
            self.flush_table(VGroup(*(VGroup(r["head"], r["out"]) for r in self.rows), self.dim_labels,
                                    *([emb_g] if self.in_table else []), self.diff_group, self.diff_note))
        self.more = VGroup()
        if len(self.lesson.contexts) > len(self.names):
            self.more = label(self.t("first_two", count=len(self.lesson.contexts)), style.SMALL_SIZE,
                              style.DIM)
            self.more.next_to(lower, DOWN, buff=style.GAP)
            lower.add(self.more)
        self.emb_g = VGroup(emb_g, self.dim_labels) if self.in_table else emb_g
        return lower if self.in_table else VGroup(emb_g, lower).arrange(DOWN, buff=style.BIG_GAP)

    def flush_table(self, table: VGroup) -> None:
        """The outputs' table (with its row names, the difference and its note) moved right until its
        numbers end where the sentences end, when its row names reach further left than the sentences."""
        sentences = VGroup(*(r["block"] for r in self.rows))
        move = sentences.get_right()[0] - max(r["out"].boxes.get_right()[0] for r in self.rows)
        if move > 0 and table.get_left()[0] < VGroup(*(r["name"] for r in self.rows)).get_left()[0]:
            table.shift(RIGHT * move)

    def embedding(self, in_table: bool) -> VGroup:
        """The focus's embedding, the same in every context, its label on its left (in the outputs'
        table, under their dimension names; else with the names over it, when it has them)."""
        focus = self.lesson.focus
        emb = self.lesson.vocab[focus]
        dims = self.dims if len(self.dims) == len(emb) and not in_table else None
        self.emb_vec = vector(emb, style.X_COLOR, col_labels=dims, cell_w=self.cw)
        key = "embedding_of" if self.single else "same_embedding"
        self.emb_label = label(self.t(key, focus=focus), style.LABEL_SIZE, style.TEXT)
        self.emb_label.next_to(self.emb_vec.boxes, LEFT, buff=style.GAP)
        return VGroup(self.emb_label, self.emb_vec)

    def compose_difference(self, lines: VGroup, note_beside: bool):
        """Under the lines, the second output minus the first with its label, its note beside it or
        under it (or, with one context, that there is nothing to compare): sets diff_group and
        diff_note."""
        if self.single:
            self.diff_group = label(self.t("nothing_to_compare"), style.BODY_SIZE, style.DIM)
            self.diff_group.next_to(lines, DOWN, buff=style.BIG_GAP)
            self.diff_note = VGroup()
            return
        last = self.rows[-1]["out"]
        self.diff_vec = vector(self.diff, style.TEXT, formatter=signed_format(self.diff), cell_w=self.cw)
        self.diff_vec.next_to(lines, DOWN, buff=style.GAP).align_to(last, LEFT)
        f = self.fields()
        self.diff_label = label(self.t("diff_label", a=f["a"], b=f["b"]), style.LABEL_SIZE, style.TEXT)
        self.diff_label.next_to(self.diff_vec, LEFT, buff=style.GAP)
        key = "diff_note" if self.two_way() else "diff_note_one_way"
        self.diff_note = label(self.t(key, **f), style.LABEL_SIZE, style.HIGHLIGHT)
        if note_beside:
            self.diff_note.next_to(self.diff_vec, RIGHT, buff=style.BIG_GAP)
        else:
            self.diff_note.next_to(self.diff_vec, DOWN, buff=style.GAP).align_to(self.diff_label, LEFT)
        self.diff_group = VGroup(self.diff_label, self.diff_vec)

    def lay_out_rows(self, side_by_side: bool) -> VGroup:
        """Each context's tokens, then its output: side by side, or (long sentences) the sentences
        first and the outputs under them as a table."""
        rows = self.rows
        blocks = VGroup(*(VGroup(r["name"], r["block"]) for r in rows))
        blocks.arrange(DOWN, buff=SENTENCE_GAP if side_by_side else TABLE_SENTENCE_GAP, aligned_edge=RIGHT)
        if side_by_side:
            for r in rows:
                out, chips = r["out"], r["chips"]
                out.next_to(blocks, RIGHT, buff=style.BIG_GAP * 2)
                y = chips.get_center()[1]
                out.shift(UP * (y - out.boxes.get_center()[1]))
                start, end = [r["block"].get_right()[0], y, 0], [out.boxes.get_left()[0], y, 0]
                r["head"] = VGroup(Arrow(start, end, stroke_color=style.DIM, buff=style.GAP / 2))
        else:
            outs = VGroup(*(r["out"] for r in rows)).arrange(DOWN, buff=style.GAP / 2)
            outs.next_to(blocks, DOWN, buff=style.BIG_GAP * 2)  # room for the embedding's row above them
            for r in rows:
                arrow = Arrow(LEFT, RIGHT, stroke_color=style.DIM, buff=0).scale(style.GAP * 2)
                head = VGroup(word(r["context"], style.LABEL_SIZE, style.DIM), arrow)
                head.arrange(RIGHT, buff=style.GAP / 2).next_to(r["out"].boxes, LEFT, buff=style.GAP / 2)
                r["head"] = head
        return VGroup(*(VGroup(r["name"], r["block"], r["head"], r["out"]) for r in rows))

    def same_embedding(self):
        """One embedding for the focus; the sentences around it, their keys in orange."""
        self.step("same_embedding")
        self.reframe(self.emb_g, *(VGroup(r["name"], r["chips"]) for r in self.rows), self.more,
                     layout=self.layout)
        self.play(FadeIn(self.emb_g, shift=DOWN * style.GAP))
        for r in self.rows:
            self.play(FadeIn(r["name"]), FadeIn(r["chips"], shift=RIGHT * style.GAP), run_time=style.RUN)
        if len(self.more):
            self.play(FadeIn(self.more), run_time=style.FAST)

    def weights(self):
        """Under every token, the focus's weight for it."""
        self.step("weights")
        self.reframe(*self.on_screen(), *(r["cells"] for r in self.rows), layout=self.layout)
        for r in self.rows:
            self.play(LaggedStart(*(FadeIn(c, shift=DOWN * style.GAP / 2) for c in r["cells"]),
                                  lag_ratio=style.FAST / style.SLOW), run_time=style.RUN)

    def outputs(self):
        """Mixing each context's values gives a different output."""
        self.step("outputs")
        self.reframe(*self.on_screen(), self.dim_labels, *(VGroup(r["head"], r["out"]) for r in self.rows),
                     layout=self.layout)
        if not self.in_table:  # (in the table, the names came with the embedding)
            self.play(FadeIn(self.dim_labels), run_time=style.FAST)
        for r in self.rows:
            grow = [GrowArrow(m) if isinstance(m, Arrow) else FadeIn(m) for m in r["head"]]
            self.play(*grow, FadeIn(r["out"], shift=RIGHT * style.GAP), run_time=style.RUN)

    def difference(self):
        """The two outputs subtracted dimension by dimension (or: nothing to compare)."""
        self.step("difference")
        self.reframe(*self.on_screen(), self.diff_group, self.marks, self.diff_note, layout=self.layout)
        if self.single:
            self.play(Write(self.diff_group))
            return
        self.play(FadeIn(self.diff_label), FadeIn(self.diff_vec, shift=DOWN * style.GAP), run_time=style.RUN)
        self.play(*(FadeIn(m) for m in self.marks), FadeIn(self.diff_note))
