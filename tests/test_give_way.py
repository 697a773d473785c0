"""Layouts that give way to longer words (docs/words.md, "What gives way"): the geometry scene's table
heads shrink before its plane does, with slack for a table just wider than its room; a note under a
plane wraps rather than shrinking below NOTE_LEAST of its size."""

from __future__ import annotations

import pytest
from manim import VGroup

from scenes.common import spread as T
from scenes.common import style

BODY = (13.5, 6.0)  # a body's width and height
SQUARE = (0.0, 1.0, 0.0, 1.0)  # a plane as wide as high: 6 units wide at the body's height
ROOM = BODY[0] - BODY[1] - style.BIG_GAP  # 6.8: what the plane leaves the table


def heads_at(table_w: float) -> float:
    """The heads' scale give_way picks for a table `table_w` wide with full-size heads (its width
    following the heads' scale)."""
    cols, width = T.give_way(lambda scale: scale, lambda scale: table_w * scale, BODY, SQUARE, VGroup())
    assert width == pytest.approx(table_w * cols)
    return cols


def test_heads_keep_their_size_while_the_plane_gives_a_tenth_at_most():
    assert T.plane_width(SQUARE, BODY[1], VGroup()) == pytest.approx(6.0)
    assert heads_at(ROOM) == 1.0
    assert heads_at(ROOM + 0.1 * 6.0 - 0.01) == 1.0  # (the 2-token lesson's English value table: 0.02 over)


def test_heads_shrink_by_tenths_until_the_plane_keeps_its_width():
    assert heads_at(8.0) == pytest.approx(0.8)  # 0.9: 7.2 > 6.8; 0.8: 6.4
    assert heads_at(7.5) == pytest.approx(0.9)  # 6.75
    assert heads_at(20.0) == pytest.approx(T.HEAD_LEAST)  # no further: the plane gives the rest


def test_a_long_note_wraps_instead_of_shrinking_below_note_least():
    size, line = 30, "ŵíðé ļöñĝ ţéхţ " * 6
    short = T.under_plane(["98 %"], size, "en", 5.0)
    assert len(short) == 1 and short[0].font_size == pytest.approx(size)
    notes = T.under_plane([line], size, "en", 5.0)
    assert len(notes) >= 3 and notes.width <= 5.0 + 1e-6
    assert min(m.font_size for m in notes) >= T.NOTE_LEAST * size - 1e-6
    shrunk = T.under_plane([line[:40]], size, "en", label_w(line[:40], size) * 0.9)  # a little: shrinks
    assert len(shrunk) == 1 and shrunk[0].font_size == pytest.approx(0.9 * size, rel=0.01)


def label_w(s: str, size: float) -> float:
    from scenes.common.labels import label

    return label(s, size).width
