"""6. matrix: every query at once fills the n×n attention matrix (rows = queries, columns = keys); the
focus's row first as raw scores, then as softmax heat; purple lines, as thick as the weights, from the
focus to its keys; the output is still a mix, not one word."""

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Point,
    ReplacementTransform,
    VGroup,
    Write,
)

from scenes.common import style as S
from scenes.common.base import LessonScene
from scenes.common.labels import fit, label, tex, word, wrapped
from scenes.common.mobjects import (
    NumberGrid,
    TokenChip,
    attention_lines,
    number_text,
    outline,
    percent_text,
)

CELL_W, CELL_H = 1.2, 0.7  # a cell of the attention matrix, at the least
MATRIX_H = 2.8  # the matrix's cells are at least this tall together: a 2×2 matrix fills the frame too
PULSE_SCALE = 1.06  # Indicate on a row: enough to see, not enough to jump

# what turns the focus's scores into weights, per mode (no words: those are in the catalog)
RULE_TEX = {
    "scaled": r"\mathrm{softmax}\!\left(q\cdot k / \sqrt{d_k}\right)",
    "unscaled": r"\mathrm{softmax}\!\left(q\cdot k\right)",
    "uniform": r"1/n",
}


class AttentionMatrix(LessonScene):
    scene_id = "matrix"

    def setup(self):
        super().setup()
        self.w = self.att.weights[self.focus]  # [n] the focus's row
        self.top = int(np.argmax(self.w))
        self.flat = bool(np.allclose(self.w, self.w[0]))  # uniform weights: no main target

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        s = self.att.scores[self.focus]
        top_score = int(np.argmax(s))
        return {**super().fields(), "top": self.att.tokens[self.top], "share": percent_text(self.w[self.top]),
                "best": self.att.tokens[top_score], "best_score": number_text(s[top_score])}

    def variants(self) -> list[str]:
        """The uniform lines when the weights are all equal."""
        return ["uniform"] if self.flat else []

    # -- steps -----------------------------------------------------------------------------------
    def construct(self):
        self.show_heading()
        self.build()
        self.axes()
        self.raw_scores()
        self.heat()
        self.row_pulse()
        self.parallel()
        self.lines()

    def build(self):
        """The whole picture, laid out once: the matrix on the left, the focus's lines on the right."""
        matrix = self.build_matrix()
        fan = self.build_fan()
        lines_note = self.t("lines_note_flat" if self.flat else "lines_note")
        width = max(fan.width, S.NOTE_MIN_W / 2)  # the notes as narrow as the lines above them
        self.note = VGroup(*(wrapped(t, width, self.lang, S.LABEL_SIZE, c) for t, c in (
            (lines_note, S.TEXT), (self.t("mix_note"), S.EMPHASIS)))).arrange(DOWN, buff=S.LINE_GAP)
        self.panel = VGroup(fan, self.note).arrange(DOWN, buff=S.BIG_GAP)
        VGroup(matrix, self.panel).arrange(RIGHT, buff=S.BIG_GAP * 2)
        self.build_captions()  # where the panel goes later
        self.layout = VGroup(matrix, self.panel, self.raw_caption, self.heat_caption)

    def build_matrix(self) -> VGroup:
        """The weights in an n×n grid, the keys above it, the axis names, an empty grid to fill, the
        focus's row framed and its raw scores over it."""
        toks, f, n = self.att.tokens, self.focus, self.att.n
        ch = max(CELL_H, MATRIX_H / n)
        cw = ch * CELL_W / CELL_H
        self.grid = NumberGrid(self.att.weights, row_labels=toks, fills=S.heat_color, cell_w=cw, cell_h=ch,
                               label_color=S.Q_COLOR)
        self.keys = self.key_labels(cw)
        self.empty = NumberGrid(np.zeros((n, n)), cell_w=cw, cell_h=ch).move_to(self.grid.boxes)
        self.key_axis, self.query_axis = self.axis_names()
        row_h = self.grid.box(f, 0).height
        self.focus_band = outline(VGroup(self.grid.row_labels[f], self.grid.boxes[f]), S.EMPHASIS,
                                  buff=(S.GAP / 2, 0), height=row_h)
        self.raw = NumberGrid(self.att.scores[f][None, :], cell_w=cw, cell_h=ch).move_to(self.grid.boxes[f])
        return VGroup(self.grid, self.keys, self.empty, self.raw, self.key_axis, self.query_axis,
                      self.focus_band)

    def axis_names(self) -> tuple[VGroup, VGroup]:
        """The keys' axis name over the key labels, the queries' level with it over the row labels."""
        key_axis = label(self.t("common.keys_axis") + " →", S.LABEL_SIZE, S.K_COLOR)
        key_axis.next_to(self.keys, UP, buff=S.GAP / 2)
        key_axis.set_x(self.grid.boxes.get_center()[0])
        query_axis = label(self.t("common.queries_axis") + " ↓", S.LABEL_SIZE, S.Q_COLOR)
        query_axis.match_y(key_axis).align_to(self.grid.row_labels, RIGHT)
        room = query_axis.get_right()[0] + S.GAP - key_axis.get_left()[0]
        if room > 0:  # a narrow matrix: keep the two axis names apart
            key_axis.shift(RIGHT * room)
        return key_axis, query_axis

    def build_fan(self) -> VGroup:
        """The focus on the left, its keys in a column on the right, a line to each as thick as its weight."""
        src = TokenChip(self.lesson.focus, S.EMPHASIS, S.LABEL_SIZE)
        keys = VGroup(*(TokenChip(t, S.K_COLOR, S.LABEL_SIZE) for t in self.att.tokens))
        keys.arrange(DOWN, buff=S.GAP / 2, aligned_edge=LEFT)
        src.next_to(keys, LEFT, buff=S.BIG_GAP * 2)
        pcts = VGroup(*(
            label(percent_text(w), S.LABEL_SIZE, S.TEXT).next_to(c, RIGHT, buff=S.GAP / 2)
            for c, w in zip(keys, self.w)
        ))
        ends = [Point(c.get_left()) for c in keys]
        self.fan_lines = attention_lines(Point(src.get_right()), ends, self.w)
        self.fan = VGroup(src, keys, pcts)
        return VGroup(self.fan, self.fan_lines)

    def build_captions(self):
        """The focus row's caption, right of the matrix, where the panel goes later: the raw scores,
        then the rule that made the weights."""
        self.raw_caption = VGroup(label(self.t("common.raw_scores"), S.LABEL_SIZE, S.TEXT),
                                  tex(r"q\cdot k")).arrange(DOWN, buff=S.GAP / 2)
        rule = tex(RULE_TEX[self.att.mode])
        caption = self.t("common.mode_uniform" if self.att.mode == "uniform" else "weights_caption")
        self.heat_caption = VGroup(label(caption, S.LABEL_SIZE, S.TEXT), rule)
        self.heat_caption.arrange(DOWN, buff=S.GAP / 2)
        for c in (self.raw_caption, self.heat_caption):
            c.next_to(self.focus_band, RIGHT, buff=S.BIG_GAP)

    def key_labels(self, cw: float) -> VGroup:
        """The keys above the columns, one size for all; staggered on two lines if one is wider than
        its column, so long names keep their size without widening the matrix."""
        top = self.grid.boxes[0]
        words = VGroup(*(word(t, S.LABEL_SIZE, S.K_COLOR).next_to(top[j], UP, buff=S.GAP / 2)
                         for j, t in enumerate(self.att.tokens)))
        if max(m.width for m in words) + S.GAP / 2 > cw:
            for m in words:
                fit(m, cw * 2 - S.GAP, m.height)
            lift = words[0].height + S.GAP / 3
            for m in words[1::2]:
                m.shift(UP * lift)
        return words

    def frame_matrix(self, *more):
        """The camera on the matrix (its empty grid, labels and axis names) and `more`."""
        self.reframe(self.empty.boxes, self.grid.row_labels, self.query_axis, self.keys, self.key_axis, *more,
                     layout=self.layout)

    def axes(self):
        """An empty n×n grid: the querying tokens down the side, the keys across the top."""
        self.step("axes")
        self.frame_matrix()
        self.play(Create(self.empty.boxes), run_time=S.RUN)
        self.play(FadeIn(self.grid.row_labels, shift=RIGHT * S.GAP), FadeIn(self.query_axis))
        self.play(FadeIn(self.keys, shift=DOWN * S.GAP), FadeIn(self.key_axis))

    def raw_scores(self):
        """The focus's row: its query against every key, raw dot products."""
        self.step("raw_scores")
        self.frame_matrix(self.focus_band, self.raw, self.raw_caption)
        self.play(Create(self.focus_band), self.grid.row_labels[self.focus].animate.set_color(S.EMPHASIS))
        self.play(FadeIn(self.raw), FadeIn(self.raw_caption, shift=LEFT * S.GAP))

    def heat(self):
        """The same row after the normalizer: weights, coloured by heat."""
        self.step("heat")
        f = self.focus
        self.frame_matrix(self.focus_band, self.grid.row(f), self.heat_caption)
        self.play(ReplacementTransform(self.raw, self.grid.row(f)),
                  ReplacementTransform(self.raw_caption, self.heat_caption), run_time=S.SLOW)
        self.remove(self.empty.boxes[f])

    def row_pulse(self):
        """Row i is query i's split over the keys: the row pulses (a looping slide in a deck)."""
        self.step("row_pulse", loop=True)
        self.play(Indicate(VGroup(self.focus_band, self.grid.row(self.focus)),
                           scale_factor=PULSE_SCALE, color=S.EMPHASIS), run_time=S.SLOW)

    def parallel(self):
        """Every other query computed the same way, all at once: the full matrix."""
        self.step("parallel")
        others = [i for i in range(self.att.n) if i != self.focus]
        self.play(*(FadeIn(self.grid.row(i)) for i in others), run_time=S.SLOW)
        self.remove(*(self.empty.boxes[i] for i in others))

    def lines(self):
        """Purple lines from the focus to its keys, as thick as the weights; still a mix."""
        self.step("lines")
        self.play(FadeOut(self.heat_caption), run_time=S.FAST)
        self.reframe(*self.on_screen(), self.panel, layout=self.layout, run_time=S.RUN)
        src, keys, pcts = self.fan
        self.play(FadeIn(src), FadeIn(keys))
        self.play(LaggedStart(*(Create(line) for line in self.fan_lines), lag_ratio=S.FAST / S.SLOW),
                  FadeIn(pcts), run_time=S.SLOW)
        self.play(Write(self.note[0]))
        self.play(FadeIn(self.note[1]))
