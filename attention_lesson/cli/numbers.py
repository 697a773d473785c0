"""`attention-lesson numbers`: every intermediate of one context, as a table or JSON."""

from __future__ import annotations

import json

import click
import numpy as np

from attention_core import attend, hard_lookup

from .options import json_option, lesson_options


def _fmt_matrix(name: str, rows: list[str], cols: list[str], m: np.ndarray) -> str:
    width = max(8, *(len(c) + 1 for c in cols))
    head = " " * 10 + "".join(f"{c:>{width}}" for c in cols)
    lines = [f"{name}", head]
    for r, row in zip(rows, m):
        lines.append(f"{r:<10}" + "".join(f"{x:>{width}.4f}" for x in row))
    return "\n".join(lines)


def as_dict(att, lesson, context_name: str) -> dict:
    hard = hard_lookup(att)
    return {
        "lesson": lesson.source,
        "context": context_name,
        "tokens": list(att.tokens),
        "mode": att.mode,
        "d_k": att.d_k,
        "scale": att.scale,
        "x": att.x.tolist(),
        "q": att.q.tolist(),
        "k": att.k.tolist(),
        "v": att.v.tolist(),
        "scores": att.scores.tolist(),
        "scaled": att.scaled.tolist(),
        "weights": att.weights.tolist(),
        "output": att.output.tolist(),
        "hard_choice": hard.choice.tolist(),
        "hard_output": hard.output.tolist(),
    }


@click.command()
@lesson_options
@json_option
def numbers(lesson, context, mode, as_json):
    """Print every intermediate (Q, K, V, scores, weights, output) of one context."""
    att = attend(lesson, context, mode)
    if as_json:
        click.echo(json.dumps(as_dict(att, lesson, context)))
        return
    toks = list(att.tokens)
    dims = lambda d: [f"d{i + 1}" for i in range(d)]  # noqa: E731
    click.echo(f"lesson {lesson.source}  context {context}: {' '.join(toks)}")
    click.echo(f"mode {mode}  d_k {att.d_k}  scale {att.scale:.4f}  (rows = queries, columns = keys)\n")
    for label, m, cols in [
        ("X (embeddings)", att.x, dims(att.x.shape[1])),
        ("Q = X W_Q", att.q, dims(att.d_k)),
        ("K = X W_K", att.k, dims(att.d_k)),
        ("V = X W_V", att.v, list(lesson.dim_names("en"))),
        ("scores = Q Kᵀ (raw)", att.scores, toks),
        ("scaled = scores × scale (softmax input)", att.scaled, toks),
        ("weights = softmax(scaled) along keys", att.weights, toks),
        ("output = weights V", att.output, list(lesson.dim_names("en"))),
    ]:
        click.echo(_fmt_matrix(label, toks, cols, m) + "\n")
    hard = hard_lookup(att)
    picks = ", ".join(f"{t}→{toks[c]}" for t, c in zip(toks, hard.choice))
    click.echo(f"hard argmax lookup: {picks}")
