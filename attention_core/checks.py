"""What `check` warns of in a lesson that passes: a shared largest weight for the focus (the hard lookup
then picks one of several), intermediates too large to follow (`magnitudes.py`), and words the lesson
gives in another language but not in the one it is shown in (every command that renders says that one
too). Each a `LessonWarning` with the line of the text it is about, its words in any language
(`message(lang)`)."""

from __future__ import annotations

import numpy as np

from .attention import attend
from .diagnostics import focus_ties
from .errors import Choices, LessonWarning, ph
from .lines import locate
from .magnitudes import NAMES, SCIENTIFIC_FROM, blame, scientific


def ties(lesson) -> list[LessonWarning]:
    """One warning a context whose focus's largest weight is shared."""
    return [LessonWarning(lesson.source, "focus", ph("tie", context=name, focus=lesson.focus,
                                                    tied=Choices(tied), first=tied[0]))
            for name, tied in focus_ties(lesson).items()]


def _largest(m: np.ndarray) -> tuple[tuple[int, int], float]:
    """The position of a matrix's largest |entry| and that entry."""
    at = np.unravel_index(int(np.abs(m).argmax()), m.shape)
    return (int(at[0]), int(at[1])), float(m[at])


def large_values(lesson) -> list[LessonWarning]:
    """A warning for a vocabulary entry or a projection holding a number from SCIENTIFIC_FROM on (the
    scenes show X, W_Q, W_K, W_V whole), and one a context whose largest intermediate (X, Q, K, V, the
    scores, the output: every mode's softmax input is at most the raw scores) reaches it: which one, how
    large, at the line of the number most to blame (`magnitudes.blame`)."""
    why = ph("large_why", bound=scientific(SCIENTIFIC_FROM, 0))
    out = []
    for token, row in lesson.vocab.items():  # a vocabulary entry of its own: X shows it whole
        value = float(row[int(np.abs(row).argmax())])
        if abs(value) >= SCIENTIFIC_FROM:
            out.append(LessonWarning(lesson.source, f"vocab.{token}", ph(
                "large_matrix", what=f"vocab.{token}", value=scientific(value, 2), why=why)))
    for name in ("w_q", "w_k", "w_v"):
        (row, _), value = _largest(getattr(lesson, name))
        if abs(value) >= SCIENTIFIC_FROM:
            out.append(LessonWarning(lesson.source, f"projections.{name} row {row + 1}", ph(
                "large_matrix", what=f"projections.{name}", value=scientific(value, 2), why=why)))
    for name in lesson.contexts:
        att = attend(lesson, name, "unscaled")
        what = max(NAMES, key=lambda w: float(np.abs(getattr(att, w)).max()))
        at, value = _largest(getattr(att, what))
        if abs(value) >= SCIENTIFIC_FROM:
            out.append(LessonWarning(lesson.source, blame(lesson, what, att.tokens, at), ph(
                "large", context=name, what=ph(what), value=scientific(value, 2), why=why)))
    return out


def language_gaps(lesson, lang: str, text: str | None = None) -> list[LessonWarning]:
    """One warning, at the first of them, naming every key that gives the lesson's words in another
    language but not in `lang` (its title, its dimensions' names, a context's label, its story, a head's
    name): shown in `lang`, the lesson falls back on generic ones (the catalog's title, v1 v2..., the
    context's key, the head's key) and leaves its story out. None when nothing lacks `lang`."""
    given = [("title", lesson.title), ("dimensions", lesson.dimensions),
             *((f"context_labels.{name}", said) for name, said in lesson.context_labels.items()),
             ("narration", lesson.narration), *((f"heads.{h.key}", h.names) for h in lesson.heads)]
    missing = [key for key, said in given if said and lang not in said]
    if not missing:
        return []
    lacking = [set(said) for key, said in given if key in missing]
    has, every = sorted(set().union(*lacking)), set.intersection(*lacking)  # every: one that has them all
    choose = next((la for la in has if la in every), has[0])
    found = [LessonWarning(lesson.source, missing[0],
                           ph("no_words", language=lang, keys=Choices(missing), other=Choices(has),
                              choose=choose))]
    return found if text is None else [w._replace(line=locate(text, w.key)) for w in found]


def descents(lesson) -> list[LessonWarning]:
    """One warning a context whose [training] loss rises or barely moves (attention_core.claims): the
    learning scene's point, that the projections learn, falls apart there; at the learning rate's line."""
    from .claims import Facts
    from .magnitudes import scientific

    out = []
    for name in lesson.contexts if lesson.training is not None else ():
        facts = Facts(lesson, name)
        said = "descent_rises" if facts("loss_rises") else "descent_flat" if facts("loss_flat") else None
        if said is not None:
            first, last = facts.run.steps[0].loss, facts.run.steps[-1].loss
            words = [scientific(v, 2) or f"{v:.3g}" for v in (first, last)]
            out.append(LessonWarning(lesson.source, "training.learning_rate",
                                     ph(said, context=name, first=words[0], last=words[1])))
    return out


def lesson_warnings(lesson, text: str | None = None, lang: str | None = None) -> list[LessonWarning]:
    """Every warning about a lesson that passed, in order (with `lang`, the words it lacks in that
    language too); with the lesson's text, each with its line."""
    found = [*ties(lesson), *large_values(lesson), *descents(lesson),
             *(language_gaps(lesson, lang) if lang else [])]
    if text is None:
        return found
    return [w._replace(line=locate(text, w.key)) for w in found]
