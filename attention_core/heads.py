"""The next lessons' keys: a causal mask and several heads, read from the same lesson file.

    mask = "causal"            # query i looks only at keys j <= i (a decoder's attention)
    focus_head = "meaning"     # the head the step-by-step scenes expand (the first by default)

    [heads.meaning]            # each head its own projections, and its name in each language
    zh = "词义"
    en = "meaning"
    w_q = [...]                # d_model rows, d_k columns (each head its own d_k)
    w_k = [...]                # d_model rows, as many columns as its w_q
    w_v = [...]                # d_model rows, d_v columns (each head its own d_v)

    [projections]
    w_o = [...]                # the heads' outputs side by side (the sum of their d_v) -> d_model

A lesson with [heads] keeps only w_o in [projections]. Both keys are optional: a file without them is
the one-head, unmasked lesson it always was. multihead.py computes with what this reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import reading
from .errors import Choices, LessonError, near, ph
from .language import LANGS

MASKS = ("none", "causal")
MAX_HEADS = 4  # what the heads scene lays out side by side
HEAD_KEYS = (*LANGS, "w_q", "w_k", "w_v")


@dataclass(frozen=True)
class Head:
    key: str  # its name in the file ([heads.<key>]) and on the command line (--head)
    w_q: np.ndarray  # [d_model, d_k]
    w_k: np.ndarray  # [d_model, d_k]
    w_v: np.ndarray  # [d_model, d_v]
    names: dict[str, str] = field(default_factory=dict)  # lang -> its name on screen

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.key

    @property
    def d_k(self) -> int:
        return self.w_q.shape[1]

    @property
    def d_v(self) -> int:
        return self.w_v.shape[1]


def parse_mask(file: str, data: dict) -> str | None:
    """"causal" or None (no mask: "none" or nothing written)."""
    value = data.get("mask", "none")
    if value not in MASKS:
        raise LessonError(file, "mask", ph("one_of", items=Choices(MASKS)), near(value, MASKS))
    return None if value == "none" else value


def _head(file: str, key: str, table, d_model: int) -> Head:
    where = f"heads.{key}"
    if not isinstance(table, dict):
        raise LessonError(file, where, ph("a_table", name=where), table)
    for k in table:
        if k not in HEAD_KEYS:
            raise LessonError(file, f"{where}.{k}", ph("one_of", items=Choices(HEAD_KEYS)),
                              near(k, HEAD_KEYS))
    for name in ("w_q", "w_k", "w_v"):
        if name not in table:
            raise LessonError(file, f"{where}.{name}", ph("a_matrix"), ph("nothing"))
    w_q, w_k, w_v = (reading.matrix(file, f"{where}.{n}", table[n], d_model) for n in ("w_q", "w_k", "w_v"))
    if w_k.shape[1] != w_q.shape[1]:
        raise LessonError(file, f"{where}.w_k", ph("columns_as_wq", n=w_q.shape[1]),
                          ph("n_columns", n=w_k.shape[1]))
    names = {}
    for lang in LANGS:
        if lang in table:
            if not isinstance(table[lang], str) or not table[lang].strip():
                raise LessonError(file, f"{where}.{lang}", ph("a_label"), table[lang])
            names[lang] = table[lang]
    return Head(key, w_q, w_k, w_v, names)


def parse_heads(file: str, data: dict, d_model: int) -> tuple[tuple[Head, ...], np.ndarray | None, str]:
    """[heads.*] and [projections] w_o -> the heads, W_O [Σ d_v, d_model] and the focus head's key;
    ((), None, "") for a one-head lesson."""
    if "heads" not in data:
        if "focus_head" in data:
            raise LessonError(file, "focus_head", ph("heads_first"), data["focus_head"])
        return (), None, ""
    table = reading.table(file, data, "heads")
    if not 1 <= len(table) <= MAX_HEADS:
        raise LessonError(file, "heads", ph("heads_bound", hi=MAX_HEADS), ph("n_heads", n=len(table)))
    heads = tuple(_head(file, key, value, d_model) for key, value in table.items())
    proj = reading.table(file, data, "projections")
    for k in proj:
        if k != "w_o":
            raise LessonError(file, f"projections.{k}", ph("own_projections"), k)
    if "w_o" not in proj:
        raise LessonError(file, "projections.w_o", ph("a_matrix"), ph("nothing"))
    w_o = reading.matrix(file, "projections.w_o", proj["w_o"], sum(h.d_v for h in heads),
                         "rows_per_head_value")
    if w_o.shape[1] != d_model:
        raise LessonError(file, "projections.w_o", ph("columns_d_model", n=d_model),
                          ph("n_columns", n=w_o.shape[1]))
    focus = data.get("focus_head", heads[0].key)
    if focus not in table:
        raise LessonError(file, "focus_head", ph("one_of", items=Choices(table)), near(focus, table))
    return heads, w_o, focus
