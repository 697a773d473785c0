"""1. overview: attention as a soft lookup; the same embedding retrieving different content; the formula."""

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    VGroup,
    Write,
)

from attention_core import attend
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.i18n import lesson_title
from scenes.common.labels import attention_formula, cell_width_for, label, label_line, word
from scenes.common.mobjects import TokenChip, TokenRow, WeightBars, vector, weight_arrow


class Overview(LessonScene):
    scene_id = "overview"
    contexts = "all"  # every context of the lesson side by side

    def fields(self) -> dict:
        return {**super().fields(), "story": self.lesson.narration.get(self.lang, {}).get("story", "")}

    def variants(self) -> list[str]:
        """story: the lesson tells what its contexts mean ([narration] story in the lesson file); masked:
        a causal mask, so a token's new vector depends on the tokens up to it only."""
        masked = ["masked"] if self.att.mask is not None else []
        return (["story"] if self.fields()["story"] else []) + masked

    def construct(self):
        self.show_heading(text=lesson_title(self.lesson, self.lang))  # the lesson opens with its title
        self.idea()
        self.soft_lookup()
        self.two_sentences()
        self.formula()

    def idea(self):
        """Every token's vector comes to depend on the others: lines from the sentence into the focus's
        new vector, below it; with a causal mask only from the tokens up to the focus (the mask gives the
        later ones exactly 0: no line, and the note says so)."""
        self.step("idea")
        row = TokenRow(self.att.tokens, buff=style.BIG_GAP)
        row.chip(self.focus).frame.set_stroke(style.EMPHASIS)
        new = TokenChip(self.lesson.focus, style.EMPHASIS).next_to(row, DOWN, buff=style.BIG_GAP * 3)
        seen = self.att.mask[self.focus] if self.att.mask is not None else [True] * self.att.n  # [n] bool
        lines = VGroup(*(
            weight_arrow(row.chip(j).get_bottom(), new.get_top(), w)
            for j, w in enumerate(self.att.weights[self.focus]) if seen[j]
        ))
        depends = self.t("depends_masked" if self.att.mask is not None else "depends")
        note = label(depends, style.BODY_SIZE, style.TEXT).next_to(new, DOWN, buff=style.BIG_GAP)
        self.place_body(VGroup(row, lines, new, note))
        self.play(FadeIn(row, shift=UP * style.GAP))
        self.play(*(GrowArrow(a) for a in lines), run_time=style.SLOW)
        self.play(FadeIn(new), Write(note))
        self.idea_row = VGroup(row, lines, new, note)

    def soft_lookup(self):
        """Hard lookup takes one value; soft lookup takes every value, weighted by the match."""
        self.step("soft_lookup")
        self.play(FadeOut(self.idea_row), run_time=style.FAST)
        w = self.att.weights[self.focus]
        hard = WeightBars(self.hard.weights[self.focus], self.att.tokens, color=style.DIM, scale_to=1)
        soft = WeightBars(w, self.att.tokens, fills=style.heat_color, scale_to=1)
        hard_t = label(self.t("hard"), style.BODY_SIZE, style.DIM)
        soft_t = label(self.t("soft"), style.BODY_SIZE, style.TEXT)
        left, right = VGroup(hard_t, hard), VGroup(soft_t, soft)
        body = VGroup(left, right)

        # the charts side by side (titles on one line) or one above the other
        def arranged(side_by_side: bool):
            for panel in body:
                panel.arrange(DOWN, buff=style.BIG_GAP)
            if side_by_side:
                body.arrange(RIGHT, buff=style.BIG_GAP * 2, aligned_edge=DOWN)
                soft_t.match_y(hard_t)
                return body
            return body.arrange(DOWN, buff=style.BIG_GAP)

        self.place_best(lambda: arranged(True), lambda: arranged(False))
        self.play(FadeIn(left))
        self.play(FadeIn(right))
        self.lookup_body = body

    def two_sentences(self):
        """The same focus embedding, two contexts, two different outputs."""
        self.step("two_sentences")
        self.play(FadeOut(self.lookup_body), run_time=style.FAST)
        self.place_best(*(lambda kind=kind: self.sentences(kind) for kind in ("in_a_row", "below", "table")))
        emb_g, rows, names = self.emb_g, self.rows, self.names
        self.play(FadeIn(emb_g))
        for i, r in enumerate(rows):
            self.play(FadeIn(r[0]), GrowArrow(r[1]), *([FadeIn(names[i])] if len(names) else []),
                      run_time=style.FAST)
            self.play(FadeIn(r[2], shift=RIGHT * style.GAP))
        self.sentences_body = VGroup(emb_g, rows, names)

    def sentences(self, kind: str) -> VGroup:
        """The focus's embedding and every context's tokens → output: each context on one line
        ("in_a_row"), its output on a line of its own under its tokens ("below"), or the sentences first
        and under them one table of the embedding and the outputs, their dimensions named once
        ("table"). Sets emb_g, rows (tokens, arrow, output) and names (the contexts', in the table)."""
        table = kind == "table" and self.lesson.d_model == self.lesson.d_v
        named = self.lesson.d_model == self.lesson.d_v  # the names are the value dimensions
        cw = cell_width_for(self.dims)  # the outputs' cells (and the embedding's) hold their names apart
        emb = vector(self.lesson.vocab[self.lesson.focus], style.X_COLOR,
                     col_labels=self.dims if named and not table else None, cell_w=cw)
        emb_t = label(self.t("same_embedding", focus=self.lesson.focus), style.LABEL_SIZE, style.DIM)
        self.emb_g = emb_g = VGroup(emb_t, emb)
        self.rows, self.names = rows, names = VGroup(), VGroup()
        for name in self.lesson.contexts:
            att = attend(self.lesson, name, self.settings.mode)
            f = att.index(self.lesson.focus)
            tokens = TokenRow(att.tokens, size=style.LABEL_SIZE)
            tokens.chip(f).frame.set_stroke(style.EMPHASIS)
            out = vector(att.output[f], style.V_COLOR, col_labels=None if table else self.dims, cell_w=cw)
            rows.add(VGroup(tokens, Arrow(LEFT, RIGHT, stroke_color=style.DIM, buff=0), out))
            if table:
                names.add(word(self.lesson.context_label(name, self.lang), style.LABEL_SIZE, style.DIM))
        if table:
            return self.as_table(emb_t, emb, rows, names)
        emb_g.arrange(DOWN, buff=style.GAP)
        grid = VGroup(*(m for r in rows for m in r))
        if kind == "in_a_row":  # each context on one line: tokens → output
            grid.arrange_in_grid(cols=3, buff=(style.GAP, style.BIG_GAP), col_alignments="rcl")
        else:  # a long sentence: the output on a line of its own, under its tokens
            for tokens, arrow, out in rows:
                VGroup(arrow, out).arrange(RIGHT, buff=style.GAP).next_to(tokens, DOWN, buff=style.GAP)
            rows.arrange(DOWN, buff=style.BIG_GAP)
        return VGroup(emb_g, grid).arrange(DOWN, buff=style.BIG_GAP)

    def as_table(self, emb_t, emb, rows, names) -> VGroup:
        """The sentences one under the other; under them the embedding and each context's output in
        one table, the dimensions named over it, each row's name (and an arrow) on its left."""
        sentences = VGroup(*(r[0] for r in rows)).arrange(DOWN, buff=style.GAP * 2)
        vectors = VGroup(emb, *(r[2] for r in rows)).arrange(DOWN, buff=style.GAP / 2)
        vectors.next_to(sentences, DOWN, buff=style.BIG_GAP * 2)
        dims = VGroup(*(word(d, style.LABEL_SIZE, style.DIM).set_x(emb.box(0, j).get_x()) for d, j in
                        zip(self.dims, range(len(self.dims)))))
        label_line(dims, emb.box(0, 0).width, emb.boxes.get_top()[1] + style.COL_LABEL_GAP, UP)
        emb_t.next_to(emb.boxes, LEFT, buff=style.GAP)
        self.emb_g.add(dims)
        for (_, arrow, out), name in zip(rows, names):
            arrow.scale(style.GAP * 2).next_to(out.boxes, LEFT, buff=style.GAP / 2)
            name.next_to(arrow, LEFT, buff=style.GAP / 2)
        return VGroup(self.emb_g, rows, names)

    def formula(self):
        """All queries at once: the formula, with Q, K, V in their colours."""
        self.step("formula")
        self.play(FadeOut(self.sentences_body), run_time=style.FAST)
        f = attention_formula()
        note = label(self.t("formula_note"), style.BODY_SIZE, style.DIM)
        roles = VGroup(*(
            word(self.t(f"common.{r}"), style.BODY_SIZE, c)
            for r, c in (("query", style.Q_COLOR), ("key", style.K_COLOR), ("value", style.V_COLOR))
        )).arrange(RIGHT, buff=style.BIG_GAP)
        body = VGroup(roles, f, note).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        self.play(FadeIn(roles))
        self.play(Write(f), run_time=style.SLOW)
        self.play(FadeIn(note))
