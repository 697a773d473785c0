"""The text catalog: every on-screen word and narration line, one catalog (folder) per language.

scenes/i18n/<lang>/*.toml, one table per scene (plus `common`); keys are looked up as "scene.key".
No manim import: the CLI lists titles without starting manim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from attention_core import LANGS

from . import words as W
from .languages import language


class Token(str):
    """A token of the lesson among a line's fields. `{top}` writes it marked as a token (`mark`, from the
    catalog: “the” in English, so that "most on “the”" is not read as "most on the"), `{top!s}` bare
    (notation: bank→river). Everywhere else it is the plain string it was made from."""

    mark = "{token}"

    def __new__(cls, text: str, mark: str = "{token}"):
        self = super().__new__(cls, text)
        self.mark = mark
        return self

    def __format__(self, spec: str) -> str:
        return format(str(self), spec) if spec else W.fill(self.mark, token=str(self))


class _Kept(str):
    """A field's value whose spaces a tight line keeps (a sentence's, between its tokens)."""

    def __new__(cls, value: str):
        self = super().__new__(cls, value)
        self.value = value
        return self

    def __format__(self, spec: str) -> str:
        return format(self.value, spec).replace(" ", _KEPT_SPACE)


class Catalog:
    """A language's lines by key; `folder`: the words folder whose lines won over the built-in ones (a
    refused field is said at its FILE:LINE)."""

    def __init__(self, lang: str, entries: dict[str, str | list[str]], folder: str | None = None):
        self.lang, self.entries, self.folder = lang, entries, folder

    def __call__(self, key: str, **fields) -> str:
        try:
            value = self.entries[key]
        except KeyError:
            raise KeyError(f"catalog {self.lang!r} has no entry {key!r}") from None
        if not fields:
            return value
        return self._said(key, value, fields)

    def token(self, text: str) -> Token:
        """A lesson token to name in a line: marked as `common.token` says, or `common.token_cjk` when it
        is written in Chinese characters (a Chinese sentence writes a Latin token bare, as the lesson's
        text writes bank, and sets 苹果 off in 「」 so it does not run into the words around it)."""
        cjk = _CJK.search(text) and "common.token_cjk" in self.entries
        key = "common.token_cjk" if cjk else "common.token"
        self._fill(key, self.entries[key], {"token": text})  # a mark it may not have: said at its own line
        return Token(text, self.entries[key])

    def lines(self, key: str, **fields) -> list[str]:
        value = self.entries[key]
        items = value if isinstance(value, list) else [value]
        return [self._said(key, s, fields) if fields else s for s in items]

    def _said(self, key: str, line: str, fields: dict) -> str:
        """A line filled as its language writes it: a tight one without a space between two of its
        characters in the line's own words (i18n.tightened), a field's own spaces kept (a sentence's)."""
        if not language(self.lang).tight:
            return self._fill(key, line, fields)
        kept = {k: _Kept(v) if isinstance(v, str) and " " in v else v for k, v in fields.items()}
        return tightened(self._fill(key, line, kept), self.lang).replace(_KEPT_SPACE, " ")

    def _fill(self, key: str, line: str, fields: dict) -> str:
        """A line filled by the one formatter (words.fill); a field it may not have (a words folder's
        line read without words check) is a WordsError at the line's FILE:LINE, never the field filled."""
        try:
            return W.fill(line, **fields)
        except W.PlaceholderError as e:
            own = W.overrides(self.folder, self.lang).get(key)
            if own is None and isinstance(e, KeyError):
                raise  # a built-in line's field the program does not give (a variant for other data)
            entry = own or W.builtin_entries(self.lang).get(key)
            file, line_no = (entry.file, entry.line) if entry else (f"{self.lang}:{key}", 1)
            raise W.WordsError(file, line_no, e.phrase(key)) from None

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def table(self, name: str) -> dict[str, str | list[str]]:
        """One table's entries, by their keys within it (a page's words, sent to it whole)."""
        prefix = f"{name}."
        return {k.removeprefix(prefix): v for k, v in self.entries.items() if k.startswith(prefix)}


def lesson_title(lesson, lang: str) -> str:
    """The lesson file's [title] in this language, or the catalog's generic one."""
    return lesson.title.get(lang) or phrase(lang, "common.lesson_title")


# The house style of a tight language (zh, ja): no space between two of its own characters (kana, Chinese
# characters, full-width punctuation and brackets: 「川」におよそ, 多くの食事の値, 地理的值), while a space
# next to a Latin word or a number stays (bank 的, 51% を, 0 と「渡る」), as messages.py's lines are
# written. A line written with spaces around its {fields} fills right whichever kind a field is.
WIDE = r"\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_WIDE_SPACE = re.compile(rf"(?<=[{WIDE}]) +(?=[{WIDE}])")
_KEPT_SPACE = "\ue002"  # a field's space while its line is tightened
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")  # Chinese characters
# (and their punctuation, 。 or ，): a token of them set off in 「」


def tightened(text: str, lang: str) -> str:
    """`text` as a tight language writes it (no space between two of its characters); else as it is."""
    return _WIDE_SPACE.sub("", text) if language(lang).tight else text


def listing(items: Iterable[str], lang: str) -> str:
    """Items as a person writes a list in this language, with the catalog's connectors (`common.list_sep`
    between the items, `common.list_and` before the last): "a", "a and b", "a, b and c"; "a 和 b",
    "a、b 和 c". In a tight language a connector's space between two of its characters is dropped
    ("「苹果」和「梨」", "0.11 と 0.69")."""
    items = [format(x) for x in items]  # a Token marked as a token
    if len(items) < 2:
        return "".join(items)
    tr = catalog(lang)
    return tightened(tr("common.list_sep").join(items[:-1]) + tr("common.list_and") + items[-1], lang)


def d_k_labels(d_k: int, lang: str) -> list[str]:
    """The names of the d_k columns of W_Q, W_K, Q and K (the axis queries and keys share), as every
    output heads them: the catalog's `common.d_k_column` for column 1..d_k."""
    return [catalog(lang)("common.d_k_column", i=i) for i in range(1, d_k + 1)]


def catalog(lang: str, words: str | None = None) -> Catalog:
    """The words of a language: the built-in catalog (scenes/i18n/<lang>/), with the lines of the words
    folder in use (words.use_words; or `words`) winning key by key. A language with no built-in catalog
    is all the folder's."""
    folder = words if words is not None else W.active()
    if not W.built_in(lang) and (folder is None or not W.files(folder, lang)):
        raise ValueError(f"language must be one of {', '.join(LANGS)} or one of a words folder, not {lang!r}")
    own = W.overrides(folder, lang)
    if not own:
        return _builtin(lang)
    return _merged(lang, folder, tuple(sorted((k, _frozen(e.value)) for k, e in own.items())))


def phrase(lang: str, key: str) -> str | list[str]:
    """One entry as catalog(lang)(key) gives it (no fields), reading only its table's built-in file when
    no words folder is in use: a re-run with nothing to do names every scene's title, and reading the
    whole catalog for them cost it more than all its digests."""
    if W.active() is None:
        value = W.builtin_table(lang, key.split(".", 1)[0]).get(key)
        if value is not None:
            return value
    return catalog(lang)(key)


def _frozen(value):
    return tuple(value) if isinstance(value, list) else value


@lru_cache(maxsize=None)
def _builtin(lang: str) -> Catalog:
    return Catalog(lang, {k: e.value for k, e in W.builtin_entries(lang).items()})


@lru_cache(maxsize=16)
def _merged(lang: str, folder: str, own: tuple) -> Catalog:
    given = {k: list(v) if isinstance(v, tuple) else v for k, v in own}
    return Catalog(lang, {**_builtin(lang).entries, **given}, folder)
