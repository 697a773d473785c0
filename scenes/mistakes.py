"""11. mistakes: the four common errors, each shown wrong (vermillion ✗) and then right (yellow ✓)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, VGroup

from attention_core import (
    attend,
    change_size,
    magnified_softmax,
    strongest_other,
    total_variation,
    wrong_axis_weights,
)
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import cell_width_for, label, math, word, wrapped
from scenes.common.mobjects import NumberGrid, heatmap, number_text, outline, vector

# What the narration claims, as thresholds: the score magnifications tried, smallest first, to show that
# the scaled softmax still saturates; a top weight this large counts as saturated. (How large the change
# from scaled to unscaled weights is: attention_core.change_size of their total-variation distance.)
SCORE_FACTORS = (4, 8, 16, 32, 64)
SATURATED = 0.99

MARK_BUFF = 0.05  # an outline just outside its cell, visible on any heat colour
MATRIX_ZOOM = 1.3  # the matrix read in the last mistake, larger than a plain heatmap
SQRT_WRAP = 1.3  # the √dₖ mistake's verdicts may wrap to this many times its tables' width
# long words: the transposed card's verdicts wrap to these widths beside its matrix
TRANSPOSED_WRAPS = (style.NOTE_MIN_W, style.NOTE_MIN_W * 4 / 3)
SQRT_WIDER = (1.6, 2.0, 2.5)  # or, when no such layout keeps its numbers large enough, to these


class Mistakes(LessonScene):
    scene_id = "mistakes"

    def setup(self):
        super().setup()
        self.target = strongest_other(self.att.weights[self.focus], self.focus)  # its main target

    def fields(self) -> dict:
        return {**super().fields(), "target": self.token(self.target)}

    def construct(self):
        self.show_heading()
        self.intro()
        self.qkv()
        self.axis()
        self.sqrt()
        self.transposed()

    # -- pieces ----------------------------------------------------------------------------------
    def verdict(self, ok: bool, text: str, sub: str | None = None, size: float = style.BODY_SIZE,
                width: float | None = None) -> VGroup:
        """'✓ right  text' in yellow or '✗ wrong  text' in vermillion, on one baseline; the text in lines
        no wider than `width` (the table it is about) if given; an optional smaller line under it."""
        color = style.HIGHLIGHT if ok else style.WRONG
        mark = word(self.t("common.right" if ok else "common.wrong"), size, color)
        said = word(text, size, color)
        room = None if width is None else width - mark.width - style.GAP  # the line, mark and all, in width
        if room is not None and said.width > room:
            said = wrapped(text, max(room, style.NOTE_MIN_W / 2), self.lang, size, color)
            for m in said[1:]:
                m.align_to(said[0], LEFT)
        line = VGroup(mark, said).arrange(RIGHT, buff=style.GAP, aligned_edge=UP)
        if sub is not None:
            under = label(sub, style.LABEL_SIZE, color)
            if room is not None and under.width > room:  # the smaller line wraps as the line does
                under = wrapped(sub, max(room, style.NOTE_MIN_W / 2), self.lang, style.LABEL_SIZE, color)
                for m in under[1:]:
                    m.align_to(under[0], LEFT)
            line.add(under.next_to(line[1], DOWN, buff=style.GAP / 2, aligned_edge=LEFT))
        return line

    def mark_cell(self, grid: NumberGrid, i: int, j: int, color, buff: float = MARK_BUFF):
        return outline(grid.box(i, j), color, buff=buff, stroke=style.MARK_STROKE)

    def heat_row(self, rows, row_labels) -> NumberGrid:
        return NumberGrid(np.asarray(rows), row_labels=row_labels, col_labels=self.att.tokens,
                          fills=style.heat_color)

    # -- steps -----------------------------------------------------------------------------------
    def intro(self):
        """The four mistakes, listed."""
        self.step("intro")
        lead = label(self.t("intro"), style.BODY_SIZE, style.DIM)
        items = VGroup(*(
            VGroup(word(f"{i}.", style.BODY_SIZE, style.WRONG),
                   word(self.t(key), style.BODY_SIZE, style.TEXT))
            .arrange(RIGHT, buff=style.GAP)
            for i, key in enumerate(("qkv", "axis", "sqrt", "transposed"), start=1)
        )).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP * 3 / 2)
        body = VGroup(lead, items).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        self.play(FadeIn(lead))
        for it in items:
            self.play(FadeIn(it, shift=RIGHT * style.GAP), run_time=style.FAST)

    def qkv(self):
        """(a) q, k, v of the focus differ; its own key is not necessarily its best match."""
        self.step("qkv")
        self.clear_body()
        left = self.roles()
        # long words: the roles' verdicts wrapped to the width of their table
        left, right = self.place_best(lambda: self.qkv_body(left, None), fallbacks=tuple(
            lambda w=w: self.qkv_body(left, w) for w in (style.NOTE_MIN_W / 2, style.NOTE_MIN_W)),
            last=(lambda: self.qkv_body(self.roles(narrow=True), None),  # longer still: closer, the tags in
                  lambda: self.qkv_body(self.roles(compact=True), style.NOTE_MIN_W, compact=True)))
        self.show_qkv(left, right)

    def qkv_body(self, left: VGroup, across: float | None, compact: bool = False) -> VGroup:
        """The roles on the left and the scores against every key on the right, or (`across`: long
        vectors) the scores as a row under the roles, the verdicts beside it that wide (`compact`: closer)."""
        right = self.own_key(across, compact)
        if across is not None:
            return VGroup(left, right).arrange(DOWN, buff=style.GAP)
        return VGroup(left, right).arrange(RIGHT, aligned_edge=UP, buff=style.BIG_GAP)

    def roles(self, narrow: bool = False, compact: bool = False) -> VGroup:
        """Left: one vector for three roles (wrong) against three projections (right); `narrow`: the
        verdicts wrapped to the width of the table under them; `compact`: the right way a gap closer."""
        f, att = self.focus, self.att
        eqs = VGroup(math("q = k = v = x", color=style.WRONG), *(
            math(source, color=c) for source, c in (("q = x W_Q", style.Q_COLOR),
                                                    ("k = x W_K", style.K_COLOR),
                                              ("v = x W_V", style.V_COLOR))))
        rows = VGroup(vector(att.x[f], style.X_COLOR), vector(att.q[f], style.Q_COLOR),
                      vector(att.k[f], style.K_COLOR), vector(att.v[f], style.V_COLOR))
        left_wrong = self.verdict(False, self.t("qkv_wrong"), size=style.LABEL_SIZE)
        left_right = self.verdict(True, self.t("qkv_right"), size=style.LABEL_SIZE)
        one = VGroup(eqs[0], rows[0])
        roles = VGroup(*(VGroup(e, r) for e, r in zip(eqs[1:], rows[1:])))
        left = VGroup(left_wrong, one, left_right, roles)
        self.place_roles(left, eqs, rows, compact)
        if narrow:
            width = max(VGroup(one, roles).get_right()[0] - left.get_left()[0], style.NOTE_MIN_W / 2)
            left.submobjects[0] = self.verdict(False, self.t("qkv_wrong"), size=style.LABEL_SIZE, width=width)
            left.submobjects[2] = self.verdict(True, self.t("qkv_right"), size=style.LABEL_SIZE, width=width)
            self.place_roles(left, eqs, rows)
        return left

    @staticmethod
    def place_roles(left: VGroup, eqs: VGroup, rows: VGroup, compact: bool = False) -> None:
        """Each equation beside its vector, the wrong way above the right one."""
        _, one, left_right, roles = left
        for line in (one, *roles):
            line.arrange(RIGHT, buff=style.GAP)
        roles.arrange(DOWN, buff=style.GAP / 2)
        left.arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        if not compact:  # the wrong way, then the right one
            VGroup(left_right, roles).shift(DOWN * (style.BIG_GAP - style.GAP))
        eq_right = max(e.get_right()[0] for e in eqs) + style.BIG_GAP  # equations right-aligned, vectors
        for e, r in zip(eqs, rows):  # left-aligned, the whole table indented under the lines
            e.shift(RIGHT * (eq_right - e.get_right()[0]))
            r.shift(RIGHT * (eq_right + style.GAP - r.get_left()[0]))

    def own_key(self, across: float | None = None, compact: bool = False) -> VGroup:
        """Right: the focus's raw scores against every key (a column, or `across` a row with the
        verdicts on its left, no wider than `across`), its own key against the best one; `compact`: the
        verdicts a gap apart, the tags under the row."""
        f, att = self.focus, self.att
        scores = att.scores[f]
        best = int(np.argmax(scores))
        same = best == f
        row = across is not None
        names = {"col_labels" if row else "row_labels": att.tokens}
        grid = NumberGrid(scores[None, :] if row else scores[:, None], color=style.TEXT, **names)
        grid.boxes.set_stroke(style.Q_COLOR, width=2)
        (grid.col_labels if row else grid.row_labels)[f].set_color(style.EMPHASIS)
        grid_t = label(self.t("score_row", focus=self.lesson.focus), style.LABEL_SIZE, style.DIM)
        marks, tags = self.own_key_marks(grid, best, across is not None, compact)
        grid_t.next_to(grid, UP, buff=style.GAP) if across is not None else \
            grid_t.next_to(grid.boxes, UP, buff=style.GAP).align_to(grid.row_labels, LEFT)
        scored = VGroup(grid_t, grid, marks, tags)
        width = across if row else max(scored.width, style.NOTE_MIN_W / 2)  # the verdicts no wider than
        # the scores (or, beside their row, than `across`)
        right_wrong = self.verdict(False, self.t("self_wrong", focus=self.lesson.focus),
                                   size=style.LABEL_SIZE,
                                   width=width)
        right_right = self.verdict(True, self.t("self_right_same" if same else "self_right"),
                                   size=style.LABEL_SIZE, width=width)
        right = VGroup(right_wrong, right_right, scored)
        right_right.next_to(right_wrong, DOWN, buff=style.GAP if compact else style.BIG_GAP,
                            aligned_edge=LEFT)
        if row:
            scored.next_to(VGroup(right_wrong, right_right), RIGHT, buff=style.BIG_GAP)
        else:
            scored.next_to(right_right, DOWN, buff=style.GAP).align_to(right_right, LEFT)
        return right

    def own_key_marks(self, grid: NumberGrid, best: int, across: bool = False,
                      inside: bool = False) -> tuple[VGroup, VGroup]:
        """The best key's cell framed in yellow and, when the focus's own key is another one, that cell
        in vermillion; beside each (under each, `across`: the scores in a row) a tag with its score;
        `inside`: the tags moved in under the row, not past its ends."""
        f, att = self.focus, self.att
        scores = att.scores[f]
        at = (lambda k: (0, k)) if across else (lambda k: (k, 0))  # key k's cell
        side = DOWN if across else RIGHT
        marks = VGroup(self.mark_cell(grid, *at(best), style.HIGHLIGHT, buff=0))
        if best == f:
            tags = VGroup(
                label(self.t("self_best_cell", value=number_text(scores[f])), style.LABEL_SIZE,
                      style.HIGHLIGHT)
                .next_to(grid.box(*at(f)), side, buff=style.GAP))
        else:
            marks.add(self.mark_cell(grid, *at(f), style.WRONG, buff=0))
            tags = VGroup(
                label(self.t("self_cell", value=number_text(scores[f])), style.LABEL_SIZE, style.WRONG)
                .next_to(grid.box(*at(f)), side, buff=style.GAP),
                label(self.t("best_cell", value=number_text(scores[best]), token=att.tokens[best]),
                      style.LABEL_SIZE, style.HIGHLIGHT).next_to(grid.box(*at(best)), side, buff=style.GAP),
            )
            a, b = sorted(tags, key=lambda t: t.get_x())
            if across and a.get_right()[0] + style.GAP > b.get_left()[0]:  # too close: apart, each on
                mid = (a.get_x() + b.get_x()) / 2  # its side of the point between the two cells
                a.align_to([mid - style.GAP / 2, 0, 0], RIGHT)
                b.align_to([mid + style.GAP / 2, 0, 0], LEFT)
        if inside:  # (a long tag under an end cell reaches past the row: in, by as much)
            tags.shift(RIGHT * (max(grid.get_left()[0] - tags.get_left()[0], 0)
                                - max(tags.get_right()[0] - grid.get_right()[0], 0)))
        return marks, tags

    def show_qkv(self, left: VGroup, right: VGroup) -> None:
        """The left column line by line, then the verdicts on the right and the framed cells."""
        left_wrong, one, left_right, roles = left
        right_wrong, right_right, (grid_t, grid, marks, tags) = right
        self.play(FadeIn(left_wrong))
        self.play(FadeIn(one))
        self.play(FadeIn(left_right))
        self.play(*(FadeIn(r, shift=RIGHT * style.GAP) for r in roles), run_time=style.SLOW)
        self.play(FadeIn(right_wrong))
        self.play(FadeIn(right_right), FadeIn(grid_t), FadeIn(grid))
        self.play(Create(marks), FadeIn(tags))

    def axis(self):
        """(b) softmax over the columns against softmax along each query's keys."""
        self.step("axis")
        self.clear_body()
        f = self.focus
        wrong_w = wrong_axis_weights(self.att.scaled)  # each column sums to one
        right_w = self.att.weights

        def panel(ok: bool, weights: np.ndarray) -> VGroup:
            color = style.HIGHLIGHT if ok else style.WRONG
            hm = heatmap(weights, self.att.tokens, main=False)  # two whole matrices compared: the
            hm.row_labels[f].set_color(style.EMPHASIS)  # colours and the sums are read, not each weight
            name = self.t("common.sum")  # its column as wide as its name (a longer language's)
            sums = vector(weights.sum(axis=1), color, vertical=True, col_labels=[name], main=False,
                          cell_w=cell_width_for([name]))
            sums.numbers.set_color(color)
            sums.next_to(hm.boxes, RIGHT, buff=style.GAP / 2)
            sums.shift(UP * (hm.boxes.get_top()[1] - sums.boxes.get_top()[1]))
            unit = hm.row(f)[0] if ok else VGroup(*(hm.box(i, f) for i in range(self.att.n)))
            frame = outline(unit, color, buff=MARK_BUFF, stroke=style.MARK_STROKE)
            title = self.verdict(ok, self.t("axis_right" if ok else "axis_wrong"))
            total = label(self.t("axis_right_sum" if ok else "axis_wrong_sum"), style.LABEL_SIZE, color)
            table = VGroup(hm, sums, frame)
            total.next_to(table, DOWN, buff=style.GAP).align_to(sums, RIGHT)
            return VGroup(title, VGroup(table, total)).arrange(DOWN, buff=style.GAP)

        wrong, right = panel(False, wrong_w), panel(True, right_w)
        note = label(self.t("axis_note"), style.LABEL_SIZE, style.DIM)
        panels = VGroup(wrong, right)
        body = VGroup(panels, note)
        self.place_best(*(lambda d=d, edge=edge: (panels.arrange(d, buff=style.BIG_GAP, aligned_edge=edge),
                                                  body.arrange(DOWN, buff=style.BIG_GAP))[1]
                          for d, edge in ((RIGHT, UP), (DOWN, ORIGIN))))  # UP with DOWN: tops on centres
        for panel_ in (wrong, right):
            title, (table, total) = panel_
            self.play(FadeIn(title), FadeIn(table[0]), FadeIn(table[1]))
            self.play(Create(table[2]), FadeIn(total))
        self.play(FadeIn(note))

    def sqrt(self):
        """(c) dropping √dₖ changes the weights a lot; larger scores still saturate the scaled softmax."""
        self.step("sqrt")
        self.clear_body()
        g1, g2, lines = self.sqrt_parts()
        widest = max(g1.width, g2.width)
        # the verdicts on one line each, or wrapped to about the tables' width: whichever lets all be larger;
        # when none keeps the tables' numbers large enough (small tables under long lines: two tokens in
        # English), the lines wrapped wider, or the two blocks side by side
        # longer words still: one over the other, the second table without the first's column names
        # over it, both indented by the longer row names
        self.place_best(*(lambda k=k: self.sqrt_blocks(g1, g2, lines, k and k * widest)
                          for k in (None, SQRT_WRAP, 1)),
                        fallbacks=tuple(lambda k=k, beside=beside: self.sqrt_blocks(g1, g2, lines, k * widest,
                                                                                    beside)
                                        for beside in (False, True) for k in SQRT_WIDER),
                        last=tuple(lambda k=k: self.sqrt_blocks(g1, g2, lines, k * widest, compact=True)
                                   for k in (SQRT_WRAP, *SQRT_WIDER)))
        w1, r1, w2, r2 = self.sqrt_verdicts
        for m in (w1, g1, r1, w2, g2, r2):
            self.play(FadeIn(m))

    def sqrt_parts(self):
        """The two tables (scaled against unscaled weights; scaled against magnified scores) and the
        four verdicts' (ok, text)."""
        f = self.focus
        scaled = attend(self.lesson, self.context_name, "scaled").weights[f]
        unscaled = attend(self.lesson, self.context_name, "unscaled").weights[f]
        # scaled, whatever the mode: dividing by √d_k does not stop growing scores from saturating
        factor, big = magnified_softmax(self.att.scores[f], self.att.d_k, SCORE_FACTORS, SATURATED)
        top, big_top = int(np.argmax(scaled)), int(np.argmax(big))
        short = [self.t(f"normalizers.short_{m}") for m in ("scaled", "unscaled")]
        g1 = self.heat_row([scaled, unscaled], short)
        g2 = self.heat_row([scaled, big], [short[0], self.t("mode_magnified", factor=factor)])
        size = change_size(total_variation(scaled, unscaled))  # the share of weight that moves
        key = {"slight": "rounding_right_small", "clear": "rounding_right",
               "large": "rounding_right_large"}[size]
        lines = [(False, self.t("rounding_wrong")),
                 (True, self.t(key,
                               focus=self.lesson.focus, top=self.att.tokens[top],
                               scaled=number_text(scaled[top]), unscaled=number_text(unscaled[top]))),
                 (False, self.t("never_wrong")),
                 (True, self.t("never_right", factor=factor,
                               top_w=number_text(big[big_top], style.NUMBER_PLACES + 1)))]
        return g1, g2, lines

    def sqrt_blocks(self, g1, g2, lines, width: float | None, beside: bool = False,
                    compact: bool = False) -> VGroup:
        """Each table between its wrong and its right verdict (text no wider than `width`), indented under
        the lines: VGroup(b1, b2), one over the other with the tables' token columns aligned, or
        `beside` each other, their tops aligned; `compact`: one over the other, the second table's
        column names (the first's, right above) dropped, the longer row names indented."""
        w1, r1, w2, r2 = self.sqrt_verdicts = [self.verdict(ok, text, size=style.LABEL_SIZE, width=width)
                                               for ok, text in lines]
        if g2.col_labels not in g2.submobjects:
            g2.add(g2.col_labels)
        if compact:
            g2.remove(g2.col_labels)
        b1 = VGroup(w1, g1, r1).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        b2 = VGroup(w2, g2, r2).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        if beside:
            body = VGroup(b1, b2).arrange(RIGHT, aligned_edge=UP, buff=style.BIG_GAP)
            for w, g in ((w1, g1), (w2, g2)):
                g.shift(RIGHT * (w.get_left()[0] + style.BIG_GAP - g.row_labels.get_left()[0]))
            return body
        body = VGroup(b1, b2).arrange(DOWN, aligned_edge=LEFT, buff=style.BIG_GAP)
        g1.shift(RIGHT * (w1.get_left()[0] + style.BIG_GAP - g1.row_labels.get_left()[0]))
        g2.shift(RIGHT * (g1.boxes.get_left()[0] - g2.boxes.get_left()[0]))
        if compact and (out := w1.get_left()[0] + style.BIG_GAP - g2.row_labels.get_left()[0]) > 0:
            VGroup(g1, g2).shift(RIGHT * out)
        return body

    def transposed_body(self, matrix: VGroup, note, width: float | None) -> VGroup:
        """The matrix, its two verdicts beside it (in lines no wider than `width`, if given), the note
        under both."""
        f, t, w = self.focus, self.target, self.att.weights
        fields = {"focus": self.tr.token(self.lesson.focus), "target": self.token(t)}
        wrong = self.verdict(False, self.t("transposed_wrong", wrong=number_text(w[t, f]), **fields),
                             self.t("transposed_wrong_why", **fields), width=width)
        right = self.verdict(True, self.t("transposed_right", right=number_text(w[f, t]), **fields),
                             self.t("transposed_right_where", **fields), width=width)
        texts = VGroup(wrong, right).arrange(DOWN, aligned_edge=LEFT, buff=style.BIG_GAP)
        return (VGroup(VGroup(matrix, texts).arrange(RIGHT, buff=style.BIG_GAP), note)
                .arrange(DOWN, buff=style.BIG_GAP))

    def transposed(self):
        """(d) rows are the querying tokens, columns the keys: focus→target, not target→focus."""
        self.step("transposed")
        self.clear_body()
        f, t = self.focus, self.target
        w = self.att.weights
        zoom = MATRIX_ZOOM
        hm = heatmap(w, self.att.tokens, cell_w=style.CELL_W * zoom, cell_h=style.CELL_H * zoom,
                     number_size=style.NUMBER_SIZE * zoom)
        rows_t = label(self.t("queries_rows"), style.LABEL_SIZE, style.DIM)
        cols_t = label(self.t("keys_cols"), style.LABEL_SIZE, style.DIM)
        cols_t.next_to(hm.col_labels, UP, buff=style.GAP).align_to(hm.boxes, LEFT)
        rows_t.next_to(hm.row_labels, DOWN, buff=style.GAP).align_to(hm.row_labels, LEFT)
        hm.row_labels[f].set_color(style.EMPHASIS)
        wrong_box = self.mark_cell(hm, t, f, style.WRONG)
        right_box = self.mark_cell(hm, f, t, style.HIGHLIGHT)
        matrix = VGroup(hm, rows_t, cols_t, wrong_box, right_box)
        note = label(self.t("transposed_note"), style.LABEL_SIZE, style.DIM)
        # long words: the verdicts beside the matrix wrapped, the matrix keeping its share
        body = self.place_best(lambda: self.transposed_body(matrix, note, None),
                               last=tuple(lambda w=w: self.transposed_body(matrix, note, w)
                                          for w in TRANSPOSED_WRAPS))
        wrong, right = body[0][1]
        self.play(FadeIn(hm), FadeIn(rows_t), FadeIn(cols_t))
        self.play(Create(wrong_box), FadeIn(wrong[:2]))
        self.play(FadeIn(wrong[2]))
        self.play(Create(right_box), FadeIn(right[:2]))
        self.play(FadeIn(right[2]))
        self.play(FadeIn(note))
