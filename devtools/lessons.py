"""Lessons made for a test or a benchmark: the 8x8 lesson (the most the scenes lay out), which the explorer's
tests and its benchmark (scripts/bench/pages.py) both open."""

from __future__ import annotations

import json

import numpy as np


def eight_by_eight() -> str:
    """An 8-token lesson with 8 dimensions everywhere (the most the scenes lay out)."""
    rng = np.random.default_rng(8)
    row = lambda n: "[" + ", ".join(f"{x:.2f}" for x in rng.uniform(-2, 2, n)) + "]"  # noqa: E731
    toks = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    lines = ['focus = "delta"', "[vocab]", *(f"{t} = {row(8)}" for t in toks), "[projections]"]
    lines += [f"{m} = [" + ", ".join(row(8) for _ in range(8)) + "]" for m in ("w_q", "w_k", "w_v")]
    lines += ["[contexts]", f"all = {json.dumps(toks)}", f"half = {json.dumps(toks[::-1][:5])}"]
    return "\n".join(lines) + "\n"
