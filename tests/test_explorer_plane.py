"""The explorer's plane (web/explorer-plane.js): attention as geometry, drawn from core.js's picture, read
back from the SVG (every arrow carries its plane coordinates in data attributes, every number its full
value) and compared with attention_core.geometry for the same state: the default lesson as it opens, an
edited W_Q cell, the other context and normalizers, another query, a lesson whose planes hold part of
the terms and one that names its planes; the drawing keeps right angles right (one scale per panel);
the SVGs are images with a name and a description; no console warning, no missing word."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from attention_core import load
from attention_core.geometry import picture, planes
from scenes.common.i18n import catalog

from .explorer_helpers import Page, build, same
from .random_lessons import random_lesson

pytestmark = pytest.mark.xdist_group("explorer")

# the plane's arrows and numbers as drawn: plane coordinates from data-*, screen ones from the SVG
READ_JS = """() => {
  const pts = (sel, attr) => [...document.querySelectorAll(`#plane ${sel}`)]
    .map(e => e.getAttribute(`data-${attr}`).split(' ').map(Number));
  const vals = (sel) => [...document.querySelectorAll(`#plane ${sel}`)].map(e => Number(e.dataset.value));
  const line = (e) => ['x1', 'y1', 'x2', 'y2'].map(a => Number(e.getAttribute(a)));
  return {
    query: pts('.query-arrow', 'tip')[0], keys: pts('.key-arrow', 'tip'), feet: pts('.foot', 'foot'),
    tails: pts('.value-arrow.step', 'tail'), tips: pts('.value-arrow.step', 'tip'),
    values: pts('.value-arrow.faint', 'tip'), output: pts('.out-arrow', 'tip')[0],
    reach: vals('[data-plane=qk] table td:nth-child(2) .num'),
    shown: vals('[data-plane=qk] table td:nth-child(3) .num'),
    weights: vals('[data-plane=qk] table .num.weight'), labels: vals('.score-label'),
    shares: vals('.plane-share .num'), heading: document.querySelector('#plane h3').textContent,
    captions: [...document.querySelectorAll('#plane figcaption')].map(e => e.textContent),
    drops: [...document.querySelectorAll('#plane .drop')].map(line),
    queryLine: [...document.querySelectorAll('#plane .query-line')].map(line)[0],
  };
}"""


def shown_plane(page: Page) -> dict:
    return page.p.evaluate(READ_JS)


def same_as_core(got: dict, p) -> None:
    """Every arrow and number of the page's plane against the core's picture."""
    for f in ("query", "keys", "feet", "tails", "tips", "values", "output", "reach", "shown", "weights"):
        same(got[f], getattr(p, f))
    # each score's label is one of the shadows × |q| (labels on one spot are written once)
    assert got["labels"] and all(np.isclose(p.shown, x, rtol=0, atol=1e-12).any() for x in got["labels"])
    assert {f"{x:.2f}" for x in got["labels"]} == {f"{x:.2f}" for x in p.shown}


def right_angles(got: dict) -> None:
    """Every drop from a key to its foot is square to the query's line as drawn (coordinates to 0.1)."""
    x1, y1, x2, y2 = got["queryLine"]
    u = np.array([x2 - x1, y2 - y1]) / np.hypot(x2 - x1, y2 - y1)
    for a, b, c, d in got["drops"]:
        drop = np.array([c - a, d - b])
        if np.hypot(*drop) > 20:
            assert abs(drop @ u) / np.hypot(*drop) < 0.01, (drop, u)


def test_the_plane_is_the_cores_picture(browser, tmp_path):
    page = Page(browser, build(tmp_path))
    lesson = load("default")
    p = picture(lesson, "river")
    got = shown_plane(page)
    same_as_core(got, p)
    right_angles(got)
    assert len(got["drops"]) == 4 and got["shares"] == [pytest.approx(p.v.share, abs=1e-12)]  # V: 92 %
    assert got["heading"] == "把注意力画成箭头：bank 的 Query、各个 Key 和 Value"
    assert got["captions"][0] == "分数就是影子：dₖ 的第 1、2 轴" and "（地理、金融）" in got["captions"][1]
    tr = catalog("zh")
    names = page.p.evaluate("""() => [...document.querySelectorAll('#plane svg')].map(s => [
      s.getAttribute('role'), document.getElementById(s.getAttribute('aria-labelledby')).textContent,
      s.querySelector('title').id,
      document.getElementById(s.getAttribute('aria-describedby')).textContent])""")
    desc = [tr(f"explorer.plane_{k}_desc", token="bank") for k in ("qk", "v")]
    assert names == [["img", got["captions"][0], "plane-qk-title", desc[0]],
                     ["img", got["captions"][1], "plane-v-title", desc[1]]]
    assert page.close() == []


# every label's box and every arrow's shaft as drawn (SVG units), with the tip each shaft ends at
BOXES_JS = """() => [...document.querySelectorAll('#plane svg')].map(svg => ({
  labels: [...svg.querySelectorAll('text.k-label, text.v-label, text.q-label, text.out-label, ' +
                                   'text.score-label')]
    .map(t => { const b = t.getBBox(); return {cls: t.getAttribute('class'), text: t.textContent,
                                               box: [b.x, b.y, b.width, b.height]}; }),
  shafts: [...svg.querySelectorAll('g > line.shaft')].map(l => ['x1', 'y1', 'x2', 'y2']
    .map(a => Number(l.getAttribute(a)))),
}))"""


def crosses(box, seg, inset: float = 3) -> bool:
    """Whether segment (x1, y1, x2, y2) crosses box (x, y, w, h) less `inset` at every edge (a text's box
    is its line's, taller than its ink) (Liang-Barsky)."""
    x, y, w, h = box[0] + inset, box[1] + inset, box[2] - 2 * inset, box[3] - 2 * inset
    (ax, ay), d = seg[:2], (seg[2] - seg[0], seg[3] - seg[1])
    t0, t1 = 0.0, 1.0
    for p, q in ((-d[0], ax - x), (d[0], x + w - ax), (-d[1], ay - y), (d[1], y + h - ay)):
        if p == 0 and q < 0:
            return False
        if p != 0:
            t0, t1 = (max(t0, q / p), t1) if p < 0 else (t0, min(t1, q / p))
    return t0 <= t1


def labels_in_the_way(panels) -> list[str]:
    """The labels whose box an arrow's shaft crosses, other than the arrow it names (the one whose end is
    nearest the label; a score label names none)."""
    out = []
    for panel in panels:
        for lab in panel["labels"]:
            x, y, w, h = lab["box"]
            centre = np.array([x + w / 2, y + h / 2])
            ends = [np.hypot(*(centre - s[2:])) for s in panel["shafts"]]
            own = None if "score" in lab["cls"] or not ends else int(np.argmin(ends))
            out += [f"{lab['text']} crossed by shaft {i}" for i, s in enumerate(panel["shafts"])
                    if i != own and crosses(lab["box"], s)]
    return out


@pytest.mark.parametrize("lesson, hash_", [("default", ""), ("default", "#context=savings"),
                                           ("wide.toml", "")])
def test_no_arrow_crosses_a_label_but_its_own(browser, tmp_path, lesson, hash_):
    from .explorer_helpers import LESSONS

    lesson = lesson if lesson == "default" else str(LESSONS / lesson)
    page = Page(browser, build(tmp_path, lesson), hash_=hash_)
    assert labels_in_the_way(page.p.evaluate(BOXES_JS)) == []
    assert page.close() == []


def test_an_edit_moves_the_query_arrow_to_the_cores_new_end(browser, tmp_path):
    page = Page(browser, build(tmp_path, "default", "en"))
    lesson = load("default")
    before = shown_plane(page)["query"]
    page.p.fill("input[data-matrix=w_q][data-r='3'][data-c='1']", "0.5")  # ambiguity -> finance: 2.3 -> 0.5
    w_q = lesson.w_q.copy()
    w_q[3, 1] = 0.5
    p = picture(replace(lesson, w_q=w_q), "river")
    got = shown_plane(page)
    same(got["query"], p.query)
    assert not np.allclose(got["query"], before)
    same_as_core(got, p)
    right_angles(got)
    page.p.click("#reset")
    same(shown_plane(page)["query"], before)
    assert page.close() == []


@pytest.mark.parametrize("mode", ["scaled", "unscaled", "uniform"])
@pytest.mark.parametrize("context", ["river", "savings"])
def test_the_context_and_normalizer_switches(browser, tmp_path, context, mode):
    page = Page(browser, build(tmp_path, "default", "en"))
    page.p.select_option("#context", context)
    page.p.check(f"input[name=mode][value={mode}]")
    p = picture(load("default"), context, mode)
    got = shown_plane(page)
    same_as_core(got, p)
    widths = page.p.eval_on_selector_all(  # a key of no length is a dot: no width
        "#plane .key-arrow",
        "els => els.map(e => +(e.querySelector('line')?.getAttribute('stroke-width') || 0))")
    drawn = [x for x in widths if x]
    if mode == "uniform":  # every key the same weight, the same look
        assert len(set(drawn)) == 1 and np.allclose(got["weights"], 1 / 4)
    else:  # the heaviest key is the thickest, and the weights do differ
        assert int(np.argmax(widths)) == int(np.argmax(p.weights)) and len(set(drawn)) == len(drawn)
    assert page.close() == []


def test_another_query_is_drawn_in_its_own_planes(browser, tmp_path):
    """A clicked token is the query everywhere on the page, the plane too: as the core draws the lesson
    whose focus it is."""
    page = Page(browser, build(tmp_path, "default", "en"))
    page.p.click("#tokens button.token >> text=the")
    got = shown_plane(page)
    same_as_core(got, picture(replace(load("default"), focus="the"), "river"))
    assert got["heading"] == "Attention as arrows: the's query, the keys and the values"
    assert page.close() == []


def test_a_plane_that_holds_part_of_the_terms_says_how_much(browser, tmp_path):
    """A random lesson of 4 d_k and 3 d_v axes: each plane names its share and the table keeps the whole
    scores; a lesson's [geometry] table chooses the axes."""
    path = tmp_path / "random.toml"
    path.write_text(random_lesson(0), encoding="utf-8")
    lesson = load(path)
    page = Page(browser, build(tmp_path / "a", str(path), "en"))
    qk, v = planes(lesson)
    assert qk.share < 1 and v.share < 1 and qk.axes == (1, 2)
    got = shown_plane(page)
    same(got["shares"], [qk.share, v.share])
    same_as_core(got, picture(lesson, "alpha"))
    whole = page.p.eval_on_selector_all("[data-plane=qk] table td:nth-child(4) .num",
                                        "els => els.map(e => +e.dataset.value)")
    same(whole, picture(lesson, "alpha").scores)
    assert got["captions"][0] == "Scores as shadows: axes 2 and 3 of dₖ"
    assert page.p.inner_text(".plane-share").startswith(f"This plane holds {qk.share:.0%}")
    assert page.close() == []
    table = '\n[geometry]\nqk = [4, 1]\nvalues = ["sound", "era"]\n'
    path.write_text(random_lesson(0) + table, encoding="utf-8")
    named = load(path)
    page = Page(browser, build(tmp_path / "b", str(path), "en"))
    got = shown_plane(page)
    same_as_core(got, picture(named, "alpha"))
    assert got["captions"][0] == "Scores as shadows: axes 1 and 4 of dₖ"
    assert got["captions"][1].endswith("(sound and era)")
    assert page.close() == []


def test_both_languages_have_every_word(browser, tmp_path):
    page = Page(browser, build(tmp_path, "default", "en"))
    page.p.click("button[data-lang=zh]")
    page.p.check("input[name=mode][value=unscaled]")
    page.p.click("button[data-lang=en]")
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []


def test_numbers_past_the_largest_double_draw_what_they_can(browser, tmp_path):
    """An entry of 1e308 makes scores inf and weights nan: the page keeps going (no error on the console),
    the plane draws no coordinate that is not a number and its tables say inf and nan."""
    page = Page(browser, build(tmp_path, "default", "en"))
    for field in ("w_q][data-r='3'][data-c='0'", "x][data-r=river][data-c='0'"):
        page.p.fill(f"input[data-matrix={field}]", "1e308")
        bad = page.p.evaluate("""() => [...document.querySelectorAll('#plane svg *')].flatMap(e =>
          [...e.attributes].filter(a => !a.name.startsWith('data-') && /NaN|Infinity/.test(a.value))
          .map(a => `${e.tagName} ${a.name}`))""")
        assert bad == []
        assert "nan" in page.p.inner_text("[data-plane=qk] table")
    assert page.close() == []
