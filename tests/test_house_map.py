"""The guide's map of the house (docs/develop/house.md): its layer table names every top-level folder of
the three packages; each folder of the core and of attention_lesson has a row in its map, that row names
each of the folder's files with a description beside it, `name.py (what it is)`, and every file a row
names is there (a newcomer finds every file, and nothing that is gone). The environment variables' page
(docs/develop/environment.md) names every ATTENTION_* variable the code reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "develop" / "house.md"
ENVIRONMENT = ROOT / "docs" / "develop" / "environment.md"
FOLDERS = ("attention_core", "attention_core/next", "attention_core/real", "attention_lesson/messages",
           "attention_lesson/pipeline", "attention_lesson/pipeline/drawing",
           "attention_lesson/pipeline/drawing/manim_speedups",
           "attention_lesson/pipeline/voice", "attention_lesson/pipeline/batch", "attention_lesson/outputs",
           "attention_lesson/web", "attention_lesson/studio", "attention_lesson/cli", "devtools")
PACKAGES = ("attention_core", "scenes", "attention_lesson")
SOURCES = (".py", ".js", ".css")


def sections() -> tuple[str, str]:
    """The map's text before its "## The map" heading (the layers) and from it on (the map)."""
    text = MAP.read_text(encoding="utf-8")
    at = text.index("\n## The map")
    return text[:at], text[at:]


def rows() -> dict[str, str]:
    """folder -> the text of its row in the map's table."""
    found = {}
    for line in sections()[1].splitlines():
        if m := re.match(r"\| `([\w/]+)/` \| (.*) \|$", line):
            found.setdefault(m.group(1), m.group(2))
    return found


def files(folder: str) -> list[str]:
    return sorted(p.name for p in (ROOT / folder).iterdir()
                  if p.suffix in SOURCES and p.name != "__init__.py")


def described(row: str, name: str) -> str | None:
    """What the row says of `name` where it first names it: the text in the brackets right after it
    (brackets inside counted); None when the row does not name it."""
    m = re.search(rf"`{re.escape(name)}`", row)
    if m is None:
        return None
    rest, depth = row[m.end():], 0
    if not rest.startswith(" ("):
        return ""
    for i, ch in enumerate(rest[1:], 1):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return rest[2:i].strip()
    return ""


def test_every_package_folder_is_listed():
    on_disk = {p.parent.relative_to(ROOT).as_posix()
               for top in ("attention_core", "attention_lesson") for p in (ROOT / top).rglob("__init__.py")}
    assert on_disk - {"attention_lesson"} <= set(FOLDERS) | {"attention_lesson/studio"}
    assert set(FOLDERS) <= set(rows())


def test_the_layer_table_names_every_top_level_folder():
    layers = sections()[0]
    named = set(re.findall(r"^\| `([\w./]+?)/?` \|", layers, flags=re.M))
    tops = {f"attention_lesson.{p.name}" if p.suffix == "" and (p / "__init__.py").exists()
            else f"attention_lesson/{p.name}"
            for p in (ROOT / "attention_lesson").iterdir()
            if p.is_dir() and p.name not in ("__pycache__",) and not p.name.startswith(".")}
    assert {"attention_lesson.studio", "attention_lesson/web"} <= tops
    assert tops | {"attention_core", "scenes"} <= named, sorted(tops - named)


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_row_names_and_describes_every_file(folder):
    row = rows()[folder]
    said = {f: described(row, f) if f"`{f}`" in row else described(row, f.removesuffix(".py"))
            for f in files(folder)}
    assert [f for f, d in said.items() if d is None] == [], f"{MAP.name}'s row for {folder}/ lacks them"
    assert [f for f, d in said.items() if not d] == [], f"{MAP.name}'s row for {folder}/ names them bare"
    assert {f: d for f, d in said.items() if len(d.split()) < 2} == {}  # a word or two at least


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_file_the_row_names_is_there(folder):
    named = set(re.findall(r"`([\w.-]+\.(?:py|js|css))`", rows()[folder]))
    assert named, folder
    assert sorted(n for n in named if not (ROOT / folder / n).exists()) == []


def test_every_environment_variable_the_code_reads_is_on_its_page():
    read = set()
    for top in (*PACKAGES, "devtools", "scripts", "tests"):
        for path in (ROOT / top).rglob("*.py"):
            read |= set(re.findall(r"\bATTENTION_[A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    page = set(re.findall(r"`(ATTENTION_[A-Z_]*[A-Z])[`=]", ENVIRONMENT.read_text(encoding="utf-8")))
    assert "ATTENTION_LESSON_LANG" in read and len(read) >= 15
    assert sorted(read - page) == []
