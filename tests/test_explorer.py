"""The explorer (attention-lesson explorer): the page opened from file:// in Debian's chromium with the
network blocked, its numbers read back from the DOM (data-value) and compared with attention_core for
the same state: the default lesson, a clicked token, another normalizer, an edited W entry; the URL's
state round-tripped and a bad one noted; the exported lesson file checked and its numbers, and its text
the lesson file's but for the numbers edited (comments and all); the layout of 2-, 4- and 8-token
lessons (Chinese tokens too) at laptop and phone widths, a table cut by its box only where the box
shows that it scrolls. tests/test_accessibility.py runs axe-core and the keyboard over the same page."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import attend, attend_tokens, hard_lookup, load
from attention_lesson.cli import main

from .explorer_helpers import LESSONS, Page, build, eight_by_eight, same, visit

pytestmark = pytest.mark.xdist_group("explorer")


def test_default_lesson_shows_the_lesson_text_numbers(browser, tmp_path):
    page = Page(browser, build(tmp_path))
    lesson = load("default")
    att = attend(lesson, "river")
    bank = att.index("bank")
    assert page.p.eval_on_selector_all("#scores .num.weight", "els => els.map(e => e.textContent)") == \
        ["0.11", "0.07", "0.69", "0.14"]
    assert page.p.eval_on_selector_all("#output .num", "els => els.map(e => e.textContent)") == \
        ["1.43", "0.06", "0.14", "0.00"]
    same(page.weights(), att.weights[bank])
    same(page.output(), att.output[bank])
    same(page.matrix(), att.weights)
    labels = page.p.eval_on_selector_all("#matrix td", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels[bank * 4 + 2] == "bank 关注 river：0.69"
    same(page.values("#lookup .hard .out .num"), hard_lookup(att).output[bank])
    assert page.p.eval_on_selector_all("#claims li",
                                       "els => els.map(e => e.dataset.holds)") == ["true", "true"]
    assert page.p.evaluate("document.documentElement.lang") == "zh"
    assert page.p.evaluate(BARE_NUMBERS_JS) == []
    assert page.close() == []


# every shown number with decimals sits in an element carrying its full value (data-value)
BARE_NUMBERS_JS = """() => {
  const walk = document.createTreeWalker(document.querySelector('#app'), NodeFilter.SHOW_TEXT);
  const bare = [];
  while (walk.nextNode()) {
    const n = walk.currentNode;
    if (/-?\\d+\\.\\d{2}/.test(n.nodeValue) && !n.parentElement.closest('[data-value]'))
      bare.push(n.nodeValue);
  }
  return bare;
}"""


def test_a_click_a_mode_and_an_edit_give_the_cores_numbers(browser, tmp_path):
    page = Page(browser, build(tmp_path, "default", "en"))
    lesson = load("default")
    page.p.click("#tokens button.token >> text=river")
    att = attend(lesson, "river")
    same(page.weights(), att.weights[2])
    page.p.check("input[name=mode][value=unscaled]")
    same(page.weights(), attend(lesson, "river", "unscaled").weights[2])
    page.p.fill("input[data-matrix=w_q][data-r='3'][data-c='0']", "0.5")  # ambiguity -> geography: 2.3 -> 0.5
    w_q = lesson.w_q.copy()
    w_q[3, 0] = 0.5
    edited = attend_tokens(replace(lesson, w_q=w_q), lesson.context("river"), "unscaled")
    same(page.matrix(), edited.weights)
    page.p.click("#matrix button[data-query='3']")
    same(page.weights(), edited.weights[3])
    same(page.output(), edited.output[3])
    assert "edited: 1" in page.p.inner_text("#edit-w_q h3")
    page.p.select_option("#context", "savings")
    same(page.matrix(),
         attend_tokens(replace(lesson, w_q=w_q), lesson.context("savings"), "unscaled").weights)
    assert page.close() == []


def test_the_slider_moves_its_cell_and_the_numbers(browser, tmp_path):
    page = Page(browser, build(tmp_path, "default", "en"))
    lesson = load("default")
    page.p.focus("input[data-matrix=x][data-r=river][data-c='0']")
    slider = page.p.locator("#edit-x input[type=range]")
    assert slider.get_attribute("aria-label") == "Slider for X river, geography"
    slider.evaluate("s => { s.value = '-1.5'; s.dispatchEvent(new Event('input', {bubbles: true})); }")
    assert page.p.input_value("input[data-matrix=x][data-r=river][data-c='0']") == "-1.5"
    vocab = dict(lesson.vocab) | {"river": np.array([-1.5, 0, 0, 0])}
    edited = attend_tokens(replace(lesson, vocab=vocab), lesson.context("river"))
    same(page.weights(), edited.weights[3])
    # the lesson says bank attends most to river; with river's geography negative it no longer does
    assert page.p.get_attribute("#claims li[data-context=river]", "data-holds") == "false"
    assert "no longer true" in page.p.inner_text("#claims li[data-context=river]")
    page.p.click("#reset")
    same(page.weights(), attend(lesson, "river").weights[3])
    assert page.p.get_attribute("#claims li[data-context=river]", "data-holds") == "true"
    assert page.close() == []


def test_the_url_keeps_the_state_and_a_bad_one_is_noted(browser, tmp_path):
    index = build(tmp_path, "default", "en")
    page = Page(browser, index)
    page.p.select_option("#context", "savings")
    page.p.check("input[name=mode][value=uniform]")
    page.p.fill("input[data-matrix=w_k][data-r='1'][data-c='1']", "3.25")
    page.p.fill("input[data-matrix=x][data-r=savings][data-c='3']", "0.125")
    page.p.click("#tokens button.token >> text=the")
    page.p.wait_for_function("Explorer.settled()")  # the URL follows within 250 ms
    hash_, weights, matrix = page.p.evaluate("location.hash"), page.weights(), page.matrix()
    assert "context=savings" in hash_ and "mode=uniform" in hash_ and "query=the" in hash_
    assert page.close() == []
    again = Page(browser, index, hash_=hash_)
    same(again.weights(), weights)
    same(again.matrix(), matrix)
    assert again.p.input_value("input[data-matrix=w_k][data-r='1'][data-c='1']") == "3.25"
    assert again.p.is_hidden("#note")
    again.p.fill("input[data-matrix=w_k][data-r='1'][data-c='1']", "2.5")
    again.p.wait_for_function("Explorer.settled()")
    again.p.reload()
    again.p.wait_for_selector("#matrix td")
    assert again.p.input_value("input[data-matrix=w_k][data-r='1'][data-c='1']") == "2.5"
    assert again.close() == []
    bad = ("#context=lake&query=zz&mode=cosine&x.nope=1,2,3,4&x.bank=1,2&w_q=1,2;3,4"
           "&w_v=a,b,c,d;1,1,1,1;1,1,1,1;1,1,1,1&foo=1")
    page = Page(browser, index, hash_=bad)
    same(page.matrix(), attend(load("default"), "river").weights)
    notes = page.p.eval_on_selector_all("#note li", "els => els.map(e => e.textContent)")
    assert len(notes) == 8 and any("lake" in n for n in notes) and any("nope" in n for n in notes), notes
    assert page.p.is_visible("#note")
    assert page.close() == []


def test_the_exported_lesson_checks_and_gives_the_pages_numbers(browser, tmp_path):
    index = build(tmp_path, str(LESSONS / "apple-zh.toml"), "zh")
    page = Page(browser, index, hash_="#mode=unscaled&context=company")
    page.p.fill("input[data-matrix=w_v][data-r='0'][data-c='1']", "-0.75")
    page.p.fill("input[data-matrix=x][data-r=股票][data-c='1']", "1e-3")
    with page.p.expect_download() as info:
        page.p.click("#export")
    dest = tmp_path / info.value.suggested_filename
    info.value.save_as(dest)
    assert dest.name == "apple-zh-explored.toml"
    weights, matrix, output = page.weights(), page.matrix(), page.output()
    assert page.close() == []
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(dest)]).exit_code == 0
    got = json.loads(runner.invoke(main, ["numbers", "--lesson", str(dest), "--context", "company", "--mode",
                                          "unscaled", "--json"]).output)
    focus = got["tokens"].index("苹果")
    same(got["weights"], matrix)
    same(got["weights"][focus], weights)
    same(got["output"][focus], output)
    exported, original = load(dest), load(LESSONS / "apple-zh.toml")
    assert exported.title == original.title and exported.context_labels == original.context_labels
    assert exported.narration == original.narration and exported.dimensions == original.dimensions


def test_the_language_switch_and_the_keyboard(browser, tmp_path):
    page = Page(browser, build(tmp_path))
    assert "探索页" in page.p.inner_text("h1")
    page.p.click("button[data-lang=en]")
    assert "explorer" in page.p.inner_text("h1") and page.p.evaluate("document.documentElement.lang") == "en"
    page.p.wait_for_function("Explorer.settled()")
    assert "lang=en" in page.p.evaluate("location.hash")
    focused = set()
    for _ in range(12):
        page.p.keyboard.press("Tab")
        focused.add(page.p.evaluate("document.activeElement.className || document.activeElement.id"))
    assert "token" in focused and "reset" in focused
    assert page.close() == []


OVERFLOW_JS = """() => {
  const out = [];
  const free = (e) => !e.closest('.scroll');
  for (const e of document.querySelectorAll('h1,h2,h3,p,li,label,legend,button,.box,header,footer')) {
    if (free(e) && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible')
      out.push('overflows: ' + e.tagName + ' ' + e.textContent.slice(0, 40));
  }
  const boxes = [...document.querySelectorAll('.box, header')].map(e => [e, e.getBoundingClientRect()]);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, b] = [boxes[i][1], boxes[j][1]];
    if (boxes[i][0].contains(boxes[j][0]) || boxes[j][0].contains(boxes[i][0])) continue;
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      out.push('overlap: ' + boxes[i][0].id + ' ' + boxes[j][0].id);
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push('page scrolls sideways: ' + doc.scrollWidth);
  return out;
}"""


# every table fits its scroll container's visible box (no cell cut at its edge), or the container
# scrolls and shows that it does: the sides with more marked (data-more, a faded edge), focusable, named
CLIP_JS = """() => {
  const out = [];
  for (const t of document.querySelectorAll('#app table')) {
    let s = t.parentElement;
    while (s !== document.documentElement && getComputedStyle(s).overflowX === 'visible') s = s.parentElement;
    const where = (s.closest('.box') || s).id;
    const left = s.getBoundingClientRect().left + s.clientLeft, right = left + s.clientWidth;
    if (s.scrollWidth <= s.clientWidth + 1) {
      for (const c of t.querySelectorAll('th, td')) {
        const r = c.getBoundingClientRect();
        if (r.left < left - 0.5 || r.right > right + 0.5) out.push(`cut: ${where} ${c.textContent}`);
      }
    } else if (s.dataset.more !== (s.scrollLeft > 1 ? 'both' : 'right')
               || getComputedStyle(s).maskImage === 'none' || s.tabIndex !== 0 || !s.ariaLabel) {
      out.push(`scrolls without showing it: ${where}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lesson", ["tiny.toml", "default", "wide.toml", "apple-zh.toml", "eight"])
def test_layouts_from_two_to_eight_tokens_at_laptop_and_phone_widths(browser, tmp_path, lesson):
    if lesson == "eight":
        (tmp_path / "eight.toml").write_text(eight_by_eight(), encoding="utf-8")
        path = tmp_path / "eight.toml"
    else:
        path = LESSONS / lesson if lesson.endswith(".toml") else lesson
    for lang in ("zh", "en"):
        index = build(tmp_path / lang, str(path), lang)
        for width in (1280, 360):
            page = Page(browser, index, width=width)
            assert page.p.evaluate(OVERFLOW_JS) == [], (lesson, lang, width)
            assert page.p.evaluate(CLIP_JS) == [], (lesson, lang, width)
            assert page.close() == []


def test_a_table_wider_than_a_phone_shows_that_it_scrolls(browser, tmp_path):
    """The 8-token weight matrix at 360 px: its hidden side fades and its heading ends in ⇆; the arrow
    keys scroll it (it takes focus, named by its heading); the marks follow the scrolling and survive a
    redraw; where the whole matrix fits (4 tokens at 1280 px), there are none."""
    index = build(tmp_path, str(LESSONS / "wide.toml"), "en")
    page = Page(browser, index, width=360)
    box = page.p.locator("#matrix .scroll")
    assert box.get_attribute("data-more") == "right" and box.get_attribute("tabindex") == "0"
    assert box.get_attribute("role") == "region"
    assert box.get_attribute("aria-label").startswith("The attention weights")
    assert box.evaluate("s => getComputedStyle(s).maskImage").startswith("linear-gradient")
    after = "getComputedStyle(document.querySelector('#matrix h3'), '::after').content"
    assert "⇆" in page.p.evaluate(after)
    box.focus()
    page.p.keyboard.press("ArrowRight")
    page.p.wait_for_function("document.querySelector('#matrix .scroll').dataset.more === 'both'")
    box.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
    page.p.wait_for_function("document.querySelector('#matrix .scroll').dataset.more === 'left'")
    page.p.click("#tokens button.token[data-query='0']")  # a redraw: the matrix's rows change
    # the marks survive the redraw and follow the new layout (new numbers, new widths: the scroll may
    # stop short of the end): the side that hides more is named, as the geometry says
    page.p.wait_for_function("""(() => { const s = document.querySelector('#matrix .scroll');
        const hidden = s.scrollWidth - s.clientWidth, l = s.scrollLeft > 1, r = s.scrollLeft < hidden - 1;
        return s.dataset.more === (l && r ? 'both' : l ? 'left' : 'right'); })()""")
    assert box.get_attribute("tabindex") == "0"
    assert page.close() == []
    page = Page(browser, build(tmp_path / "default", "default", "en"), width=1280)
    assert page.p.locator("#matrix .scroll").get_attribute("data-more") is None
    assert page.p.locator("#matrix .scroll").get_attribute("tabindex") is None
    assert page.close() == []


def test_the_page_is_a_product_a_rerun_leaves_alone(tmp_path):
    index = build(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in index.parent.iterdir()}
    result = CliRunner().invoke(main, ["explorer", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0 and "explorer 已是最新" in result.output
    assert {p: p.stat().st_mtime_ns for p in index.parent.iterdir()} == before
    data = (index.parent / "data.js").read_text(encoding="utf-8")
    assert data.startswith("window.EXPLORER_DATA = {") and "</" not in data  # never closes a script


def test_the_light_theme(browser, tmp_path):
    """--theme light: the page in the light theme's colours (and color-scheme), every number on the
    heat map in black or white as style.text_on picks it; the theme is in the page's digest."""
    from scenes.common.style import LIGHT, contrast, text_on

    page = Page(browser, build(tmp_path, "default", "en", "--theme", "light"))
    css = page.p.evaluate("""() => { const s = getComputedStyle(document.body);
        return [s.backgroundColor, s.color, getComputedStyle(document.documentElement).colorScheme]; }""")
    rgb = lambda c: "rgb(%d, %d, %d)" % tuple(round(x * 255) for x in c.to_rgb())  # noqa: E731
    assert css == [rgb(LIGHT.background), rgb(LIGHT.text), "light"]
    cells = page.p.eval_on_selector_all("#matrix td", """els => els.map(e => [
        getComputedStyle(e).backgroundColor, getComputedStyle(e).color])""")
    as_hex = lambda s: "#%02X%02X%02X" % tuple(map(int, re.findall(r"\d+", s)[:3]))  # noqa: E731
    assert len(cells) == 16 and len({bg for bg, _ in cells}) > 3  # a ramp, not one colour
    for bg, ink in cells:
        assert as_hex(ink) == text_on(as_hex(bg)) and contrast(as_hex(ink), as_hex(bg)) >= 4.5, (bg, ink)
    assert page.close() == []
    again = CliRunner().invoke(main, ["explorer", "--lang", "en", "--out", str(tmp_path / "out")])
    assert again.exit_code == 0 and "explorer made" in again.output, again.output  # dark: made again


# one of each kind of line the note can hold: bad_lang, bad_context, bad_query, bad_mode, bad_token,
# bad_row, bad_matrix, bad_key
EVERY_BAD = "#lang=xx&context=lake&query=zz&mode=cosine&x.nope=1,2,3,4&x.bank=1,2&w_q=1,2;3,4&foo=1"


def test_no_word_is_missing_from_any_view(browser, tmp_path):
    """Every catalog key and {field} the page asks for is there (shared.js records a missing one in
    AL.missing and warns on the console, which Page counts as a problem): every view in both languages,
    the note with every kind of line, the slider, an edited field, a broken and a tied claim, and the
    view the studio shows (no number fields)."""
    for lang in ("zh", "en"):
        index = build(tmp_path / lang, "default", lang)
        page = Page(browser, index, hash_=EVERY_BAD)
        assert len(page.p.eval_on_selector_all("#note li", "els => els.map(e => e.textContent)")) == 8
        page.p.focus("input[data-matrix=x][data-r=river][data-c='0']")
        page.p.fill("input[data-matrix=x][data-r=river][data-c='0']", "-1.5")
        assert page.p.get_attribute("#claims li[data-context=river]", "data-holds") == "false"
        visit(page, load("default"))
        assert page.p.evaluate("AL.missing") == []
        assert page.close() == []
    view = index.with_name("view.html")
    view.write_text(index.read_text(encoding="utf-8").replace(
        "AttentionCore);", "AttentionCore, { editable: false });"), encoding="utf-8")
    page = Page(browser, view)
    assert page.p.locator("#inputs").count() == 0
    visit(page, load("default"))
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []


def test_a_missing_word_shows_its_key_and_is_caught(browser, tmp_path):
    """A key the catalog lacks shows as the key, a {field} nobody gives as itself; the page goes on, and
    both are in AL.missing and on the console as warnings (so the test above would fail)."""
    index = build(tmp_path, "default", "en")
    data_js = index.with_name("data.js")
    head, payload = data_js.read_text(encoding="utf-8").split(" = ", 1)
    data = json.loads(payload.rstrip().removesuffix(";"))
    del data["words"]["en"]["reset"]
    data["words"]["en"]["tokens"] = "Tokens {oops}"
    data_js.write_text(f"{head} = {json.dumps(data)};\n", encoding="utf-8")
    page = Page(browser, index)
    assert page.p.inner_text("#reset") == "reset"
    assert page.p.inner_text("#tokens h2") == "Tokens {oops}"
    same(page.matrix(), attend(load("default"), "river").weights)  # the numbers are all there
    assert sorted(page.p.evaluate("AL.missing")) == ["en: reset", "en: tokens {oops}"]
    assert sorted(page.close()) == ["attention-lesson: no word for en: reset",
                                    "attention-lesson: no word for en: tokens {oops}"]


# a number as a lesson file writes it (the pieces between two numbers must stay as they were)
