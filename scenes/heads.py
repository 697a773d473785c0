"""9. heads: multi-head attention. The same input goes to several heads, each with its own W_Q, W_K, W_V;
each head's weights for the focus, side by side (they look at different tokens); each head's output;
the outputs end to end in one vector (Σ d_v long); W_O maps it back to d_model, the final output; that
output as the sum of every head's share (its output through its own rows of W_O), against the focus
head's alone. Every number from attention_core.multihead (attend_heads, MultiHeadPass.shares)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Brace,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
    Rectangle,
    TransformFromCopy,
    VGroup,
    Write,
    config,
)

from attention_core.multihead import attend_heads, strongest_keys
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import listing
from scenes.common.labels import cell_width_for, fit, label, math, mixed_line, word
from scenes.common.mobjects import (
    NumberGrid,
    WeightBars,
    number_text,
    outline,
    percent_text,
    shared_format,
    vector,
)

BLOCK = 1.1  # the side of a projection's block in a head's card
BLOCK_OPACITY = 0.25  # fill of a projection's block
SHAPE_MATH = 0.6  # formula scale of a block's shape (d_model × d_k)
CARD_PAD = 0.25  # a head's card: its frame to its contents
CHART_H = 1.6  # the tallest bar of a head's weight chart (a weight of 1)
SEGMENT_STROKE = 4  # the line between two heads' parts of the concatenated vector
FULL_WEIGHT = 1.0  # a weight the charts draw CHART_H tall: every head's chart on one scale
BAR_FRAME_PAD = 0.075  # a framed bar (the strongest key's) to its frame
NUMBER_PAD = 0.075  # a number to its cell's sides, in a vector as narrow as its numbers


def bracketed(values) -> str:
    return "[" + ", ".join(number_text(x) for x in values) + "]"


def role_colours():
    """W_Q, W_K, W_V: their names (Typst math) and colours in the scene's theme."""
    return (("W_Q", style.Q_COLOR), ("W_K", style.K_COLOR), ("W_V", style.V_COLOR))


class Heads(LessonScene):
    scene_id = "heads"
    one_head = False  # every head: its heading names none

    def setup(self):
        super().setup()
        f = self.focus
        self.mh = attend_heads(self.lesson, self.context_name, self.settings.mode)  # every head, W_O
        self.names = [h.name(self.lang) for h in self.lesson.heads]
        self.fh = self.mh.keys.index(self.lesson.focus_head)  # the focus head's place among the heads
        self.tops = [strongest_keys(p.weights[f]) for p in self.mh.heads]  # each head's strongest keys
        self.final = self.mh.output[f]  # [d_model] the focus's output of every head, through W_O
        self.alone = self.mh.shares[self.fh, f]  # [d_model] the focus head's share of it
        self.moved = int(np.argmax(np.abs(self.final - self.alone)))  # the dimension the others change most
        m = self.moved  # whether they change it as the numbers are shown (two decimals)
        self.others_add = number_text(self.alone[m]) != number_text(self.final[m])
        self.model_dims = self.lesson.model_dim_names(self.lang)

    # -- text ----------------------------------------------------------------------------------
    def top_names(self, h: int) -> str:
        """The tokens head h weighs most, each name once."""
        names = dict.fromkeys(self.token(i) for i in self.tops[h])
        return listing(names, self.lang)

    def top_clause(self, h: int) -> str:
        share = percent_text(self.mh.heads[h].weights[self.focus][self.tops[h][0]])
        distinct = len({self.att.tokens[i] for i in self.tops[h]})
        key = "top_one" if len(self.tops[h]) == 1 else "top_tie" if distinct > 1 else "top_repeat"
        return self.t(key, name=self.names[h], tokens=self.top_names(h), share=share)

    def fields(self) -> dict:
        heads, sep, m = self.lesson.heads, self.t("clause_sep"), self.moved
        return {**super().fields(), "count": len(heads), "d_model": self.lesson.d_model,
                "head_list": listing((self.t("head_dk", name=n, d_k=h.d_k)
                                      for n, h in zip(self.names, heads)), self.lang),
                "tops": sep.join(self.top_clause(h) for h in range(len(heads))),
                "outs": sep.join(self.t("head_out", name=n, vector=bracketed(p.output[self.focus]))
                                 for n, p in zip(self.names, self.mh.heads)),
                "total": self.mh.concat.shape[1], "sum_expr": " + ".join(str(h.d_v) for h in heads),
                "output": bracketed(self.final), "head": self.names[self.fh], "alone": bracketed(self.alone),
                "dim": self.model_dims[m], "before": number_text(self.alone[m]),
                "after": number_text(self.final[m])}

    def variants(self) -> list[str]:
        """single (the weights step): one head; same_top: every head weighs the same tokens most; zero
        (the last step): the other heads change no number of the final output as shown (two decimals)."""
        same = len({frozenset(self.att.tokens[i] for i in top) for top in self.tops}) == 1
        single = len(self.tops) == 1  # a [heads] table of one head: nothing to compare it with
        first = ["single"] if single else ["same_top"] if same else []
        return first + ([] if self.others_add else ["zero"])

    def construct(self):
        self.show_heading()
        self.heads_step()
        self.weights_step()
        self.outputs_step()
        self.concat_step()
        self.w_o_step()
        self.alone_step()

    # -- step 1: the same input, several heads -----------------------------------------------------
    def block(self, name: str, color, d: int) -> VGroup:
        """A projection as a block: its name inside, its shape (d_model × d) under it."""
        box = Rectangle(width=BLOCK, height=BLOCK, stroke_color=color, stroke_width=2, fill_color=color,
                        fill_opacity=BLOCK_OPACITY)
        symbol = fit(math(name, color=style.TEXT), BLOCK * style.SHARE_BODY,
                     BLOCK * style.SHARE_BODY).move_to(box)
        shape = math(f"{self.lesson.d_model} times {d}", color=style.DIM, scale=SHAPE_MATH)
        shape.next_to(box, DOWN, buff=style.GAP / 2)
        return VGroup(box, symbol, shape)

    def card(self, h: int) -> VGroup:
        """A head: its name, its W_Q, W_K, W_V as blocks, its d_k and d_v; the focus head's name marked."""
        head = self.lesson.heads[h]
        focus = h == self.fh
        name = word(self.t("focus_tag" if focus else "head_name", name=self.names[h]), style.BODY_SIZE,
                    style.EMPHASIS if focus else style.TEXT)
        dims = (head.d_k, head.d_k, head.d_v)
        blocks = VGroup(*(self.block(n, c, d) for (n, c), d in zip(role_colours(), dims)))
        blocks.arrange(RIGHT, buff=style.GAP, aligned_edge=UP)
        line = mixed_line(self.t("dims_line", d_k=head.d_k, d_v=head.d_v), style.LABEL_SIZE, style.DIM)
        inside = VGroup(name, blocks, line).arrange(DOWN, buff=style.GAP)
        frame = outline(inside, style.EMPHASIS if focus else style.GRID, buff=CARD_PAD,
                        stroke=style.OUTLINE_THIN,
                        corner=style.CORNER)
        return VGroup(frame, inside)

    def heads_body(self, cols: int) -> VGroup:
        """The sentence's tokens and the heads' cards, cols to a row: one row under the tokens, or two
        rows with the tokens between them; an arrow from the tokens to each card (none crosses a card)."""
        tokens = VGroup(*(word(t, style.BODY_SIZE, style.X_COLOR) for t in self.att.tokens))
        tokens.arrange(RIGHT, buff=style.GAP)
        top = VGroup(label(self.t("input"), style.LABEL_SIZE, style.DIM), tokens).arrange(DOWN,
                                                                                          buff=style.GAP / 2)
        cards = VGroup(*(self.card(h) for h in range(len(self.names))))
        rows = [VGroup(*cards[i:i + cols]).arrange(RIGHT, buff=style.BIG_GAP)
                for i in range(0, len(cards), cols)]
        above = rows[:-1]  # with two rows the first goes over the tokens
        VGroup(*above, top, rows[-1]).arrange(DOWN, buff=style.BIG_GAP * 2)
        arrows = VGroup()
        for row in rows:
            up = row in above
            for c in row:
                start, end = (top.get_top(), c.get_bottom()) if up else (top.get_bottom(), c.get_top())
                arrows.add(Arrow(start, end, buff=style.GAP / 2, stroke_color=style.DIM,
                                 max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO * 2))
        return VGroup(top, arrows, cards)

    def heads_step(self):
        """The same input, several heads, each with its own projections."""
        self.step("heads")
        n = len(self.names)
        ways = sorted({n, (n + 1) // 2})  # every card in one row, or two rows
        top, arrows, cards = self.place_best(*(lambda c=c: self.heads_body(c) for c in ways))
        self.play(FadeIn(top))
        self.play(LaggedStart(*(GrowArrow(a) for a in arrows), lag_ratio=style.FAST))
        self.play(LaggedStart(*(FadeIn(c, shift=DOWN * style.GAP) for c in cards), lag_ratio=style.FAST),
                  run_time=style.SLOW)

    # -- step 2: each head's weights for the focus ---------------------------------------------------
    def chart(self, h: int) -> VGroup:
        """Head h's weights for the focus as bars, its name over them, the tokens it weighs most under."""
        step = cell_width_for(self.att.tokens, minimum=style.BAR_W + style.GAP)
        bars = WeightBars(self.mh.heads[h].weights[self.focus], self.att.tokens, fills=style.heat_color,
                          max_height=CHART_H, buff=step - style.BAR_W, scale_to=FULL_WEIGHT)
        color = style.EMPHASIS if h == self.fh else style.TEXT
        title = word(self.t("weights_of", name=self.names[h], focus=self.lesson.focus), style.BODY_SIZE,
                     color)
        top = word(self.t("looks_at", tokens=self.top_names(h)), style.LABEL_SIZE, style.HIGHLIGHT)
        frames = VGroup(*(outline(bars.bar(i), style.HIGHLIGHT, buff=BAR_FRAME_PAD, stroke=style.OUTLINE_THIN)
                          for i in self.tops[h]))
        strut = Rectangle(width=bars.width, height=CHART_H + style.GAP * 2, stroke_width=0, fill_opacity=0)
        strut.align_to(bars.baseline, DOWN)  # every chart as tall as a weight of 1: one baseline in a row
        return VGroup(title, VGroup(bars, frames, strut), top).arrange(DOWN, buff=style.GAP)

    def charts_body(self, cols: int) -> VGroup:
        charts = VGroup(*(self.chart(h) for h in range(len(self.names))))
        return charts.arrange_in_grid(cols=cols, buff=(style.BIG_GAP * 2, style.BIG_GAP))

    def weights_step(self):
        """Each head's weights for the focus side by side: the heads look at different tokens."""
        self.step("weights")
        self.clear_body()
        n = len(self.names)
        ways = sorted({(n + 1) // 2, n})  # the charts in one row, or two
        charts = self.place_best(*(lambda c=c: self.charts_body(c) for c in ways))
        for title, (bars, frames, _), top in charts:
            self.play(FadeIn(title), FadeIn(bars, shift=UP * style.GAP), run_time=style.FAST)
        self.play(*(FadeIn(frames) for _, (_, frames, _), _ in charts), *(FadeIn(top) for *_, top in charts))
        self.charts = charts

    # -- steps 3 and 4: each head's output, the outputs end to end ------------------------------------
    def outputs_table(self, wide: bool) -> VGroup:
        """Every head's weights for the focus as a row (the tokens over the columns: cells as wide as the
        names, or `wide` False plain cells under staggered names), an arrow to the head's output (its d_v
        cells) at the row's right; the formula over it: VGroup(formula, weights, arrows, outputs, heads)."""
        f = self.focus
        w = NumberGrid(np.stack([p.weights[f] for p in self.mh.heads]), row_labels=self.names,
                       col_labels=self.att.tokens, fills=style.heat_color,
                       cell_w=cell_width_for(self.att.tokens) if wide else style.CELL_W)
        w.row_labels[self.fh].set_color(style.EMPHASIS)
        arrows, outs = VGroup(), VGroup()
        for h, p in enumerate(self.mh.heads):
            arrows.add(label("→", style.BODY_SIZE, style.DIM).next_to(w.boxes[h], RIGHT, buff=style.GAP))
            outs.add(vector(p.output[f], style.V_COLOR).next_to(arrows[h], RIGHT, buff=style.GAP))
            outs[h].shift(RIGHT * (outs[0].get_left()[0] - outs[h].get_left()[0]))
        heads = VGroup(word(self.t("weights_col", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT),
                       word(self.t("outputs_col"), style.LABEL_SIZE, style.V_COLOR))
        heads[0].next_to(w.col_labels, UP, buff=style.GAP / 2).match_x(w.boxes)
        heads[1].next_to(outs, UP, buff=style.GAP / 2).match_y(heads[0])
        crowd = heads[0].get_right()[0] + style.BIG_GAP - heads[1].get_left()[0]  # the weights' head is wider
        if crowd > 0:  # than a few tokens' columns: the outputs make way, the arrows midway
            VGroup(outs, heads[1]).shift(RIGHT * crowd)
            arrows.set_x((w.boxes.get_right()[0] + outs.get_left()[0]) / 2)
        formula = math("o_h", "=", "sum_j", "w_(h j) thin", "v_(h j)")
        formula[-1].set_color(style.V_COLOR)
        table = VGroup(w, arrows, outs, heads)
        formula.next_to(table, UP, buff=style.BIG_GAP)
        return VGroup(formula, w, arrows, outs, heads)

    def number_cell(self, values) -> float:
        """A cell as narrow as the widest of these numbers allows at full size (CELL_W at the most): a
        vector of every head's outputs end to end fits the frame's width with its numbers unshrunk."""
        fmt = shared_format(values)
        widest = max(label(fmt(x), style.NUMBER_SIZE).width for x in np.ravel(values))
        return min(style.CELL_W, widest / style.NUMBER_FILL_W + NUMBER_PAD)

    def concat_row(self) -> VGroup:
        """The focus's concatenated vector (Σ d_v cells), each head's part named over it and split from
        the next by a bold line, a brace under it with its length: VGroup(cat, names, lines, brace)."""
        values = self.mh.concat[self.focus]
        cat = vector(values, style.V_COLOR, cell_w=self.number_cell(values))
        names, lines = VGroup(), VGroup()
        for h, rows in enumerate(self.mh.rows):
            part = VGroup(*(cat.box(0, j) for j in range(rows.start, rows.stop)))
            names.add(word(self.names[h], style.LABEL_SIZE, style.EMPHASIS if h == self.fh else style.TEXT))
            fit(names[-1], part.width - style.GAP, part.height).next_to(part, UP, buff=style.GAP / 2)
            if h:
                lines.add(Line(part.get_corner(UP + LEFT), part.get_corner(DOWN + LEFT),
                               stroke_color=style.TEXT,
                               stroke_width=SEGMENT_STROKE))
        brace = Brace(cat.boxes, DOWN, color=style.DIM)
        length = label(self.t("concat_length", sum_expr=self.fields()["sum_expr"], total=cat.shape[1]),
                       style.BODY_SIZE, style.TEXT).next_to(brace, DOWN, buff=style.GAP / 2)
        return VGroup(cat, names, lines, VGroup(brace, length))

    def outputs_body(self, wide: bool) -> VGroup:
        """The outputs' table over the concatenated vector: VGroup(table, concat row)."""
        table = self.outputs_table(wide)
        return VGroup(table, self.concat_row()).arrange(DOWN, buff=style.BIG_GAP)

    def outputs_step(self):
        """Each head mixes its own values by its own weights: one output per head."""
        self.step("outputs")
        self.clear_body()
        body = self.place_best(*(lambda w=w: self.outputs_body(w) for w in (True, False)),
                               shown=lambda b: [b[0], b])
        self.body = body
        (formula, w, arrows, outs, heads), _ = body
        self.reframe(body[0], layout=body)
        self.play(FadeIn(w), FadeIn(heads[0]))
        self.play(Write(formula))
        grow = (FadeIn(VGroup(arrows[h], outs[h]), shift=RIGHT * style.GAP) for h in range(len(outs)))
        self.play(LaggedStart(*grow, lag_ratio=style.FAST), FadeIn(heads[1]), run_time=style.SLOW)

    def concat_step(self):
        """The heads' outputs laid end to end: one vector, as long as their d_v together."""
        self.step("concat")
        outs = self.body[0][3]
        cat, names, lines, brace = self.body[1]
        self.reframe(self.body, layout=self.body)
        parts = [VGroup(*(cat.cell(0, j) for j in range(r.start, r.stop))) for r in self.mh.rows]
        self.play(*(TransformFromCopy(o, part) for o, part in zip(outs, parts)), FadeIn(names),
                  run_time=style.SLOW)
        self.remove(*parts)
        self.add(cat)
        self.play(FadeIn(lines), FadeIn(brace))

    # -- step 5: W_O back to d_model -------------------------------------------------------------------
    def w_o_body(self) -> VGroup:
        """The concatenated vector as a column, each row beside its row of W_O (the model's dimensions
        over its columns); a rule under W_O and the final output under it; the heads' names at the left
        of their rows, bold lines between the heads' rows; the title over it all."""
        f, cw = self.focus, cell_width_for(self.model_dims)
        cat = vector(self.mh.concat[f], style.V_COLOR, vertical=True, main=False)
        w_o = NumberGrid(self.mh.w_o, col_labels=self.model_dims, cell_w=cw, main=False)
        w_o.col_labels.set_color(style.EMPHASIS)
        w_o.next_to(cat, RIGHT, buff=style.BIG_GAP).align_to(cat, DOWN)
        times = VGroup(*(label("×", style.BODY_SIZE, style.DIM).move_to((cat.box(i, 0).get_right()
                                                                  + w_o.box(i, 0).get_left()) / 2)
                         for i in range(cat.shape[0])))
        names, lines = VGroup(), VGroup()
        for h, rows in enumerate(self.mh.rows):
            part = VGroup(*(cat.box(i, 0) for i in range(rows.start, rows.stop)))
            names.add(word(self.names[h], style.LABEL_SIZE, style.EMPHASIS if h == self.fh else style.TEXT))
            fit(names[-1], config.frame_width, part.height).next_to(part, LEFT, buff=style.GAP)
            if h:
                end = w_o.boxes.get_right() * RIGHT + part.get_top() * UP
                lines.add(Line(part.get_corner(UP + LEFT), end, stroke_color=style.TEXT,
                               stroke_width=SEGMENT_STROKE))
        rule = Line(w_o.boxes.get_left(), w_o.boxes.get_right(), stroke_color=style.DIM)
        rule.next_to(w_o.boxes, DOWN, buff=style.GAP)
        out = vector(self.final, style.V_COLOR, cell_w=cw, main=False)
        out.next_to(rule, DOWN, buff=style.GAP).align_to(w_o.boxes, LEFT)
        out_label = word(self.t("final_of", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT)
        out_label.next_to(out.boxes, LEFT, buff=style.GAP)
        title = mixed_line(self.t("w_o_title", total=cat.shape[0], d_model=self.lesson.d_model),
                           style.BODY_SIZE)
        table = VGroup(cat, times, w_o, names, lines, rule, out, out_label)
        title.next_to(table, UP, buff=style.BIG_GAP)
        return VGroup(title, VGroup(cat, names, lines), VGroup(times, w_o), VGroup(rule, out, out_label))

    def w_o_step(self):
        """W_O maps the concatenated vector back to the model's dimensions: the final output."""
        self.step("w_o")
        title, left, (times, w_o), (rule, out, out_label) = self.place_body(self.w_o_body())
        cat = self.body[1][0]
        self.play(FadeOut(VGroup(self.body[0], *self.body[1][1:])), run_time=style.FAST)
        self.play(FadeOut(cat), FadeIn(left[0], shift=DOWN * style.GAP), FadeIn(left[1]), FadeIn(title))
        self.play(FadeIn(w_o, shift=LEFT * style.GAP), FadeIn(times))
        self.play(FadeIn(left[2]), run_time=style.FAST)  # the lines between the heads' rows, over W_O
        self.play(FadeIn(rule), FadeIn(out.boxes), FadeIn(out_label))
        self.play(LaggedStart(*(FadeIn(out.number(0, j),
                                       shift=DOWN * style.GAP) for j in range(out.shape[1])),
                              lag_ratio=style.FAST / style.SLOW), run_time=style.SLOW)

    # -- step 6: every head's share, the focus head's alone ------------------------------------------
    def alone_body(self) -> VGroup:
        """Every head's share of the final output (its output through its rows of W_O) as a row under
        the model's dimensions, a rule, their sum (the final output); the focus head's row framed, the
        dimension the other heads change most framed in it and in the sum, with its note."""
        f, cw = self.focus, cell_width_for(self.model_dims)
        shares = NumberGrid(self.mh.shares[:, f], col_labels=self.model_dims, cell_w=cw,
                            row_labels=[self.t("share_of", name=n) for n in self.names])
        shares.col_labels.set_color(style.EMPHASIS)
        shares.row_labels[self.fh].set_color(style.EMPHASIS)
        rule = Line(shares.boxes.get_left(), shares.boxes.get_right(), stroke_color=style.DIM)
        rule.next_to(shares.boxes, DOWN, buff=style.GAP)
        out = vector(self.final, style.V_COLOR, cell_w=cw, row_labels=[self.t("sum_of")])
        out.next_to(rule, DOWN, buff=style.GAP)
        out.shift(RIGHT * (shares.boxes.get_left()[0] - out.boxes.get_left()[0]))
        own = outline(shares.row(self.fh), style.EMPHASIS, buff=style.OUTLINE_PAD)
        m = self.moved
        if self.others_add:
            marks = VGroup(outline(shares.box(self.fh, m), style.HIGHLIGHT, stroke=style.MARK_STROKE),
                           outline(out.box(0, m), style.HIGHLIGHT, stroke=style.MARK_STROKE))
            note = label(self.t("moved", **{k: self.fields()[k] for k in ("dim", "before", "after")}),
                         style.BODY_SIZE, style.HIGHLIGHT)
        else:
            marks, note = VGroup(), label(self.t("no_change"), style.BODY_SIZE, style.DIM)
        note.next_to(out, DOWN, buff=style.BIG_GAP)
        lead = self.paragraph("alone_lead")
        lead.next_to(shares, UP, buff=style.BIG_GAP)
        return VGroup(VGroup(lead, shares, own), VGroup(rule, out), VGroup(marks, note))

    def alone_step(self):
        """The final output is the sum of the heads' shares; the focus head's alone is one of them."""
        self.step("alone")
        self.clear_body()
        (lead, shares, own), (rule, out), (marks, note) = self.place_body(self.alone_body())
        self.play(FadeIn(lead), FadeIn(shares))
        self.play(FadeIn(rule), FadeIn(out))
        self.play(Create(own))
        self.play(*(Create(m) for m in marks), Write(note))
