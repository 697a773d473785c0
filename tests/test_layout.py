"""The layout check the scene tests rely on: it passes a clean frame and names what is wrong in a bad one."""

import pytest
from manim import DOWN, LEFT, RIGHT, Scene, config, tempconfig

from scenes.common.layout import layout_problems
from scenes.common.mobjects import label, tex


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path)}):  # the formula's TeX files
        yield


def frame(*mobjects):
    scene = Scene()
    scene.add(*mobjects)
    return scene


def test_apart_and_inside_is_clean():
    a, b = label("query"), label("key")
    b.next_to(a, RIGHT)
    assert layout_problems(frame(a, b)) == []


def test_overlapping_labels_are_named():
    a, b = label("0.69"), label("river")
    b.move_to(a.get_center() + RIGHT * a.width / 3)
    problems = layout_problems(frame(a, b))
    assert problems == ["overlap: Text('0.69') and Text('river')"], problems


def test_a_formula_over_a_label_is_an_overlap():
    a, b = label("bank"), tex(r"\sqrt{d_k}")
    assert any(p.startswith("overlap:") and "bank" in p for p in layout_problems(frame(a, b)))


def test_off_frame_label_is_named():
    edge = label("geography").move_to(RIGHT * config.frame_width / 2)  # half of it past the edge
    problems = layout_problems(frame(edge))
    assert len(problems) == 1 and problems[0].startswith("off frame: Text('geography')"), problems


def test_a_label_just_inside_the_edge_is_fine():
    inside = label("geography").to_edge(DOWN, buff=0).to_edge(LEFT, buff=0)
    assert layout_problems(frame(inside)) == []


def test_numbers_side_by_side_share_their_decimals():
    from scenes.common.mobjects import NumberGrid, WeightBars, shared_format

    assert [shared_format([0.2, 0.25])(x) for x in (0.2, 0.25)] == ["0.20", "0.25"]
    assert [shared_format([0, 1, 2.3])(x) for x in (0, 1, 2.3)] == ["0.0", "1.0", "2.3"]
    assert [shared_format([0, 1])(x) for x in (0, 1)] == ["0", "1"]
    assert shared_format([-0.001, 0.5])(-0.001) == "0.0"  # no -0
    assert shared_format([1 / 3])(1 / 3) == "0.33"  # at most 2 decimals
    grid = NumberGrid([[0.2, 0.25], [1.0, 0.0]])
    assert [[grid.number(i, j).text for j in range(2)] for i in range(2)] == [["0.20", "0.25"],
                                                                              ["1.00", "0.00"]]
    bars = WeightBars([0.5, 0.25, 0.25], ["a", "b", "c"])
    assert [t.text for t in bars.value_labels] == ["0.50", "0.25", "0.25"]
    after = bars.new_values([0.7, 0.2, 0.1])  # new values, their own shared format
    assert [t.text for t in after.value_labels] == ["0.7", "0.2", "0.1"]


def test_text_shrunk_below_the_floor_is_named():
    from scenes.common.style import MIN_FONT_SIZE

    ok = label("geography", MIN_FONT_SIZE + 1)
    tiny = label("ambiguity", MIN_FONT_SIZE * 2).scale(0.4).next_to(ok, DOWN)  # shrunk to fit, say
    problems = layout_problems(frame(ok, tiny))
    assert len(problems) == 1 and problems[0].startswith("too small: Text('ambiguity') at font size"), problems
