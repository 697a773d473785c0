"""3. scores: the focus token's query against every key; one dot product term by term; the raw scores,
then divided by √d_k (or not, in the diagnostic modes); why the divisor, and what it does not promise."""

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, TransformFromCopy, VGroup, Write

from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import listing
from scenes.common.labels import math, number_formula, word
from scenes.common.mobjects import NumberGrid, number_text, outline, vector


def term(x: float) -> str:
    """A factor as written: negative numbers in brackets, so that '+ (-0.4)' reads as a sum."""
    s = number_text(x)
    return f"({s})" if s.startswith("-") else s


class Scores(LessonScene):
    scene_id = "scores"

    def construct(self):
        self.show_heading()
        self.query_meets_keys()
        self.one_dot_product()
        self.all_scores()
        self.scale_step()
        self.why_divide()

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        f, a, j = self.focus, self.att, self.best
        sqrt, n = number_text(a.sqrt_d_k), number_text
        divisions = listing([self.t("division", token=t, raw=n(r), sqrt_d_k=sqrt, scaled=n(x))
                             for t, r, x in zip(a.tokens, a.scores[f], a.scaled[f])], self.lang)
        return {**super().fields(), "best": self.token(j), "best_score": number_text(a.scores[f, j]),
                "sqrt_d_k": number_text(a.sqrt_d_k), "scale": number_text(a.scale), "divisions": divisions}

    def variants(self) -> list[str]:
        """A step may have a line of its own for the diagnostic modes (say.<step>_<mode>)."""
        return [self.att.mode]

    @property
    def best(self) -> int:
        """The key the focus query matches best (raw scores; ties go to the first key)."""
        return int(self.hard.choice[self.focus])

    # -- the table and the line under it ---------------------------------------------------------
    def build_table(self):
        """q above K with their columns aligned, then a raw-score and a scaled-score column."""
        f, a = self.focus, self.att
        q = vector(a.q[f], style.Q_COLOR, row_labels=[self.t("query_of", focus=self.lesson.focus)])
        q.row_labels[0][1].set_color(style.Q_COLOR)
        k = NumberGrid(a.k, row_labels=a.tokens, color=style.K_COLOR)
        k.boxes.set_stroke(style.K_COLOR, width=2)
        k.row_labels[f][1].set_color(style.EMPHASIS)
        raw = NumberGrid(a.scores[f][:, None])
        scaled = NumberGrid(a.scaled[f][:, None])
        raw.next_to(k.boxes, RIGHT, buff=style.BIG_GAP)
        scaled.next_to(raw.boxes, RIGHT, buff=style.BIG_GAP)
        q.next_to(k, UP, buff=style.BIG_GAP * 3 / 2)
        q.shift(RIGHT * (k.boxes.get_left()[0] - q.boxes.get_left()[0]))
        header_y = (q.boxes.get_bottom()[1] + k.boxes.get_top()[1]) / 2
        key_head = word(self.t("keys_of"), style.LABEL_SIZE, style.K_COLOR)
        key_head.move_to([k.row_labels.get_right()[0], header_y, 0], aligned_edge=RIGHT)
        raw_head = math("q dot k").move_to([raw.get_center()[0], header_y, 0])
        scaled_head = math('class("unary", div) sqrt(d_k)' if a.mode == "scaled"  # "unary": no gap after ÷
                           else 'class("unary", times) ' + number_text(a.scale))
        scaled_head.move_to([scaled.get_center()[0], header_y, 0])
        self.q, self.k, self.raw, self.scaled_col = q, k, raw, scaled
        self.key_head, self.raw_head, self.scaled_head = key_head, raw_head, scaled_head
        # the cells start empty: their numbers come in step by step
        return VGroup(q, k, key_head, raw_head, scaled_head, raw.boxes, scaled.boxes, raw.numbers,
                      scaled.numbers)

    def dot_product_line(self) -> VGroup:
        """'river: 2.3×2 + 2.3×0 + … = 4.6', the query's factors in Q colour, the key's in K colour."""
        f, j, a = self.focus, self.best, self.att
        parts, colors = [], {}
        for i, (qi, ki) in enumerate(zip(a.q[f], a.k[j])):
            if i:
                parts.append("+")
            colors[len(parts)], colors[len(parts) + 2] = style.Q_COLOR, style.K_COLOR
            parts += [term(qi), "×", term(ki)]
        expr = number_formula(*parts, "=", number_text(a.scores[f, j]))
        for i, c in colors.items():
            expr[i].set_color(c)
        expr[-1].set_color(style.HIGHLIGHT)
        name = word(self.t("for_key", token=a.tokens[j]), style.BODY_SIZE, style.K_COLOR)
        line = VGroup(name, expr).arrange(RIGHT, buff=style.GAP / 2)
        plus = [i for i, p in enumerate(parts) if p == "+"]
        if not plus:
            return line
        two = line.copy()  # many terms may read larger with the second half on a line of its own
        cut = min(plus, key=lambda i: abs(i - len(parts) / 2))
        rest = VGroup(*two[1][cut:])  # under the first half, a caption's line gap apart
        rest.next_to(VGroup(*two[1][:cut]), DOWN, buff=style.LINE_GAP, aligned_edge=LEFT)
        table = VGroup(self.q, self.k, self.key_head, self.raw_head, self.raw.boxes)
        better = self.room(VGroup(table, two.next_to(table, DOWN, buff=style.BIG_GAP))) > \
            self.room(VGroup(table, line.copy().next_to(table, DOWN, buff=style.BIG_GAP)))
        return two if better else line

    # -- steps ---------------------------------------------------------------------------------
    def query_meets_keys(self):
        """The focus query above the key matrix, columns aligned: a dot product with every row."""
        self.step("query_meets_keys")
        table = self.build_table()
        self.slot = [self.paragraph("dot_rule"), self.dot_product_line(), self.paragraph("match_note"),
                     self.paragraph(f"scale_{self.att.mode}")]
        for m in self.slot:  # the line under the table: one at a time, in the same place
            m.next_to(table, DOWN, buff=style.BIG_GAP).match_x(table)
        self.layout = VGroup(table, *self.slot)
        self.reframe(self.q, self.k, self.key_head, self.slot[0], layout=self.layout)
        self.play(FadeIn(self.q, shift=DOWN * style.GAP))
        self.play(FadeIn(self.k), FadeIn(self.key_head))
        self.play(FadeIn(self.slot[0]))

    def one_dot_product(self):
        """The best-matching key's dot product written out, term by term; its score fills a cell."""
        self.step("one_dot_product")
        j = self.best
        name, expr = line = self.slot[1]
        self.play(FadeOut(self.slot[0]), run_time=style.FAST)
        self.reframe(self.q, self.k, self.key_head, self.raw_head, self.raw.boxes, line, layout=self.layout)
        self.marks = VGroup(
            outline(self.q.boxes),
            outline(self.k.boxes[j]),
        )
        self.play(*(Write(m) for m in self.marks))
        self.play(FadeIn(name), Write(expr), run_time=style.SLOW)
        self.play(FadeIn(self.raw_head), FadeIn(self.raw.boxes))
        self.play(TransformFromCopy(expr[-1], self.raw.number(j, 0)))
        self.expr_line = line

    def all_scores(self):
        """Every key's raw score; larger means a better match under this projection, nothing more."""
        self.step("all_scores")
        rest = [row[0] for i, row in enumerate(self.raw.numbers) if i != self.best]
        self.play(FadeOut(self.expr_line), FadeOut(self.marks[0]), run_time=style.FAST)
        self.reframe(*self.on_screen(), self.raw.numbers, self.slot[2], layout=self.layout)
        self.play(*(FadeIn(c) for c in rest))
        self.play(FadeIn(self.slot[2]))

    def scale_step(self):
        """Divide by √d_k (scaled), or not (unscaled: × 1), or ignore the scores (uniform: × 0)."""
        self.step("scale_step")
        cells = [row[0] for row in self.scaled_col.numbers]
        self.play(FadeOut(self.slot[2]), FadeOut(self.marks[1]), run_time=style.FAST)
        self.reframe(*self.on_screen(), self.scaled_head, self.scaled_col, self.slot[3],
                     layout=self.layout)
        self.play(FadeIn(self.scaled_head), FadeIn(self.scaled_col.boxes), FadeIn(self.slot[3]))
        self.play(*(TransformFromCopy(r[0], c) for r, c in zip(self.raw.numbers, cells)), run_time=style.SLOW)

    def why_divide(self):
        """Why √d_k: score variance grows with the dimension; less saturation risk, no guarantee."""
        self.step("why_divide")
        self.clear_body()
        assume = self.paragraph("assume", style.BODY_SIZE, style.DIM)
        grow = math('"Var"(q dot k) = d_k', "quad => quad", '"Var"(frac(q dot k, sqrt(d_k))) = 1')
        parts = [assume, grow, self.paragraph("saturate"), self.paragraph("no_guarantee")]
        if self.att.mode != "scaled":
            parts.append(self.paragraph(f"this_run_{self.att.mode}", style.LABEL_SIZE, style.HIGHLIGHT))
        body = VGroup(*parts).arrange(DOWN, buff=style.GAP * 3 / 2)
        grow.shift(UP * style.GAP / 2)
        self.place_body(body)
        self.play(FadeIn(assume))
        self.play(Write(grow), run_time=style.SLOW)
        for m in parts[2:]:
            self.play(FadeIn(m, shift=UP * style.GAP))
