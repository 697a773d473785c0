"""9. normalizers: the same scores through Scaled, No √dₖ and Uniform (each mode's name the catalog's
`short_<mode>`), side by side; two diagnostic contrasts."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    RoundedRectangle,
    Text,
    Transform,
    VGroup,
    Write,
    config,
)

from attention_core import MODES, attend
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.captions import pieces
from scenes.common.labels import even_labels, label, math, wrapped
from scenes.common.mobjects import NumberGrid, WeightBars, number_text, outline, vector

PUNCTUATION = ":：,，;；)）」”"  # no word gap before these, nor after an opening bracket
OPENING = "(（「“"
SQRT_DK = "√dₖ"  # written as a formula wherever a catalog line names it: the font's glyphs are uneven




def _frame(m, color=None, pad_x=style.OUTLINE_PAD, pad_y=style.OUTLINE_PAD):
    """A rounded outline around a row or a cell the narration points at (highlight colour unless given
    one)."""
    return outline(m, color or style.HIGHLIGHT, buff=(pad_x, pad_y), stroke=style.MARK_STROKE,
                   corner=style.CORNER)


def rich(text: str, size: float = style.LABEL_SIZE, color=None):
    """A label in which every √dₖ is typeset as the formula, sized to the text around it."""
    color = color or style.TEXT
    if SQRT_DK not in text:
        return label(text, size, color)
    ref = label("d", size, color).height  # an ascender's height at this size
    parts = VGroup()
    for i, piece in enumerate(text.split(SQRT_DK)):
        if i:
            parts.add(math("sqrt(d_k)", color=color).scale_to_fit_height(ref * 3 / 2))
        if piece.strip():
            parts.add(label(piece.strip(), size, color))
    for a, b in zip(parts[:-1], parts[1:]):  # a word gap, none before punctuation or after an opening
        tight = (isinstance(b, Text) and b.text[:1] in PUNCTUATION) or \
            (isinstance(a, Text) and a.text[-1:] in OPENING)
        b.next_to(a, RIGHT, buff=style.GAP / 3 / 3 if tight else style.GAP / 3)
    parts.phrase = True  # one line read as one (the layout check lets punctuation sit this close)
    return parts


class Normalizers(LessonScene):
    scene_id = "normalizers"

    def setup(self):
        super().setup()
        self.runs = {m: attend(self.lesson, self.context_name, m) for m in MODES}
        self.rows = {m: a.weights[self.focus] for m, a in self.runs.items()}  # the focus query's weights
        self.top = int(np.argmax(self.rows["scaled"]))  # the key the standard weights favour

    def fields(self) -> dict:
        u = float(self.rows["uniform"][0])  # 1/n, as the core computed it; one more decimal than the bars
        exact = np.isclose(float(number_text(u, style.NUMBER_PLACES + 1)), u)
        return {**super().fields(), "top": self.token(self.top),
                "w_scaled": number_text(self.rows["scaled"][self.top]),
                "w_unscaled": number_text(self.rows["unscaled"][self.top]),
                "u": number_text(u, style.NUMBER_PLACES + 1), "rel": self.t("exact" if exact else "approx"),
                "rel_word": self.t("exact_word" if exact else "approx_word")}

    def construct(self):
        self.show_heading()
        self.same_scores()
        self.three_weights()
        self.no_sqrt()
        self.uniform()
        self.outputs()
        self.diagnostic()

    def name(self, mode: str, size: float = style.BODY_SIZE):
        """A mode's short name; the one chosen with --mode carries a "current" tag."""
        n = rich(self.t(f"short_{mode}"), size, style.TEXT)
        if mode != self.settings.mode:
            return n
        tag = label(self.t("current"), style.LABEL_SIZE, style.DIM)
        return VGroup(n, tag).arrange(RIGHT, buff=style.GAP / 2)

    # -- steps -------------------------------------------------------------------------------------
    def same_scores(self):
        """One row of raw scores, and the three rules that turn it into weights; where longer words
        would shrink the scores below the smallest numbers, the words wrap (scores_and_rules)."""
        self.step("same_scores")
        body = self.scores_and_rules(wrap=False)
        if not self.numbers_fit(body):
            body = self.scores_and_rules(wrap=True)
        self.place_body(body)
        (s_t, scores), (table, tag) = body
        self.play(FadeIn(s_t), FadeIn(scores))
        for i in range(len(MODES)):
            self.play(FadeIn(table[i * 2]), Write(table[i * 2 + 1]), run_time=style.RUN)
        self.play(FadeIn(tag), run_time=style.FAST)

    def scores_and_rules(self, wrap: bool) -> VGroup:
        """The raw scores under their sentence, the rules' table under them, the current rule tagged:
        VGroup(VGroup(sentence, scores), VGroup(table, tag)). `wrap`: each mode's name in two lines,
        the sentence wrapped to the width of the scores or the table, whichever is wider."""
        scores = NumberGrid(self.att.scores[self.focus], col_labels=self.att.tokens,
                            row_labels=[self.t("raw_row", focus=self.lesson.focus)])
        even_labels(scores.col_labels)
        rules = {
            "scaled": math('w = "softmax"(s slash sqrt(d_k)), quad sqrt(d_k) = '
                           + number_text(self.att.sqrt_d_k)),
            "unscaled": math('w = "softmax"(s)'),
            "uniform": math("w_j = 1 slash n, quad n = " + str(self.att.n)),
        }
        cells = []
        for m in MODES:
            cells += [self.two_lines(self.t(f"common.mode_{m}")) if wrap
                      else rich(self.t(f"common.mode_{m}"), style.BODY_SIZE, style.TEXT), rules[m]]
        table = VGroup(*cells).arrange_in_grid(cols=2, buff=(style.BIG_GAP, style.GAP), col_alignments="ll")
        tag = label(self.t("current"), style.LABEL_SIZE, style.DIM)
        tag.next_to(table[MODES.index(self.settings.mode) * 2 + 1], RIGHT, buff=style.GAP)
        width = max(scores.width, table.width)
        s_t = (wrapped(self.t("same_data"), width, self.lang, style.BODY_SIZE, style.DIM) if wrap
               else label(self.t("same_data"), style.BODY_SIZE, style.DIM))
        return VGroup(VGroup(s_t, scores).arrange(DOWN, buff=style.GAP), VGroup(table, tag)).arrange(
            DOWN, buff=style.BIG_GAP)

    def two_lines(self, text: str, size: float = style.BODY_SIZE, color=None) -> VGroup:
        """A line (√dₖ typeset) in two, broken where a subtitle may break nearest its middle."""
        parts = pieces(text, self.lang)
        if len(parts) < 2:
            return VGroup(rich(text, size, color))
        ends = np.cumsum([len(p) for p in parts])[:-1]
        cut = int(np.argmin(np.abs(ends - len(text) / 2))) + 1
        lines = ["".join(parts[:cut]).strip(), "".join(parts[cut:]).strip()]
        return VGroup(*(rich(t, size, color) for t in lines)).arrange(DOWN, aligned_edge=LEFT,
                                                                      buff=style.LINE_GAP)

    def three_weights(self):
        """Three weight charts, one per mode, stacked so each key's bars line up."""
        self.step("three_weights")
        self.clear_body()
        charts = VGroup()
        for i, m in enumerate(MODES):
            bars = WeightBars(self.rows[m], self.att.tokens, fills=style.heat_color, scale_to=1,
                              max_height=style.NORMALIZER_BAR_H, bar_w=style.BAR_W * 3 / 2,
                              buff=style.GAP * 3 / 2)
            if i < len(MODES) - 1:  # the token names once, under the last chart
                bars.remove(bars.token_labels)
            charts.add(bars)
        charts.arrange(DOWN, buff=style.GAP)
        names = VGroup(*(self.name(m) for m in MODES))
        for n, bars in zip(names, charts):
            y = bars.baseline.get_y() + style.NORMALIZER_BAR_H / 3
            n.next_to(bars.baseline, LEFT, buff=style.BIG_GAP).set_y(y)
        left = min(n.get_left()[0] for n in names)
        for n in names:
            n.align_to([left, 0, 0], LEFT)
        self.chart_rows = [VGroup(n, b) for n, b in zip(names, charts)]
        self.chart = VGroup(names, charts)
        self.notes = self.mode_notes()
        for n in self.notes.values():  # under the charts, one at a time
            n.next_to(self.chart, DOWN, buff=style.BIG_GAP)
        self.layout = VGroup(self.chart, *self.notes.values())
        self.reframe(self.chart, layout=self.layout)
        for row in self.chart_rows:
            self.play(FadeIn(row, shift=DOWN * style.GAP / 2), run_time=style.RUN)

    def mode_notes(self) -> dict[str, VGroup]:
        """What each other normalizer does to the weights, in a note under the charts."""
        f = self.fields()
        return {
            "unscaled": self.note_lines(
                self.t("sharper", top=f["top"], w_scaled=f["w_scaled"], w_unscaled=f["w_unscaled"]),
                self.t("jacobian"), self.t("not_stop")),
            "uniform": self.note_lines(self.t("flat", **f), self.t("ignores")),
        }

    def note_lines(self, *lines: str) -> VGroup:
        return VGroup(*(rich(t, style.LABEL_SIZE, style.TEXT) for t in lines)).arrange(DOWN,
                                                                                       buff=style.GAP / 2)

    def row_frame(self, mode: str):
        """The yellow frame around a mode's chart."""
        return _frame(self.chart_rows[MODES.index(mode)], pad_x=style.GAP, pad_y=style.OUTLINE_PAD * 2)

    def no_sqrt(self):
        """No √dₖ: the same keys, a sharper distribution."""
        self.step("no_sqrt")
        self.frame = self.row_frame("unscaled")
        self.reframe(self.chart, self.frame, self.notes["unscaled"], layout=self.layout)
        self.play(FadeIn(self.frame))
        self.play(FadeIn(self.notes["unscaled"], shift=UP * style.GAP / 2))

    def uniform(self):
        """Uniform: every weight 1/n, whatever the scores."""
        self.step("uniform")
        target = self.row_frame("uniform")
        self.reframe(self.chart, self.frame, target, self.notes["uniform"], layout=self.layout)
        self.play(Transform(self.frame, target))
        self.play(FadeOut(self.notes["unscaled"]), FadeIn(self.notes["uniform"], shift=UP * style.GAP / 2))

    def outputs(self):
        """The values, their mean, and the three outputs: Uniform's output is the mean."""
        self.step("outputs")
        self.clear_body()
        parts = self.place_best(*(lambda kind=kind: self.compose_outputs(kind)
                                  for kind in ("level", "top", "below")), fallbacks=(self.compose_columns,))
        self.show_outputs(*parts)

    def compose_outputs(self, kind: str) -> VGroup:
        """The values and their mean on the left, the outputs on the right, Uniform's framed with the
        mean: the Uniform row level with the mean and the notes under everything ("level"), or the
        outputs at the top and the verdict and the notes under them ("top": a tall table of values), or
        the outputs under the mean ("below": many dimensions): VGroup(left, right, pair, eq, notes)."""
        left, right = self.values_and_mean(), self.mode_outputs()
        mean, outs = left[2][0], right[1]
        level = kind == "level"
        right.next_to(left, RIGHT, buff=style.BIG_GAP)
        if level:
            right.shift(UP * (mean.get_y() - outs.row(len(MODES) - 1).get_y()))  # Uniform beside the mean
        elif kind == "top":
            right.align_to(left, UP)
        else:
            right.next_to(left, DOWN, buff=style.GAP)
            right.shift(RIGHT * (mean.get_left()[0] - outs.boxes.get_left()[0]))  # the columns aligned
        pair = VGroup(_frame(mean), _frame(outs.row(len(MODES) - 1)))
        same = np.allclose(self.runs["uniform"].output[self.focus], self.att.v.mean(axis=0))
        eq = label(self.t("equal" if same else "differ"), style.LABEL_SIZE, style.HIGHLIGHT)
        width = None if level else right.width  # under the outputs: no wider than they are
        notes = VGroup(*(wrapped(self.t(k), width or config.frame_width, self.lang, style.LABEL_SIZE,
                                 style.TEXT)
                         for k in ("mean_note", "not_zero"))).arrange(DOWN, buff=style.GAP / 2)
        if level:
            eq.next_to(pair, DOWN, buff=style.GAP / 2).match_x(VGroup(pair[0], pair[1]))
            notes.next_to(VGroup(left, right, pair, eq), DOWN, buff=style.BIG_GAP)
        else:
            eq.next_to(right, DOWN, buff=style.GAP / 2)
            notes.next_to(eq, DOWN, buff=style.BIG_GAP).match_x(right)
        return VGroup(left, right, pair, eq, notes)

    def compose_columns(self, notes_w: float | None = None) -> VGroup:
        """Many dimensions: every token's value as a column (the dimensions named once, down the side),
        their mean beside them and the three outputs beside it, Uniform's column framed with the mean;
        the verdict and the notes under them: VGroup(left, right, pair, eq, notes), as compose_outputs.
        Where the modes' names would shrink the numbers below the smallest, they take two lines, the
        notes keeping the width the tables had before (`notes_w`)."""
        att = self.att
        v = NumberGrid(att.v.T, row_labels=self.dims, col_labels=att.tokens, color=style.V_COLOR)  # [d, n]
        v.boxes.set_stroke(style.V_COLOR, width=2)
        mean = vector(att.v.mean(axis=0), style.DIM, vertical=True, col_labels=[self.t("mean")])
        outs = self.mode_columns(wrap=notes_w is not None)
        mean.next_to(v.boxes, RIGHT, buff=style.GAP * 2)  # (closer than BIG_GAP: the row is long)
        outs.next_to(mean.boxes, RIGHT, buff=style.GAP * 2)
        for g in (mean, outs):
            g.shift(UP * (v.boxes.get_top()[1] - g.boxes.get_top()[1]))
        top = max(m.get_top()[1] for m in (v, mean, outs)) + style.GAP
        v_t = label(self.t("values"), style.LABEL_SIZE, style.V_COLOR)
        o_t = label(self.t("outputs", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT)
        for t, g in ((v_t, v.boxes), (o_t, outs.boxes)):
            t.move_to([g.get_x(), top, 0], aligned_edge=DOWN)
        left, right = VGroup(v_t, v, VGroup(mean)), VGroup(o_t, outs)
        pair = VGroup(_frame(mean.column(0)), _frame(outs.column(len(MODES) - 1)))
        same = np.allclose(self.runs["uniform"].output[self.focus], att.v.mean(axis=0))
        eq = label(self.t("equal" if same else "differ"), style.LABEL_SIZE, style.HIGHLIGHT)
        eq.next_to(pair, DOWN, buff=style.GAP / 2)
        if eq.get_right()[0] > outs.get_right()[0]:  # no further right than the outputs
            eq.align_to(outs, RIGHT)
        tables = VGroup(left, right)
        notes = VGroup(*(wrapped(self.t(k), notes_w or tables.width, self.lang, style.LABEL_SIZE, style.TEXT)
                         for k in ("mean_note", "not_zero"))).arrange(DOWN, buff=style.GAP / 2)
        notes.next_to(VGroup(tables, eq), DOWN, buff=style.GAP).match_x(tables)
        made = VGroup(left, right, pair, eq, notes)
        return made if notes_w or self.numbers_fit(made) else self.compose_columns(tables.width)

    def mode_columns(self, wrap: bool = False) -> NumberGrid:
        """The focus's output in every mode as columns (one row per dimension), the modes' names over
        them (√dₖ typeset; `wrap`: each in two lines)."""
        names = VGroup(*(self.two_lines(self.t(f"short_{m}"), style.LABEL_SIZE, style.DIM) if wrap
                         else rich(self.t(f"short_{m}"), style.LABEL_SIZE, style.DIM) for m in MODES))
        cell_w = max(style.CELL_W, max(n.width for n in names) + style.GAP / 2)  # as wide as the widest name
        outs = NumberGrid(np.stack([self.runs[m].output[self.focus] for m in MODES], axis=1),
                          color=style.V_COLOR, cell_w=cell_w)  # [d, modes]
        outs.boxes.set_stroke(style.V_COLOR, width=2)
        for j, n in enumerate(names):  # (not label_line: its one height would shrink the √dₖ name)
            n.move_to([outs.boxes[0][j].get_x(), outs.boxes.get_top()[1] + style.COL_LABEL_GAP, 0],
                      aligned_edge=DOWN)
        outs.col_labels.add(*names)
        return outs

    def values_and_mean(self) -> VGroup:
        """The values under their title, their mean under them: VGroup(title, values, (mean, label))."""
        att = self.att
        v = NumberGrid(att.v, row_labels=att.tokens, col_labels=self.dims, color=style.V_COLOR)
        v.boxes.set_stroke(style.V_COLOR, width=2)
        even_labels(v.col_labels)
        mean = vector(att.v.mean(axis=0), style.DIM)
        mean_t = label(self.t("mean"), style.LABEL_SIZE, style.DIM).next_to(mean, LEFT, buff=style.GAP)
        mean_g = VGroup(mean, mean_t)
        mean_g.next_to(v, DOWN, buff=style.GAP).align_to(v.boxes, LEFT).shift(
            RIGHT * (v.boxes.get_left()[0] - mean.get_left()[0]))
        v_t = label(self.t("values"), style.LABEL_SIZE, style.V_COLOR)
        v_t.next_to(v, UP, buff=style.GAP)
        return VGroup(v_t, v, mean_g)

    def mode_outputs(self) -> VGroup:
        """The focus's output in every mode, one row each, under their title: VGroup(title, grid)."""
        outs = NumberGrid(np.stack([self.runs[m].output[self.focus] for m in MODES]), col_labels=self.dims,
                          color=style.V_COLOR)
        outs.boxes.set_stroke(style.V_COLOR, width=2)
        for i, m in enumerate(MODES):  # mode names as row labels (√dₖ typeset)
            outs.row_labels.add(rich(self.t(f"short_{m}"), style.LABEL_SIZE, style.DIM).next_to(
                outs.boxes[i], LEFT, buff=style.GAP / 2))
        even_labels(outs.col_labels)
        o_t = label(self.t("outputs", focus=self.lesson.focus), style.LABEL_SIZE, style.TEXT)
        o_t.next_to(outs, UP, buff=style.GAP)
        return VGroup(o_t, outs)

    def show_outputs(self, left: VGroup, right: VGroup, pair: VGroup, eq: Text, notes: VGroup):
        """The values, the mean, the outputs, the framed pair and its verdict, the notes."""
        v_t, v, mean_g = left
        self.play(FadeIn(v_t), FadeIn(v))
        self.play(FadeIn(mean_g, shift=DOWN * style.GAP / 2))
        self.play(FadeIn(right))
        self.play(FadeIn(pair), FadeIn(eq))
        self.play(FadeIn(notes[0]))
        self.play(FadeIn(notes[1]))

    def diagnostic(self):
        """One strip per mode: the lesson's standard and two labelled diagnostic contrasts."""
        self.step("diagnostic")
        self.clear_body()
        cells = []
        for m in MODES:
            standard = m == "scaled"
            role = label(self.t("standard" if standard else "contrast"), style.LABEL_SIZE,
                         style.TEXT if standard else style.HIGHLIGHT)
            lines = VGroup(*(rich(self.t(f"card_{m}_{i}", **self.fields()), style.LABEL_SIZE, style.DIM)
                             for i in (1, 2))).arrange(DOWN, buff=style.GAP / 2, aligned_edge=LEFT)
            cells += [self.name(m), role, lines]
        table = VGroup(*cells).arrange_in_grid(cols=3, buff=(style.BIG_GAP, style.BIG_GAP),
                                               col_alignments="lll")
        strips = VGroup()
        for i, m in enumerate(MODES):
            row = VGroup(*cells[i * 3:i * 3 + 3])
            box = RoundedRectangle(corner_radius=style.CORNER, width=table.width + style.GAP * 2,
                                   height=row.height + style.GAP, stroke_width=2,
                                   stroke_color=style.TEXT if m == "scaled" else style.GRID)
            box.move_to([table.get_x(), row.get_y(), 0])
            strips.add(VGroup(box, row))
        final = label(self.t("still_attention"), style.BODY_SIZE, style.TEXT)
        body = VGroup(strips, final).arrange(DOWN, buff=style.BIG_GAP)
        self.place_body(body)
        for st in strips:
            self.play(FadeIn(st, shift=UP * style.GAP / 2), run_time=style.RUN)
        self.play(FadeIn(final))
