"""The geometry of attention (attention_core/geometry.py): the planes' axes, the shadows' lengths and
the value arrows laid tip to tail, against the lesson's own numbers and against plain dot products;
the [geometry] table's errors."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import LessonError, attend, load, loads
from attention_core.geometry import (
    best_axes,
    bounds,
    grid_step,
    lean,
    picture,
    planes,
    qk_points,
    strongest,
    v_points,
)

from .random_lessons import random_lesson

DEFAULT = load()


@pytest.mark.parametrize("context, scores, output", [
    ("river", [0.92, 0.0, 4.6, 1.38], [1.43, 0.06]),
    ("savings", [0.0, 0.0, 4.6, 1.38], [0.01, 1.49]),
])
def test_the_default_lessons_shadows_are_its_scores(context, scores, output):
    p = picture(DEFAULT, context)
    assert p.qk.axes == (0, 1) and p.qk.share == 1.0  # bank's query has nothing on axes 3 and 4
    assert p.v.axes == (0, 1)  # geography and finance: river and savings compared in one picture
    np.testing.assert_allclose(p.reach * np.linalg.norm(p.query), scores, atol=1e-12)
    np.testing.assert_allclose(p.shown, p.scores, atol=1e-12)
    np.testing.assert_allclose(np.round(p.output, 2), output)
    np.testing.assert_allclose(p.tips[-1], p.output, atol=1e-12)  # the last tip is the output
    np.testing.assert_allclose(p.output, p.output_full[list(p.v.axes)], atol=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_any_lesson_shadows_and_tip_to_tail_sums(seed):
    lesson = loads(random_lesson(seed))
    qk, v = planes(lesson)
    assert 0 < qk.share <= 1 + 1e-12 and 0 < v.share <= 1 + 1e-12 and qk.axes[0] < qk.axes[1]
    for name in lesson.contexts:
        p = picture(lesson, name)
        att = attend(lesson, name)
        i = att.index(lesson.focus)
        a = list(qk.axes)
        np.testing.assert_allclose(p.shown, att.k[:, a] @ att.q[i, a], atol=1e-12)  # the plane's part
        np.testing.assert_allclose(p.scores, att.scores[i], atol=1e-12)
        feet = p.feet  # a shadow's foot is on the query's line, and the key minus it is square to it
        assert np.allclose(feet[:, 0] * p.query[1] - feet[:, 1] * p.query[0], 0, atol=1e-9)
        assert np.allclose((p.keys - feet) @ p.query, 0, atol=1e-9)
        np.testing.assert_allclose(p.tips[-1], att.output[i, list(v.axes)], atol=1e-12)
        np.testing.assert_allclose(p.tails[1:], p.tips[:-1], atol=1e-12)  # tip to tail
        if lesson.d_k == 2:
            np.testing.assert_allclose(p.shown, p.scores, atol=1e-12)


def test_the_strongest_two_axes_and_their_share():
    plane = best_axes(np.array([0.5, 3.0, 0.0, 1.5]))
    assert plane.axes == (1, 3) and plane.share == pytest.approx(0.9)
    assert best_axes(np.zeros(3)).axes == (0, 1) and best_axes(np.zeros(3)).share == 1.0


def with_geometry(table: str) -> str:
    return DEFAULT_TEXT + "\n[geometry]\n" + table + "\n"


DEFAULT_TEXT = (__import__("attention_core.lesson", fromlist=["resolve"]).resolve("default")
                .read_text(encoding="utf-8"))


def test_the_lesson_names_its_planes():
    lesson = loads(with_geometry('qk = [4, 1]\nvalues = ["金融", "function"]'))
    assert lesson.geometry == {"qk": (0, 3), "values": (1, 2)}
    p = picture(lesson, "river")
    assert p.qk.axes == (0, 3) and p.v.axes == (1, 2) and p.v.share < planes(DEFAULT)[1].share
    assert loads(with_geometry("values = [1, 3]")).geometry == {"values": (0, 2)}


@pytest.mark.parametrize("table, key, expected", [
    ("qk = [1, 1]", "geometry.qk", "two different axes"),
    ("qk = [1, 2, 3]", "geometry.qk", "two different axes"),
    ("qk = [0, 2]", "geometry.qk number 1", "an axis number from 1 to 4"),
    ('values = ["geography", "moon"]', "geometry.values number 2", "a name of [dimensions]"),
    ("planes = 2", "geometry.planes", "one of qk, values"),
])
def test_a_wrong_geometry_table_is_named(table, key, expected):
    with pytest.raises(LessonError) as e:
        loads(with_geometry(table), "lesson.toml")
    text = e.value.message("en")
    assert key in text and expected in text, text


# -- what the geometry scene draws from a picture ----------------------------------------------------

def test_the_drawn_lengths_and_the_query_line():
    p = picture(DEFAULT, "river")
    assert p.query_length == pytest.approx(2.3 * np.sqrt(2))
    np.testing.assert_allclose(p.weighted, p.tips - p.tails, atol=1e-12)
    np.testing.assert_allclose(p.shown, p.reach * p.query_length, atol=1e-12)
    np.testing.assert_allclose(p.line, [[0, 0], p.query], atol=1e-12)  # no foot behind it or beyond
    att = attend(DEFAULT, "river")  # a scaled shadow times |q| is the scaled score
    np.testing.assert_allclose(p.scaled_feet @ p.query, att.scaled[3], atol=1e-12)
    assert picture(DEFAULT, "river", "unscaled").scale == 1.0
    assert picture(DEFAULT, "river", "uniform").scale == 0
    assert strongest(p.shown) == 2 and p.tokens[strongest(p.weights)] == "river"
    assert lean(p.output) == 0 and lean(picture(DEFAULT, "savings").output) == 1  # geography, finance
    assert strongest(np.array([1.0, 3.0, 3.0])) == 1 and lean(np.array([-2.0, 1.0])) == 0


@pytest.mark.parametrize("seed", range(6))
def test_the_query_line_holds_every_foot_and_the_box_every_point(seed):
    lesson = loads(random_lesson(seed))
    pictures = [picture(lesson, c) for c in lesson.contexts]
    for p in pictures:
        ahead = p.line @ p.query  # [2] the line's two ends along the query
        assert ahead[0] <= 1e-12 and ahead[1] >= p.query @ p.query - 1e-9
        assert np.all(p.feet @ p.query >= ahead[0] - 1e-9) and np.all(p.feet @ p.query <= ahead[1] + 1e-9)
        for points in (qk_points(p), v_points(pictures)):
            x0, x1, y0, y1 = bounds(points)
            assert np.all(points[:, 0] > x0) and np.all(points[:, 0] < x1)
            assert np.all(points[:, 1] > y0) and np.all(points[:, 1] < y1)
            assert min(x1 - x0, y1 - y0) >= 0.5 * max(x1 - x0, y1 - y0) - 1e-12
    assert len(v_points(pictures)) == 1 + sum(2 * len(p.tokens) for p in pictures)


def test_a_box_of_one_long_row_has_room_above_and_below():
    x0, x1, y0, y1 = bounds(np.array([[4.0, 0.0], [2.0, 0.0]]), pad=0.1, least=0.5)
    assert (x0, x1) == pytest.approx((-0.4, 4.4)) and (y0, y1) == pytest.approx((-1.4, 1.4))
    assert bounds(np.zeros((1, 2)), pad=0.0) == pytest.approx((-0.25, 0.25, -0.25, 0.25))


@pytest.mark.parametrize("span, step", [(4.8, 1.0), (6.0, 1.0), (0.3, 0.05), (13.0, 5.0), (0.0, 1.0)])
def test_the_grid_step(span, step):
    assert grid_step(span) == pytest.approx(step)
