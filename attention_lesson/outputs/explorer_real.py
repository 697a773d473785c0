"""The explorer's real-model box (web/explorer-real.js): for a lesson with a [real] table, the model is run
once, when the page is built (attention_core/real/study.py, the real scene's own pass), and the page gets
its tokens and every layer's and head's weights, rounded to PLACES decimals, with the focus token, the
head it starts on (RealStudy.start_head) and how many heads choose each word; the page only draws them,
offline. Without the [real] extra the box says in one line what to install (result.model_missing), as the
real scene does.

The weights go in as text, a head's rows one string ("0.0123 0.4567 …;…"): data.js is written with an
indent, and a list would put each of the 12 × 12 × n × n numbers on a line of its own."""

from __future__ import annotations

import numpy as np

from attention_core import Lesson

PLACES = 4  # the weights' decimals on the page (a row sums to 1 within n × 0.00005)


def head_text(rows: np.ndarray) -> str:
    """A head's [n, n] weights as the page reads them: rows split by ";", numbers by spaces."""
    return ";".join(" ".join(f"{x:.{PLACES}f}" for x in row) for row in rows)


def real_inputs(args) -> dict | None:
    """What the page's real box depends on besides the lesson and the code (the explorer product's
    `inputs`): for a lesson with [real], its model's package and whether it is installed, with its version
    (a page built without the [real] extra is stale once it is installed); None without [real]."""
    lesson = args.lesson()
    if lesson.real is None:
        return None
    from importlib.metadata import PackageNotFoundError, version

    from attention_core.real import result

    package = result.PACKAGES[lesson.real.model]
    try:
        installed = version(package)
    except PackageNotFoundError:
        installed = None
    return {"model": lesson.real.model, "missing": result.model_missing(lesson.real.model),
            "package": package, "version": installed}


def real_data(lesson: Lesson) -> dict:
    """{"real": ...} for a lesson with [real] (the model's numbers, or the line that says what to
    install), else {} (the page has no such box)."""
    if lesson.real is None:
        return {}
    from attention_core.real.result import model_missing

    missing = model_missing(lesson.real.model)
    if missing:
        return {"real": {"missing": missing}}
    from attention_core.real.study import study

    s = study(lesson.real, str(lesson.source))
    att = s.att
    layer, head = s.start_head
    return {"real": {
        "model": att.model, "sentence": att.sentence, "tokens": list(att.tokens),
        "words": [s.label(i) for i in range(len(att.tokens))], "special": list(att.special),
        "focus": s.focus, "expect": s.expect, "layers": att.layers, "heads": att.heads,
        "start": {"layer": layer, "head": head}, "counts": [[w, n] for w, n in s.counts],
        "places": PLACES, "weights": [[head_text(att.weights[li, h]) for h in range(att.heads)]
                                      for li in range(att.layers)]}}
