"""real: from the toy to a real model (a lesson with [real]). The teacher's sentence as the model cuts it;
the key the focus token weighs most in every layer × head, and how many heads choose the word the toy
lesson picks; the attention sinks, <s> and </s>, and why a row parks its weight there; the numbers a
token is, none of them named; for a causal model (scenes/real_causal.py) the mask, RoPE and the next
token instead of the numbers. Every number from the core (attention_core/real/study.py); without the
[real] extra the scene says in one line what to install."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UL, Rectangle, VGroup

from attention_core.real.result import INSTALL, PACKAGES, model_missing
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.formats import percent_text
from scenes.common.labels import fit, frame_box, label
from scenes.common.mobjects import TokenRow, outline
from scenes.common.panels import Panels, bars, table
from scenes.real_causal import CausalSteps

TOKENS_A_ROW = 8  # the sentence's tokens: this many a row
CELL = (0.78, 0.42)  # the heads' grid: a cell's width and height
CELL_TEXT = 0.8  # a cell's word: at most this share of its width
CELL_OPACITY = 0.35  # a cell holding the expected word
STATE_COLUMNS = 32  # a token's numbers: this many a row
STATE_SQUARE = 0.16
STATE_EDGE = 0.5  # the numbers' heat: |x| / max|x| around this middle grey
SHOWN_COUNTS = 3  # the words most chosen, named under the grid
NO_GROWTH = 1.0  # a cell's word is scaled down to its height, never up
BARS_A_ROW = 15  # the sinks' bars, a layer each: more layers than this go in rows (SmolLM2's 30: two)

ENCODER_STEPS = ("tokens", "heads", "sinks", "dimensions")  # e5: every token sees every token
CAUSAL_STEPS = ("tokens", "mask", "heads", "sinks", "rope", "next")  # SmolLM2: scenes/real_causal.py


class Real(CausalSteps, Panels, LessonScene):
    scene_id = "real"

    def setup(self):
        super().setup()
        self.missing = model_missing(self.lesson.real.model)
        self.study = None if self.missing else self.facts.real  # the pass the claims read is the one shown

    def heading(self, key: str = "title", text: str | None = None) -> VGroup:
        """The title alone: the sentence this scene shows is the teacher's own, not the toy's context."""
        w, _ = frame_box()
        title = label(text or self.t(key), style.TITLE_SIZE, style.TEXT)
        return VGroup(fit(title, w * style.TITLE_SHARE, title.height).to_corner(UL, buff=style.MARGIN))

    def fields(self) -> dict:
        out = {**super().fields(), "install": INSTALL, "package": PACKAGES[self.lesson.real.model]}
        s = self.study
        if s is None:
            return out
        top, top_count = s.counts[0]
        expect = s.expect or top
        out |= self.causal_fields() if s.causal else {}
        return out | {
            "focus": self.tr.token(s.focus_word),
            "piece": self.tr.token(s.label(s.focus) if s.causal else s.att.tokens[s.focus]),
            "tokens": len(s.att.tokens), "layers": s.att.layers, "heads": s.att.heads, "total": s.total,
            "expect": self.tr.token(expect), "count": s.chosen(expect), "top": self.tr.token(top),
            "top_count": top_count, "share": percent_text(s.share),
            "even": percent_text(s.even), "width": s.att.width,
            "toy_focus": self.tr.token(self.lesson.focus), "toy_d": self.lesson.d_model,
            "toy_dims": self.tr("common.list_sep").join(self.dims),
            "model": s.att.model.split(" ")[0].rpartition("/")[2],
        }

    def construct(self):
        self.show_heading()
        if self.missing:
            self.step("missing")
            self.panel(label(self.t("missing_note", **self.fields()), style.BODY_SIZE, style.TEXT))
            return
        for name in CAUSAL_STEPS if self.study.causal else ENCODER_STEPS:
            self.step(name)
            getattr(self, f"show_{name}")()

    def variants(self) -> list[str]:
        """A causal model's lines where the step has its own (`say.heads_causal`)."""
        return ["causal"] if self.study is not None and self.study.causal else []

    def k(self, key: str) -> str:
        """A note's key: its causal variant where the scene shows a causal model and the catalog has one."""
        own = f"{key}_causal"
        return own if self.variants() and f"real.{own}" in self.tr else key

    def show_tokens(self):
        """The sentence as the model cuts it: <s> and </s> dim, the focus outlined."""
        s = self.study
        rows = VGroup(*(TokenRow(s.att.tokens[i:i + TOKENS_A_ROW])
                        for i in range(0, len(s.att.tokens), TOKENS_A_ROW))).arrange(DOWN, buff=style.GAP)
        chips = [chip for row in rows for chip in row]
        for chip, special in zip(chips, s.att.special, strict=True):
            if special:
                chip.set_color(style.DIM)
        mark = outline(chips[s.focus], style.HIGHLIGHT, buff=style.GAP / 3, corner=style.CORNER)
        self.panel(self.titled(self.t("tokens_title", **self.fields()), VGroup(rows, mark)),
                   note=[self.t(self.k("tokens_note")), self.t(self.k("pieces_note"), **self.fields())])

    def heads_grid(self) -> VGroup:
        """layers × heads cells, each the word the focus weighs most there; the expected word's filled.
        A column is as wide as its longest word needs (a word is never shrunk below the others)."""
        s, (w, h) = self.study, CELL
        expect = s.expect or s.counts[0][0]
        words = [[s.label(int(k)) for k in row] for row in s.keys]  # [layers][heads]
        texts = [[label(word, style.SMALL_SIZE, style.TEXT if word == expect else style.DIM) for word in row]
                 for row in words]
        widths = [max(w, *(row[j].width / CELL_TEXT for row in texts)) for j in range(s.att.heads)]
        cells = VGroup()
        for row_words, row_texts in zip(words, texts, strict=True):
            for word, text, width in zip(row_words, row_texts, widths, strict=True):
                box = Rectangle(width=width, height=h, stroke_color=style.GRID,
                                stroke_width=style.GRID_STROKE, fill_color=style.HIGHLIGHT,
                                fill_opacity=CELL_OPACITY if word == expect else 0)
                text.scale(min(NO_GROWTH, h * CELL_TEXT / text.height))
                cells.add(VGroup(box, text.move_to(box)))
        cells.arrange_in_grid(s.att.layers, s.att.heads, buff=0, col_widths=widths)
        rows = VGroup(*(label(self.t("layer", n=i + 1), style.SMALL_SIZE, style.DIM)
                        .next_to(cells[i * s.att.heads], direction=-RIGHT, buff=style.GAP / 2)
                        for i in range(s.att.layers)))
        cols = VGroup(*(label(self.t("head", n=j + 1), style.SMALL_SIZE, style.DIM)
                        .next_to(cells[j], direction=-DOWN, buff=style.GAP / 3) for j in range(s.att.heads)))
        return VGroup(cells, rows, cols)

    def show_heads(self):
        """The focus's strongest key in every layer and head; the words most chosen under it."""
        s = self.study
        counts = self.tr("common.list_sep").join(
            self.t("count", word=self.tr.token(w), n=n, total=s.total) for w, n in s.counts[:SHOWN_COUNTS])
        grid = self.square_grid() if s.causal else self.heads_grid()
        self.panel(self.titled(self.t(self.k("heads_title"), **self.fields()), grid),
                   note=[self.t("heads_note", **self.fields())] + ([] if s.causal else [counts]))

    def show_sinks(self):
        """Each layer's mean share of a row's weight on <s> and </s>, against an even share."""
        s = self.study
        names = [self.t("layer", n=i + 1) for i in range(s.att.layers)]
        rows = VGroup(*(bars(s.layer_share[i:i + BARS_A_ROW], names[i:i + BARS_A_ROW], narrow=True)
                        for i in range(0, s.att.layers, BARS_A_ROW))).arrange(DOWN, buff=style.BIG_GAP,
                                                                              aligned_edge=LEFT)
        self.panel(self.titled(self.t(self.k("sinks_title"), **self.fields()), rows),
                   note=self.t(self.k("sinks_note"), **self.fields()))

    def show_dimensions(self):
        """The toy's focus: a few named numbers; the model's: hundreds, none named."""
        toy = self.lesson.vocab[self.lesson.focus]
        named = table(toy[None, :], [str(self.lesson.focus)], self.dims, main=False)
        state = np.asarray(self.study.att.states[self.study.focus], dtype=float)
        self.side_by_side(self.titled(self.t("toy_title", **self.fields()), named),
                          self.titled(self.t("real_title", **self.fields()), self.squares(state)),
                          note=self.t("dimensions_note", **self.fields()))

    @staticmethod
    def squares(values: np.ndarray) -> VGroup:
        """A square per number, its shade |x| / max|x| (warm above 0, cool below)."""
        top = max(float(np.abs(values).max()), np.finfo(float).tiny)
        cells = VGroup(*(Rectangle(width=STATE_SQUARE, height=STATE_SQUARE, stroke_width=0,
                                   fill_color=style.heat_color(STATE_EDGE + STATE_EDGE * x / top),
                                   fill_opacity=1) for x in values))
        return cells.arrange_in_grid(cols=STATE_COLUMNS, buff=0)
