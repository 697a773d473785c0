"""Lesson files: TOML a teacher edits, read with tomllib and validated in full.

The file's keys are the field names (vocab, w_q, w_k, w_v, contexts): there is no mapping layer.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import axes, keys, reading
from .errors import Choices, LessonError, TomlReason, near, ph
from .files import MAX_LESSON_BYTES, FileProblem, read_text, shallow_toml, within
from .files import MAX_NESTING as MAX_NESTING  # (re-exported: its home was here)
from .heads import Head, parse_heads, parse_mask
from .language import LANGS, lang_of, parse_lang, sniffed_lang
from .lines import error_line, toml_line
from .magnitudes import check_finite
from .next.tables import (
    Positions,
    Real,
    Tiling,
    Training,
    check_descent,
    parse_positions,
    parse_real,
    parse_tiling,
    parse_training,
)
from .reading import MAX_DIMS, MIN_DIMS

MIN_TOKENS, MAX_TOKENS = 2, 8  # what the scenes can lay out in one frame
DEFAULT = "default"

TOP_KEYS = set(keys.TOP)  # every key, its type, shape, default and meaning: keys.py
NARRATION_KEYS = {"story": "the lesson's own story, told where the overview compares its contexts"}
REQUIRED_TOP = keys.REQUIRED_TOP  # ("vocab", "projections", "contexts")
PROJECTIONS = ("w_q", "w_k", "w_v")
PACKAGED = Path(__file__).parent / "lessons"  # the packaged lessons (importlib.resources imports zipfile)


@dataclass(frozen=True)
class Lesson:
    source: str  # the file it came from, for messages
    vocab: dict[str, np.ndarray]  # token -> [d_model]
    w_q: np.ndarray  # [d_model, d_k]
    w_k: np.ndarray  # [d_model, d_k]
    w_v: np.ndarray  # [d_model, d_v]
    contexts: dict[str, tuple[str, ...]]  # name -> tokens, in file order
    focus: str
    title: dict[str, str] = field(default_factory=dict)  # lang -> title
    author: str = ""  # who made the lesson: the decks' and files' author
    dimensions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # lang -> d_v names
    context_labels: dict[str, dict[str, str]] = field(default_factory=dict)  # context -> lang -> label
    narration: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> NARRATION_KEYS -> line
    geometry: dict[str, tuple[int, int]] = field(default_factory=dict)  # "qk"/"values" -> axes (axes.py)
    mask: str | None = None  # "causal": query i looks at keys j <= i only (heads.py)
    heads: tuple[Head, ...] = ()  # several heads (w_q, w_k, w_v above are the focus head's); () for one
    w_o: np.ndarray | None = None  # [Σ d_v, d_model] the heads' outputs, side by side, back to d_model
    focus_head: str = ""  # the key of the head the step-by-step scenes expand
    lang: str | None = None  # the language it is shown in unless --lang says (language.py); None: not said
    training: Training | None = None  # [training]: W_Q and W_K learn (next/training.py)
    positions: Positions | None = None  # [positions]: sinusoidal or rope (next/positions.py)
    tiling: Tiling | None = None  # [tiling]: the online softmax over blocks of keys (next/tiling.py)
    real: Real | None = None  # [real]: the teacher's sentence through a pretrained model (real/study.py)
    words: str | None = None  # the teacher's words folder (`words = "DIR"`, relative to the file); None: none

    @property
    def d_model(self) -> int:
        return self.w_q.shape[0]

    @property
    def d_k(self) -> int:
        return self.w_q.shape[1]

    @property
    def d_v(self) -> int:
        return self.w_v.shape[1]

    def context(self, name: str | None = None) -> tuple[str, ...]:
        if name is None:
            return next(iter(self.contexts.values()))
        if name not in self.contexts:
            raise LessonError(self.source, "contexts", ph("one_of", items=Choices(self.contexts)),
                              near(name, self.contexts))
        return self.contexts[name]

    def context_name(self, name: str | None = None) -> str:
        self.context(name)
        return name if name is not None else next(iter(self.contexts))

    def projections(self, head: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """W_Q, W_K, W_V of a head (None: the focus head's, the lesson's own with one head)."""
        if head is None or (not self.heads and head == ""):
            return self.w_q, self.w_k, self.w_v
        for h in self.heads:
            if h.key == head:
                return h.w_q, h.w_k, h.w_v
        keys = [h.key for h in self.heads]
        raise LessonError(self.source, "heads", ph("one_of", items=Choices(keys)), near(head, keys))

    def embed(self, tokens: tuple[str, ...]) -> np.ndarray:  # -> [n, d_model]
        return np.stack([self.vocab[t] for t in tokens])

    def context_label(self, name: str, lang: str) -> str:
        """What a context is called on screen in a language: its [context_labels] entry, else its key."""
        return self.context_labels.get(name, {}).get(lang) or name

    def dim_names(self, lang: str) -> tuple[str, ...]:
        """Names of the value dimensions in a language, or v1..vd when the lesson gives none (or names
        the model's dimensions, d_model, and the heads' values have dimensions of their own)."""
        return self.dimensions[lang] if self.names_dims(lang) else tuple(f"v{i + 1}" for i in range(self.d_v))

    def names_dims(self, lang: str) -> bool:
        """Whether the lesson names its value dimensions in this language (else dim_names are v1..vd)."""
        return len(self.dimensions.get(lang, ())) == self.d_v

    def model_dim_names(self, lang: str) -> tuple[str, ...]:
        """Names of the embedding's dimensions (what W_O maps the heads back to), or x1..xd."""
        names = self.dimensions.get(lang, ())
        return names if len(names) == self.d_model else tuple(f"x{i + 1}" for i in range(self.d_model))


def _check_keys(file: str, data: dict) -> None:
    for k in data:
        if k not in TOP_KEYS:
            raise LessonError(file, k, ph("one_of", items=Choices(sorted(TOP_KEYS))),
                              near(k, TOP_KEYS, ph("unknown_key")))
    for k in REQUIRED_TOP:
        if k not in data:
            raise LessonError(file, k, ph("a_table", name=k), ph("nothing"))


def _parse_vocab(file: str, data: dict) -> dict[str, np.ndarray]:
    table = reading.table(file, data, "vocab")
    if len(table) < 1:
        raise LessonError(file, "vocab", ph("at_least_token"), ph("empty_table"))
    vocab, width = {}, None
    for token, row in table.items():
        key = f"vocab.{token}"
        vec = reading.numbers(file, key, row)
        if width is None:
            width = len(vec)
            if not MIN_DIMS <= width <= MAX_DIMS:
                raise LessonError(file, key, ph("d_model_bound", lo=MIN_DIMS, hi=MAX_DIMS),
                                  ph("numbers", n=width))
        elif len(vec) != width:
            first = next(iter(table))
            raise LessonError(file, key, ph("d_model_as", n=width, first=first), ph("numbers", n=len(vec)))
        vocab[token] = np.array(vec)  # [d_model]
    return vocab


def _parse_contexts(file: str, data: dict, vocab: dict) -> dict[str, tuple[str, ...]]:
    table = reading.table(file, data, "contexts")
    if not table:
        raise LessonError(file, "contexts", ph("at_least_context"), ph("empty_table"))
    contexts = {}
    for name, tokens in table.items():
        key = f"contexts.{name}"
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise LessonError(file, key, ph("token_list"), tokens)
        if not tokens:
            raise LessonError(file, key, ph("tokens_range", lo=MIN_TOKENS, hi=MAX_TOKENS),
                              ph("empty_context"))
        if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
            raise LessonError(file, key, ph("tokens_bound", lo=MIN_TOKENS, hi=MAX_TOKENS),
                              ph("n_tokens", n=len(tokens)))
        for i, t in enumerate(tokens):
            if t not in vocab:
                raise LessonError(file, f"{key} token {i + 1}", ph("vocab_token", tokens=Choices(vocab)), t)
        contexts[name] = tuple(tokens)
    return contexts


def _parse_context_labels(file: str, data: dict, contexts: dict) -> dict[str, dict[str, str]]:
    """[context_labels] name = { zh = "...", en = "..." }: what each context is called on screen."""
    return reading.string_tables(file, data, "context_labels", set(contexts), LANGS, '{ zh = "…", en = "…" }',
                          "a_label")


def _parse_narration(file: str, data: dict) -> dict[str, dict[str, str]]:
    """[narration.<lang>] story = "...": lines only the lesson's author can write (its semantics)."""
    return reading.string_tables(file, data, "narration", set(LANGS), tuple(NARRATION_KEYS), 'story = "…"',
                          "narration_line")


def _parse_lang_table(file: str, data: dict, key: str, length: int | None):
    if key not in data:
        return {}
    table = reading.table(file, data, key, set(LANGS))
    out = {}
    for lang, value in table.items():
        k = f"{key}.{lang}"
        if length is None:
            if not isinstance(value, str):
                raise LessonError(file, k, ph("a_string"), value)
            out[lang] = value
        else:
            if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
                raise LessonError(file, k, ph("name_list"), value)
            if len(value) != length:
                raise LessonError(file, k, ph("names_dv", n=length), ph("n_names", n=len(value)))
            out[lang] = tuple(value)
    return out


def _parse_projections(file: str, data: dict, d_model: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V: d_model rows each, W_K as many columns as W_Q (d_k)."""
    proj = reading.table(file, data, "projections", set(PROJECTIONS))
    for name in PROJECTIONS:
        if name not in proj:
            raise LessonError(file, f"projections.{name}", ph("a_matrix"), ph("nothing"))
    w_q, w_k, w_v = (
        reading.matrix(file, f"projections.{name}", proj[name], d_model) for name in PROJECTIONS
    )
    if w_k.shape[1] != w_q.shape[1]:
        raise LessonError(file, "projections.w_k", ph("columns_as_wq", n=w_q.shape[1]),
                          ph("n_columns", n=w_k.shape[1]))
    return w_q, w_k, w_v


def _parse_geometry(file: str, data: dict, d_k: int, d_v: int, dims: dict) -> dict[str, tuple[int, int]]:
    if "geometry" not in data:
        return {}
    named = {lang: names for lang, names in dims.items() if len(names) == d_v}  # the values' names
    return axes.parse(file, reading.table(file, data, "geometry", set(axes.KEYS)), d_k, d_v, named)


def _parse_focus(file: str, data: dict, contexts: dict) -> str:
    """The focus token: written, or the first context's last; in every context."""
    focus = data.get("focus", next(iter(contexts.values()))[-1])
    if not isinstance(focus, str):
        raise LessonError(file, "focus", ph("token_string"), focus)
    for name, tokens in contexts.items():
        if focus not in tokens:  # no focus written: the context that lacks the default one is to blame
            raise LessonError(file, "focus" if "focus" in data else f"contexts.{name}",
                              ph("focus_everywhere", name=name, tokens=list(tokens)), focus)
    return focus


def _parse_weights(file: str, data: dict, d_model: int) -> dict:
    """The projections: the lesson's W_Q, W_K, W_V (with several heads: the focus head's), the heads
    and W_O."""
    heads, w_o, focus_head = parse_heads(file, data, d_model)
    if heads:  # the step-by-step scenes expand the focus head: its projections are the lesson's
        head = next(h for h in heads if h.key == focus_head)
        w_q, w_k, w_v = head.w_q, head.w_k, head.w_v
    else:
        w_q, w_k, w_v = _parse_projections(file, data, d_model)
    return {"w_q": w_q, "w_k": w_k, "w_v": w_v, "heads": heads, "w_o": w_o, "focus_head": focus_head}


def _parse_words(file: str, data: dict) -> str | None:
    """`words = "DIR"`: the folder of the teacher's own words, resolved against the lesson file's folder
    (whether it is there is the command's to say: a worker reads the file's text far from it)."""
    if "words" not in data:
        return None
    value = data["words"]
    if not isinstance(value, str) or not value.strip():
        raise LessonError(file, "words", ph("words_folder"), value)
    return str((Path(file).parent / value).resolve()) if not file.startswith("<") else value


def parse(data: dict, file: str = "<lesson>") -> Lesson:
    """Validate parsed TOML and build a Lesson; raise LessonError on the first problem."""
    _check_keys(file, data)
    vocab = _parse_vocab(file, data)
    d_model = len(next(iter(vocab.values())))
    weights = _parse_weights(file, data, d_model)
    contexts = _parse_contexts(file, data, vocab)
    d_k, d_v = weights["w_q"].shape[1], weights["w_v"].shape[1]
    dims = _parse_lang_table(file, data, "dimensions", d_model if weights["heads"] else d_v)
    focus, mask = _parse_focus(file, data, contexts), parse_mask(file, data)
    lesson = Lesson(
        source=file,
        vocab=vocab,
        contexts=contexts,
        focus=focus,
        title=_parse_lang_table(file, data, "title", None),
        author=reading.string(file, data, "author"),
        dimensions=dims,
        context_labels=_parse_context_labels(file, data, contexts),
        narration=_parse_narration(file, data),
        geometry=_parse_geometry(file, data, d_k, d_v, dims),
        mask=mask,
        lang=parse_lang(file, data),
        training=parse_training(file, data, contexts, focus, mask),
        positions=parse_positions(file, data, d_k),
        tiling=parse_tiling(file, data),
        real=parse_real(file, data),
        words=_parse_words(file, data),
        **weights,
    )
    check_finite(lesson)
    check_descent(lesson)
    return lesson


def resolve(name_or_path: str | Path | None) -> Path:
    """A packaged lesson name (e.g. 'default') or a file path -> the file's path."""
    if name_or_path is None:
        name_or_path = DEFAULT
    p = Path(name_or_path)
    if p.suffix != ".toml" and not p.exists():
        packaged = PACKAGED / f"{name_or_path}.toml"
        if packaged.is_file():
            return packaged
    return p


def packaged_lessons() -> list[str]:
    folder = PACKAGED
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def _toml_error(file: str, text: str, message: str) -> LessonError:
    """tomllib's message as a LessonError: its reason, its line, column and the line's text
    ("Unterminated string (column 9): focus = "bank")."""
    line = toml_line(text, message)
    reason = TomlReason(re.sub(r" \(at (line \d+, column \d+|end of document)\)$", "", message))
    column = re.search(r"column (\d+)\)$", message)
    lines = text.splitlines()
    if column and line is not None and 1 <= line <= len(lines):
        shown = lines[line - 1].strip()
        shown = shown if len(shown) <= 80 else shown[:79] + "…"
        found = ph("toml_at", reason=reason, column=int(column.group(1)), text=shown)
    else:
        found = ph("toml_at_end", reason=reason)
    return LessonError(file, "", ph("valid_toml"), found, line)


def _toml(text: str, file: str) -> dict:
    """The text's TOML, read only when it is at most MAX_LESSON_BYTES (as a lesson file is) and its arrays
    and tables nest at most MAX_NESTING deep."""
    try:
        return shallow_toml(within(text, MAX_LESSON_BYTES))
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(file, text, str(e)) from None
    except FileProblem as p:
        raise LessonError(file, "", p.expected, p.found, p.line) from None


def loads(text: str, file: str = "<lesson>") -> Lesson:
    """A lesson from the text of a lesson file (an editor's buffer): LessonError as `load` gives, with the
    line of the text it points at (`e.line`, in every message: `FILE:LINE: ...`) and the language the
    text declares, if it could be read that far (`e.declared`: the language its message is said in)."""
    data = None
    try:
        data = _toml(text, file)
        return parse(data, file)
    except LessonError as e:
        e.line = error_line(text, e)
        e.declared = lang_of(data) if data is not None else sniffed_lang(text)
        raise


def _read(path: Path) -> str:
    """The text of a lesson file; LessonError if there is no such file, it cannot be read, it is no
    regular file (a folder, a device, a pipe), it is larger than MAX_LESSON_BYTES or it is not UTF-8."""
    try:
        return read_text(path, MAX_LESSON_BYTES)
    except FileNotFoundError:
        raise LessonError(str(path), "", ph("lesson_file", names=Choices(packaged_lessons())),
                          ph("no_such_file")) from None
    except FileProblem as p:
        raise LessonError(str(path), "", p.expected, p.found) from None


def load(name_or_path: str | Path | None = None) -> Lesson:
    """Load and validate a lesson file: the core's front door.

    Parameters
    ----------
    name_or_path : str, Path or None
        A packaged lesson's name ("default") or the path of a .toml file; None: "default".

    Returns
    -------
    Lesson
        Its vocabulary, contexts, focus token, projections and words, checked.

    Raises
    ------
    LessonError
        The first problem, as `FILE:LINE: key: expected ..., found ...`.

    Examples
    --------
    >>> lesson = load("default")
    >>> lesson.focus, list(lesson.contexts), (lesson.d_model, lesson.d_k, lesson.d_v)
    ('bank', ['river', 'savings'], (4, 4, 4))
    """
    path = resolve(name_or_path)
    return loads(_read(path), str(path))
