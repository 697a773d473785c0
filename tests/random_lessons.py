"""Random valid lesson files, seeded (the same seed writes the same lesson): other words, shapes and
numbers than any lesson a person wrote, for checking that the scenes' words stay true."""

from __future__ import annotations

import numpy as np

WORDS = ["moon", "tide", "harbor", "ledger", "violin", "orbit", "kernel", "meadow", "月亮", "潮水",
         "港口", "账本", "小提琴", "轨道"]
DIMS = {"zh": ["颜色", "声音", "时间", "地点", "数量", "情绪", "速度", "温度"],
        "en": ["colour", "sound", "era", "place", "amount", "mood", "speed", "heat"]}


def _row(values) -> str:
    return "[" + ", ".join(f"{v:.1f}" for v in values) + "]"


def random_lesson(seed: int) -> str:
    """A lesson that passes `check`: 2 contexts of 2 to 6 tokens, 2 to 6 dimensions, the focus in both."""
    rng = np.random.default_rng(seed)
    n_vocab = int(rng.integers(4, 9))
    d_model, d_k, d_v = (int(rng.integers(2, 7)) for _ in range(3))
    vocab = list(rng.choice(WORDS, n_vocab, replace=False))
    focus = vocab[0]
    contexts = {}
    for name in ("alpha", "beta"):
        others = list(rng.choice(vocab[1:], int(rng.integers(1, min(6, n_vocab - 1) + 1)), replace=False))
        tokens = others + [focus]
        rng.shuffle(tokens)
        contexts[name] = tokens
    lines = [f'focus = "{focus}"', "", "[dimensions]"]
    for lang in ("zh", "en"):
        lines.append(f"{lang} = [" + ", ".join(f'"{d}"' for d in DIMS[lang][:d_v]) + "]")
    lines += ["", "[vocab]"]
    lines += [f'"{t}" = {_row(rng.uniform(-1.5, 1.5, d_model))}' for t in vocab]
    lines += ["", "[projections]"]
    for name, width in (("w_q", d_k), ("w_k", d_k), ("w_v", d_v)):
        rows = ",\n  ".join(_row(rng.uniform(-2, 2, width)) for _ in range(d_model))
        lines.append(f"{name} = [\n  {rows},\n]")
    lines += ["", "[contexts]"]
    lines += [f"{name} = [" + ", ".join(f'"{t}"' for t in tokens) + "]" for name, tokens in contexts.items()]
    lines += ["", "[context_labels]", 'alpha = { zh = "甲", en = "first" }',
              'beta = { zh = "乙", en = "second" }']
    return "\n".join(lines) + "\n"
