"""tiles: attention in tiles (a lesson with [tiling]). The focus's softmax inputs arriving a block of keys
at a time; its running maximum m, sum l and output o after each block, with the factor α the old ones
were rescaled by; the block where m rises most; o / l after the last block equal to the full softmax's
output; the scores held at once, n × block against n × n. Every number from the core
(attention_core/next/tiling.py)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, Rectangle, VGroup

from attention_core.claims import tile_quotes
from attention_core.next.tiling import largest_rescale
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.labels import text_line
from scenes.common.masked import masked_format
from scenes.common.mobjects import number_text, outline
from scenes.common.panels import Panels, mark_cells, table

COLORS = ("Q_COLOR", "K_COLOR", "V_COLOR", "EMPHASIS")  # the blocks' outlines, in turn
ROW_ZOOM = 1.5  # the focus's row of inputs: cells this much larger than a table's (one row fills the frame)
SQUARE = 0.3  # the memory step's cells
SQUARE_OPACITY = 0.25
FRAME_PAD = 0.2  # a block's outline: this many gaps above and below its cells
FRAME_INSET = 0.2  # and this many gaps inside its first and last cells: neighbouring blocks' outlines apart
GAP_PLACES = 6  # a difference that should be 0 is written with this many decimals


class Tiles(Panels, LessonScene):
    scene_id = "tiles"

    def setup(self):
        super().setup()
        self.tiles = self.facts.tiles  # the tiles the claims read (next.tiling.tile)
        self.jump = largest_rescale(self.tiles, self.focus)

    def fields(self) -> dict:
        t, f = self.tiles, self.focus
        out = {**super().fields(), "block": t.block, "blocks": len(t.spans), **tile_quotes(t, self.att),
               "gap": number_text(float(np.abs(t.output - self.att.output).max()), GAP_PLACES)}
        if self.jump is not None:
            b = self.jump
            out |= {"at": b + 1, "m_old": number_text(t.m[b - 1, f]), "m_new": number_text(t.m[b, f]),
                    "alpha": number_text(t.alpha[b, f])}
        return out

    def construct(self):
        self.show_heading()
        for name in ("blocks", "running", "rescale", "equal", "memory"):
            self.step(name)
            getattr(self, f"show_{name}")()

    def show_blocks(self):
        """The focus's softmax inputs, one outline per block of keys."""
        row = self.att.scaled[self.focus]
        zoom = {"cell_w": style.CELL_W * ROW_ZOOM, "cell_h": style.CELL_H * ROW_ZOOM,
                "number_size": style.NUMBER_SIZE * ROW_ZOOM}
        grid = table(row[None, :], [str(self.lesson.focus)], self.att.tokens, formatter=masked_format(row),
                     **zoom)
        frames = VGroup(*(outline(VGroup(*(grid.cell(0, j) for j in range(lo, hi))),
                                  getattr(style, COLORS[b % len(COLORS)]),
                                  buff=(-style.GAP * FRAME_INSET, style.GAP * FRAME_PAD),
                                  corner=style.CORNER) for b, (lo, hi) in enumerate(self.tiles.spans)))
        self.panel(self.titled(self.t("blocks_title", **self.fields()), VGroup(grid, frames)),
                   note=self.t("blocks_note", **self.fields()))

    def running_table(self):
        t, f = self.tiles, self.focus
        names = [self.t("after_block", b=b + 1, keys=" ".join(self.att.tokens[lo:hi]))
                 for b, (lo, hi) in enumerate(t.spans)]
        cols = ["m", "α", "l", *(f"o{j + 1}" for j in range(len(self.dims)))]
        values = np.column_stack([t.m[:, f], t.alpha[:, f], t.l[:, f], t.o[:, f, :]])
        return table(values, names, cols, formatter=masked_format(values))

    def show_running(self):
        """m, α, l and o after each block, the update rule under them."""
        rule = VGroup(*(text_line(self.t(k), style.BODY_SIZE, style.TEXT) for k in ("rule_m",
                                                                                    "rule_lo"))).arrange(
            DOWN, buff=style.GAP / 2)  # formulas: e^(m − m′) with its exponent raised
        self.panel(self.running_table(), rule, note=self.t("running_note", **self.fields()))

    def show_rescale(self):
        """The block where the focus's maximum rises most: the old l and o shrink by α."""
        grid = self.running_table()
        marks = mark_cells(grid, [(self.jump, 1)], style.HIGHLIGHT) if self.jump is not None else VGroup()
        self.panel(VGroup(grid, marks), note=self.narration_note())

    def narration_note(self) -> str:
        return self.t("rescale_note", **self.fields())  # or rescale_no_rise: attention_core.claims

    def show_equal(self):
        """o / l after the last block beside the full softmax's output: the same numbers."""
        toks, cols = self.att.tokens, [f"o{j + 1}" for j in range(len(self.dims))]
        parts = (self.titled(self.t(key), table(m, toks, cols, main=False))
                 for key, m in (("tiled_output", self.tiles.output), ("full_output", self.att.output)))
        self.side_by_side(*parts, note=self.t("equal_note", **self.fields()))

    def show_memory(self):
        """The scores held at once: an n × block strip against the n × n matrix."""
        n, block = self.att.n, min(self.tiles.block, self.att.n)
        full, strip = self.squares(n, n, style.DIM), self.squares(n, block, style.HIGHLIGHT)
        self.side_by_side(self.titled(self.t("full_memory", **self.fields()), full),
                          self.titled(self.t("tiled_memory", **self.fields()), strip),
                          note=self.t("memory_note", **self.fields()))

    @staticmethod
    def squares(rows: int, cols: int, color) -> VGroup:
        cells = VGroup(*(Rectangle(width=SQUARE, height=SQUARE, stroke_color=color,
                                   stroke_width=style.GRID_STROKE, fill_color=color,
                                   fill_opacity=SQUARE_OPACITY)
                         for _ in range(rows * cols)))
        return cells.arrange_in_grid(rows, cols, buff=0)
