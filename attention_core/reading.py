"""Reading a lesson file's values: numbers, matrices, tables and strings, each checked as it is read
and blamed on its key (`LessonError`: "projections.w_q row 4 number 2: expected a number"). The lesson's
own keys and what they mean are in lesson.py (one head), heads.py's reader (several) and axes.py."""

from __future__ import annotations

import math

import numpy as np

from .errors import Choices, LessonError, Ordinals, near, ph

MIN_DIMS, MAX_DIMS = 2, 8


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def found(x):
    """What was found: the value, or a hint when a number was written in quotes."""
    if isinstance(x, str):
        try:
            float(x)
        except ValueError:
            return x
        return ph("quoted_number", text=repr(x))
    return x


def numbers(file: str, key: str, row) -> list[float]:
    """A list of finite numbers; positions in messages count from 1 (`number 2`)."""
    if not isinstance(row, list):
        raise LessonError(file, key, ph("list_of_numbers"), row)
    for i, x in enumerate(row):
        if not is_number(x):
            raise LessonError(file, f"{key} number {i + 1}", ph("a_number"), found(x))
        if not math.isfinite(x):
            raise LessonError(file, f"{key} number {i + 1}", ph("finite_number"), x)
    return [float(x) for x in row]


def _odd_row(widths: list[int]) -> tuple[int | None, int]:
    """The first row whose length differs from the usual one (the most common length; a tie: the
    earlier row's, so the later row is blamed), None when all rows agree; and the usual length."""
    counts = {w: widths.count(w) for w in widths}
    usual = max(counts, key=lambda w: (counts[w], -widths.index(w)))
    odd = [i for i, w in enumerate(widths) if w != usual]
    return (odd[0] if odd else None), usual


def matrix(file: str, key: str, value, rows: int, per: str = "rows_per_dimension") -> np.ndarray:
    """A list of `rows` rows of equal length (`per`: what the rows stand for, a phrase); rows in
    messages count from 1 (`row 2`)."""
    if not isinstance(value, list) or not value:
        raise LessonError(file, key, ph("matrix_of_rows", n=rows), value)
    if len(value) != rows:
        raise LessonError(file, key, ph(per, n=rows), ph("n_rows", n=len(value)))
    data = [numbers(file, f"{key} row {i + 1}", row) for i, row in enumerate(value)]
    widths = [len(r) for r in data]
    odd, usual = _odd_row(widths)
    if odd is not None:
        others = Ordinals(i + 1 for i, w in enumerate(widths) if w == usual)  # the rows it should be like
        like = ph("rows", n=len(others), list=others)
        raise LessonError(file, f"{key} row {odd + 1}",
                          ph("numbers_like", numbers=ph("numbers", n=usual), rows=like),
                          ph("numbers", n=widths[odd]))
    width = widths[0]
    if not MIN_DIMS <= width <= MAX_DIMS:
        raise LessonError(file, key, ph("columns_bound", lo=MIN_DIMS, hi=MAX_DIMS), ph("n_columns", n=width))
    return np.array(data)  # [rows, width]


def table(file: str, data: dict, key: str, allowed: set[str] | None = None) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise LessonError(file, key, ph("a_table", name=key), ph("nothing") if value is None else value)
    if allowed is not None:
        for k in value:
            if k not in allowed:
                raise LessonError(file, f"{key}.{k}", ph("one_of", items=Choices(sorted(allowed))),
                                  near(k, allowed))
    return value


def string_tables(file: str, data: dict, key: str, outer: set[str], inner: tuple[str, ...],
                   example: str, what: str) -> dict[str, dict[str, str]]:
    """[key] name = { part = "..." }: names from `outer`, parts from `inner`, every text non-empty."""
    if key not in data:
        return {}
    out = {}
    for name, value in table(file, data, key, outer).items():
        where = f"{key}.{name}"
        if not isinstance(value, dict):
            raise LessonError(file, where, ph("table_like", example=example), value)
        for part, text in value.items():
            if part not in inner:
                raise LessonError(file, f"{where}.{part}", ph("one_of", items=Choices(inner)),
                                  near(part, inner))
            if not isinstance(text, str) or not text.strip():
                raise LessonError(file, f"{where}.{part}", ph(what), text)
        out[name] = dict(value)
    return out


def string(file: str, data: dict, key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise LessonError(file, key, ph("quoted_string"), value)
    return value
