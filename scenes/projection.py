"""2. projection: X through three projections into Q, K and V; the focus token's row times W_Q, W_K, W_V;
the three roles as the questions they answer."""

from manim import (
    DEFAULT_FONT_SIZE,
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    Line,
    ReplacementTransform,
    VGroup,
    Write,
)

from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import cell_width_for, label, math, word, wrapped
from scenes.common.mobjects import NumberGrid, number_text, outline, vector


def role_colours():
    """(attribute of AttentionPass, colour, Typst math name: W_Q and the Q matrix), in the scene's theme."""
    return (("q", style.Q_COLOR, "Q"), ("k", style.K_COLOR, "K"), ("v", style.V_COLOR, "V"))


ROLE_NAMES = {"q": "query", "k": "key", "v": "value"}


class Projection(LessonScene):
    scene_id = "projection"

    def construct(self):
        self.show_heading()
        self.embeddings()
        self.three_projections()
        self.query_product()
        self.same_input()
        self.roles()

    # -- helpers -------------------------------------------------------------------------------
    def fields(self) -> dict:
        q = self.att.q[self.focus]
        return {**super().fields(), "q": "[" + ", ".join(number_text(v) for v in q) + "]"}

    def names(self, k: int):
        """The lesson's dimension names when they name k dimensions, else none."""
        return list(self.dims) if len(self.dims) == k else None

    def x_grid(self, x, wide: bool = True, main: bool = True) -> NumberGrid:
        """X (or one row of it) with the lesson's dimension names over its columns: on one line over
        cells as wide as the longest name (`wide`), or staggered over plain cells."""
        names = self.names(x.shape[-1])
        w = cell_width_for(names or []) if wide else style.CELL_W
        if x.ndim == 2:
            g = NumberGrid(x, row_labels=self.att.tokens, col_labels=names, cell_w=w, main=main)
            g.row_labels[self.focus][1].set_color(style.EMPHASIS)
        else:
            g = vector(x, style.X_COLOR, col_labels=names, cell_w=w)
        g.boxes.set_stroke(style.X_COLOR, width=2)
        return g

    def x_column(self, x) -> NumberGrid:
        """One embedding as a column, the dimension names (when the lesson names them) on its left."""
        g = vector(x, style.X_COLOR, vertical=True, row_labels=self.names(len(x)))
        g.boxes.set_stroke(style.X_COLOR, width=2)
        return g

    def outline_row(self, grid: NumberGrid, i: int, color=None):
        return outline(grid.boxes[i], color or style.EMPHASIS)

    def product_note(self, picture: VGroup, beside: float | None) -> VGroup:
        """The sum's picture with its note under it (as wide as it), or (`beside`: a tall picture, many
        dimensions) beside it in lines that wide: VGroup(*picture, note)."""
        heads, xv, times, w, rule, q = picture
        if beside is None:
            note = self.note(self.t("row_pick"), VGroup(xv, w)).next_to(VGroup(xv, q), DOWN,
                                                                        buff=style.BIG_GAP)
        else:
            note = wrapped(self.t("row_pick"), beside, self.lang, style.BODY_SIZE, style.TEXT)
            note.next_to(picture, RIGHT, buff=style.BIG_GAP)
        return VGroup(*picture, note)

    # -- steps ---------------------------------------------------------------------------------
    def embeddings(self):
        """The input: one embedding per token, the rows of X; the focus token's row outlined."""
        self.step("embeddings")
        grid = self.x_grid(self.att.x)
        name = math("X", color=style.X_COLOR,
                    scale=style.MIXED_MATH_SCALE * style.LABEL_SIZE / DEFAULT_FONT_SIZE)
        caption = label(self.t("x_caption"), style.LABEL_SIZE, style.TEXT)  # (the two the size of a label)
        head = VGroup(name, caption)
        body = VGroup(head, grid)

        def arranged(above: bool):  # the caption over the table, or (a small table) on its left
            head.arrange(RIGHT if above else DOWN, buff=style.GAP)
            return body.arrange(DOWN if above else RIGHT, buff=style.BIG_GAP)

        self.place_best(lambda: arranged(True), lambda: arranged(False))
        mark = self.outline_row(grid, self.focus)
        self.play(FadeIn(head))
        self.play(FadeIn(grid, shift=UP * style.GAP))
        self.play(Write(mark))
        self.x_body = VGroup(body, mark)

    def three_projections(self):
        """X goes through three matrices: every token gets a query, a key and a value."""
        self.step("three_projections")
        self.play(FadeOut(self.x_body), run_time=style.FAST)
        xg = self.x_grid(self.att.x, wide=False, main=False)  # an overview: the next steps read a row
        x_name = math("X", color=style.X_COLOR).next_to(xg.boxes, UP, buff=style.GAP)
        if len(xg.col_labels):
            x_name.next_to(xg.col_labels, UP, buff=style.GAP)
        x_block = VGroup(x_name, xg)
        outs = VGroup()
        for attr, color, name in role_colours():
            g = NumberGrid(getattr(self.att, attr), row_labels=self.att.tokens, color=color, main=False)
            g.boxes.set_stroke(color, width=2)
            g.row_labels[self.focus][1].set_color(style.EMPHASIS)
            nm = math('class("unary", times) W_' + name, "=", name, color=color).next_to(g, LEFT,
                                                                                         buff=style.GAP)
            nm[1].set_color(style.TEXT)
            outs.add(VGroup(nm, g))
        outs.arrange(DOWN, buff=style.GAP * 3 / 2, aligned_edge=RIGHT)
        VGroup(x_block, outs).arrange(RIGHT, buff=style.BIG_GAP * 3)
        arrows = VGroup(*(
            Arrow(xg.boxes.get_right(), out[0].get_left(), buff=style.GAP / 2, stroke_color=color,
                  stroke_width=3, max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO)
            for (_, color, _), out in zip(role_colours(), outs)
        ))
        self.place_body(VGroup(x_block, outs, arrows))
        marks = VGroup(self.outline_row(xg, self.focus),
                       *(self.outline_row(out[1], self.focus) for out in outs))
        self.play(FadeIn(x_block))
        for a, out in zip(arrows, outs):
            self.play(GrowArrow(a), FadeIn(out, shift=RIGHT * style.GAP), run_time=style.RUN)
        self.play(*(Write(m) for m in marks))
        self.proj_body = VGroup(x_block, outs, arrows, marks)

    def query_product(self):
        """The focus row times W_Q, written out as the sum it is: each entry of x beside the row of W_Q it
        weights (x down the side, the dimension names shared), the rows added up under a rule into q."""
        self.step("query_product")
        self.play(FadeOut(self.proj_body), run_time=style.FAST)
        f, lesson = self.focus, self.lesson
        x = self.att.x[f]
        xv = self.x_column(x)
        w = NumberGrid(lesson.w_q)
        w.boxes.set_stroke(style.Q_COLOR, width=2)
        w.next_to(xv.boxes, RIGHT, buff=style.BIG_GAP)
        times = VGroup(*(math("times", color=style.DIM).move_to((xv.box(i, 0).get_right()
                                                              + w.box(i, 0).get_left()) / 2)
                         for i in range(len(x))))
        rule = Line(w.boxes.get_left(), w.boxes.get_right(), stroke_color=style.DIM)
        rule.next_to(w.boxes, DOWN, buff=style.GAP)
        q = vector(self.att.q[f], style.Q_COLOR).next_to(rule, DOWN, buff=style.GAP).align_to(w.boxes, LEFT)
        heads = self.product_heads(xv, w, q)
        sum_picture = VGroup(heads, xv, times, w, rule, q)
        body = self.place_best(lambda: self.product_note(sum_picture, None), fallbacks=tuple(
            lambda w=w: self.product_note(sum_picture, w) for w in (style.NOTE_MIN_W / 2, style.NOTE_MIN_W)))
        note = body[-1]
        picks = VGroup()
        for i, xi in enumerate(x):
            if xi != 0:
                picks.add(outline(xv.boxes[i][0]))
                picks.add(self.outline_row(w, i, style.HIGHLIGHT))
        self.play(FadeIn(xv), FadeIn(heads[0]))
        self.play(FadeIn(times), FadeIn(w), FadeIn(heads[1]))
        self.play(*(Write(p) for p in picks))
        self.play(FadeIn(rule), FadeIn(q, shift=DOWN * style.GAP), FadeIn(heads[2]))
        self.play(FadeIn(note))
        self.product = VGroup(heads, xv, times, w, rule, picks, note)
        self.q_vec = q

    def product_heads(self, xv, w, q) -> VGroup:
        """The names over x and W_Q and beside q; x's name, when wider than its column (a long language),
        moved left of W_Q's rather than over it."""
        focus = self.lesson.focus
        heads = VGroup(word(self.t("embedding_of", focus=focus), style.LABEL_SIZE, style.X_COLOR),
                       math("W_Q", color=style.Q_COLOR),
                       word(self.t("query_of", focus=focus), style.LABEL_SIZE, style.Q_COLOR))
        top = max(xv.boxes.get_top()[1], w.boxes.get_top()[1]) + style.GAP
        for h, m in zip(heads[:2], (xv, w)):
            h.move_to([m.boxes.get_center()[0], top, 0], aligned_edge=DOWN)
        if (over := heads[0].get_right()[0] - heads[1].get_left()[0]) > 0:
            heads[0].shift(LEFT * (over + style.GAP))
        heads[2].next_to(q.boxes, LEFT, buff=style.GAP)
        return heads

    def same_input(self):
        """The same embedding through W_K and W_V: three different vectors, not one."""
        self.step("same_input")
        f = self.focus
        rows = VGroup()
        for attr, color, name in role_colours():
            op = math('class("unary", times) W_' + name, "=", color=color)
            op[1].set_color(style.TEXT)
            vec = vector(getattr(self.att, attr)[f], color)
            rows.add(VGroup(op, vec))
        VGroup(*(m for r in rows for m in r)).arrange_in_grid(
            cols=2, buff=(style.GAP, style.GAP * 3 / 2), col_alignments="rl")
        xv = self.x_column(self.att.x[f])
        x_head = word(self.t("embedding_of", focus=self.lesson.focus), style.LABEL_SIZE, style.X_COLOR)
        x_block = VGroup(x_head, xv).arrange(DOWN, buff=style.GAP)
        top = VGroup(x_block, rows).arrange(RIGHT, buff=style.BIG_GAP * 2)
        x_block.match_y(rows)
        braces = VGroup(*(
            Arrow(xv.boxes.get_right(), r[0].get_left(), buff=style.GAP / 2, stroke_color=style.DIM,
                  stroke_width=2,
                  max_tip_length_to_length_ratio=style.ARROW_TIP_RATIO)
            for r in rows
        ))
        note = self.note(self.t("three_vectors"), top).next_to(top, DOWN, buff=style.BIG_GAP)
        body = VGroup(top, braces, note)
        self.place_body(body)
        self.play(FadeOut(self.product), run_time=style.FAST)
        self.play(FadeIn(x_block), ReplacementTransform(self.q_vec, rows[0][1]), FadeIn(rows[0][0]))
        self.play(GrowArrow(braces[0]))
        for a, r in zip(braces[1:], rows[1:]):
            self.play(GrowArrow(a), FadeIn(r, shift=RIGHT * style.GAP))
        self.play(FadeIn(note))
        self.same_body = VGroup(x_block, braces, note)
        self.rows = rows

    def roles(self):
        """What each vector is for: the question each role answers."""
        self.step("roles")
        lines = VGroup()
        for (attr, color, _), r in zip(role_colours(), self.rows):
            name = word(self.t(f"common.{ROLE_NAMES[attr]}") + " " + attr, style.BODY_SIZE, color)
            question = word(self.t(f"ask_{attr}"), style.BODY_SIZE, style.TEXT)
            lines.add(VGroup(name, vector(getattr(self.att, attr)[self.focus], color), question))
        head = word(self.t("vectors_of", focus=self.lesson.focus), style.LABEL_SIZE, style.DIM)
        body = VGroup(head, lines)

        def arranged(beside: bool):  # each question beside its vector, or under it
            grid = VGroup(*(m for line in lines for m in line))
            if beside:
                grid.arrange_in_grid(cols=3, buff=(style.BIG_GAP, style.GAP * 2), col_alignments="lcl")
            else:
                for name, vec, question in lines:
                    question.next_to(vec, DOWN, buff=style.GAP / 2, aligned_edge=LEFT)
                    name.next_to(vec.boxes, LEFT, buff=style.BIG_GAP)
                lines.arrange(DOWN, buff=style.GAP * 3 / 2, aligned_edge=LEFT)
                for line in lines:
                    line.shift(RIGHT * (lines[0][1].get_left()[0] - line[1].get_left()[0]))
            head.next_to(lines[0][1], UP, buff=style.GAP)
            note = self.note(self.t("not_same"), lines, style.LABEL_SIZE, style.DIM)
            body.submobjects = [head, lines, note.next_to(VGroup(head, lines), DOWN, buff=style.BIG_GAP)]
            return body

        self.place_best(lambda: arranged(True), lambda: arranged(False))
        head, lines, note = body
        self.play(FadeOut(self.same_body), *(FadeOut(r[0]) for r in self.rows), run_time=style.FAST)
        self.play(*(ReplacementTransform(r[1], line[1]) for r, line in zip(self.rows, lines)))
        for line in lines:
            self.play(FadeIn(line[0]), FadeIn(line[2], shift=LEFT * style.GAP))
        self.play(FadeIn(head), FadeIn(note))
