"""The layout check the scene tests rely on: it passes a clean frame and names what is wrong in a bad one."""

import pytest
from manim import DOWN, LEFT, RIGHT, UL, Scene, config, tempconfig

from scenes.common.layout import layout_problems
from scenes.common.mobjects import label, math


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path)}):  # the formula's SVG files
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



def test_labels_that_touch_on_one_line_are_named_a_phrase_is_not():
    """Two labels that touch read as one word ("0.130.09"): the overlap check (beyond its tolerance)
    lets them pass, the crowding check names them; the pieces of one line of text and formulas may
    touch (a colon after √dₖ)."""
    from scenes.common.labels import mixed_line

    a, b = label("0.13"), label("0.09")
    b.next_to(a, RIGHT, buff=0.01)
    assert layout_problems(frame(a, b)) == ["crowded: Text('0.13') and Text('0.09') touch on one line"]
    b.next_to(a, RIGHT, buff=a.height * 0.2)  # a gap of a fifth of their height: apart
    assert layout_problems(frame(a, b)) == []
    b.next_to(a, DOWN, buff=0.01)  # one over the other: lines, not a word
    assert layout_problems(frame(a, b)) == []
    assert layout_problems(frame(mixed_line("$sqrt(d_k)$: 0.55"))) == []


def test_many_narrow_bars_keep_their_value_labels_apart():
    """The learning scene's descent: 9 narrow bars of the built-in lesson's losses, the last ones small
    and alike; each value label no wider than its share of the step from bar to bar."""
    from scenes.common.panels import bars

    losses = [1.69, 1.26, 0.97, 0.70, 0.46, 0.28, 0.18, 0.13, 0.09]
    chart = bars(losses, [str(i) for i in range(9)], narrow=True).move_to([0, 0, 0])
    assert [t.text for t in chart.value_labels] == [f"{x:.2f}" for x in losses]
    assert layout_problems(frame(chart)) == []


def test_a_name_column_head_wider_than_its_names_keeps_clear_of_the_next_column():
    """The geometry scene's table of contexts: a head ("context") wider than short names ("short")
    right-aligned with them, the strip as wide as the head, so it does not reach the next column's."""
    from scenes.common import spread as T
    from scenes.common.labels import word

    names = T.name_column([word("short")], T.head(word("context")), 1)
    values = T.number_column([0.82], T.head(word("animal")), None, T.table_cell_width([["0.82"]],
                                                                                   [word("animal")]))
    table = T.line_up([names, values]).move_to([0, 0, 0])
    assert layout_problems(frame(table)) == []
    assert names.head.get_right()[0] == pytest.approx(names[1][0].get_right()[0])


def test_a_formula_over_a_label_is_an_overlap():
    a, b = label("bank"), math("sqrt(d_k)")
    assert any(p.startswith("overlap:") and "bank" in p for p in layout_problems(frame(a, b)))


def test_a_box_over_part_of_a_text_is_named_and_a_text_in_its_box_is_not():
    from manim import Rectangle, VGroup

    from scenes.common.labels import word
    from scenes.common.mobjects import vector

    name, cells = label("ambiguity"), vector([0.06, 0.3], "#ffffff")  # a weight row over a dimension's name
    cells.next_to(name, DOWN, buff=-name.height / 4)  # its border through the name, its numbers below it
    problems = layout_problems(frame(name, cells))
    cut = "box over text: Text('ambiguity') cut by a Rectangle"
    assert problems and all(p.startswith(cut) for p in problems), problems
    cells.next_to(name, DOWN)  # apart: its numbers sit wholly inside their cells
    assert layout_problems(frame(name, cells)) == []
    strut = word("√dₖ is no rounding detail")  # a word's line-height box draws nothing
    hidden = Rectangle(width=0.2, height=0.2, stroke_width=0, fill_opacity=0).move_to(strut)
    assert layout_problems(frame(VGroup(strut, hidden))) == []


def test_off_frame_label_is_named():
    edge = label("geography").move_to(RIGHT * config.frame_width / 2)  # half of it past the edge
    problems = layout_problems(frame(edge))
    assert len(problems) == 1 and problems[0].startswith("off frame: Text('geography')"), problems


def test_a_label_at_the_edge_is_named_and_one_a_margin_inside_is_fine():
    from scenes.common.style import SAFE_MARGIN

    at_edge = label("geography").to_edge(DOWN, buff=0).to_edge(LEFT, buff=0)
    problems = layout_problems(frame(at_edge))
    assert len(problems) == 1 and problems[0].startswith("at the edge: Text('geography') 0.00"), problems
    inside = label("geography").to_edge(DOWN, buff=SAFE_MARGIN).to_edge(LEFT, buff=SAFE_MARGIN)
    assert layout_problems(frame(inside)) == []


def test_column_labels_share_one_size_and_one_baseline():
    """"ambiguity" (a descender) and "tech" (none) over narrow cells: one font size, and the glyphs that
    sit on the line ("a", "t") at one height: the bug was "ambiguity" higher than "tech"."""
    from scenes.common.mobjects import NumberGrid

    grid = NumberGrid([[0.5, 0.25]], col_labels=["ambiguity", "tech"], cell_w=1.6)  # one line
    (_, amb), (_, tech) = grid.col_labels  # word(): (strut, text)
    assert amb.font_size == pytest.approx(tech.font_size)
    assert amb[0].get_bottom()[1] == pytest.approx(tech[0].get_bottom()[1], abs=1e-3)  # "a" and "t"
    assert min(amb.get_bottom()[1], tech.get_bottom()[1]) > grid.boxes.get_top()[1]


def test_long_labels_take_two_lines_instead_of_shrinking():
    from scenes.common.mobjects import WeightBars
    from scenes.common.style import LABEL_SIZE, STAGGER_AT

    names = ["yesterday", "we", "walked", "riverside"]
    bars = WeightBars([0.1, 0.2, 0.3, 0.4], names)
    texts = [t for _, t in bars.token_labels]
    assert {round(t.font_size, 3) for t in texts} == {round(texts[0].font_size, 3)}  # one size
    assert texts[0].font_size >= LABEL_SIZE * STAGGER_AT
    tops = [m.get_top()[1] for m in bars.token_labels]
    assert tops[0] == pytest.approx(tops[2]) and tops[1] == pytest.approx(tops[3]) and tops[1] < tops[0]
    assert layout_problems(frame(bars)) == []
    short = WeightBars([0.5, 0.5], ["a", "b"])  # short names stay on one line
    assert short.token_labels[0].get_top()[1] == pytest.approx(short.token_labels[1].get_top()[1])


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
    assert (len(problems) == 1
            and problems[0].startswith("too small: Text('ambiguity') at font size")), problems


# -- a frame that fills the screen (layout.fill) ---------------------------------------------------

class Stepped(Scene):
    """What the fill check reads of a lesson scene: its id, its steps so far, its heading."""

    scene_id = "demo"

    def __init__(self, *mobjects, steps=("query_meets_keys", "all_scores")):
        super().__init__()
        self.step_keys = list(steps)
        self.header = label("Scores", 40).to_corner(UL, buff=0.35)
        self.add(self.header, *mobjects)


def test_a_body_that_fills_the_safe_area_passes():
    from scenes.common.layout import fill, fill_problems, safe_area
    from scenes.common.mobjects import NumberGrid

    grid = NumberGrid([[0.25, -1.41, 4.6], [0.0, 1.0, 0.69]], row_labels=["river", "bank"])
    scene = Stepped(grid)
    x0, y0, x1, y1 = safe_area(scene)
    grid.scale_to_fit_width((x1 - x0) * 0.9).move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0])
    figures = fill(scene)
    assert figures.width == pytest.approx(0.9, abs=0.01) and figures.height < 0.75
    assert abs(figures.dx) < 0.01 and abs(figures.dy) < 0.01 and figures.table_cap > 30
    assert fill_problems(scene) == [] and layout_problems(scene) == []
    assert fill_problems(Stepped(grid, steps=())) == []  # before any step: nothing to say


def test_a_small_body_off_centre_is_named_with_its_figures():
    from scenes.common.layout import fill, safe_area
    from scenes.common.mobjects import NumberGrid

    grid = NumberGrid([[0.25, -1.41], [0.0, 1.0]])
    scene = Stepped(grid)
    x0, y0, x1, y1 = safe_area(scene)
    grid.move_to([x0 + grid.width / 2, y0 + grid.height / 2, 0])  # the bottom left corner
    f = fill(scene)
    w, h = grid.boxes.width / (x1 - x0), grid.boxes.height / (y1 - y0)  # the boxes' strokes are the ink
    assert f.width == pytest.approx(w, abs=0.01) and f.height == pytest.approx(h, abs=0.01)
    problems = layout_problems(scene)
    assert problems[0] == f"fill: demo/02-all_scores spans {round(100 * f.width)} % wide, " \
                          f"{round(100 * f.height)} % high (needs 75 %)", problems
    assert problems[1].startswith("off centre: demo/02-all_scores centre ") and " left, " in problems[1] \
        and problems[1].endswith(" down (within 5 %)"), problems
    assert len(problems) == 2
    assert layout_problems(frame(grid.copy())) == []  # a plain scene (no steps) has no fill check


def test_a_table_scaled_too_small_is_named_even_when_it_fills():
    from scenes.common.layout import fill, safe_area
    from scenes.common.mobjects import NumberGrid
    from scenes.common.style import TABLE_CAP_PX

    grid = NumberGrid([[0.25, -1.41, 4.6, 0.0, 1.0, 0.69, 2.3, 0.5, 0.11, 0.07, 0.14, 0.92, 1.2, 0.3, 0.8,
                        0.45, 1.43, 0.06, 1.49, 0.01, 0.2, 0.33]])  # 22 columns: shrunk to fit the width
    scene = Stepped(grid)
    x0, y0, x1, y1 = safe_area(scene)
    grid.scale_to_fit_width((x1 - x0) * 0.95).move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0])
    f = fill(scene)
    assert f.width > 0.9 and f.table_cap < TABLE_CAP_PX
    assert layout_problems(scene) == [f"small numbers: demo/02-all_scores tables' numbers {f.table_cap:.1f} "
                                      f"px tall at 1080p (at least {TABLE_CAP_PX} px)"]


def test_the_heading_is_not_the_body_and_caps_the_safe_area():
    from scenes.common.layout import body_mobjects, ink_box, safe_area
    from scenes.common.style import GAP, SAFE_MARGIN

    dot = label("0.69")
    scene = Stepped(dot)
    assert body_mobjects(scene) == [dot]
    assert safe_area(scene)[3] == pytest.approx(scene.header.get_bottom()[1] - GAP)
    assert safe_area(Scene())[3] == pytest.approx(config.frame_height / 2 - SAFE_MARGIN)
    x0, y0, x1, y1 = ink_box([dot])
    assert (x1 - x0, y1 - y0) == pytest.approx((dot.width, dot.height), abs=1e-6)


class _Way:
    """A layout place_best can weigh: whether it fits (LessonScene.passes) and how large it can be."""

    def __init__(self, name: str, fits: bool, scale: float):
        self.name, self.fits, self.scale = name, fits, scale


class _Scene:
    """What LessonScene.place_best asks of its scene: passes, room and place_body; counts what it arranged."""

    def __init__(self):
        self.arranged = []

    def passes(self, way):
        return way.fits

    def room(self, way):
        return (0.8 if way.fits else 0.7), way.scale, 0.8

    def place_body(self, way):
        return way


def _place(scene, layouts, fallbacks=(), last=()):
    from scenes.common.base import LessonScene

    def arrange(way):
        def made():
            scene.arranged.append(way.name)
            return way
        return made

    return LessonScene.place_best(scene, *map(arrange, layouts), fallbacks=tuple(map(arrange, fallbacks)),
                                  last=tuple(map(arrange, last))).name


def test_the_last_ways_are_weighed_only_when_no_other_way_fits():
    """A layout for longer words (`last`) never replaces one that fits: a language whose words fit keeps
    its layout, the largest of those that fit."""
    usual, wider = _Way("usual", False, 1.0), _Way("wider", True, 0.9)
    wrapped_ = _Way("wrapped", True, 1.2)
    scene = _Scene()
    assert _place(scene, [usual], [wider], [wrapped_]) == "wider"
    assert "wrapped" not in scene.arranged  # not even weighed
    scene = _Scene()
    assert _place(scene, [_Way("fits", True, 0.8)], last=[wrapped_]) == "fits"
    assert scene.arranged == ["fits", "fits"]  # weighed, then arranged again to be placed
    scene = _Scene()  # nothing else fits: the largest way that does, of all
    tight, small = _Way("tight", False, 1.1), _Way("small", True, 0.7)
    assert _place(scene, [usual], [tight], [small, wrapped_]) == "wrapped"
