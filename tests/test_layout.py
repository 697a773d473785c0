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
