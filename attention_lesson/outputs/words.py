"""The lesson's words written out for a teacher to edit: `attention-lesson words export`.

One TOML file per catalog file (scenes/i18n/<lang>/<name>.toml -> DIR/<lang>/<name>.toml), the same
tables and keys, every key under a comment saying where it appears (what shows it, and the source line
that asks for it when one does by name) and which placeholders it takes. The files are read back by
scenes/common/words.py; an untouched export overrides nothing (its lines are the built-in ones). The
comments are in the exported language when it is built in (zh, en, ja), else in English (the language a
new one is translated from); their words are attention_lesson's (messages/tools.py, `export_*`).
"""

from __future__ import annotations

import json
import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path

from attention_core.errors import text
from attention_core.language import LANGS
from scenes.common import words as W
from scenes.registry import HERE as SCENES_DIR
from scenes.registry import SCENES

ROOT = SCENES_DIR.parent
PAGES = ("common", "deck", "handout", "explorer", "studio", "speech")  # catalog files of a page, not a scene
# where a table's keys are asked for by name (a scene's: its own file)
SEARCHED = {
    "common": ("scenes/common/*.py", "scenes/*.py", "attention_lesson/outputs/*.py"),
    "deck": ("attention_lesson/outputs/deck.py", "attention_lesson/pipeline/drawing/slides.py"),
    "handout": ("attention_lesson/outputs/handout*.py", "attention_lesson/outputs/exercises.py"),
    "explorer": ("attention_lesson/outputs/explorer.py", "attention_lesson/web/explorer*.js",
                 "attention_lesson/web/shared.js"),
    "studio": ("attention_lesson/studio/*.py", "attention_lesson/web/studio*.js"),
    "speech": ("scenes/common/speech.py",),
}
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


_NAMED = re.compile(r"(?<=[\"'.])([A-Za-z0-9_]+)(?=[\"'])")  # a key's last part, asked for by name


@lru_cache(maxsize=None)
def _index(table: str) -> dict[str, list[str]]:
    """Every name the sources of a table's keys quote, with the lines ("scenes/softmax.py:88") it is on."""
    found: dict[str, list[str]] = {}
    for pattern in SEARCHED.get(table, (f"scenes/{table}.py",)):
        for p in sorted(ROOT.glob(pattern)):
            rel = p.relative_to(ROOT).as_posix()
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                for name in set(_NAMED.findall(line)):
                    found.setdefault(name, []).append(f"{rel}:{n}")
    return found


def used_at(key: str, table: str) -> list[str]:
    """The source lines that ask for a key by its name ("scenes/softmax.py:88"); at most two."""
    return _index(table).get(key.rsplit(".", 1)[-1], [])[:2]


def said_in(lang: str) -> str:
    """The language of an export's comments: `lang` when built in, else English."""
    return lang if lang in LANGS else "en"


def where(key: str, lang: str = "en") -> str:
    """What shows a key's line, in a few words (in `lang`, zh, en or ja)."""
    table, rest = key.split(".", 1)
    if table in PAGES:
        what = text(lang, f"export_{table}")
    elif rest.startswith("say."):
        what = text(lang, "export_say", step=rest[4:])
    elif rest.startswith("steps."):
        what = text(lang, "export_step_name", step=rest[6:])
    elif rest in ("title", "short"):
        what = text(lang, f"export_{rest}")
    else:
        what = text(lang, "export_on_screen")
    at = used_at(key, table)
    return what + (f" ({', '.join(at)})" if at else "")


def comment(key: str, value, lang: str = "en") -> str:
    """The comment over an exported key: where it appears and which placeholders it takes (in `lang`)."""
    try:
        names = W.placeholders(value)
    except ValueError:
        names = set()
    if not names:
        return "# " + text(lang, "export_takes_none", where=where(key, lang))
    names = ", ".join(f"{{{n}}}" for n in sorted(names))
    return "# " + text(lang, "export_takes", where=where(key, lang), names=names)


def _name(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _table(prefix: str, table: dict, out: list[str], lang: str) -> None:
    """A table's keys (each under its comment, in `lang`), then its tables."""
    plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
    if plain:
        out += ["", f"[{prefix}]"]
        for k, v in plain.items():
            out += [comment(f"{prefix}.{k}", v, lang), f"{_name(k)} = {json.dumps(v, ensure_ascii=False)}"]
    for k, v in table.items():
        if isinstance(v, dict):
            _table(f"{prefix}.{_name(k)}", v, out, lang)


def export(lang: str, out: str | Path, source: str | None = None) -> list[Path]:
    """Write every catalog file of `source` (the language's own; en for a language with no built-in
    words) as DIR/<lang>/<name>.toml; returns the files written."""
    source = source or (lang if W.built_in(lang) else W.REFERENCE)
    folder = resources.files("scenes") / "i18n" / source
    target = Path(out) / lang
    target.mkdir(parents=True, exist_ok=True)
    written, said = [], said_in(lang)
    for f in sorted(folder.iterdir(), key=lambda p: p.name):
        if not f.name.endswith(".toml"):
            continue
        lines = [f"# {line}" for line in head(f.name[:-5], lang, said)]
        for name, table in tomllib.loads(f.read_text(encoding="utf-8")).items():
            _table(_name(name), table, lines, said)
        path = target / f.name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def head(name: str, lang: str, said: str) -> list[str]:
    """A file's first comment lines: what shows its lines, that any may be edited (and deleted, where the
    language has built-in lines to fall back on; a new language needs every key), how to check them."""
    what = text(said, f"export_{name}") if name in PAGES else _scene_line(name, said)
    edit = "export_edit" if W.built_in(lang) else "export_edit_new"
    return [text(said, "export_head", language=lang, what=what), text(said, edit),
            text(said, "export_check", language=lang)]


def _scene_line(name: str, lang: str) -> str:
    scene = next((s for s in SCENES if s.module == name), None)
    title = W.builtin_entries(lang).get(f"{name}.title")
    if scene and title:
        return text(lang, "export_scene", scene=scene.id, title=title.value)
    return text(lang, "export_words_of", name=name)
