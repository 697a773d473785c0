"""What the real scene shows of a lesson's [real] table: the model run on the teacher's sentence, the focus
found among its tokens (a LessonError on real.focus when the model cuts it across tokens), the key the
focus weighs most in every layer and head, how many heads choose each word, and the attention sinks.
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

    @property
    def total(self) -> int:
        return self.att.layers * self.att.heads

    @cached_property
    def keys(self) -> np.ndarray:
        """int [layers, heads]: the key the focus weighs most, <s>, </s> and itself left out."""
        return self.att.strongest_keys(self.focus)

    @cached_property
    def counts(self) -> list[tuple[str, int]]:
        """(word, heads choosing it), most first (ties in the sentence's order)."""
        words = Counter(self.label(int(k)) for k in self.keys.ravel())
        order = {self.label(i): i for i in reversed(range(len(self.att.tokens)))}
        return sorted(words.items(), key=lambda wc: (-wc[1], order[wc[0]]))

    def label(self, i: int) -> str:
        """Token i as a scene names it: the word, or the piece itself where it is a bare ▁ (a space)."""
        return self.att.word(i) or self.att.tokens[i]

    def chosen(self, word: str) -> int:
        return dict(self.counts).get(word, 0)

    @property
    def expect_found(self) -> bool:
        """The expected word is a token of its own (the heads can choose it)."""
        return self.expect is not None and any(self.att.word(i) == self.expect and not s
                                               for i, s in enumerate(self.att.special))

    @property
    def expect_top(self) -> bool:
        """The expected word is chosen by more heads than any other word."""
        return self.expect_found and all(c < self.chosen(self.expect) for w, c in self.counts
                                         if w != self.expect)

    @cached_property
    def layer_share(self) -> np.ndarray:
        """float [layers]: the mean weight a row gives <s> and </s>, over the layer's heads."""
        return self.att.special_share().mean(axis=1)

    @property
    def share(self) -> float:
        """The mean weight a row gives <s> and </s>, over every layer and head."""
        return float(self.layer_share.mean())

    @property
    def even(self) -> float:
        """What <s> and </s> would get if every key got the same weight."""
        return sum(self.att.special) / len(self.att.tokens)


def study(real, file: str) -> RealStudy:
    """The lesson's [real] table (next.tables.Real) through its model; the focus must be within a token."""
    from .e5 import e5_attention  # the [real] extra's package: only when a scene asks

    att = e5_attention(real.sentence)
    focus = att.find(real.focus)
    if focus is None:
        raise LessonError(file, "real.focus", ph("a_real_token", tokens=Choices(att.tokens)), real.focus)
    return RealStudy(att, focus, real.focus, real.expect)
