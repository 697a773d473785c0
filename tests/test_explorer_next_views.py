"""The explorer's boxes of the lessons the lesson points to (web/explorer-next.js), read back from the DOM in
Debian's chromium and compared with numbers --json (attention_core/next/): learning (every step's loss and
target weight, the step slider's weights, W_Q, W_K and gradients, the hard lookup's zero slopes),
positions (each token's output row in the sentence and its reversal, without positions and with RoPE;
the shifted scores), tiles (m, α, l and o after each block, o / l against the full softmax, the memory);
an edit of a number, another query, another context and the what-if mask recomputing them (a lesson
without a table has no box: tests/test_explorer_next.py's causal lesson); every word in zh, en and
ja; the layout at 1280 and 360 px; axe."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from attention_core import load, numbers_json

from .axe import violations
from .explorer_helpers import Page, build, eight_by_eight, same
from .test_explorer import CLIP_JS, OVERFLOW_JS

pytestmark = pytest.mark.xdist_group("explorer")
LESSONS = {"learning": "#learning", "positions": "#positions", "tiled": "#tiles"}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """(lesson, "en") -> its explorer's index.html, built once by the CLI (other languages: its buttons)."""
    out = tmp_path_factory.mktemp("next-views")
    return {(name, "en"): build(out / name, name, "en") for name in LESSONS}


def box_ids(page: Page) -> list[str]:
    return page.p.eval_on_selector_all(".next-box", "els => els.map(e => e.id)")


def test_the_learning_box_follows_the_descent_the_slider_and_an_edit(browser, pages):
    page = Page(browser, pages["learning", "en"])
    assert box_ids(page) == ["learning"]
    lesson = load("learning")
    want = numbers_json(lesson)["training"]
    t = want["target_index"]
    same(page.values("#learning .num.loss"), [s["loss"] for s in want["steps"]])
    same(page.values("#learning .num.target"), [s["weights"][t] for s in want["steps"]])
    assert page.p.get_attribute(".learn-steps tr.query", "data-step") == "8"  # the last step at first
    page.p.locator("#train-step").fill("2")
    assert page.p.get_attribute(".learn-steps tr.query", "data-step") == "2"
    step = want["steps"][2]
    same(page.values("#step-weights .num"), step["weights"])
    tables = page.p.eval_on_selector_all(".learn-matrices table", "ts => ts.map(t => [...t.querySelectorAll("
                                         "'.num')].map(e => +e.dataset.value))")
    for got, f in zip(tables, ("w_q", "w_k", "grad_w_q", "grad_w_k"), strict=True):
        same(got, np.ravel(step[f]))
    assert page.values(".hard-slope") == [0.0] * 4 and want["hard"]["slopes"] == [0.0] * 4
    same(page.values(".soft-slope"), want["hard"]["soft_slopes"])
    assert "picks by" in page.p.inner_text("#learning")
    # bank's query made to look for geography: river wins from the first step, the loss starts lower
    page.p.fill("input[data-matrix=w_q][data-r='3'][data-c='0']", "1.5")
    w_q = lesson.w_q.copy()
    w_q[3, 0] = 1.5
    edited = numbers_json(replace(lesson, w_q=w_q))["training"]
    same(page.values("#learning .num.loss"), [s["loss"] for s in edited["steps"]])
    assert edited["steps"][0]["loss"] < want["steps"][0]["loss"]
    same(page.values("#step-weights .num"), edited["steps"][2]["weights"])  # the slider's step kept
    page.p.check("input[name=mode][value=unscaled]")
    unscaled = numbers_json(replace(lesson, w_q=w_q), mode="unscaled")["training"]
    same(page.values("#learning .num.loss"), [s["loss"] for s in unscaled["steps"]])
    assert page.close() == []


def test_the_step_slider_is_in_the_url_both_ways(browser, pages):
    """A link to a step of the training opens at that step (its row marked, its weights and W_Q those of
    the core's step), the slider moved writes it, a reload keeps it; a step the run does not have is
    noted and the last step shown."""
    want = numbers_json(load("learning"))["training"]
    index = pages["learning", "en"]
    page = Page(browser, index, hash_="#step=3")
    assert page.p.input_value("#train-step") == "3" and page.p.is_hidden("#note")
    assert page.p.get_attribute(".learn-steps tr.query", "data-step") == "3"
    same(page.values("#step-weights .num"), want["steps"][3]["weights"])
    same(page.values(".learn-matrices table.role-q .num")[:len(np.ravel(want["steps"][3]["w_q"]))],
         np.ravel(want["steps"][3]["w_q"]))
    page.p.locator("#train-step").fill("5")
    page.p.wait_for_function("Explorer.settled()")
    assert "step=5" in page.p.evaluate("location.hash").split("&")
    page.p.reload()
    page.p.wait_for_selector("#matrix td")
    assert page.p.input_value("#train-step") == "5"
    same(page.values("#step-weights .num"), want["steps"][5]["weights"])
    assert page.close() == []
    last = len(want["steps"]) - 1
    page = Page(browser, index, hash_="#step=99")
    notes = page.p.eval_on_selector_all("#note li", "els => els.map(e => e.textContent)")
    assert notes == [f"step = “99”: not a step of this lesson's training (0 to {last})"]
    assert page.p.input_value("#train-step") == str(last)
    assert page.close() == []


def follow_rows(p: dict, name: str) -> list[float]:
    """Each position's output row in the sentence, then the same token's row in the reversed one."""
    here, there = p[name]["output"], p[f"{name}_shuffled"]["output"]
    n = len(here)
    return [x for i in range(n) for x in [*here[i], *there[n - 1 - i]]]


def test_the_positions_box_shows_equivariance_and_rope_breaking_it(browser, pages):
    page = Page(browser, pages["positions", "en"])
    assert box_ids(page) == ["positions"]
    lesson = load("positions")
    want = numbers_json(lesson, "man_first")["positions"]
    same(page.values("#pos-without .num"), follow_rows(want, "without"))
    same(page.values("#pos-with .num"), follow_rows(want, "with"))
    holds = page.p.eval_on_selector_all("#positions p[data-holds]", "els => els.map(e => e.dataset.holds)")
    assert holds == ["true", "false"] and want["without_gap"] < 1e-12 < 0.5 < want["with_gap"]
    same(page.values(".pos-table .num"), np.ravel(want["angles"]))
    shift = page.values(".pos-shift .num")
    same(shift, [x for a, b in zip(want["with"]["scores"], want["shifted"]["scores"]) for x in [*a, *b]])
    same(page.values(".pos-weights .num"), [*want["without"]["weights"][1], *want["with"]["weights"][1]])
    page.p.click("#tokens button.token[data-query='2']")  # dog's weights
    same(page.values(".pos-weights .num"), [*want["without"]["weights"][2], *want["with"]["weights"][2]])
    page.p.select_option("#context", "dog_first")
    other = numbers_json(lesson, "dog_first")["positions"]
    same(page.values("#pos-with .num"), follow_rows(other, "with"))
    page.p.fill("input[data-matrix=x][data-r=bites][data-c='0']", "0.5")  # bites a little of a dog
    vocab = dict(lesson.vocab, bites=np.array([0.5, 0.0, 1.0]))
    edited = numbers_json(replace(lesson, vocab=vocab), "dog_first")["positions"]
    same(page.values("#pos-without .num"), follow_rows(edited, "without"))
    same(page.values("#pos-with .num"), follow_rows(edited, "with"))
    assert page.close() == []


def tile_values(page: Page, t: dict, i: int) -> None:
    blocks = range(len(t["spans"]))
    same(page.values(".tile-m"), [t["m"][b][i] for b in blocks])
    same(page.values(".tile-alpha"), [t["alpha"][b][i] for b in blocks])
    same(page.values(".tile-l"), [t["l"][b][i] for b in blocks])
    same(page.values(".tile-o"), [x for b in blocks for x in t["o"][b][i]])
    same(page.values("#tile-output .num"), t["output"][i])
    same(page.values("#tile-full .num"), t["full_output"][i])


def test_the_tiles_box_rescales_block_by_block_to_the_full_softmax(browser, pages):
    page = Page(browser, pages["tiled", "en"])
    assert box_ids(page) == ["tiles"]
    lesson = load("tiled")
    want = numbers_json(lesson)["tiles"]
    tile_values(page, want, 2)  # bank
    assert page.values(".tile-m")[1:] == pytest.approx([0.69, 2.3])  # river's block: m jumps
    assert page.values("#tiles .memory strong") == [12, 36]
    assert page.p.inner_text("#tiles .blocks").split() == ["block", "1:", "at", "the", "block", "2:", "bank",
                                                           "by", "block", "3:", "the", "river"]
    page.p.click("#tokens button.token[data-query='5']")
    tile_values(page, want, 5)
    page.p.check("#mask")  # the what-if mask: the keys after each query add nothing
    masked = numbers_json(replace(lesson, mask="causal"))["tiles"]
    tile_values(page, masked, 5)
    page.p.click("#tokens button.token[data-query='0']")
    tile_values(page, masked, 0)
    assert page.values(".tile-alpha") == [0.0, 1.0, 1.0] and page.values(".tile-l") == [1.0] * 3
    assert page.close() == []


def layout(page: Page, where: tuple) -> None:
    assert page.p.evaluate(OVERFLOW_JS) == [], where
    assert page.p.evaluate(CLIP_JS) == [], where


@pytest.mark.parametrize("name", list(LESSONS))
def test_every_word_the_layout_and_axe_at_laptop_and_phone_widths(browser, pages, name):
    """One page: en at 1280 px (and axe on the box), at 360 px; zh at 360 px and at 1280 px; then ja
    and en again: no word missing in any of them."""
    page = Page(browser, pages[name, "en"])
    layout(page, (name, "en", 1280))
    assert violations(page.p, context=LESSONS[name]) == [], name
    for lang, width in (("en", 360), ("zh", 360), ("zh", 1280)):
        page.p.set_viewport_size({"width": width, "height": 900})
        page.p.click(f"button[data-lang={lang}]")
        page.p.evaluate("() => new Promise(requestAnimationFrame)")  # laid out, the scroll marks set
        layout(page, (name, lang, width))
    for lang in ("ja", "en"):
        page.p.click(f"button[data-lang={lang}]")
        if name == "learning":
            page.p.locator("#train-step").fill("0")
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []


ALL_THREE = """
[training]
target = "hotel"
learning_rate = 0.3
steps = 40

[positions]
kind = "sinusoidal"
base = 100

[tiling]
block = 3
"""


def test_eight_tokens_and_dimensions_with_the_three_tables_at_phone_and_laptop_widths(browser, tmp_path):
    """The most the boxes lay out: 8 tokens and 8 dimensions, 41 steps (the loss from 12.3 to 0), 3
    blocks, every box at 360 px and 1280 px."""
    path = tmp_path / "eight.toml"
    path.write_text(eight_by_eight() + ALL_THREE, encoding="utf-8")
    page = Page(browser, build(tmp_path, str(path), "en"), width=360)
    assert box_ids(page) == ["learning", "positions", "tiles"]
    assert len(page.values("#learning .num.loss")) == 41 and len(page.values(".tile-l")) == 3
    layout(page, ("eight", 360))
    page.p.set_viewport_size({"width": 1280, "height": 900})
    page.p.evaluate("() => new Promise(requestAnimationFrame)")
    layout(page, ("eight", 1280))
    assert page.close() == []
