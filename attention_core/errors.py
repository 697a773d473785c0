"""What the core says of a lesson, in a language: its errors (`LessonError`) and warnings (`LessonWarning`),
each one line, `FILE:LINE: message` as compilers and linters write it, its words from `messages.py`.

A problem is stored as data, not text: the file, the key it names ("projections.w_q row 4", "vocab.the",
"contexts.river token 3", "focus"; "" for the file as a whole), what was expected (a `Phrase`), what was
found (a `Phrase` or the value as the file has it) and the line, once the text is known (`lines.py`).
`message(lang)` writes it in a language; `str()` is the English message.
"""

from __future__ import annotations

import difflib
import re
import reprlib
from typing import Any, NamedTuple

from .messages import MESSAGES, TIGHT, TOML_REASONS

LIST_MOST = 12  # a list longer than this is cut in a message: the line stays one readable line
_KEY_PART = re.compile(r" (row|number|token) (\d+)$")
_CJK = r"[\u3000-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"  # with kana
_CJK_SPACE = re.compile(rf"(?<={_CJK}) (?={_CJK})")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_RAW, _END = "\ue000", "\ue001"  # around what the file wrote (a value, a key, a name): never tidied
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxdict, _SHOWN.maxstring, _SHOWN.maxother = 3, 8, 4, 60, 60


class Phrase(NamedTuple):
    """A catalog entry of messages.py and its fields."""

    code: str
    fields: dict[str, Any]


def ph(code: str, **fields) -> Phrase:
    return Phrase(code, fields)


class Ordinals(list):
    """Positions counted from 1, written "2", "2 and 4", "1, 2 and 4" or "2–4"."""


class Said(str):
    """Words already in the language (a phrase said): put in as they are."""


class TomlReason(str):
    """tomllib's reason for refusing a text, in English: said in the language where messages.py has it."""

    REASONS = TOML_REASONS

    def said(self, lang: str) -> str:
        for pattern, words in self.REASONS.get(lang, []):
            if m := re.fullmatch(pattern, self):
                return words.format(*m.groups())
        return str(self)


class Choices(list):
    """Names written "a, b, c" (cut after LIST_MOST)."""


def near(name, known, found=None):
    """What a message says was found for an unknown `name` (`found`: a phrase for it, else the name as
    written), with the one of `known` it is likely a typo of (difflib's closest, when close enough):
    "an unknown key (did you mean projections?)", even where the list of `known` is cut short."""
    found = name if found is None else found
    if not isinstance(name, str) or not (close := difflib.get_close_matches(name, list(known), n=1)):
        return found
    return ph("did_you_mean", found=found if isinstance(found, Phrase) else shown(found), near=close[0])


def split_key(key: str) -> tuple[str, list[tuple[str, int]]]:
    """A key as its dotted path and the positions after it: "projections.w_q row 4 number 2" ->
    ("projections.w_q", [("row", 4), ("number", 2)])."""
    parts = []
    while m := _KEY_PART.search(key):
        parts.insert(0, (m.group(1), int(m.group(2))))
        key = key[:m.start()]
    return key, parts


def shown(value) -> str:
    """A value as a message shows it: its repr, cut short when long or deeply nested."""
    return _SHOWN.repr(value)


def _raw(text) -> str:
    return f"{_RAW}{text}{_END}"


def _entry(lang: str, code: str, n) -> str:
    entry = MESSAGES[lang][code]
    if isinstance(entry, dict):
        return entry["one"] if n == 1 and "one" in entry else entry["other"]
    return entry


def _items(lang: str, items: list, last: str) -> str:
    words = [_raw(x) for x in items]
    if len(words) > LIST_MOST:
        words = [*words[:LIST_MOST - 1], "…"]
    if len(words) < 2 or not last:
        return MESSAGES[lang]["list_sep"].join(words)
    return MESSAGES[lang]["list_sep"].join(words[:-1]) + MESSAGES[lang]["list_and"] + words[-1]


def _field(lang: str, value) -> str:
    if isinstance(value, Phrase):
        return say(lang, value)
    if isinstance(value, Ordinals):
        if len(value) > 2 and list(value) == list(range(value[0], value[-1] + 1)):
            return f"{value[0]}–{value[-1]}"
        return _items(lang, value, "and")
    if isinstance(value, Choices):
        return _items(lang, value, "")
    if isinstance(value, Said):
        return value
    if isinstance(value, TomlReason):
        return value.said(lang)
    return _raw(value)


def say(lang: str, phrase: Phrase) -> str:
    """A phrase in a language, its fields filled (phrases in phrases too)."""
    template = _entry(lang, phrase.code, phrase.fields.get("n"))
    return template.format(**{k: _field(lang, v) for k, v in phrase.fields.items()})


def tidy(lang: str, text: str) -> str:
    """One line: control characters written as escapes; in a tight language no space between two of its
    own characters (the file's own text, marked raw, is left as it is)."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    text = _CJK_SPACE.sub("", text) if lang in TIGHT else text
    return text.replace(_RAW, "").replace(_END, "")


def text(lang: str, code: str, **fields) -> str:
    """A catalog entry in a language, its fields filled: one tidy line."""
    return tidy(lang, say(lang, ph(code, **fields)))


def where(lang: str, key: str) -> str:
    """A key as a message names it: its path, then its row, number or token in the language's words."""
    path, parts = split_key(key)
    return " ".join([_raw(path), *(say(lang, ph(f"key_{word}", n=n)) for word, n in parts)])


def located(lang: str, file: str, line: int | None, said: Phrase | Said) -> str:
    """`FILE:LINE: what is said`, or `FILE: ...` when the line is not known."""
    if line is None:
        return say(lang, ph("at_file", file=file, text=said))
    return say(lang, ph("at_line", file=file, line=line, text=said))


class LessonError(ValueError):
    """A lesson file that cannot be used: names the file, the key, what was expected and found, and the
    line once the text is known. `message(lang)` is the one line to show; str() is it in English.
    `declared`: the `lang` the file itself declares, when it could be read that far (None: not known),
    the language a command with no --lang says the error in."""

    def __init__(self, file: str, key: str, expected: Phrase, found=None, line: int | None = None,
                 declared: str | None = None):
        self.file, self.key, self.expected, self.found, self.line = file, key, expected, found, line
        self.declared = declared
        super().__init__(file, key)

    def __reduce__(self):
        return type(self), (self.file, self.key, self.expected, self.found, self.line, self.declared)

    def detail(self, lang: str = "en") -> str:
        """The problem without its file and line: "projections.w_k row 3: expected ..., found ..."."""
        return tidy(lang, self._detail(lang))

    def _detail(self, lang: str) -> str:
        found = None if self.found is None else (
            say(lang, self.found) if isinstance(self.found, Phrase) else _raw(shown(self.found)))
        fields = {"expected": self.expected, "found": Said(found) if found else None}
        if not self.key:
            return say(lang, ph("file_problem" if found is not None else "file_problem_no_found", **fields))
        code = "problem" if found is not None else "problem_no_found"
        return say(lang, ph(code, where=Said(where(lang, self.key)), **fields))

    def message(self, lang: str = "en", file: bool = True) -> str:
        """`FILE:LINE: key: expected ..., found ...` in a language (`file=False`: the detail alone)."""
        if not file:
            return self.detail(lang)
        return tidy(lang, located(lang, self.file, self.line, Said(self._detail(lang))))

    def __str__(self) -> str:
        return self.message("en")


class LessonWarning(NamedTuple):
    """A usable lesson that will not teach well: its file, the key it is about, what is wrong, its line."""

    file: str
    key: str
    phrase: Phrase
    line: int | None = None

    def message(self, lang: str = "en") -> str:
        """`FILE:LINE: warning: ...` in a language."""
        said = ph("warning", text=self.phrase)
        return tidy(lang, located(lang, self.file, self.line, said))
