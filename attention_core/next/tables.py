"""The lessons the lesson points to: projections that learn, positions, attention in tiles, read from the
same lesson file (each table optional; a file without them is the lesson it always was).

    [training]                 # gradient descent on W_Q and W_K (W_V fixed) of -log w(query -> target)
    query = "bank"             # a token of every context (default: the focus)
    target = "river"           # a token of every context: the key the query should attend to
    learning_rate = 0.5        # a positive number (default 0.5)
    steps = 8                  # 1 to 40 steps (default 8)

    [positions]                # where each token is: added to X, or turning Q and K
    kind = "sinusoidal"        # or "rope" (rotates each pair of Q's and K's columns; d_k even)
    base = 10000               # the wavelengths' base, a number above 1 (default 10000)

    [tiling]                   # the softmax over blocks of keys, never the n x n matrix at once
    block = 2                  # keys per block, 1 to 8 (default 2)

    [real]                     # the teacher's own sentence through a pretrained model (the [real] extra)
    sentence = "河岸边的银行旁有一条河。"  # 1 to 60 characters
    focus = "银行"             # a part of the sentence: the token the real scene follows
    expect = "河"              # a part of the sentence: the key the toy lesson picks (optional)
    model = "e5"               # multilingual-e5-small (default "e5", the one model drawn so far)

training.py, positions.py and tiling.py compute with what this reads; real/study.py runs [real]'s model
(only then are focus and expect checked against the tokens as the model cuts the sentence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import reading
from ..errors import Choices, LessonError, ph
from .training import train  # numpy only: the reader may check a descent

POSITION_KINDS = ("sinusoidal", "rope")
MAX_STEPS, MAX_BLOCK = 40, 8
REAL_MODELS = ("e5", "smollm2")  # what the real scene draws: an encoder, and a causal model (SmolLM2-135M)
MAX_SENTENCE = 60  # characters: the scene lays its tokens out in a few rows


@dataclass(frozen=True)
class Training:
    query: str  # the token whose query learns
    target: str  # the key it should attend to
    learning_rate: float
    steps: int


@dataclass(frozen=True)
class Positions:
    kind: str  # "sinusoidal" | "rope"
    base: float


@dataclass(frozen=True)
class Tiling:
    block: int  # keys per block


@dataclass(frozen=True)
class Real:
    sentence: str  # the teacher's own sentence, as the model reads it
    focus: str  # a part of it: the token the real scene follows
    model: str  # "e5" | "smollm2" (causal: the sentence is a prompt, the scene shows the next token)
    expect: str | None = None  # a part of it: the key the toy lesson picks, counted across the heads


def _number(file: str, key: str, value, low: float, what: str) -> float:
    """A finite number above `low` (`what`: the phrase for what is expected)."""
    if not reading.is_number(value):
        raise LessonError(file, key, ph("a_number"), reading.found(value))
    if not math.isfinite(value) or value <= low:
        raise LessonError(file, key, ph(what), value)
    return float(value)


def _integer(file: str, key: str, value, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= hi:
        raise LessonError(file, key, ph("whole_number", lo=1, hi=hi), reading.found(value))
    return value


def _token(file: str, key: str, value, contexts: dict) -> str:
    if not isinstance(value, str):
        raise LessonError(file, key, ph("token_string"), value)
    for name, tokens in contexts.items():
        if value not in tokens:
            raise LessonError(file, key, ph("focus_everywhere", name=name, tokens=list(tokens)), value)
    return value


def _check_visible(file: str, training: Training, contexts: dict) -> None:
    """Under a causal mask the target must come before the query (or be it) in every context."""
    for name, tokens in contexts.items():
        if tokens.index(training.target) > tokens.index(training.query):
            raise LessonError(file, "training.target", ph("target_visible", name=name), training.target)


def parse_training(file: str, data: dict, contexts: dict, focus: str, mask: str | None) -> Training | None:
    if "training" not in data:
        return None
    table = reading.table(file, data, "training", {"query", "target", "learning_rate", "steps"})
    if "target" not in table:
        raise LessonError(file, "training.target", ph("token_string"), ph("nothing"))
    training = Training(
        query=_token(file, "training.query", table.get("query", focus), contexts),
        target=_token(file, "training.target", table["target"], contexts),
        learning_rate=_number(file, "training.learning_rate", table.get("learning_rate", 0.5), 0.0,
                              "positive_number"),
        steps=_integer(file, "training.steps", table.get("steps", 8), MAX_STEPS),
    )
    if mask == "causal":
        _check_visible(file, training, contexts)
    return training


def parse_positions(file: str, data: dict, d_k: int) -> Positions | None:
    if "positions" not in data:
        return None
    table = reading.table(file, data, "positions", {"kind", "base"})
    kind = table.get("kind", "sinusoidal")
    if kind not in POSITION_KINDS:
        raise LessonError(file, "positions.kind", ph("one_of", items=Choices(POSITION_KINDS)), kind)
    if kind == "rope" and d_k % 2:
        raise LessonError(file, "positions.kind", ph("rope_even"), ph("n_columns", n=d_k))
    return Positions(kind, _number(file, "positions.base", table.get("base", 10000), 1.0, "base_above_one"))


def parse_tiling(file: str, data: dict) -> Tiling | None:
    if "tiling" not in data:
        return None
    table = reading.table(file, data, "tiling", {"block"})
    return Tiling(_integer(file, "tiling.block", table.get("block", 2), MAX_BLOCK))


def check_descent(lesson) -> None:
    """LessonError when the gradient descent of [training] leaves the finite numbers in some context (a
    learning rate so large that the weights blow up): blamed on the learning rate."""
    if lesson.training is None:
        return

    for name in lesson.contexts:
        for scale in (1 / np.sqrt(lesson.d_k), 1.0):  # scaled, and unscaled (the largest scores)
            with np.errstate(all="ignore"):  # an overflow is what is looked for, not worth a warning
                last = train(lesson, name, scale).steps[-1]
            if not all(np.all(np.isfinite(a)) for a in (last.loss, last.w_q, last.w_k, last.weights)):
                raise LessonError(lesson.source, "training.learning_rate",
                                  ph("finite_result", what=ph("descent")), ph("diverged", context=name))


def _part(file: str, key: str, value, sentence: str) -> str:
    """A non-empty part of the sentence (whether the model cuts it as one token is known when it runs)."""
    if not isinstance(value, str) or not value.strip() or value not in sentence:
        raise LessonError(file, key, ph("a_real_part", sentence=sentence), ph("nothing") if value is None
                          else value)
    return value


def parse_real(file: str, data: dict) -> Real | None:
    """[real]: read and checked without the model (the core parses where the [real] extra is missing)."""
    if "real" not in data:
        return None
    table = reading.table(file, data, "real", {"sentence", "focus", "model", "expect"})
    sentence = table.get("sentence")
    if not isinstance(sentence, str) or not sentence.strip() or len(sentence) > MAX_SENTENCE:
        raise LessonError(file, "real.sentence", ph("a_real_sentence", hi=MAX_SENTENCE),
                          ph("nothing") if sentence is None else reading.found(sentence))
    model = table.get("model", REAL_MODELS[0])
    if model not in REAL_MODELS:
        raise LessonError(file, "real.model", ph("a_real_model", items=Choices(REAL_MODELS)), model)
    expect, focus = table.get("expect"), _part(file, "real.focus", table.get("focus"), sentence)
    expect = None if expect is None else _part(file, "real.expect", expect, sentence)
    if model == "smollm2" and expect is not None and sentence.find(expect) >= sentence.rfind(focus):
        raise LessonError(file, "real.expect", ph("a_real_earlier", focus=focus), expect)  # unseen: masked
    return Real(sentence, focus, model, expect)
