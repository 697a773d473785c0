"""12. cost: O(n²d) time and O(n²) memory for the explicit score matrix; then what this lesson's model is
and is not."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    GrowArrow,
    Line,
    Rectangle,
    VGroup,
    Write,
)

from attention_core.multihead import attend_heads
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import listing
from scenes.common.labels import fit, label, math, mixed_line, word
from scenes.common.mobjects import NumberGrid, outline, vector

MULTIPLIERS = (1, 2, 4)  # the pair grids drawn: n, 2n, 4n tokens
GRID_STROKE = 1.0
GRID_H = 4.5  # height of the largest pair grid, before any scale-down
UNIT = 0.32  # one row or column of a matrix-shape block
MIN_BLOCK = 1.2  # the smallest matrix-shape block is at least this tall or wide
BLOCK_OPACITY = 0.25  # fill of a matrix-shape block
SMALL_MATH = 0.6  # formula scale of the growth labels between the grids


class Cost(LessonScene):
    scene_id = "cost"

    def setup(self):
        super().setup()
        if self.lesson.heads:  # the focus's output is every head's through W_O, in the model's dimensions
            self.out = attend_heads(self.lesson, self.context_name, self.settings.mode).output[self.focus]
            self.dims = self.lesson.model_dim_names(self.lang)
        else:
            self.out = self.att.output[self.focus]  # [d_v]
        self.top_dim = int(np.argmax(self.out))  # the dimension the focus's output is largest on

    def fields(self) -> dict:
        heads = self.lesson.heads
        d_ks = listing((h.d_k for h in heads), self.lang)  # "2 and 4", spoken as a list (not "2 over 4")
        phrase = self.t("heads_phrase_many", count=len(heads), d_ks=d_ks) if heads else self.t("heads_phrase")
        return {**super().fields(), "d_model": self.lesson.d_model, "dim": self.dims[self.top_dim],
                "count": len(heads), "d_ks": d_ks, "heads_phrase": phrase,
                "mask_phrase": self.t("mask_phrase") if self.lesson.mask else "",
                "kind": self.t(f"positions.kind_{pos.kind}") if (pos := self.lesson.positions) else ""}

    def variants(self) -> list[str]:
        """A lesson with a [training] table trains W_Q and W_K (its learning scene), one with [positions]
        places its tokens: the scope says so, not "no training", "no positions"."""
        return (["trained"] if self.lesson.training else []) + (["placed"] if self.lesson.positions else [])

    def scope_keys(self) -> list[tuple[str, str, str]]:
        """The scope table's rows (aspect, this lesson, production models): the heads' row and the
        per-head width say how many heads this lesson has and their d_k, the masks' row whether it masks."""
        many = "_many" if self.lesson.heads else ""
        masked = "_masked" if self.lesson.mask else ""
        placed = "_placed" if self.lesson.positions else ""
        trained = "_trained" if self.lesson.training else ""
        return [
            ("aspect", "here", "real"),
            ("formula", "formula_here", "formula_real"),
            ("width", "width_here", "varies"),
            ("head_width", "head_width_here" + many, "varies"),
            ("heads", "heads_here" + many, "varies"),
            ("layers", "layers_here", "varies"),
            ("projections", "projections_here" + trained, "projections_real"),
            ("positions", "positions_here" + placed + masked, "positions_real"),
        ]

    def construct(self):
        self.show_heading()
        self.pairs()
        self.complexity()
        self.scope()
        self.named_dims()

    # -- pieces ----------------------------------------------------------------------------------
    def pair_grid(self, n: int, cell: float, weights: np.ndarray | None = None) -> VGroup:
        """An n × n grid of pairs: heat cells for this sentence's weights, plain ruled cells otherwise."""
        side = n * cell
        frame = Rectangle(width=side, height=side, stroke_color=style.GRID, stroke_width=GRID_STROKE,
                          fill_color=style.CELL_FILL, fill_opacity=1)
        g = VGroup(frame)
        if weights is not None:
            g.add(*(
                Rectangle(width=cell, height=cell, stroke_color=style.GRID, stroke_width=GRID_STROKE,
                          fill_color=style.heat_color(weights[i, j]), fill_opacity=1)
                .move_to(frame.get_corner(UP + LEFT) + (RIGHT * j + DOWN * i) * cell
                         + (RIGHT + DOWN) * cell / 2)
                for i, j in np.ndindex(n, n)
            ))
            return g
        left, top = frame.get_left()[0], frame.get_top()[1]
        for k in range(1, n):
            g.add(Line([left + k * cell, top, 0], [left + k * cell, top - side, 0],
                       stroke_color=style.GRID, stroke_width=GRID_STROKE))
            g.add(Line([left, top - k * cell, 0], [left + side, top - k * cell, 0],
                       stroke_color=style.GRID, stroke_width=GRID_STROKE))
        return g

    def block(self, rows: int, cols: int, color, name: str, dims: str) -> VGroup:
        """A matrix drawn to its shape (rows × cols units), its name inside and its shape below."""
        att = self.att
        unit = max(UNIT, MIN_BLOCK / min(att.n, att.d_k, att.d_v))
        box = Rectangle(width=cols * unit, height=rows * unit, stroke_color=color,
                        stroke_width=2, fill_color=color, fill_opacity=BLOCK_OPACITY)
        symbol = fit(math(name, color=style.TEXT), box.width * style.SHARE_BODY,
                     box.height * style.SHARE_BODY).move_to(box)
        shape = math(dims, color=style.DIM, scale=SMALL_MATH).next_to(box, DOWN, buff=style.GAP / 2)
        return VGroup(box, symbol, shape)

    def product(self, a: VGroup, b: VGroup, c: VGroup) -> VGroup:
        """a · b = c, the blocks' boxes centred on one line, the operators between them."""
        eq = VGroup(a, math("dot", color=style.DIM), b, math("=", color=style.DIM), c).arrange(RIGHT,
                                                                                               buff=style.GAP)
        for blk in (b, c):
            blk.shift(UP * (a[0].get_y() - blk[0].get_y()))
        for i in (1, 3):
            eq[i].set_y(a[0].get_y())
        return eq

    def cost_line(self, key: str, source: str, color) -> VGroup:
        """A cost's name and its order, e.g. "time O(n²d)"."""
        return VGroup(word(self.t(key), style.BODY_SIZE, style.TEXT),
                      math(source, color=color)).arrange(RIGHT, buff=style.GAP)

    # -- steps -----------------------------------------------------------------------------------
    def pairs(self):
        """The pair grid for n, 2n, 4n tokens: n² grows four times when n doubles."""
        self.step("pairs")
        n = self.att.n
        sizes = [n * m for m in MULTIPLIERS]
        cell = GRID_H / max(sizes)
        grids = [self.pair_grid(sizes[0], cell, self.att.weights)]
        grids += [self.pair_grid(m, cell) for m in sizes[1:]]
        captions = [label(self.t("this_sentence", n=sizes[0], pairs=sizes[0] ** 2), style.LABEL_SIZE,
                          style.TEXT)]
        captions += [label(self.t("pairs", n=m, pairs=m ** 2), style.LABEL_SIZE,
                           style.DIM) for m in sizes[1:]]
        columns = [VGroup(g, c).arrange(DOWN, buff=style.GAP) for g, c in zip(grids, captions)]
        row = VGroup()
        arrows = VGroup()
        for i, col in enumerate(columns):
            if i:
                k = sizes[i] // sizes[i - 1]
                growth = math(f"n times {k}", "thick => thick", f"n^2 times {k * k}",
                              scale=SMALL_MATH)
                arrow = Arrow(LEFT, RIGHT, buff=0, stroke_color=style.DIM,
                              max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO * 2)
                arrow.set_length(growth.width)
                arrows.add(VGroup(growth, arrow).arrange(DOWN, buff=style.GAP / 2))
                row.add(arrows[-1])
            row.add(col)
        row.arrange(RIGHT, buff=style.GAP * 3 / 2, aligned_edge=DOWN)
        for a, g in zip(arrows, grids[1:]):  # the arrows at the height of the smaller grid's middle
            a.match_y(grids[0])
        lead = label(self.t("pairs_lead"), style.BODY_SIZE, style.TEXT)
        body = VGroup(lead, row).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        self.play(FadeIn(lead))
        self.play(FadeIn(columns[0]))
        for a, col in zip(arrows, columns[1:]):
            self.play(FadeIn(a[0]), GrowArrow(a[1]), run_time=style.FAST)
            self.play(Create(col[0]), FadeIn(col[1]), run_time=style.RUN)
        self.pairs_body = body

    def complexity(self):
        """QKᵀ drawn to shape: O(n²d) time, O(n²) memory; the value mixing costs its own products."""
        self.step("complexity")
        self.clear_body()
        scores, mixing = self.products()
        s_costs, m_costs = self.product_costs()
        table = VGroup(scores, s_costs, mixing, m_costs)
        table.arrange_in_grid(rows=2, cols=2, buff=(style.BIG_GAP, style.BIG_GAP), col_alignments="ll")
        note = label(self.t("optimised"), style.LABEL_SIZE, style.DIM)
        body = VGroup(table, note).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        self.play(FadeIn(scores, shift=RIGHT * style.GAP), run_time=style.SLOW)
        self.play(Write(s_costs[0]), Write(s_costs[1]))
        self.play(FadeIn(s_costs[2]))
        self.play(FadeIn(mixing, shift=RIGHT * style.GAP), run_time=style.SLOW)
        self.play(Write(m_costs[0]), FadeIn(m_costs[1]))
        self.play(FadeIn(m_costs[2]))
        self.play(FadeIn(note))

    def products(self) -> tuple[VGroup, VGroup]:
        """The two matrix products drawn to shape: Q·Kᵀ = QKᵀ (the scores), A·V = AV (the mixing)."""
        n, d, d_v = self.att.n, self.att.d_k, self.att.d_v
        scores = self.product(self.block(n, d, style.Q_COLOR, "Q", "n times d"),
                              self.block(d, n, style.K_COLOR, "K^top", "d times n"),
                              self.block(n, n, style.HIGHLIGHT, "Q K^top", "n times n"))
        mixing = self.product(self.block(n, n, style.HIGHLIGHT, "A", "n times n"),
                              self.block(n, d_v, style.V_COLOR, "V", "n times d_v"),
                              self.block(n, d_v, style.V_COLOR, "A V", "n times d_v"))
        return scores, mixing

    def product_costs(self) -> tuple[VGroup, VGroup]:
        """Beside each product its cost: time and memory of the scores, with this lesson's counts;
        the time of the mixing, what A is, and its count."""
        n, d, d_v = self.att.n, self.att.d_k, self.att.d_v
        s_costs = VGroup(
            self.cost_line("time", "O(n^2 d)", style.HIGHLIGHT),
            self.cost_line("memory", "O(n^2)", style.HIGHLIGHT),
            label(self.t("score_count", n=n, d=d, mults=n * n * d, cells=n * n), style.LABEL_SIZE, style.DIM),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        m_costs = VGroup(
            self.cost_line("mixing", "O(n^2 d_v)", style.V_COLOR),
            math('A = "softmax"(Q K^top slash sqrt(d_k))', color=style.DIM, scale=SMALL_MATH),
            label(self.t("mix_count", d_v=d_v, mults=n * n * d_v), style.LABEL_SIZE, style.DIM),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        return s_costs, m_costs

    def scope(self):
        """This lesson's model against production models, aspect by aspect."""
        self.step("scope")
        self.clear_body()
        fields = self.fields()
        vals = {"d_model": self.lesson.d_model, "d_k": self.att.d_k, "count": fields["count"],
                "d_ks": fields["d_ks"], "kind": fields["kind"]}
        rows = self.scope_keys()
        cells = VGroup()
        for r, keys in enumerate(rows):
            for c, key in enumerate(keys):
                color = style.DIM if c == 0 and r else style.TEXT
                text = self.t(key, **vals)  # `$W_Q$`: a formula beside the words, W with its subscript
                cells.add((mixed_line if "$" in text else word)(text, style.BODY_SIZE, color))
        cells.arrange_in_grid(rows=len(rows), cols=3, buff=(style.BIG_GAP, style.GAP), col_alignments="lll")
        head_rule = Line(cells.get_left(), cells.get_right(), stroke_color=style.GRID,
                         stroke_width=GRID_STROKE)
        head_rule.next_to(VGroup(*cells[:3]), DOWN, buff=style.GAP / 2).match_x(cells)
        table = VGroup(cells, head_rule)
        self.place_body(table)
        self.play(FadeIn(VGroup(*cells[:3])), Create(head_rule))
        for r in range(1, len(rows)):
            self.play(FadeIn(VGroup(*cells[3 * r:3 * r + 3]), shift=UP * style.GAP / 2), run_time=style.FAST)

    def named_dims(self):
        """The named dimensions make the output readable; real embedding coordinates need not mean
        anything."""
        self.step("named_dims")
        self.clear_body()
        (left, right), caveat = self.place_best(lambda: self.named_body(True), lambda: self.named_body(False),
                                                fallbacks=(lambda: self.named_body(False, narrow=True),))
        out_t, out, frame, readout = right
        self.play(FadeIn(left))
        self.play(FadeIn(out_t), FadeIn(out))
        self.play(Create(frame), FadeIn(readout))
        self.play(FadeIn(caveat, shift=UP * style.GAP))

    def named_body(self, wide: bool, narrow: bool = False) -> VGroup:
        """X with the dimensions named over it (on one line over cells as wide as the names, or `wide`
        False: staggered over plain cells), beside it the focus's output with its largest dimension
        framed and read out (beside the frame, or `narrow`, for a wide X: under the output), the caveat
        under both: VGroup(VGroup(left, right), caveat)."""
        named = len(self.dims) == self.lesson.d_model
        widest = max(word(d, style.LABEL_SIZE).width for d in self.dims) + style.GAP  # names unsqueezed
        x = NumberGrid(self.att.x, row_labels=self.att.tokens, col_labels=self.dims if named else None,
                       color=style.X_COLOR, cell_w=max(style.CELL_W,
                                                       widest) if named and wide else style.CELL_W)
        x.col_labels.set_color(style.EMPHASIS)
        x_t = label(self.t("embedding"), style.LABEL_SIZE, style.DIM)
        left = VGroup(x_t, x).arrange(DOWN, buff=style.GAP)
        out = vector(self.out, style.V_COLOR, vertical=True, row_labels=self.dims)
        out.row_labels.set_color(style.EMPHASIS)
        frame = outline(out.box(self.top_dim, 0), stroke=style.MARK_STROKE)
        out_t = label(self.t("output", focus=self.lesson.focus), style.LABEL_SIZE, style.DIM)
        out_t.next_to(out.boxes, UP, buff=style.GAP)
        readout = label(self.t("readout", dim=self.dims[self.top_dim]), style.LABEL_SIZE, style.HIGHLIGHT)
        if narrow:
            readout.next_to(out, DOWN, buff=style.GAP)
        else:
            readout.next_to(frame, RIGHT, buff=style.GAP)
        gap = style.BIG_GAP * (2 if narrow else 3) / 2
        top = VGroup(left, VGroup(out_t, out, frame, readout)).arrange(RIGHT, buff=gap)
        caveat = VGroup(*(label(line, style.BODY_SIZE, style.TEXT) for line in self.tr.lines("cost.caveat")))
        caveat.arrange(DOWN, buff=style.GAP / 2)
        return VGroup(top, caveat).arrange(DOWN, buff=style.BIG_GAP)
