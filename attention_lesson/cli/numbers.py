"""`attention-lesson numbers`: every intermediate of one context, as a table or JSON."""

from __future__ import annotations

import json
import unicodedata

import click
import numpy as np

from attention_core import attend, hard_lookup, numbers_json
from scenes.common.formats import fixed_text
from scenes.common.i18n import d_k_labels

from .options import json_option, lesson_options

PLACES = 4  # decimals in the table (JSON keeps full precision); from 1e5 on, scientific notation


def width(s: str) -> int:
    """Columns s takes in a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def pad(s: str, n: int, right: bool = True) -> str:
    fill = " " * max(0, n - width(s))
    return fill + s if right else s + fill


def table(name: str, rows: list[str], cols: list[str], m: np.ndarray) -> str:
    """A titled matrix: row labels left-aligned, columns right-aligned by display width."""
    cells = [[fixed_text(x, PLACES) for x in row] for row in m]
    col_w = max([width(c) for c in cols] + [len(c) for row in cells for c in row]) + 2
    row_w = max(width(r) for r in rows) + 2
    lines = [name, " " * row_w + "".join(pad(c, col_w) for c in cols)]
    for r, row in zip(rows, cells):
        lines.append(pad(r, row_w, right=False) + "".join(pad(c, col_w) for c in row))
    return "\n".join(lines)


def dimension_names(lesson, k: int, prefix: str) -> list[str]:
    """The lesson's dimension names (English) where they name k dimensions, else prefix1..prefixk."""
    names = list(lesson.dim_names("en"))
    return names if len(names) == k and lesson.dimensions else [f"{prefix}{i + 1}" for i in range(k)]


@click.command()
@lesson_options
@json_option
def numbers(lesson, context, mode, as_json):
    """Print every intermediate (Q, K, V, scores, weights, output) of one context."""
    att = attend(lesson, context, mode)
    if as_json:
        click.echo(json.dumps(numbers_json(lesson, context, mode)))
        return
    toks = list(att.tokens)
    click.echo(f"lesson {lesson.source}  context {context}: {' '.join(toks)}")
    click.echo(f"mode {mode}  d_k {att.d_k}  scale {att.scale:.4f}  (rows = queries, columns = keys)\n")
    for label, m, cols in [
        ("X (embeddings)", att.x, dimension_names(lesson, att.x.shape[1], "x")),
        ("Q = X W_Q", att.q, d_k_labels(att.d_k, "en")),
        ("K = X W_K", att.k, d_k_labels(att.d_k, "en")),
        ("V = X W_V", att.v, dimension_names(lesson, att.d_v, "v")),
        ("scores = Q Kᵀ (raw)", att.scores, toks),
        ("scaled = scores × scale (softmax input)", att.scaled, toks),
        ("weights = softmax(scaled) along keys", att.weights, toks),
        ("output = weights V", att.output, dimension_names(lesson, att.d_v, "v")),
    ]:
        click.echo(table(label, toks, cols, m) + "\n")
    hard = hard_lookup(att)
    picks = ", ".join(f"{t}→{toks[c]}" for t, c in zip(toks, hard.choice))
    click.echo(f"hard argmax lookup: {picks}")
