"""What the real scene shows of a lesson's [real] table: the model run on the teacher's sentence, the focus
found among its tokens (a LessonError on real.focus when the model cuts it across tokens), the key the
focus weighs most in every layer and head, how many heads choose each word, and the attention sinks (<s>
and </s>; a causal model's first token). A causal model's pass adds the mask (every weight above the
diagonal), RoPE (a score kept when both positions shift) and the next token's five most probable.
numpy only; the model is imported here, when the scene asks, never when the lesson file is read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import Choices, LessonError, ph
from .result import RealAttention


@dataclass(frozen=True)
class RealStudy:
    att: RealAttention
    focus: int  # the token the scene follows
    focus_word: str  # the focus as the lesson writes it (a part of that token's text)
    expect: str | None  # the key the toy lesson picks, counted across the heads (None: not asked)
    sinks: tuple[int, ...] = ()  # the keys left out of the heads' choices: <s> and </s>, or the first token
    top: tuple[tuple[str, float], ...] = ()  # causal: the next token's most probable, most first
    rope_base: float = 0.0  # causal: the base of its rotary positions

    @property
    def causal(self) -> bool:
        return bool(self.top)

    @property
    def total(self) -> int:
        return self.att.layers * self.att.heads

    @cached_property
    def keys(self) -> np.ndarray:
        """int [layers, heads]: the key the focus weighs most, the sinks and itself left out."""
        row = self.att.weights[:, :, self.focus, :].copy()  # [L, H, n]
        row[:, :, [*self.sinks, self.focus]] = -1.0
        return row.argmax(axis=-1)

    @cached_property
    def counts(self) -> list[tuple[str, int]]:
        """(word, heads choosing it), most first (ties in the sentence's order)."""
        words = Counter(self.label(int(k)) for k in self.keys.ravel())
        order = {self.label(i): i for i in reversed(range(len(self.att.tokens)))}
        return sorted(words.items(), key=lambda wc: (-wc[1], order[wc[0]]))

    def label(self, i: int) -> str:
        """Token i as a scene names it: the word (a BPE piece's leading space dropped), or the piece itself
        where it is a bare ▁ (a space)."""
        return self.att.word(i).strip() or self.att.tokens[i]

    def chosen(self, word: str) -> int:
        return dict(self.counts).get(word, 0)

    @property
    def expect_found(self) -> bool:
        """The expected word is a token of its own (the heads can choose it)."""
        return self.expect is not None and any(self.att.word(i).strip() == self.expect
                                               for i in range(len(self.att.tokens)) if i not in self.sinks)

    @property
    def expect_top(self) -> bool:
        """The expected word is chosen by more heads than any other word."""
        return self.expect_found and all(c < self.chosen(self.expect) for w, c in self.counts
                                         if w != self.expect)

    @cached_property
    def layer_share(self) -> np.ndarray:
        """float [layers]: the mean weight a row gives the sinks, over the layer's heads (a causal model's
        first row left out: it can only look at itself)."""
        rows = self.att.weights[:, :, 1 if self.causal else 0:, :]
        return rows[..., list(self.sinks)].sum(axis=-1).mean(axis=(1, 2))

    @property
    def share(self) -> float:
        """The mean weight a row gives <s> and </s>, over every layer and head."""
        return float(self.layer_share.mean())

    @property
    def even(self) -> float:
        """What the sinks would get if every key a row sees got the same weight."""
        n = len(self.att.tokens)
        if self.causal:
            return float(np.mean([1 / (i + 1) for i in range(1, n)]))
        return len(self.sinks) / n

    @property
    def above(self) -> float:
        """The largest weight above the diagonal (a later key), over every layer and head."""
        return float(np.triu(self.att.weights, k=1).max())

    @property
    def row_gap(self) -> float:
        """The largest distance of a row's sum from 1, over every layer, head and row."""
        return float(np.abs(self.att.weights.astype(np.float64).sum(axis=-1) - 1).max())

    @property
    def mask_head(self) -> tuple[int, int]:
        """(layer, head) whose focus row gives the first token least: the head the mask step shows."""
        first = self.att.weights[:, :, self.focus, 0]
        return tuple(int(i) for i in np.unravel_index(int(first.argmin()), first.shape))  # type: ignore

    @cached_property
    def start_head(self) -> tuple[int, int]:
        """(layer, head) the explorer's box starts on: among the heads whose strongest key is the expected
        word, the one that gives it the most weight; else the head whose strongest key weighs most."""
        row = self.att.weights[:, :, self.focus, :]  # [layers, heads, n]
        top = np.take_along_axis(row, self.keys[:, :, None], axis=-1)[:, :, 0]  # the strongest key's weight
        picks = np.vectorize(lambda k: self.label(int(k)) == self.expect)(self.keys)
        if self.expect_found and picks.any():
            top = np.where(picks, top, -1.0)
        layer, head = np.unravel_index(int(np.argmax(top)), top.shape)
        return int(layer), int(head)

    @cached_property
    def rope_gap(self) -> float:
        """The largest change of a score when both tokens move on by the same number of positions (random q
        and k, the model's rotation), against the largest score: 0 up to rounding."""
        from .llama import rope

        rng = np.random.default_rng(0)
        q, k = (rng.standard_normal((1, 1, 64)).astype(np.float32) for _ in range(2))
        n = len(self.att.tokens) + 8
        turned = lambda x: rope(np.repeat(x, n, axis=1), self.rope_base)[0]  # noqa: E731  [n, 64]
        scores = turned(q) @ turned(k).T  # [n, n]: query at i, key at j
        gap = max(abs(scores[i + s, j + s] - scores[i, j]) for i in range(4) for j in range(i + 1)
                  for s in range(1, 8))
        return float(gap / np.abs(scores).max())


def study(real, file: str) -> RealStudy:
    """The lesson's [real] table (next.tables.Real) through its model; the focus must be within a token
    (a causal model's: after the first, the sink every head may park its weight on)."""
    if real.model == "smollm2":
        return causal_study(real, file)
    from .e5 import e5_attention  # the [real] extra's package: only when a scene asks

    att = e5_attention(real.sentence)
    focus = att.find(real.focus)
    if focus is None:
        raise LessonError(file, "real.focus", ph("a_real_token", tokens=Choices(att.tokens)), real.focus)
    return RealStudy(att, focus, real.focus, real.expect, tuple(int(i) for i in np.flatnonzero(att.special)))


def causal_study(real, file: str, shown: int = 5) -> RealStudy:
    """SmolLM2 on the prompt: its weights, and the `shown` most probable next tokens."""
    from .bpe import decode_bpe
    from .smollm2 import load_smollm2, next_token

    out = next_token(real.sentence)
    att, model = out.attention, load_smollm2()
    focus = att.find(real.focus)
    if not focus:  # None, or the first token: the sink, with nothing before it to look at
        raise LessonError(file, "real.focus", ph("a_real_after_first", tokens=Choices(att.tokens[1:])),
                          real.focus)
    p = np.exp(out.logits - out.logits.max())
    p /= p.sum()
    top = tuple((decode_bpe(model.tokenizer, [int(i)]), float(p[i])) for i in np.argsort(-p)[:shown])
    return RealStudy(att, focus, real.focus, real.expect, (0,), top, float(model.shape.rope_base))
