"""What a process keeps of the labels it made (scenes/common/labels.py, stored.py), bounded: the labels in
memory stay within a number of bytes however many numbers the edits of a long studio session make, and
a label holds its glyphs once (a Text kept its SVG's groups by id too, a second set of mobjects for its
glyphs that nothing reads: 3.4 times its memory)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from scenes.common import labels, stored


def test_recent_keeps_the_newest_entries_within_its_bytes():
    kept = stored.Recent(100)
    for i in range(10):
        kept.put(i, f"value {i}", 30)
        assert kept.nbytes <= 100
    assert list(kept.entries) == [7, 8, 9] and kept.nbytes == 90
    assert kept.get(7) == "value 7" and kept.get(3) is None  # 7 is the newest now: 8 goes next
    kept.put(10, "value 10", 30)
    assert list(kept.entries) == [9, 7, 10]
    kept.put(11, "large", 500)  # one entry stays however large
    assert list(kept.entries) == [11] and kept.nbytes == 500
    kept.clear()
    assert len(kept) == 0 and kept.nbytes == 0


@pytest.fixture
def fresh_labels(monkeypatch, tmp_path):
    """labels made anew in this test: an empty memory of 300 kB of pickles, an empty store on disk."""
    from manim import tempconfig

    monkeypatch.setattr(stored, "_folder", tmp_path / "mobjects")
    monkeypatch.setattr(labels, "_MADE", stored.Recent(300_000))
    with tempconfig({"media_dir": str(tmp_path / "media")}):
        yield labels._MADE


def test_the_numbers_of_many_edits_stay_within_the_bytes_kept(fresh_labels):
    for i in range(60):  # an entry of W_Q and the scores it changes, edit after edit
        labels.label(f"{2 + i / 100:.2f}")
        labels.label(f"{-0.4 + i / 1000:.3f}", size=20)
        assert fresh_labels.nbytes <= 300_000
    assert 8 < len(fresh_labels) < 120  # the newest only
    assert ("label", "2.59", float(labels.style.LABEL_SIZE), str(labels.style.TEXT), ()) in fresh_labels
    assert labels._MADE.max_bytes <= 32 * 2**20 and stored.Recent is type(labels._MADE)


def test_a_label_holds_its_glyphs_once(fresh_labels):
    from manim import Text

    made = labels.label("0.46")
    (kept,) = [v for v, _ in fresh_labels.entries.values()]
    assert kept.id_to_vgroup_dict == {}
    plain = Text("0.46", font=labels.style.FONT, font_size=labels.style.LABEL_SIZE, color=labels.style.TEXT)
    assert len(pickle.dumps(kept)) < 0.7 * len(pickle.dumps(plain))
    assert len(made.get_family()) == len(plain.get_family())  # the same glyphs, drawn the same
    assert all(np.array_equal(a.points, b.points) for a, b in zip(made.get_family(), plain.get_family()))
