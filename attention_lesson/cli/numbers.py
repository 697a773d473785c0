"""`attention-lesson numbers`: every intermediate of one context, as a table or JSON."""

from __future__ import annotations

import json

import click
import numpy as np

from attention_core import attend, hard_lookup, numbers_json
from attention_core.multihead import attend_heads
from scenes.common.formats import fixed_text
from scenes.common.i18n import d_k_labels

from ..pipeline.states import columns
from .options import json_option, lesson_options

PLACES = 4  # decimals in the table (JSON keeps full precision); from 1e5 on, scientific notation


width = columns  # columns a text takes in a terminal: a Chinese character takes two


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


def head_line(lesson, head: str | None) -> str:
    """What the table is of: the mask and the head, when the lesson has them."""
    parts = [f"mask {lesson.mask} (query i sees keys 1..i; -inf: masked)"] if lesson.mask else []
    if lesson.heads:
        parts.append(f"head {head or lesson.focus_head} of {', '.join(h.key for h in lesson.heads)}")
    return "  ".join(parts)


def check_head(lesson, head: str | None) -> str | None:
    keys = [h.key for h in lesson.heads]
    if head is not None and head not in keys:
        raise click.BadParameter(f"{head!r} is not a head of {lesson.source}: "
                                 + (f"one of {', '.join(keys)}" if keys else "it has one head, no [heads]"),
                                 param_hint="--head")
    return head


@click.command()
@lesson_options
@click.option("--head", "head", metavar="NAME", default=None,
              help="With several heads: which head's intermediates (default: the lesson's focus_head).")
@json_option
def numbers(lesson, context, mode, head, as_json):
    """Print every intermediate (Q, K, V, scores, weights, output) of one context."""
    head = check_head(lesson, head)
    att = attend(lesson, context, mode, head=head)
    if as_json:
        click.echo(json.dumps(numbers_json(lesson, context, mode, head)))
        return
    toks = list(att.tokens)
    click.echo(f"lesson {lesson.source}  context {context}: {' '.join(toks)}")
    if lesson.mask or lesson.heads:
        click.echo(head_line(lesson, head))
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
    if lesson.heads:
        click.echo("\n" + heads_tables(lesson, context, mode))


def heads_tables(lesson, context: str, mode: str) -> str:
    """Every head's output side by side, and W_O's output (several heads only)."""
    mh = attend_heads(lesson, context, mode)
    toks = list(mh.tokens)
    cols = [f"{h.key}:{c}" for h in lesson.heads for c in dimension_names(lesson, h.d_v, "v")]
    return "\n\n".join([table("heads side by side (concat)", toks, cols, mh.concat),
                         table("multi-head output = concat W_O", toks,
                               list(lesson.model_dim_names("en")), mh.output)])
