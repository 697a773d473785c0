"""Claims: a line that states a fact about the lesson's numbers is said only where the numbers make it true.

A claim is a catalog key (`scene.say.step`, `scene.note`: the same in every language) with the
predicates it states (`CLAIMS`); a predicate is a small function of one lesson, context and mode
(`PREDICATES`), computed here from the core's numbers, never in a scene. A scene asks `said(key, facts)`
for every line it shows or speaks: the key itself when its predicates hold, else its alternative's
(`Claim.otherwise`, itself a claim), else None: nothing is said.

    facts = Facts(lesson, "river", "scaled")
    said("learning.say.descent", facts)   # "learning.say.descent_rises" where the loss rises

The numbers a claim quotes come from the core too: `quotes_of_run` (the learning run's losses, weights,
angles and lengths) and `tile_quotes` (the tiles' memory), which the scenes only format and the tests
hold against an independent reference. numpy only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .attention import attend
from .lesson import Lesson
from .next.training import descent

TURN = 1.0  # degrees: an angle that shrinks by less has not turned
SAME = 1e-9  # two numbers that should be equal, up to rounding
VISIBLE = 0.005  # two numbers written with 2 decimals differ on screen from this difference on
ROW_SUM = 1e-5  # a row of float32 weights sums to 1 up to this
ROPE_SAME = 1e-4  # a score's change, against the largest, when both positions shift: rounding (float32)


@dataclass(frozen=True)
class Claim:
    needs: tuple[str, ...]  # the predicates the line states (all must hold)
    otherwise: str | None = None  # the key said instead when one does not (a claim itself), else nothing


class Facts:
    """What the predicates read, for one lesson, context and mode: each computed once, when first asked."""

    def __init__(self, lesson: Lesson, context: str | None = None, mode: str = "scaled"):
        self.lesson, self.context, self.mode = lesson, lesson.context_name(context), mode

    def __call__(self, name: str) -> bool:
        return bool(PREDICATES[name](self))

    @cached_property
    def att(self):
        return attend(self.lesson, self.context, self.mode)

    @cached_property
    def run(self):
        from .next.training import train

        return train(self.lesson, self.context, self.att.scale)

    @cached_property
    def study(self):
        from .next.positions import study

        return study(self.lesson, self.context, self.mode)

    @cached_property
    def tiles(self):
        from .next.tiling import tile

        return tile(self.att, self.lesson.tiling.block)

    @cached_property
    def real(self):
        """The [real] table's model run on its sentence (real/study.py: the [real] extra's package)."""
        from .real.study import study

        return study(self.lesson.real, self.lesson.source)

    @cached_property
    def starts(self) -> list[np.ndarray]:
        """The focus's input row and query in every context, positions applied: [x | q] each."""
        from .next.positions import attend_positioned

        out = []
        for name in self.lesson.contexts:
            p = (attend_positioned(self.lesson, self.lesson.context(name), self.mode)
                 if self.lesson.positions else attend(self.lesson, name, self.mode))
            f = p.tokens.index(self.lesson.focus)
            out.append(np.concatenate([p.x[f], p.q[f]]))
        return out


# -- the predicates ------------------------------------------------------------------------------------
def _several_contexts(f: Facts) -> bool:
    return len(f.lesson.contexts) >= 2


def _same_start(f: Facts) -> bool:
    """The focus enters every context with the same vector and the same query (no position moves it)."""
    return _several_contexts(f) and all(float(np.abs(s - f.starts[0]).max()) < SAME for s in f.starts)


def _descent(f: Facts) -> str:
    return descent([s.loss for s in f.run.steps])


def _angle_shrinks(f: Facts) -> bool:
    return f.run.steps[-1].angle < f.run.steps[0].angle - TURN


def _hard_misses(f: Facts) -> bool:
    return f.run.hard.choice != f.run.target


def _plain_equivariant(f: Facts) -> bool:
    """Without positions, the reversed sentence's outputs are the outputs reversed (no causal mask)."""
    return f.study.plain_gap < SAME


def _placed_differs(f: Facts) -> bool:
    return f.study.placed_gap >= SAME


def _focus_row_moves(f: Facts) -> bool:
    """The focus's weights with positions differ from those without (as the table writes them)."""
    s, k = f.study, f.att.index(f.lesson.focus)
    return float(np.abs(s.placed.weights[k] - s.plain.weights[k]).max()) >= VISIBLE


def _shift_keeps_scores(f: Facts) -> bool:
    return f.study.shift_gap < SAME * max(1.0, float(np.abs(f.study.placed.scores[np.isfinite(
        f.study.placed.scores)]).max()))


def _m_rises(f: Facts) -> bool:
    from .next.tiling import largest_rescale

    return largest_rescale(f.tiles, f.att.index(f.lesson.focus)) is not None


def _outputs_differ(f: Facts) -> bool:
    """The focus's output in some context differs from this one's, as a table writes it (VISIBLE)."""
    here = f.att.output[f.att.index(f.lesson.focus)]
    others = (attend(f.lesson, name, f.mode) for name in f.lesson.contexts)
    return any(float(np.abs(p.output[p.index(f.lesson.focus)] - here).max()) >= VISIBLE for p in others)


def _query_both_meanings(f: Facts) -> bool:
    """The lesson text's "responds to content words of both meanings": in two contexts or more (no
    positions), the focus's query scores its strongest other key positive, and that key differs."""
    if f.lesson.positions is not None or not _several_contexts(f):
        return False
    tops = set()
    for name in f.lesson.contexts:
        att = attend(f.lesson, name, f.mode)
        k = att.index(f.lesson.focus)
        row = np.where(np.arange(att.n) == k, -np.inf, att.scores[k])  # its own key left out
        if not np.isfinite(row).any() or row.max() <= 0:
            return False
        tops.add(att.tokens[int(np.argmax(row))])
    return len(tops) == len(f.lesson.contexts)


def _target_top_after(f: Facts) -> bool:
    """After the last step the target has the query's largest weight, alone."""
    w = f.run.steps[-1].weights
    return bool(np.sum(w >= w[f.run.target] - SAME) == 1)


PREDICATES: dict[str, Callable[[Facts], bool]] = {
    "several_contexts": _several_contexts,
    "same_start": _same_start,
    "has_positions": lambda f: f.lesson.positions is not None,
    "not_tiled": lambda f: f.lesson.tiling is None,
    "unmasked": lambda f: f.lesson.mask != "causal",
    "masked": lambda f: f.lesson.mask == "causal",
    "loss_falls": lambda f: _descent(f) == "falls",
    "loss_falls_unevenly": lambda f: _descent(f) == "uneven",
    "loss_rises": lambda f: _descent(f) == "rises",
    "angle_shrinks": _angle_shrinks,
    "plane_projected": lambda f: f.att.d_k > 2,
    "hard_misses": _hard_misses,
    "plain_equivariant": _plain_equivariant,
    "placed_differs": _placed_differs,
    "focus_row_moves": _focus_row_moves,
    "shift_keeps_scores": _shift_keeps_scores,
    "m_rises": _m_rises,
    "loss_flat": lambda f: _descent(f) == "flat",
    "target_weak_before": lambda f: f.run.steps[0].weights[f.run.target] < 0.5,
    "target_strong_before": lambda f: f.run.steps[0].weights[f.run.target] >= 0.5,
    "target_top_after": _target_top_after,
    "angle_stalls": lambda f: not _angle_shrinks(f),
    "hard_picks_target": lambda f: not _hard_misses(f),
    "plain_differs": lambda f: not _plain_equivariant(f),
    "placed_same": lambda f: not _placed_differs(f),
    "focus_row_stays": lambda f: not _focus_row_moves(f),
    "m_stays": lambda f: not _m_rises(f),
    "shift_moves_scores": lambda f: f.study.shift_gap >= VISIBLE,
    "tiles_equal": lambda f: float(np.abs(f.tiles.output - f.att.output).max()) < SAME * max(
        1.0, float(np.abs(f.att.output).max())),
    "outputs_differ": _outputs_differ,
    "two_contexts": lambda f: len(f.lesson.contexts) == 2,
    "query_both_meanings": _query_both_meanings,
    "focus_whole": lambda f: f.real.label(f.real.focus) == f.real.focus_word,
    "focus_within": lambda f: f.real.label(f.real.focus) != f.real.focus_word,
    "expect_top": lambda f: f.real.expect_top,
    "expect_found": lambda f: f.real.expect_found,
    "sinks_heavy": lambda f: f.real.share > f.real.even,
    "sinks_light": lambda f: f.real.share <= f.real.even,
    "encoder": lambda f: not f.real.causal,
    "causal": lambda f: f.real.causal,
    "mask_zero": lambda f: f.real.causal and f.real.above == 0.0 and f.real.row_gap < ROW_SUM,
    "rope_relative": lambda f: f.real.causal and f.real.rope_gap < ROPE_SAME,
    "next_sure": lambda f: f.real.causal and f.real.top[0][1] >= 0.5,
    "next_unsure": lambda f: f.real.causal and f.real.top[0][1] < 0.5,
}


def _c(*needs: str, otherwise: str | None = None) -> Claim:
    return Claim(tuple(needs), otherwise)


# Every line that states a fact about the numbers: the key (as the catalogs write it), what it states, and
# the line said where that does not hold. A line not here states nothing a lesson's numbers could break.
CLAIMS: dict[str, Claim] = {
    # overview: one focus, several sentences
    "overview.say.two_sentences_story": _c("same_start", "outputs_differ", "two_contexts",
                                           otherwise="overview.say.two_sentences"),
    "overview.say.two_sentences": _c("same_start", "outputs_differ",
                                     otherwise="overview.say.two_sentences_placed"),
    "overview.say.two_sentences_placed": _c("several_contexts", "has_positions", "outputs_differ",
                                            otherwise="overview.say.two_sentences_one"),
    "overview.same_embedding": _c("same_start", otherwise="overview.focus_embedding"),
    # projection: what the focus's query responds to
    "projection.say.query_product": _c("query_both_meanings", otherwise="projection.say.query_product_plain"),
    # cost: what this lesson shows
    "cost.optimised": _c("not_tiled", otherwise="cost.optimised_tiled"),
    "cost.say.complexity": _c("not_tiled", otherwise="cost.say.complexity_tiled"),
    # learning: does the descent do what the line says?
    "learning.say.loss": _c("target_weak_before", otherwise="learning.say.loss_strong"),
    "learning.say.loss_strong": _c("target_strong_before"),
    "learning.say.descent": _c("loss_falls", otherwise="learning.say.descent_uneven"),
    "learning.say.descent_uneven": _c("loss_falls_unevenly", otherwise="learning.say.descent_rises"),
    "learning.say.descent_rises": _c("loss_rises", otherwise="learning.say.descent_flat"),
    "learning.say.descent_flat": _c("loss_flat"),
    "learning.say.turn": _c("angle_shrinks", otherwise="learning.say.turn_stalls"),
    "learning.say.turn_stalls": _c("angle_stalls"),
    "learning.turn_note": _c("angle_shrinks", otherwise="learning.turn_note_stalls"),
    "learning.turn_note_stalls": _c("angle_stalls"),
    "learning.plane_note_projected": _c("plane_projected"),
    "learning.say.after": _c("target_top_after", otherwise="learning.say.after_not_top"),
    "learning.after_note": _c("target_top_after", otherwise="learning.after_note_not_top"),
    "learning.say.hard": _c("hard_misses", otherwise="learning.say.hard_picks_target"),
    "learning.say.hard_picks_target": _c("hard_picks_target"),
    # positions: what reversing and shifting do
    "positions.say.plain": _c("plain_equivariant", "unmasked", otherwise="positions.say.plain_masked"),
    "handout.ex_reversed_answer": _c("plain_equivariant", otherwise="handout.ex_reversed_answer_masked"),
    "handout.ex_reversed_answer_masked": _c("plain_differs"),
    "positions.say.plain_masked": _c("plain_differs", "masked", otherwise="positions.say.plain_compare"),
    "positions.plain_note": _c("plain_equivariant", otherwise="positions.plain_note_masked"),
    "positions.plain_note_masked": _c("plain_differs"),
    "positions.say.placed": _c("placed_differs", otherwise="positions.say.placed_same"),
    "positions.say.placed_same": _c("placed_same"),
    "positions.placed_note": _c("placed_differs", otherwise="positions.placed_note_same"),
    "positions.placed_note_same": _c("placed_same"),
    "positions.say.focus_row": _c("focus_row_moves", otherwise="positions.say.focus_row_stays"),
    "positions.say.focus_row_stays": _c("focus_row_stays"),
    "positions.say.shift": _c("shift_keeps_scores", otherwise="positions.say.shift_moves"),
    "positions.say.shift_moves": _c("shift_moves_scores", otherwise="positions.say.shift_compare"),
    "positions.shift_note": _c("shift_keeps_scores", otherwise="positions.shift_note_moves"),
    "positions.shift_note_moves": _c("shift_moves_scores", otherwise="positions.shift_note_compare"),
    # tiles: does the maximum rise, is the output the same
    "tiles.say.rescale": _c("m_rises", otherwise="tiles.say.rescale_no_rise"),
    "tiles.say.rescale_no_rise": _c("m_stays"),
    "tiles.rescale_note": _c("m_rises", otherwise="tiles.rescale_no_rise"),
    "tiles.rescale_no_rise": _c("m_stays"),
    "tiles.full_memory": _c("unmasked", otherwise="tiles.full_memory_masked"),
    "tiles.say.equal": _c("tiles_equal"),
    "tiles.equal_note": _c("tiles_equal"),
    # real: the model's own tokens, the heads' choices, the sinks
    "real.say.tokens": _c("encoder", "focus_whole", otherwise="real.say.tokens_within"),
    "real.say.tokens_within": _c("encoder", "focus_within"),
    "real.say.heads": _c("encoder", "expect_top", otherwise="real.say.heads_expect"),
    "real.say.heads_expect": _c("encoder", "expect_found", otherwise="real.say.heads_top"),
    "real.say.sinks": _c("encoder", "sinks_heavy", otherwise="real.say.sinks_light"),
    "real.say.sinks_light": _c("encoder", "sinks_light"),
    # real, a causal model: the heads and sinks again, the mask, RoPE, the next token
    "real.say.tokens_causal": _c("causal", "focus_whole", otherwise="real.say.tokens_causal_within"),
    "real.say.tokens_causal_within": _c("causal", "focus_within"),
    "real.say.heads_causal": _c("causal", "expect_top", otherwise="real.say.heads_causal_expect"),
    "real.say.heads_causal_expect": _c("causal", "expect_found", otherwise="real.say.heads_causal_top"),
    "real.say.heads_causal_top": _c("causal"),
    "real.say.sinks_causal": _c("causal", "sinks_heavy", otherwise="real.say.sinks_causal_light"),
    "real.say.sinks_causal_light": _c("causal", "sinks_light"),
    "real.say.mask": _c("mask_zero"),
    "real.mask_note": _c("mask_zero"),
    "real.say.rope": _c("rope_relative"),
    "real.rope_note": _c("rope_relative"),
    "real.say.next": _c("next_sure", otherwise="real.say.next_unsure"),
    "real.say.next_unsure": _c("next_unsure"),
}


def said(key: str, facts: Facts) -> str | None:
    """The key to say for `key`: itself where its claim holds (or it claims nothing), else its alternative's
    choice, else None (nothing is said)."""
    seen: set[str] = set()
    while key is not None and key not in seen:
        seen.add(key)
        claim = CLAIMS.get(key)
        if claim is None or all(facts(n) for n in claim.needs):
            return key
        key = claim.otherwise
    return None


def quotes_of_run(run) -> dict[str, float]:
    """The numbers the learning scene quotes: loss, target weight, angle (degrees), |q|, |k| of the target
    before the first step and after the last."""
    out = {}
    for end, s in (("0", run.steps[0]), ("1", run.steps[-1])):
        q, k = np.linalg.norm(s.q), np.linalg.norm(s.k[run.target])
        out |= {f"loss{end}": s.loss, f"w{end}": float(s.weights[run.target]), f"angle{end}": s.angle,
                f"q{end}": float(q), f"k{end}": float(k)}
    return out


def tile_quotes(tiles, att) -> dict[str, int]:
    """The numbers the tiles scene's memory step quotes: scores held at once (n × block, n × n, of them
    not masked), and the running numbers m, l and o every query keeps (n × (d_v + 2))."""
    tiled, full = tiles.memory
    visible = int(np.isfinite(att.scaled).sum())
    return {"tiled": tiled, "full": full, "visible": visible, "running": att.n * (att.v.shape[1] + 2)}
