"""The guide's map of the house (docs/develop/house.md) names every module: each folder of the core and
of attention_lesson has a row in its table, and that row names each of the folder's files (a newcomer
finds every file there)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "develop" / "house.md"
FOLDERS = ("attention_core", "attention_lesson/pipeline", "attention_lesson/pipeline/drawing",
           "attention_lesson/pipeline/drawing/manim_speedups",
           "attention_lesson/pipeline/voice", "attention_lesson/pipeline/batch", "attention_lesson/outputs",
           "attention_lesson/web", "attention_lesson/studio", "attention_lesson/cli")


def rows() -> dict[str, str]:
    """folder -> the text of its row in the map's table."""
    found = {}
    for line in MAP.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\| `([\w/]+)/` \| (.*) \|$", line):
            found.setdefault(m.group(1), m.group(2))
    return found


def files(folder: str) -> list[str]:
    return sorted(p.name for p in (ROOT / folder).iterdir()
                  if p.suffix in (".py", ".js", ".css") and p.name != "__init__.py")


def test_every_package_folder_is_listed():
    on_disk = {p.parent.relative_to(ROOT).as_posix()
               for p in (ROOT / "attention_lesson").rglob("__init__.py")}
    assert on_disk - {"attention_lesson"} <= set(FOLDERS) | {"attention_lesson/studio"}
    assert set(FOLDERS) <= set(rows())


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_row_names_every_file(folder):
    row = rows()[folder]
    named = set(re.findall(r"`([\w.-]+)`", row))
    missing = [f for f in files(folder) if f not in named and f.removesuffix(".py") not in named]
    assert missing == [], f"{MAP.name}'s row for {folder}/ does not name {missing}"
