"""Random valid lesson files of the next lessons, seeded (the same seed writes the same lesson): a causal
mask and / or 2 to 4 heads, each with its own d_k and d_v and names, W_O, a focus head, over 2 to 8
tokens; other words, shapes and numbers than the built-ins, for checking the pages' copy of the core."""

from __future__ import annotations

import json

import numpy as np

from .random_lessons import DIMS, WORDS, _row


def _matrix(rng, rows: int, cols: int) -> str:
    return "[\n  " + ",\n  ".join(_row(rng.uniform(-2, 2, cols)) for _ in range(rows)) + ",\n]"


def _heads(rng, n_heads: int, d_model: int) -> list[str]:
    """[heads.h<i>] tables and [projections] w_o, and focus_head (a top-level key: first)."""
    keys = [f"h{i + 1}" for i in range(n_heads)]
    lines, total = [], 0
    for i, key in enumerate(keys):
        d_k, d_v = int(rng.integers(2, 5)), int(rng.integers(2, 5))
        total += d_v
        lines += ["", f"[heads.{key}]", f'zh = "头{i + 1}"', f'en = "head {i + 1}"',
                  f"w_q = {_matrix(rng, d_model, d_k)}", f"w_k = {_matrix(rng, d_model, d_k)}",
                  f"w_v = {_matrix(rng, d_model, d_v)}"]
    lines += ["", "[projections]", f"w_o = {_matrix(rng, total, d_model)}"]
    return [f'focus_head = "{keys[int(rng.integers(0, n_heads))]}"', *lines]


def random_next_lesson(seed: int, heads: int = 0, mask: bool = True) -> str:
    """A lesson that passes `check`: heads 0 (one head, [projections] w_q, w_k, w_v) or 2 to 4; with
    mask = "causal" or without; 2 contexts of 2 to 8 tokens, the focus in both."""
    rng = np.random.default_rng(1000 + seed)
    n_vocab = int(rng.integers(4, 9))
    d_model = int(rng.integers(2, 7))
    vocab = [str(t) for t in rng.choice(WORDS, n_vocab, replace=False)]
    focus = vocab[0]
    contexts = {}
    for name in ("alpha", "beta"):
        others = [str(t) for t in rng.choice(vocab, int(rng.integers(1, 8)))]  # repeats allowed
        tokens = others + [focus]
        rng.shuffle(tokens)
        contexts[name] = tokens
    lines = [f'focus = "{focus}"', *(['mask = "causal"'] if mask else [])]
    top = _heads(rng, heads, d_model) if heads else []
    lines += top[:1] + ["", "[dimensions]"]
    for lang in ("zh", "en"):
        lines.append(f"{lang} = {json.dumps(DIMS[lang][:d_model], ensure_ascii=False)}")
    lines += ["", "[vocab]", *(f'"{t}" = {_row(rng.uniform(-1.5, 1.5, d_model))}' for t in vocab)]
    if heads:
        lines += top[1:]
    else:
        lines += ["", "[projections]", *(f"{m} = {_matrix(rng, d_model, d)}" for m, d in
                                         (("w_q", 3), ("w_k", 3), ("w_v", d_model)))]
    lines += ["", "[contexts]", *(f"{n} = {json.dumps(t, ensure_ascii=False)}" for n, t in contexts.items())]
    return "\n".join(lines) + "\n"
