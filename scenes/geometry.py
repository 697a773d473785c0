"""4. geometry: attention as arrows in a plane. The focus's query and every key as arrows; each dot
product as the key's shadow on the query's line (times the query's length), then ÷√dₖ; the weights as
the keys' thickness, sharper without √dₖ, all the same under Uniform; then, in the plane of values, the
value arrows scaled by their weights and laid tip to tail, landing on the output; every context's
output in the same axes. Every coordinate is attention_core.geometry's; the exact numbers stay beside
the plane in a table."""

import numpy as np
from manim import DOWN, Create, FadeIn, FadeOut, Line, Transform, TransformFromCopy, VGroup, config

from attention_core import MODES
from attention_core import geometry as G
from scenes.common import arrows as A
from scenes.common import spread as T
from scenes.common import style
from scenes.common.base import LessonScene
from scenes.common.formats import shared_format
from scenes.common.i18n import d_k_labels, listing
from scenes.common.labels import math, word
from scenes.common.mobjects import number_text, percent_text

# a plane's room around its arrows, and its shorter side, as shares of its longer side: near square, so
# that a plane held to the width its table leaves still fills the body's height
PAD, LEAST = 0.08, 0.8  # the plane's box: padding, and its shorter side's least share of the longer
QUERY_STROKE = 6.0  # the query's arrow and the outputs', a little bolder than the keys'
# every text of the body, names and numbers alike, one size: large for the back row, and so that a
# handout page prints the scene's nine frames three to a row with their smallest text at 6 pt
SIZE = 30
CELL_H = style.CELL_H * SIZE / style.LABEL_SIZE  # a table's row, as high as its text asks, at the most
HEAD_MATH = style.MATH_SCALE * SIZE / style.LABEL_SIZE  # a formula in a column's head, as large as the words
VALUE_OPACITY = 0.45  # the values before they are weighted
VALUE_STROKE = 3.0
FADED = 0.3  # the query's line, behind its shadows
QK_STEPS = {  # the table's columns at each step of the plane of queries and keys ("w": the mode's), at
    # most three of numbers: the plane keeps the room to fill the body's height
    "arrows": ["keys"], "shadows": ["keys", "shown", "scores"],
    "scaled": ["keys", "shown", "scores", "scaled"],
    "weights": ["keys", "scaled", "w"], "sharpen": ["keys", "w_scaled", "w_unscaled", "w"],
    "uniform": ["keys", "w_scaled", "w_unscaled", "w_uniform"],
}
QK_ORDER = ["keys", "shown", "scores", "scaled", "w_scaled", "w_unscaled", "w_uniform"]
V_ORDER, C_ORDER = ["keys", "a", "b"], ["contexts", "a", "b"]


class Geometry(LessonScene):
    scene_id = "geometry"
    contexts = "all"  # every context's output, in the same axes

    def setup(self):
        super().setup()
        les, mode = self.lesson, self.settings.mode
        self.planes = G.planes(les)
        self.modes = {m: G.picture(les, self.context_name, m, self.planes) for m in MODES}
        self.pic = self.modes[mode]
        self.every = [G.picture(les, c, mode, self.planes) for c in les.contexts]
        self.labels = [les.context_label(c, self.lang) for c in les.contexts]
        # the V plane's share of this mode's weighted values (its axes are the scaled mode's: one picture)
        self.v_share = G.given_plane(G.terms(les, mode)[1], self.planes[1].axes).share
        self.part_qk = percent_text(self.planes[0].share) != percent_text(1)
        self.part_v = percent_text(self.v_share) != percent_text(1)

    # -- text ----------------------------------------------------------------------------------
    def fields(self) -> dict:
        p, n = self.pic, number_text
        axes = d_k_labels(self.lesson.d_k, self.lang)
        best, top = G.strongest(p.shown), G.strongest(p.weights)
        strong = G.strongest(self.modes["unscaled"].weights)
        return {**super().fields(), "qk_a": axes[p.qk.axes[0]], "qk_b": axes[p.qk.axes[1]],
                "qk_share": percent_text(p.qk.share), "v_share": percent_text(self.v_share),
                "v_a": self.dims[p.v.axes[0]], "v_b": self.dims[p.v.axes[1]],
                "q_len": n(p.query_length), "best": self.token(best), "best_shown": n(p.shown[best]),
                "best_score": n(p.scores[best]), "sqrt_d_k": n(self.att.sqrt_d_k),
                "top": self.token(top), "top_share": percent_text(p.weights[top]),
                "strong": self.token(strong),
                "w_scaled": percent_text(self.modes["scaled"].weights[strong]),
                "w_unscaled": percent_text(self.modes["unscaled"].weights[strong]),
                "output": listing([n(x) for x in p.output], self.lang), **self.pulls()}

    def pulls(self) -> dict:
        """Which of the V plane's axes each context's output lies most along, and how far."""
        axes = [G.lean(q.output) for q in self.every]
        values = [number_text(q.output[a]) for q, a in zip(self.every, axes)]
        return {"contexts": listing(map(self.tr.token, self.labels), self.lang),  # names, quoted
                "values": listing(values, self.lang),
                "dims": listing([self.dims[self.pic.v.axes[a]] for a in axes], self.lang),
                "dim": self.dims[self.pic.v.axes[axes[0]]], "same": len(set(axes)) == 1,
                "negative": any(v.startswith("-") for v in values)}

    def variants(self) -> list[str]:
        """part: a plane holds less than all of its terms; the render's mode; unchanged: no √dₖ leaves
        the top weight as it was; single, one_axis, along: how the contexts' outputs compare."""
        f, mode = self.fields(), self.att.mode
        out = [mode] + (["part"] if self.part_qk else [])
        out += ["unchanged"] if f["w_scaled"] == f["w_unscaled"] else []
        if len(self.every) == 1:
            return out + ["single"]
        return out + (["one_axis"] if f["same"] else ["along"] if f["negative"] else [])

    def narration(self, step: str) -> str:
        """The value plane's line says its own share (part_v), the others the Q/K plane's."""
        if step == "mixing":
            return self.t("say.mixing_part" if self.part_v else "say.mixing", **self.fields())
        return super().narration(step)

    # -- steps -----------------------------------------------------------------------------------
    def construct(self):
        self.show_heading()
        self.build_qk()
        self.plane_step()
        self.arrows_step()
        self.shadows_step()
        self.scaled_step()
        self.weights_step()
        self.sharpen_step()
        self.uniform_step()
        self.build_v()
        self.mixing_step()
        self.contexts_step()

    # -- the two planes and their tables -------------------------------------------------------------
    def centre(self) -> np.ndarray:
        """The middle of the body: of the safe area below the heading, as the fill check measures it."""
        top, bottom = self.header.get_bottom()[1] - style.GAP, -config.frame_height / 2 + style.SAFE_MARGIN
        return np.array([0, (top + bottom) / 2, 0])

    def make_plane(self, points, names, lines: list[str], table_w: float) -> tuple[A.Plane, VGroup, float]:
        """A plane as large as the body leaves beside its widest table, its notes (lines) under it,
        centred; and the width of the two together."""
        w, h = self.body_box()
        room_w = w - table_w - style.BIG_GAP
        notes = T.under_plane(lines, SIZE, self.lang, room_w)
        box = G.bounds(points, PAD, LEAST)
        span_x, span_y = box[1] - box[0], box[3] - box[2]
        unit = min(room_w / span_x, (h - (notes.height + style.GAP if len(notes) else 0)) / span_y)
        plane = A.Plane(box, unit, G.grid_step(max(span_x, span_y)), names, SIZE)
        notes.next_to(plane, DOWN, buff=style.GAP)
        VGroup(plane, notes).move_to(self.centre())
        return plane, notes, max(plane.width, notes.width)

    def notes_of(self, share: str | None, part: float) -> list[str]:
        """Under a plane, when it holds less than all of its terms: how much it holds."""
        return self.tr.lines(f"geometry.{share}", share=percent_text(part)) if share else []

    def give_way(self, make, widest, points, lines: list[str]):
        """The table's columns and width, their heads shrunk where longer words take the plane's room."""
        return T.give_way(make, widest, self.body_box(), G.bounds(points, PAD, LEAST),
                          T.under_plane(lines, SIZE, self.lang, self.body_box()[0]))

    def heading(self, key: str = "title", text: str | None = None) -> VGroup:
        """The title and, at the top right, the sentence the planes show (LessonScene.heading leaves it
        out of a scene that shows every context: this one compares them only at its end)."""
        self.contexts = "current"  # an instance's, for the heading alone: the class's stays "all"
        try:
            return super().heading(key, text)
        finally:
            del self.contexts

    def cell_h(self, rows: int, head_h: float) -> float:
        """A table's row height: CELL_H, or less where the rows and the heads would not fit the body."""
        return min(CELL_H, (self.body_box()[1] - head_h - style.GAP) / rows)

    def qk_columns(self, head_scale: float) -> dict:
        """The table beside the plane of queries and keys: the keys' names, the scores (the plane's
        part and, when it holds less, the whole), the scaled scores, the weights of every mode."""
        p, f, mode = self.pic, self.focus, self.att.mode
        dot = "q dot k"
        # "unary": no gap after a leading ÷ or × (Typst spaces a binary operator on both sides)
        scale = ('class("unary", div) sqrt(d_k)' if mode == "scaled"
                 else 'class("unary", times) ' + number_text(self.att.scale))
        heads = {"shown": T.head(word(self.t("in_plane"), SIZE), math(dot, scale=HEAD_MATH)) if self.part_qk
                 else T.head(math(dot, scale=HEAD_MATH)), "scaled": T.head(math(scale, scale=HEAD_MATH))}
        values = {"shown": p.shown, "scaled": self.att.scaled[f]}
        if self.part_qk:
            heads["scores"] = T.head(word(self.t("all_axes"), SIZE), math(dot, scale=HEAD_MATH))
            values["scores"] = p.scores
        for m in MODES:
            short = word(self.t(f"normalizers.short_{m}"), SIZE)
            heads[f"w_{m}"] = T.head(word(self.t("weight"), SIZE), short)
            values[f"w_{m}"] = self.modes[m].weights
        heads["keys"] = T.head(word(self.t("keys"), SIZE, style.K_COLOR))  # (one line: not the highest)
        heads = T.scaled(heads, head_scale)  # (T.give_way)
        fmt = shared_format(np.concatenate(list(values.values())))  # one table, one number format
        texts = [[fmt(x) for x in v] for v in values.values()]
        h = self.cell_h(len(p.tokens), max(m.height for m in heads.values()))
        cols = {k: T.number_column(values[k], heads[k], style.TEXT,
                                   T.table_cell_width(texts, [heads[k]], SIZE),
                                   fmt, SIZE, h) for k in values}
        names = [word(t, SIZE, style.EMPHASIS if j == f else style.K_COLOR) for j, t in enumerate(p.tokens)]
        cols["keys"] = T.name_column(names, heads["keys"], len(names), h)
        return cols

    def build_qk(self):
        """The plane of queries and keys, as large as its widest table leaves room for."""
        p = self.pic
        notes = self.notes_of("qk_share" if self.part_qk else None, p.qk.share)
        steps = [[k for k in QK_ORDER if k in self.qk_keys(keys)] for keys in QK_STEPS.values()]
        self.qk_cols, widest = self.give_way(self.qk_columns, lambda cols: T.widest(
            [{k: cols[k] for k in step if k in cols} for step in steps]), G.qk_points(p), notes)
        axes = d_k_labels(self.lesson.d_k, self.lang)
        self.qk_plane, self.notes, left_w = self.make_plane(G.qk_points(p), [axes[a] for a in p.qk.axes],
                                                            notes, widest)
        self.qk_spread = T.Spread(self.qk_plane, left_w, [self.qk_plane, self.notes], self.qk_cols, QK_ORDER,
                                self.centre())

    def qk_keys(self, keys) -> list[str]:
        """A step's columns: "w" is the render's mode's weights."""
        return [f"w_{self.att.mode}" if k == "w" else k for k in keys]

    def arrange(self, keys, spread=None):
        """The step's columns beside the plane, the two centred (arrows.Spread)."""
        anims = spread.arrange(self, keys) if spread else self.qk_spread.arrange(self, self.qk_keys(keys))
        if anims:
            self.play(*anims, run_time=style.FAST)

    def plane_step(self):
        """The two axes, named; how much of each dot product they hold when they hold less than all."""
        self.step("plane")
        self.arrange([])
        self.play(FadeIn(self.qk_plane), FadeIn(self.notes))

    def draw_arrows(self):
        """The query and the keys as arrows, each named beside its tip where no other name is."""
        p, plane = self.pic, self.qk_plane
        self.query = A.plane_arrow(plane, (0, 0), p.query, style.Q_COLOR, QUERY_STROKE)
        self.keys = VGroup(*(A.plane_arrow(plane, (0, 0), k, style.K_COLOR) for k in p.keys))
        self.query_name = word(self.t("query_of", focus=self.lesson.focus), SIZE, style.Q_COLOR)
        self.key_names = VGroup(*(word(t, SIZE, style.EMPHASIS if j == self.focus else style.K_COLOR)
                                  for j, t in enumerate(p.tokens)))
        self.leaders = A.name_tips(plane, [self.query_name, *self.key_names], [p.query, *p.keys])
        self.qk_spread.parts += [self.query, self.query_name, self.keys, self.key_names, self.leaders]

    def arrows_step(self):
        """The query and every key as arrows from the origin, each key named by its token."""
        self.step("arrows")
        self.arrange(QK_STEPS["arrows"])
        self.draw_arrows()
        self.play(A.grow(self.query), FadeIn(self.query_name))
        self.play(*(A.grow(k) for k in self.keys), FadeIn(self.key_names), FadeIn(self.leaders))
        T.adopt(self, self.keys)

    def shadows_step(self):
        """Each key's shadow on the query's line, one at a time, and its number in the table."""
        self.step("shadows")
        self.arrange(QK_STEPS["shadows"])
        p, plane = self.pic, self.qk_plane
        self.shadows = VGroup(*(A.shadow(plane, k, foot, style.HIGHLIGHT) for k, foot in zip(p.keys, p.feet)))
        self.query_line = Line(plane.at(p.line[0]), plane.at(p.line[1]), color=style.Q_COLOR, stroke_width=2,
                               stroke_opacity=FADED * 2)
        self.play(Create(self.query_line), run_time=style.FAST)
        cells = self.qk_cols["shown"].numbers
        for sh, cell in zip(self.shadows, cells):
            self.play(Create(sh[0]), Create(sh[1]), FadeIn(sh[2]), FadeIn(cell), run_time=style.FAST)
            self.play(sh[1].animate.set_color(style.K_COLOR), sh[2].animate.set_color(style.K_COLOR),
                      run_time=style.FAST)
            self.bring_to_front(self.query, self.keys)
        T.adopt(self, cells)
        for sh in self.shadows:
            T.adopt(self, sh)
        T.adopt(self, self.shadows)
        self.bring_to_front(self.query, self.keys, self.query_name, self.key_names)  # the band under them
        if "scores" in self.qk_cols:
            self.play(FadeIn(self.qk_cols["scores"].numbers), run_time=style.FAST)
        self.qk_spread.parts += [self.query_line, self.shadows]

    def scaled_step(self):
        """÷√dₖ: every shadow shrinks by the mode's scale (the whole one stays, faint), and the scaled
        scores fill their column."""
        self.step("scaled")
        self.arrange(QK_STEPS["scaled"])
        p, plane = self.pic, self.qk_plane
        self.scaled_bands = VGroup(*(Line(plane.at((0, 0)), plane.at(f), stroke_width=sh[1].stroke_width,
                                          color=style.HIGHLIGHT) for sh, f in zip(self.shadows,
                                                                                  p.scaled_feet)))
        self.play(*(TransformFromCopy(sh[1], band) for sh, band in zip(self.shadows, self.scaled_bands)),
                  *(sh[1].animate.set_stroke(opacity=FADED) for sh in self.shadows),
                  FadeIn(self.qk_cols["scaled"].numbers), run_time=style.SLOW)
        T.adopt(self, self.scaled_bands)
        self.bring_to_front(self.query, self.keys, self.query_name, self.key_names)
        self.qk_spread.parts.append(self.scaled_bands)

    def weights_step(self):
        """The softmax's weights as the keys' thickness, and their numbers."""
        self.step("weights")
        self.arrange(QK_STEPS["weights"])
        self.play(FadeOut(self.shadows), FadeOut(self.scaled_bands), FadeOut(self.query_line),
                  self.thicken(self.pic.weights),
                  FadeIn(self.qk_cols[f"w_{self.att.mode}"].numbers), run_time=style.SLOW)

    def sharpen_step(self):
        """No √dₖ: the weights of the raw scores beside the scaled ones, the arrows as thick as they say."""
        self.step("sharpen")
        self.arrange(QK_STEPS["sharpen"])
        self.play(self.thicken(self.modes["unscaled"].weights), *self.fill("w_scaled", "w_unscaled"),
                  run_time=style.SLOW)

    def uniform_step(self):
        """Uniform: every weight 1/n, every arrow as thick as the others."""
        self.step("uniform")
        self.arrange(QK_STEPS["uniform"])
        self.play(self.thicken(self.modes["uniform"].weights), *self.fill("w_uniform"), run_time=style.SLOW)

    def fill(self, *keys) -> list:
        """The numbers of these columns, where they are not on screen yet."""
        return [FadeIn(self.qk_cols[k].numbers) for k in keys if self.qk_cols[k].numbers not in self.mobjects]

    def thicken(self, weights):
        """The keys' arrows redrawn as thick (and opaque) as the weights say."""
        p, plane = self.pic, self.qk_plane
        return Transform(self.keys, VGroup(*(
            A.plane_arrow(plane, (0, 0), k, style.K_COLOR, A.weight_width(w), A.weight_opacity(w))
            for k, w in zip(p.keys, weights))))

    # -- the plane of values ---------------------------------------------------------------------
    def v_columns(self, head_scale: float) -> tuple[dict, dict]:
        """The mixing's table (each key's weight and weighted value, their sum) and the contexts' (each
        context's output), on the V plane's two axes."""
        p, (a, b), every = self.pic, self.pic.v.axes, self.every
        dim = [word(self.dims[x], SIZE, style.V_COLOR) for x in (a, b, a, b)]
        times = [word(self.t("weighted"), SIZE) for _ in dim[:2]]
        heads = {"a": T.head(times[0], dim[0]), "b": T.head(times[1], dim[1]), "ca": T.head(dim[2]),
                 "cb": T.head(dim[3]), "keys": T.head(word(self.t("keys"), SIZE, style.K_COLOR)),
                 "contexts": T.head(word(self.t("context"), SIZE, style.DIM))}  # (one line: not the highest)
        heads = T.scaled(heads, head_scale)  # (T.give_way)
        values = {"a": np.append(p.weighted[:, 0], p.output[0]),
                  "b": np.append(p.weighted[:, 1], p.output[1]),
                  "ca": np.array([q.output[0] for q in every]), "cb": np.array([q.output[1] for q in every])}
        fmt = shared_format(np.concatenate(list(values.values())))
        texts = [[fmt(x) for x in v] for v in values.values()]
        h = self.cell_h(len(p.tokens) + 1, max(m.height for m in heads.values()))
        cols = {k: T.number_column(values[k], heads[k], style.V_COLOR,
                                   T.table_cell_width(texts, [heads[k]], SIZE), fmt, SIZE, h) for k in values}
        names = [word(t, SIZE, style.V_COLOR) for t in p.tokens] + [word(self.t("sum"), SIZE)]
        keys = T.name_column(names, heads["keys"], len(names), h)
        contexts = [word(c, SIZE, style.TEXT) for c in self.labels]
        return ({"keys": keys, "a": cols["a"], "b": cols["b"]},
                {"contexts": T.name_column(contexts, heads["contexts"], len(contexts), h), "a": cols["ca"],
                 "b": cols["cb"]})

    def build_v(self):
        """The plane of values, in axes that hold every context's values and output."""
        p, points = self.pic, G.v_points(self.every)
        notes = self.notes_of("v_share" if self.part_v else None, self.v_share)
        (self.v_cols, self.c_cols), widest = self.give_way(self.v_columns, T.widest, points, notes)
        self.v_plane, self.v_notes, left_w = self.make_plane(points, [self.dims[a] for a in p.v.axes], notes,
                                                             widest)
        parts = [self.v_plane, *self.v_notes]
        self.v_spread = T.Spread(self.v_plane, left_w, parts, self.v_cols, V_ORDER, self.centre())
        self.c_spread = T.Spread(self.v_plane, left_w, parts, self.c_cols, C_ORDER, self.centre())

    def draw_values(self):
        """The values as faint arrows, named; the weighted ones tip to tail; the output and its numbers."""
        p, plane = self.pic, self.v_plane
        self.values = VGroup(*(A.plane_arrow(plane, (0, 0), v, style.V_COLOR, VALUE_STROKE, VALUE_OPACITY)
                               for v in p.values))
        self.chain = [A.plane_arrow(plane, t, tip, style.V_COLOR, A.weight_width(w))
                      for t, tip, w in zip(p.tails, p.tips, p.weights)]
        self.output = A.plane_arrow(plane, (0, 0), p.output,
                                    style.EMPHASIS)  # thinner than the chain under it
        self.output_name = A.point_name(self.t("output_of", focus=self.lesson.focus), p.output, size=SIZE)
        self.value_names = VGroup(*(word(t, SIZE, style.V_COLOR) for t in p.tokens))
        self.value_leaders = A.name_tips(plane, [self.output_name, *self.value_names], [p.output, *p.values],
                                         p.tips, zip(map(plane.at, p.tails), map(plane.at, p.tips)))
        self.v_spread.parts += [self.values, self.value_names, self.value_leaders, *self.chain, self.output,
                                self.output_name]

    def mixing_step(self):
        """The values as arrows; each scaled by its weight, tip to tail, landing on the output."""
        self.step("mixing")
        self.clear_body()
        self.arrange(V_ORDER, self.v_spread)
        self.draw_values()
        self.play(FadeIn(self.v_plane), *(FadeIn(m) for m in self.v_notes), FadeIn(self.values),
                  FadeIn(self.value_names), FadeIn(self.value_leaders))
        cols = self.v_cols
        for j, arrow in enumerate(self.chain):
            self.play(TransformFromCopy(self.values[j], arrow),
                      *(FadeIn(cols[c].numbers[j]) for c in ("a", "b")), run_time=style.FAST)
        self.play(A.grow(self.output), FadeIn(self.output_name),
                  *(FadeIn(cols[c].numbers[-1]) for c in ("a", "b")))
        for c in ("a", "b"):
            T.adopt(self, cols[c].numbers)

    def contexts_step(self):
        """Every context's output in the same axes, named, and a table of them."""
        self.step("contexts")
        gone = [self.values, self.value_names, self.value_leaders, *self.chain, self.output_name,
                *self.header[1:]]  # the sentence: every context's now
        columns = [m for c in self.v_cols.values() for m in T.column_parts(c) if m in self.mobjects]
        self.play(*(FadeOut(m) for m in gone + columns), run_time=style.FAST)
        self.arrange(C_ORDER, self.c_spread)
        plane = self.v_plane
        self.context_arrows = [A.plane_arrow(plane, (0, 0), q.output, style.EMPHASIS, QUERY_STROKE)
                               for q, c in zip(self.every, self.lesson.contexts) if c != self.context_name]
        self.context_names = VGroup(*(A.point_name(name, q.output, size=SIZE)
                                      for q, name in zip(self.every, self.labels)))
        self.context_leaders = A.name_tips(plane, self.context_names, [q.output for q in self.every])
        self.play(*(A.grow(m) for m in self.context_arrows),
                  FadeIn(self.context_names), FadeIn(self.context_leaders),
                  *(FadeIn(self.c_cols[c].numbers) for c in ("a", "b")))

