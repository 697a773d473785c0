"""Lesson files: TOML a teacher edits, read with tomllib and validated in full.

The file's keys are the field names (vocab, w_q, w_k, w_v, contexts): there is no mapping layer.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

MIN_TOKENS, MAX_TOKENS = 2, 8  # what the scenes can lay out in one frame
MIN_DIMS, MAX_DIMS = 2, 8
LANGS = ("zh", "en")
DEFAULT = "default"

TOP_KEYS = {"focus", "title", "author", "dimensions", "vocab", "projections", "contexts",
            "context_labels", "narration"}
NARRATION_KEYS = {"story": "the lesson's own story, told where the overview compares its contexts"}
REQUIRED_TOP = ("vocab", "projections", "contexts")
PROJECTIONS = ("w_q", "w_k", "w_v")


class LessonError(ValueError):
    """A lesson file that cannot be used: names the file, the key, what was expected and found."""

    def __init__(self, file: str, key: str, expected: str, found: str | None = None):
        self.file, self.key, self.expected, self.found = file, key, expected, found
        where = f"{file}: {key}" if key else file
        msg = f"{where}: expected {expected}"
        if found is not None:
            msg += f", found {found}"
        super().__init__(msg)


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
            raise LessonError(
                self.source, "contexts", f"one of {', '.join(self.contexts)}", repr(name)
            )
        return self.contexts[name]

    def context_name(self, name: str | None = None) -> str:
        self.context(name)
        return name if name is not None else next(iter(self.contexts))

    def embed(self, tokens: tuple[str, ...]) -> np.ndarray:  # -> [n, d_model]
        return np.stack([self.vocab[t] for t in tokens])

    def context_label(self, name: str, lang: str) -> str:
        """What a context is called on screen in a language: its [context_labels] entry, else its key."""
        return self.context_labels.get(name, {}).get(lang) or name

    def dim_names(self, lang: str) -> tuple[str, ...]:
        """Names of the value dimensions in a language, or v1..vd when the lesson gives none."""
        return self.dimensions.get(lang) or tuple(f"v{i + 1}" for i in range(self.d_v))


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _ordinals(items: list[int]) -> str:
    """1-based positions for a message: "2", "2 and 4", "2–4"."""
    items = [i + 1 for i in items]
    if len(items) > 2 and items == list(range(items[0], items[-1] + 1)):
        return f"{items[0]}–{items[-1]}"
    if len(items) == 1:
        return str(items[0])
    return ", ".join(map(str, items[:-1])) + f" and {items[-1]}"


def _found(x) -> str:
    """What was found, with a hint when a number was written in quotes."""
    if isinstance(x, str):
        try:
            float(x)
        except ValueError:
            return repr(x)
        return f"the text {x!r} (write numbers without quotes)"
    return repr(x)


def _numbers(file: str, key: str, row) -> list[float]:
    """A list of finite numbers; positions in messages count from 1 (`number 2`)."""
    if not isinstance(row, list):
        raise LessonError(file, key, "a list of numbers", f"{type(row).__name__} {row!r}")
    for i, x in enumerate(row):
        if not _is_number(x):
            raise LessonError(file, f"{key} number {i + 1}", "a number", _found(x))
        if not math.isfinite(x):
            raise LessonError(file, f"{key} number {i + 1}", "a finite number", repr(x))
    return [float(x) for x in row]


def _odd_row(widths: list[int]) -> int | None:
    """The row whose length differs from the others' (the most common length wins; a tie blames the
    later row): None when all rows agree."""
    counts = {w: widths.count(w) for w in widths}
    usual = max(counts, key=lambda w: (counts[w], -widths.index(w)))
    odd = [i for i, w in enumerate(widths) if w != usual]
    return odd[0] if odd else None


def _matrix(file: str, key: str, value, rows: int) -> np.ndarray:
    """A list of `rows` rows of equal length; rows in messages count from 1 (`row 2`)."""
    if not isinstance(value, list) or not value:
        raise LessonError(file, key, f"a matrix (a list of {rows} rows)", repr(value))
    if len(value) != rows:
        raise LessonError(file, key, f"{rows} rows (one per embedding dimension, d_model)",
                          f"{len(value)} rows")
    data = [_numbers(file, f"{key} row {i + 1}", row) for i, row in enumerate(value)]
    widths = [len(r) for r in data]
    odd = _odd_row(widths)
    if odd is not None:
        others = [i for i in range(len(data)) if i != odd]
        raise LessonError(
            file, f"{key} row {odd + 1}",
            f"{widths[others[0]]} numbers like row{'s' if len(others) > 1 else ''} {_ordinals(others)}",
            f"{widths[odd]} numbers",
        )
    width = widths[0]
    if not MIN_DIMS <= width <= MAX_DIMS:
        raise LessonError(
            file, key, f"{MIN_DIMS} to {MAX_DIMS} columns (the scenes' layout bound)", f"{width}"
        )
    return np.array(data)  # [rows, width]


def _table(file: str, data: dict, key: str, allowed: set[str] | None = None) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        found = "nothing" if value is None else f"{type(value).__name__} {value!r}"
        raise LessonError(file, key, "a table [" + key + "]", found)
    if allowed is not None:
        for k in value:
            if k not in allowed:
                raise LessonError(file, f"{key}.{k}", f"one of {', '.join(sorted(allowed))}", repr(k))
    return value


def _check_keys(file: str, data: dict) -> None:
    for k in data:
        if k not in TOP_KEYS:
            raise LessonError(file, k, f"one of {', '.join(sorted(TOP_KEYS))}", "an unknown key")
    for k in REQUIRED_TOP:
        if k not in data:
            raise LessonError(file, k, f"a table [{k}]", "nothing")


def _parse_vocab(file: str, data: dict) -> dict[str, np.ndarray]:
    table = _table(file, data, "vocab")
    if len(table) < 1:
        raise LessonError(file, "vocab", "at least one token", "an empty table")
    vocab, width = {}, None
    for token, row in table.items():
        key = f"vocab.{token}"
        vec = _numbers(file, key, row)
        if width is None:
            width = len(vec)
            if not MIN_DIMS <= width <= MAX_DIMS:
                raise LessonError(
                    file, key, f"{MIN_DIMS} to {MAX_DIMS} numbers (d_model, the layout bound)", f"{width}"
                )
        elif len(vec) != width:
            first = next(iter(table))
            raise LessonError(
                file, key, f"{width} numbers (d_model, as vocab.{first})", f"{len(vec)}"
            )
        vocab[token] = np.array(vec)  # [d_model]
    return vocab


def _parse_contexts(file: str, data: dict, vocab: dict) -> dict[str, tuple[str, ...]]:
    table = _table(file, data, "contexts")
    if not table:
        raise LessonError(file, "contexts", "at least one context", "an empty table")
    contexts = {}
    for name, tokens in table.items():
        key = f"contexts.{name}"
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise LessonError(file, key, "a list of token strings", repr(tokens))
        if not tokens:
            raise LessonError(file, key, f"{MIN_TOKENS} to {MAX_TOKENS} tokens", "an empty context")
        if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
            raise LessonError(
                file, key, f"{MIN_TOKENS} to {MAX_TOKENS} tokens (the scenes' layout bound)",
                f"{len(tokens)}",
            )
        for i, t in enumerate(tokens):
            if t not in vocab:
                raise LessonError(
                    file, f"{key} token {i + 1}", f"a token of [vocab] ({', '.join(vocab)})", repr(t)
                )
        contexts[name] = tuple(tokens)
    return contexts


def _string_tables(file: str, data: dict, key: str, outer: set[str], inner: tuple[str, ...],
                   example: str, what: str) -> dict[str, dict[str, str]]:
    """[key] name = { part = "..." }: names from `outer`, parts from `inner`, every text non-empty."""
    if key not in data:
        return {}
    out = {}
    for name, value in _table(file, data, key, outer).items():
        where = f"{key}.{name}"
        if not isinstance(value, dict):
            raise LessonError(file, where, f"a table like {example}", repr(value))
        for part, text in value.items():
            if part not in inner:
                raise LessonError(file, f"{where}.{part}", f"one of {', '.join(inner)}", repr(part))
            if not isinstance(text, str) or not text.strip():
                raise LessonError(file, f"{where}.{part}", f"{what} (a non-empty string)", repr(text))
        out[name] = dict(value)
    return out


def _parse_context_labels(file: str, data: dict, contexts: dict) -> dict[str, dict[str, str]]:
    """[context_labels] name = { zh = "...", en = "..." }: what each context is called on screen."""
    return _string_tables(file, data, "context_labels", set(contexts), LANGS, '{ zh = "…", en = "…" }',
                          "a label")


def _parse_narration(file: str, data: dict) -> dict[str, dict[str, str]]:
    """[narration.<lang>] story = "...": lines only the lesson's author can write (its semantics)."""
    return _string_tables(file, data, "narration", set(LANGS), tuple(NARRATION_KEYS), 'story = "…"',
                          "a line of narration")


def _string(file: str, data: dict, key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise LessonError(file, key, "a string (in quotes)", repr(value))
    return value


def _parse_lang_table(file: str, data: dict, key: str, length: int | None):
    if key not in data:
        return {}
    table = _table(file, data, key, set(LANGS))
    out = {}
    for lang, value in table.items():
        k = f"{key}.{lang}"
        if length is None:
            if not isinstance(value, str):
                raise LessonError(file, k, "a string", repr(value))
            out[lang] = value
        else:
            if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
                raise LessonError(file, k, "a list of names", repr(value))
            if len(value) != length:
                raise LessonError(file, k, f"{length} names (d_v)", f"{len(value)}")
            out[lang] = tuple(value)
    return out


def _parse_projections(file: str, data: dict, d_model: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V: d_model rows each, W_K as many columns as W_Q (d_k)."""
    proj = _table(file, data, "projections", set(PROJECTIONS))
    for name in PROJECTIONS:
        if name not in proj:
            raise LessonError(file, f"projections.{name}", "a matrix", "nothing")
    w_q, w_k, w_v = (
        _matrix(file, f"projections.{name}", proj[name], d_model) for name in PROJECTIONS
    )
    if w_k.shape[1] != w_q.shape[1]:
        raise LessonError(
            file, "projections.w_k", f"{w_q.shape[1]} columns (d_k, as w_q)", f"{w_k.shape[1]}"
        )
    return w_q, w_k, w_v


def parse(data: dict, file: str = "<lesson>") -> Lesson:
    """Validate parsed TOML and build a Lesson; raise LessonError on the first problem."""
    _check_keys(file, data)
    vocab = _parse_vocab(file, data)
    d_model = len(next(iter(vocab.values())))
    w_q, w_k, w_v = _parse_projections(file, data, d_model)
    contexts = _parse_contexts(file, data, vocab)
    first = next(iter(contexts.values()))
    focus = data.get("focus", first[-1])
    if not isinstance(focus, str):
        raise LessonError(file, "focus", "a token string", repr(focus))
    for name, tokens in contexts.items():
        if focus not in tokens:
            raise LessonError(
                file, "focus", f"a token of every context (contexts.{name} is {list(tokens)})",
                repr(focus),
            )
    return Lesson(
        source=file,
        vocab=vocab,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        contexts=contexts,
        focus=focus,
        title=_parse_lang_table(file, data, "title", None),
        author=_string(file, data, "author"),
        dimensions=_parse_lang_table(file, data, "dimensions", w_v.shape[1]),
        context_labels=_parse_context_labels(file, data, contexts),
        narration=_parse_narration(file, data),
    )


def resolve(name_or_path: str | Path | None) -> Path:
    """A packaged lesson name (e.g. 'default') or a file path -> the file's path."""
    if name_or_path is None:
        name_or_path = DEFAULT
    p = Path(name_or_path)
    if p.suffix != ".toml" and not p.exists():
        packaged = resources.files("attention_core") / "lessons" / f"{name_or_path}.toml"
        if packaged.is_file():
            return Path(str(packaged))
    return p


def packaged_lessons() -> list[str]:
    folder = resources.files("attention_core") / "lessons"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def _toml_error(message: str, text: str) -> str:
    """tomllib's message with the line it points at: "Expected ... (at line 3, column 9): focus = ..."."""
    m = re.search(r"line (\d+)", message)
    lines = text.splitlines()
    if m and 1 <= int(m.group(1)) <= len(lines):
        return f"{message}: {lines[int(m.group(1)) - 1].strip()}"
    return message


def loads(text: str, file: str = "<lesson>") -> Lesson:
    """A lesson from the text of a lesson file (an editor's buffer): LessonError as `load` gives."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LessonError(file, "", "valid TOML", _toml_error(str(e), text)) from None
    return parse(data, file)


def _read(path: Path) -> str:
    """The text of a lesson file; LessonError if there is no such file, it cannot be read, or it is not
    UTF-8."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise LessonError(
            str(path), "", f"a lesson file (or a packaged lesson: {', '.join(packaged_lessons())})",
            "no such file",
        ) from None
    except OSError as e:
        raise LessonError(str(path), "", "a readable file", e.strerror or str(e)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LessonError(str(path), "", "UTF-8 text", f"undecodable byte at {e.start}") from None


def load(name_or_path: str | Path | None = None) -> Lesson:
    """Load and validate a lesson: a packaged name ('default') or a path to a .toml file."""
    path = resolve(name_or_path)
    return loads(_read(path), str(path))
