"""The guide's pictures of the product are not older than what they show: scripts/guide_figures.py stamps
each in media/preview/figures.json with a hash of its sources (the scenes' code, their words in its
language, the default lesson; the studio's server and web files too for the studio's picture). This test
recomputes each hash (reading files only: nothing is rendered) and fails, naming the command that makes
the picture again, when a source changed since; and a contact sheet must have as many tiles as the
default lesson has scenes."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
from PIL import Image

from attention_core import load
from attention_lesson.outputs import sheet
from scenes.registry import available

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "guide_figures.py"


def figures_module():
    spec = importlib.util.spec_from_file_location("guide_figures", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


FIGURES = figures_module()
STAMPS = json.loads(FIGURES.STAMPS.read_text(encoding="utf-8"))


def test_every_figure_is_stamped_and_shown_in_the_guide():
    assert sorted(STAMPS) == sorted(f"{name}.png" for name in FIGURES.FIGURES)
    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    for name in STAMPS:
        assert (FIGURES.PREVIEW / name).is_file() and f"media/preview/{name}" in pages, name


@pytest.mark.parametrize("name", sorted(FIGURES.FIGURES))
def test_the_figure_is_not_older_than_its_sources(name):
    figure, stamp = FIGURES.FIGURES[name], STAMPS[f"{name}.png"]
    assert stamp["sources"] == list(figure.sources)
    assert len(FIGURES.source_files(figure)) > 40  # the globs still find the scenes
    assert stamp["sources_sha256"] == FIGURES.sources_hash(figure), (
        f"media/preview/{name}.png is older than what it shows: run "
        f".venv/bin/python scripts/guide_figures.py {name}, look at the picture, commit it with figures.json")


@pytest.mark.parametrize("name", [n for n, f in sorted(FIGURES.FIGURES.items()) if f.kind == "sheet"])
def test_a_contact_sheet_has_a_tile_per_scene(name):
    scenes = len(list(available(load(None))))
    assert STAMPS[f"{name}.png"]["scenes"] == scenes == 13
    width, height = Image.open(FIGURES.PREVIEW / f"{name}.png").size
    cols, rows = 4, math.ceil(scenes / 4)  # the sheet's default columns, and so its rows
    thumb = (height - sheet.PAD) / rows - sheet.CAPTION_H - sheet.PAD  # a frame's height, 854 × 480 scaled
    assert width == cols * (sheet.THUMB_W + sheet.PAD) + sheet.PAD
    assert thumb == pytest.approx(sheet.THUMB_W * 480 / 854, abs=1), (width, height)
