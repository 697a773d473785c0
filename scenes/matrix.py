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

from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import fit, label, math, word, wrapped
from scenes.common.masked import masked_format, row_strikes, strike_masked
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
MASK_NOTE_W = 1.5  # a masked lesson's note beside the matrix wraps to its caption's width, at least this
NARROW_AXIS = 0.6  # a queries' name too wide for the matrix wraps to this share of its width (two lines)
AXIS_LINE_GAP = style.GAP / 4  # between the lines of a wrapped queries' name: one name, not two
PULSE_SCALE = 1.06  # Indicate on a row: enough to see, not enough to jump

# what turns the focus's scores into weights, per mode (no words: those are in the catalog)
RULE_MATH = {
    "scaled": '"softmax"(q dot k slash sqrt(d_k))',
    "unscaled": '"softmax"(q dot k)',
    "uniform": "1 slash n",
}
# with a causal mask: M is 0 where the query may look and -inf after it (the uniform weights are 1/(i+1))
MASKED_RULE_MATH = {
    "scaled": '"softmax"(q dot k slash sqrt(d_k) + M)',
    "unscaled": '"softmax"(q dot k + M)',
    "uniform": '"softmax"(0 + M)',
}


class AttentionMatrix(LessonScene):
    scene_id = "matrix"

    def setup(self):
        super().setup()
        self.w = self.att.weights[self.focus]  # [n] the focus's row
        self.top = int(np.argmax(self.w))
        self.masked = self.att.mask is not None  # a causal mask: the keys after each query are -inf
        self.alone = self.masked and self.focus == 0  # the first token, masked: it sees only itself
        seen = self.w[self.att.mask[self.focus]] if self.masked else self.w  # the weights of the keys it sees
        # uniform weights: no main target (a first token seeing only itself is not uniform, but its mode)
        self.flat = bool(np.allclose(seen, seen[0])) and (len(seen) > 1 or self.att.mode == "uniform")

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        s = self.att.scores[self.focus]
        top_score = int(self.hard.choice[self.focus])  # the best score of the keys it may see
        return {**super().fields(), "top": self.token(self.top), "share": percent_text(self.w[self.top]),
                "best": self.token(top_score), "best_score": number_text(s[top_score])}

    def variants(self) -> list[str]:
        """The uniform lines when the weights (of the keys the focus may see) are all equal; the
        masked ones with a causal mask."""
        flat = ["uniform_masked", "uniform"] if self.masked else ["uniform"]
        first = ["first"] if self.alone else []  # masked, the focus first: it sees only itself
        return first + (flat if self.flat else []) + (["masked"] if self.masked else [])

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
        width = max(fan.width, style.NOTE_MIN_W / 2)  # the notes as narrow as the lines above them
        self.note = VGroup(*(wrapped(t, width, self.lang, style.LABEL_SIZE, c) for t, c in (
            (lines_note, style.TEXT), (self.t("mix_note_first" if self.alone else "mix_note"),
                                       style.EMPHASIS))))
        self.note.arrange(DOWN, buff=style.LINE_GAP)
        self.panel = VGroup(fan, self.note).arrange(DOWN, buff=style.BIG_GAP)
        VGroup(matrix, self.panel).arrange(RIGHT, buff=style.BIG_GAP * 2)
        self.build_captions()  # where the panel goes later
        self.narrow_axis_names(matrix)
        self.layout = VGroup(matrix, self.panel, self.raw_caption, self.heat_caption)
        if self.masked:
            self.layout.add(self.build_mask_note(matrix))

    def build_mask_note(self, matrix) -> VGroup:
        """One line saying what a masked cell is, under the matrix or beside it (under the focus row's
        caption, over it when that row is in the matrix's lower half), whichever lets the raw scores'
        step be larger."""
        under = wrapped(self.t("mask_note"), matrix.width, self.lang, style.LABEL_SIZE, style.TEXT)
        under.next_to(matrix, DOWN, buff=style.GAP).match_x(self.grid.boxes)
        captions = VGroup(self.raw_caption, self.heat_caption)  # in one place, one after the other
        width = max(self.raw_caption.width, MASK_NOTE_W)  # narrow: the matrix keeps the frame's width
        beside = wrapped(self.t("mask_note"), width, self.lang, style.LABEL_SIZE, style.TEXT)
        beside.next_to(captions, DOWN if self.focus < self.att.n / 2 else UP, buff=style.BIG_GAP)
        beside.match_x(self.raw_caption)
        step = [matrix, self.raw, self.focus_band, self.raw_caption]  # what the raw scores' step shows
        self.mask_note = max((under, beside), key=lambda note: self.fill_transform(VGroup(*step, note))[0])
        return self.mask_note

    def build_matrix(self) -> VGroup:
        """The weights in an n×n grid, the keys above it, the axis names, an empty grid to fill, the
        focus's row framed and its raw scores over it."""
        toks, f, n = self.att.tokens, self.focus, self.att.n
        ch = max(CELL_H, MATRIX_H / n)
        cw = ch * CELL_W / CELL_H
        self.grid = NumberGrid(self.att.weights, row_labels=toks, fills=style.heat_color, cell_w=cw,
                               cell_h=ch,
                               label_color=style.Q_COLOR)
        if self.masked:  # the keys after each query: struck out, weight 0
            strike_masked(self.grid, self.att.mask, style.DIM)
        self.keys = self.key_labels(cw)
        self.empty = NumberGrid(np.zeros((n, n)), cell_w=cw, cell_h=ch).move_to(self.grid.boxes)
        self.key_axis, self.query_axis = self.axis_names()
        row_h = self.grid.box(f, 0).height
        self.focus_band = outline(VGroup(self.grid.row_labels[f], self.grid.boxes[f]), style.EMPHASIS,
                                  buff=(style.GAP / 2, 0), height=row_h)
        self.raw = self.raw_row(cw, ch).move_to(self.grid.boxes[f])
        return VGroup(self.grid, self.keys, self.empty, self.raw, self.key_axis, self.query_axis,
                      self.focus_band)

    def raw_row(self, cw: float, ch: float) -> NumberGrid:
        """The focus's raw scores in one row; with a causal mask the keys after it are −∞, struck out."""
        s = self.att.scores[self.focus][None, :]  # [1, n]
        if not self.masked:
            return NumberGrid(s, cell_w=cw, cell_h=ch)
        allowed = self.att.mask[self.focus][None, :]
        shown = np.where(allowed, s, -np.inf)  # what the softmax sees: the masked scores are -inf
        raw = NumberGrid(shown, cell_w=cw, cell_h=ch, formatter=masked_format(shown))
        strike_masked(raw, allowed)
        return raw

    def axis_names(self, narrow: bool = False) -> tuple[VGroup, VGroup]:
        """The keys' axis name over the key labels, the queries' level with it over the row labels
        (`narrow`: wrapped to about half its width, or the row labels' if wider, hanging down over them
        from the keys' name's top)."""
        key_axis = label(self.t("common.keys_axis") + " →", style.LABEL_SIZE, style.K_COLOR)
        key_axis.next_to(self.keys, UP, buff=style.GAP / 2)
        key_axis.set_x(self.grid.boxes.get_center()[0])
        query_axis = label(self.t("common.queries_axis") + " ↓", style.LABEL_SIZE, style.Q_COLOR)
        query_axis.match_y(key_axis).align_to(self.grid.row_labels, RIGHT)
        if narrow:
            width = max(self.grid.row_labels.width, query_axis.width * NARROW_AXIS)
            query_axis = wrapped(self.t("common.queries_axis") + " ↓", width, self.lang, style.LABEL_SIZE,
                                 style.Q_COLOR, line_gap=AXIS_LINE_GAP)
            for line in query_axis:
                line.align_to(query_axis, RIGHT)
            right = min(self.grid.row_labels.get_right()[0], self.keys.get_left()[0] - style.GAP / 2)
            query_axis.align_to(key_axis, UP).align_to([right, 0, 0], RIGHT)  # clear of the first key
        room = query_axis.get_right()[0] + style.GAP - key_axis.get_left()[0]
        if room > 0:  # a narrow matrix: keep the two axis names apart
            key_axis.shift(RIGHT * room)
        return key_axis, query_axis

    def narrow_axis_names(self, matrix: VGroup) -> None:
        """A queries' name wider than the row labels (a longer language) that leaves the raw scores'
        or the weights' step too little room: wrapped over the row labels instead."""
        f = self.focus
        steps = ((self.focus_band, self.raw, self.raw_caption), (self.focus_band, self.grid.row(f),
                                                                 self.heat_caption))
        if self.query_axis.width <= self.grid.row_labels.width or \
                all(self.passes(VGroup(*self.matrix_parts(), *more)) for more in steps):
            return
        matrix.remove(self.key_axis, self.query_axis)
        self.key_axis, self.query_axis = self.axis_names(narrow=True)
        matrix.add(self.key_axis, self.query_axis)

    def build_fan(self) -> VGroup:
        """The focus on the left, its keys in a column on the right, a line to each as thick as its weight."""
        src = TokenChip(self.lesson.focus, style.EMPHASIS, style.LABEL_SIZE)
        keys = VGroup(*(TokenChip(t, style.K_COLOR, style.LABEL_SIZE) for t in self.att.tokens))
        keys.arrange(DOWN, buff=style.GAP / 2, aligned_edge=LEFT)
        src.next_to(keys, LEFT, buff=style.BIG_GAP * 2)
        pcts = VGroup(*(
            label(percent_text(w), style.LABEL_SIZE, style.TEXT).next_to(c, RIGHT, buff=style.GAP / 2)
            for c, w in zip(keys, self.w)
        ))
        ends = [Point(c.get_left()) for c in keys]
        self.fan_lines = attention_lines(Point(src.get_right()), ends, self.w)
        self.fan = VGroup(src, keys, pcts)
        return VGroup(self.fan, self.fan_lines)

    def build_captions(self):
        """The focus row's caption, right of the matrix, where the panel goes later: the raw scores,
        then the rule that made the weights."""
        self.raw_caption = VGroup(label(self.t("common.raw_scores"), style.LABEL_SIZE, style.TEXT),
                                  math("q dot k")).arrange(DOWN, buff=style.GAP / 2)
        rule = math((MASKED_RULE_MATH if self.masked else RULE_MATH)[self.att.mode])
        caption = self.t("common.mode_uniform" if self.att.mode == "uniform" else "weights_caption")
        self.heat_caption = VGroup(label(caption, style.LABEL_SIZE, style.TEXT), rule)
        self.heat_caption.arrange(DOWN, buff=style.GAP / 2)
        for c in (self.raw_caption, self.heat_caption):
            c.next_to(self.focus_band, RIGHT, buff=style.BIG_GAP)

    def key_labels(self, cw: float) -> VGroup:
        """The keys above the columns, one size for all; staggered on two lines if one is wider than
        its column, so long names keep their size without widening the matrix."""
        top = self.grid.boxes[0]
        words = VGroup(*(word(t, style.LABEL_SIZE, style.K_COLOR).next_to(top[j], UP, buff=style.GAP / 2)
                         for j, t in enumerate(self.att.tokens)))
        if max(m.width for m in words) + style.GAP / 2 > cw:
            for m in words:
                fit(m, cw * 2 - style.GAP, m.height)
            lift = words[0].height + style.GAP / 3
            for m in words[1::2]:
                m.shift(UP * lift)
        return words

    def matrix_parts(self) -> list:
        """The matrix's empty grid, labels and axis names."""
        return [self.empty.boxes, self.grid.row_labels, self.query_axis, self.keys, self.key_axis]

    def frame_matrix(self, *more):
        """The camera on the matrix (its empty grid, labels and axis names) and `more`."""
        mask_note = [self.mask_note] if self.masked and self.mask_note in self.mobjects else []
        self.reframe(*self.matrix_parts(), *mask_note, *more, layout=self.layout)

    def axes(self):
        """An empty n×n grid: the querying tokens down the side, the keys across the top."""
        self.step("axes")
        self.frame_matrix()
        self.play(Create(self.empty.boxes), run_time=style.RUN)
        self.play(FadeIn(self.grid.row_labels, shift=RIGHT * style.GAP), FadeIn(self.query_axis))
        self.play(FadeIn(self.keys, shift=DOWN * style.GAP), FadeIn(self.key_axis))

    def raw_scores(self):
        """The focus's row: its query against every key, raw dot products."""
        self.step("raw_scores")
        mask_note = [self.mask_note] if self.masked else []
        self.frame_matrix(self.focus_band, self.raw, self.raw_caption, *mask_note)
        self.play(Create(self.focus_band), self.grid.row_labels[self.focus].animate.set_color(style.EMPHASIS))
        self.play(FadeIn(self.raw), FadeIn(self.raw_caption, shift=LEFT * style.GAP))
        if self.masked:
            self.play(FadeIn(self.mask_note, shift=UP * style.GAP / 2), run_time=style.FAST)

    def heat(self):
        """The same row after the normalizer: weights, coloured by heat."""
        self.step("heat")
        f = self.focus
        self.frame_matrix(self.focus_band, self.grid.row(f), self.heat_caption)
        self.play(ReplacementTransform(self.raw, self.grid.row(f)),
                  ReplacementTransform(self.raw_caption, self.heat_caption), run_time=style.SLOW)
        self.remove(self.empty.boxes[f])
        if self.masked and len(row_strikes(self.grid, f)):
            self.add(row_strikes(self.grid, f))

    def row_pulse(self):
        """Row i is query i's split over the keys: the row pulses (a looping slide in a deck)."""
        self.step("row_pulse", loop=True)
        f, g = self.focus, self.grid
        # a masked row's strikes between its boxes and its numbers, as drawn
        row = VGroup(g.boxes[f], row_strikes(g, f), g.numbers[f]) if self.masked else g.row(f)
        self.play(Indicate(VGroup(self.focus_band, row), scale_factor=PULSE_SCALE, color=style.EMPHASIS),
                  run_time=style.SLOW)

    def parallel(self):
        """Every other query computed the same way, all at once: the full matrix."""
        self.step("parallel")
        others = [i for i in range(self.att.n) if i != self.focus]
        self.play(*(FadeIn(self.grid.row(i)) for i in others), run_time=style.SLOW)
        if self.masked:
            self.play(*(FadeIn(row_strikes(self.grid, i)) for i in others if len(row_strikes(self.grid, i))),
                      run_time=style.FAST)
        self.remove(*(self.empty.boxes[i] for i in others))

    def lines(self):
        """Purple lines from the focus to its keys, as thick as the weights; still a mix."""
        self.step("lines")
        gone = [self.heat_caption, *([self.mask_note] if self.masked else [])]
        self.play(*(FadeOut(m) for m in gone), run_time=style.FAST)
        self.reframe(*self.on_screen(), self.panel, layout=self.layout, run_time=style.RUN)
        src, keys, pcts = self.fan
        self.play(FadeIn(src), FadeIn(keys))
        self.play(LaggedStart(*(Create(line) for line in self.fan_lines), lag_ratio=style.FAST / style.SLOW),
                  FadeIn(pcts), run_time=style.SLOW)
        self.play(Write(self.note[0]))
        self.play(FadeIn(self.note[1]))
