"""The text catalog: every on-screen word and narration line, one catalog (folder) per language.

scenes/i18n/<lang>/*.toml, one table per scene (plus `common`); keys are looked up as "scene.key".
No manim import: the CLI lists titles without starting manim.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from attention_core import LANGS


class Catalog:
    def __init__(self, lang: str, entries: dict[str, str | list[str]]):
        self.lang, self.entries = lang, entries

    def __call__(self, key: str, **fields) -> str:
        try:
            value = self.entries[key]
        except KeyError:
            raise KeyError(f"catalog {self.lang!r} has no entry {key!r}") from None
        return value.format(**fields) if fields else value

    def lines(self, key: str, **fields) -> list[str]:
        value = self.entries[key]
        items = value if isinstance(value, list) else [value]
        return [s.format(**fields) if fields else s for s in items]

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def table(self, name: str) -> dict[str, str | list[str]]:
        """One table's entries, by their keys within it (a page's words, sent to it whole)."""
        prefix = f"{name}."
        return {k.removeprefix(prefix): v for k, v in self.entries.items() if k.startswith(prefix)}


def _flatten(prefix: str, table: dict, out: dict) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _flatten(key, v, out)
        else:
            out[key] = v


def lesson_title(lesson, lang: str) -> str:
    """The lesson file's [title] in this language, or the catalog's generic one."""
    return lesson.title.get(lang) or catalog(lang)("common.lesson_title")


@lru_cache(maxsize=None)
def catalog(lang: str) -> Catalog:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
    folder = resources.files("scenes") / "i18n" / lang
    entries: dict = {}
    for f in sorted(folder.iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            _flatten("", tomllib.loads(f.read_text(encoding="utf-8")), entries)
    return Catalog(lang, entries)
