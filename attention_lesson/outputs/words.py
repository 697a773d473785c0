"""The lesson's words written out for a teacher to edit: `attention-lesson words export`.

One TOML file per catalog file (scenes/i18n/<lang>/<name>.toml -> DIR/<lang>/<name>.toml), the same
tables and keys, every key under a comment saying where it appears (what shows it, and the source line
that asks for it when one does by name) and which placeholders it takes. The files are read back by
scenes/common/words.py; an untouched export overrides nothing (its lines are the built-in ones).
"""

from __future__ import annotations

import json
import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path

from scenes.common import words as W
from scenes.registry import HERE as SCENES_DIR
from scenes.registry import SCENES

ROOT = SCENES_DIR.parent
PAGES = {  # catalog file -> what shows its lines
    "common": "shared: every scene, the decks, the handout and the pages",
    "deck": "the slide decks (HTML and PPTX) and their speaker notes",
    "handout": "the handout (HTML and PDF) and its exercises",
    "explorer": "the explorer page",
    "studio": "the studio page",
    "speech": "how the draft voice reads numbers and symbols (heard, never shown)",
}
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


def where(key: str) -> str:
    """What shows a key's line, in a few words."""
    table, rest = key.split(".", 1)
    if table in PAGES:
        what = PAGES[table]
    elif rest.startswith("say."):
        what = f"narration of step {rest[4:]}: spoken, the subtitles, the speaker notes, steps.json"
    elif rest == "title":
        what = "the scene's title: its heading, the lesson's lists, the decks, the contact sheet"
    elif rest == "short":
        what = "the scene's name on the studio's timeline"
    else:
        what = "on screen"
    at = used_at(key, table)
    return what + (f" ({', '.join(at)})" if at else "")


def comment(key: str, value) -> str:
    try:
        names = W.placeholders(value)
    except ValueError:
        names = set()
    takes = "placeholders " + ", ".join("{" + n + "}" for n in sorted(names)) if names else "no placeholders"
    return f"# {where(key)}; {takes}"


def _name(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _table(prefix: str, table: dict, out: list[str]) -> None:
    """A table's keys (each under its comment), then its tables."""
    plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
    if plain:
        out += ["", f"[{prefix}]"]
        for k, v in plain.items():
            out += [comment(f"{prefix}.{k}", v), f"{_name(k)} = {json.dumps(v, ensure_ascii=False)}"]
    for k, v in table.items():
        if isinstance(v, dict):
            _table(f"{prefix}.{_name(k)}", v, out)


def export(lang: str, out: str | Path, source: str | None = None) -> list[Path]:
    """Write every catalog file of `source` (the language's own; en for a language with no built-in
    words) as DIR/<lang>/<name>.toml; returns the files written."""
    source = source or (lang if W.built_in(lang) else W.REFERENCE)
    folder = resources.files("scenes") / "i18n" / source
    target = Path(out) / lang
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for f in sorted(folder.iterdir(), key=lambda p: p.name):
        if not f.name.endswith(".toml"):
            continue
        lines = [f"# {lang}: {PAGES.get(f.name[:-5], _scene_line(f.name[:-5]))}.",
                 "# Edit any line; delete the ones you keep as they are (a missing key keeps the built-in",
                 "# line).",
                 "# Check with: attention-lesson words check DIR --lang " + lang]
        for name, table in tomllib.loads(f.read_text(encoding="utf-8")).items():
            _table(_name(name), table, lines)
        path = target / f.name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _scene_line(name: str) -> str:
    scene = next((s for s in SCENES if s.module == name), None)
    title = W.builtin_entries("en").get(f"{name}.title")
    return f"the scene {scene.id}, “{title.value}”" if scene and title else f"the words of {name}"
