"""The explorer and the studio on the next lessons: the causal mask (the lesson's, struck out
as −∞ and 0; the what-if switch on a lesson without one, in the URL) and several heads (a tab per head
showing that head's numbers, the heads together, W_O), read back from the DOM in Debian's chromium and
compared with attention_core; an edit of a head's W_Q reaching its numbers, the multi-head output, the
URL and the download; every word in the catalogs; the layouts of 2 and 4 heads at laptop and phone
widths. The one-head lessons' page data stays as it was."""

from __future__ import annotations

import contextlib
import json
import shutil
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import attend, load, loads, numbers_json
from attention_core.multihead import attend_heads
from attention_lesson.cli import main
from attention_lesson.outputs.explorer import lesson_data

from .explorer_helpers import Page, build, same, visit
from .random_next_lessons import random_next_lesson
from .test_explorer import CLIP_JS, OVERFLOW_JS
from .test_explorer_export import NUMBER, download

pytestmark = pytest.mark.xdist_group("explorer")
ONE_HEAD_KEYS = {"vocab", "w_q", "w_k", "w_v", "contexts", "focus", "title", "author", "dimensions",
                 "context_labels", "narration", "geometry"}


def test_a_lesson_of_one_head_gets_the_page_data_it_always_had():
    assert set(lesson_data(load("default"))) == ONE_HEAD_KEYS
    assert set(lesson_data(load("causal"))) == ONE_HEAD_KEYS | {"mask"}
    two = lesson_data(load("two_heads"))
    assert set(two) == ONE_HEAD_KEYS | {"heads", "w_o", "focus_head"}
    assert [(h["key"], h["names"]) for h in two["heads"]] == [
        ("meaning", {"zh": "词义", "en": "meaning", "ja": "意味"}),
        ("grammar", {"zh": "语法", "en": "grammar", "ja": "文法"})]


def mh_output(page: Page, n: int) -> np.ndarray:
    return np.array(page.values("#mh-output tr[data-row] .num")).reshape(n, -1)


def test_the_causal_lesson_strikes_out_the_keys_after_each_query(browser, tmp_path):
    page = Page(browser, build(tmp_path, "causal", "en"))
    lesson = load("causal")
    assert page.p.locator(".next-box, #train-step").count() == 0  # no [training], [positions], [tiling]
    att = attend(lesson, "ahead")
    m = page.matrix()
    same(m, att.weights)
    assert (m[np.triu_indices(4, 1)] == 0).all() and m[0].tolist() == [1, 0, 0, 0]
    assert np.abs(m.sum(axis=1) - 1).max() < 1e-12
    struck = page.p.eval_on_selector_all("#matrix td.masked", "els => els.map(e => [+e.dataset.row, "
                                         "+e.dataset.col, e.textContent])")
    assert sorted(map(tuple, struck)) == [(r, c, "0.00") for r in range(4) for c in range(r + 1, 4)]
    cells = page.p.eval_on_selector_all("#masked td", "els => els.map(e => e.textContent)")
    assert cells.count("\u2212\u221e") == 6 and "-inf" not in cells
    assert page.values("#masked td.masked .num") == [float("-inf")] * 6
    same(page.values("#masked td:not(.masked) .num"), att.scaled[att.mask])
    # bank's scores: by and river come after it: −∞ before the softmax, weight 0
    scaled = page.p.eval_on_selector_all("#scores .score-row td:nth-child(3)", "els => els.map(e => "
                                         "e.textContent)")
    assert scaled == ["0.00", "0.69", "\u2212\u221e", "\u2212\u221e"]
    same(page.weights(), att.weights[1])
    assert page.p.is_checked("#mask") and page.p.inner_text("#whatif") == ""
    page.p.uncheck("#mask")  # what if it had no mask: bank finds river
    unmasked = attend(lesson, "ahead", masked=False)
    same(page.matrix(), unmasked.weights)
    assert page.p.locator("#matrix td.masked").count() == 0 and page.p.is_hidden("#masked")
    assert page.p.inner_text("#whatif") == "what-if: this lesson's mask taken off"
    assert page.p.get_attribute("#claims li[data-context=ahead]", "data-holds") == "false"
    assert page.close() == []


def test_the_what_if_mask_on_the_default_lesson_and_in_the_url(browser, tmp_path):
    index = build(tmp_path, "default", "zh")
    page = Page(browser, index)
    lesson = load("default")
    assert not page.p.is_checked("#mask") and page.p.is_hidden("#masked")
    page.p.check("#mask")
    same(page.matrix(), attend(lesson, "river", masked=True).weights)
    assert page.p.inner_text("#whatif") == "假设：本课原本没有掩码"
    assert "因果掩码" in page.p.inner_text("label:has(#mask)")
    page.p.check("input[name=mode][value=unscaled]")
    masked = attend(lesson, "river", "unscaled", masked=True)
    same(page.matrix(), masked.weights)
    same(page.weights(), masked.weights[3])
    same(page.output(), masked.output[3])
    page.p.wait_for_function("Explorer.settled()")
    hash_ = page.p.evaluate("location.hash")
    assert "mask=causal" in hash_
    assert page.close() == []
    again = Page(browser, index, hash_=hash_)
    assert again.p.is_checked("#mask")
    same(again.matrix(), masked.weights)
    again.p.uncheck("#mask")
    same(again.matrix(), attend(lesson, "river", "unscaled").weights)
    again.p.wait_for_function("Explorer.settled()")
    assert "mask=none" in again.p.evaluate("location.hash")
    assert again.close() == []
    bad = Page(browser, index, hash_="#lang=en&mask=sideways&head=meaning")
    notes = bad.p.eval_on_selector_all("#note li", "els => els.map(e => e.textContent)")
    assert notes == ["mask = “sideways”: not causal or none", "head = “meaning”: not a head of this lesson"]
    same(bad.matrix(), attend(lesson, "river").weights)
    assert bad.close() == []


def tabs(page: Page) -> list[tuple[str, str, str]]:
    return [tuple(t) for t in page.p.eval_on_selector_all(
        "[role=tablist] [role=tab]", "els => els.map(e => [e.textContent, e.getAttribute('aria-selected'),"
        " e.tabIndex + ''])")]


def focused_head(page: Page) -> str:
    return page.p.evaluate("document.activeElement.dataset.head")


def test_a_tab_per_head_shows_that_heads_numbers_and_the_heads_together(browser, tmp_path):
    page = Page(browser, build(tmp_path, "two_heads", "en"))
    lesson = load("two_heads")
    assert tabs(page) == [("meaning", "true", "0"), ("grammar", "false", "-1")]
    assert page.p.get_attribute("[role=tabpanel]", "aria-labelledby") == \
        page.p.get_attribute("[role=tab][aria-selected=true]", "id")
    mh = attend_heads(lesson, "river")
    same(page.weights(), mh.head("meaning").weights[3])
    same(page.matrix(), mh.head("meaning").weights)
    same(page.values("#concat .num"), mh.concat.ravel())
    same(mh_output(page, 4), mh.output)
    same(page.values(".head-weights td"), np.stack([p.weights[3] for p in mh.heads]).ravel())
    page.p.click("[role=tab][data-head=grammar]")
    assert tabs(page) == [("meaning", "false", "-1"), ("grammar", "true", "0")]
    assert focused_head(page) == "grammar"
    same(page.matrix(), mh.head("grammar").weights)
    same(page.output(), mh.head("grammar").output[3])
    same(mh_output(page, 4), mh.output)  # the heads together do not depend on the tab
    for key, want in (("ArrowLeft", "meaning"), ("ArrowLeft", "grammar"), ("Home", "meaning"),
                      ("End", "grammar"), ("ArrowRight", "meaning")):
        page.p.keyboard.press(key)
        assert focused_head(page) == want and tabs(page)[[t[0] for t in tabs(page)].index(want)][1] == "true"
    same(page.weights(), mh.head("meaning").weights[3])
    page.p.click("button[data-lang=zh]")
    assert [t[0] for t in tabs(page)] == ["词义", "语法"]
    assert "词义头" in page.p.inner_text("#claims")
    assert page.close() == []


def with_grammar_w_q(lesson, value: float):
    heads = tuple(replace(h, w_q=h.w_q.copy()) for h in lesson.heads)
    heads[1].w_q[3, 1] = value
    return replace(lesson, heads=heads)


def test_an_edit_of_a_heads_w_q_reaches_its_numbers_the_multi_head_output_the_url_and_the_download(
        browser, tmp_path):
    index = build(tmp_path, "two_heads", "en")
    page = Page(browser, index)
    lesson = load("two_heads")
    page.p.click("[role=tab][data-head=grammar]")
    field = "input[data-matrix=w_q][data-head=grammar][data-r='3'][data-c='1']"
    assert page.p.input_value(field) == "2"
    page.p.fill(field, "0.5")  # the noun looks less for the function words
    edited = with_grammar_w_q(lesson, 0.5)
    mh = attend_heads(edited, "river")
    same(page.weights(), mh.head("grammar").weights[3])
    same(mh_output(page, 4), mh.output)
    assert not np.allclose(mh.output, attend_heads(lesson, "river").output)
    assert "edited: 1" in page.p.inner_text("#edit-w_q h3")
    page.p.click("[role=tab][data-head=meaning]")  # the other head keeps its numbers
    same(page.weights(), mh.head("meaning").weights[3])
    page.p.fill("input[data-matrix=w_o][data-r='3'][data-c='0']", "1.5")
    w_o = edited.w_o.copy()
    w_o[3, 0] = 1.5
    edited = replace(edited, w_o=w_o)
    same(mh_output(page, 4), attend_heads(edited, "river").output)
    page.p.wait_for_function("Explorer.settled()")
    hash_ = page.p.evaluate("location.hash")
    assert "head=meaning" in hash_ and "h.grammar.w_q=" in hash_ and "w_o=" in hash_
    dest = download(page, tmp_path)
    assert page.close() == []
    again = Page(browser, index, hash_=hash_.replace("head=meaning", "head=grammar"))
    assert again.p.input_value(field) == "0.5"
    same(mh_output(again, 4), attend_heads(edited, "river").output)
    assert again.close() == []
    text = open(lesson.source, encoding="utf-8").read()
    got = dest.read_text(encoding="utf-8")
    before, after = NUMBER.split(text), NUMBER.split(got)
    assert after[0::2] == before[0::2]  # every comment and key as it was
    assert [(a, b) for a, b in zip(before[1::2], after[1::2]) if a != b] == [("2.0", "0.5"), ("0.5", "1.5")]
    assert CliRunner().invoke(main, ["check", str(dest)]).exit_code == 0
    back = json.loads(CliRunner().invoke(main, ["numbers", "--lesson", str(dest), "--json"]).output)
    same(back["multi_head_output"], attend_heads(edited, "river").output)


@pytest.mark.parametrize("name", ["two_heads", "causal", "learning", "positions", "tiled"])
def test_the_lesson_file_written_anew_keeps_the_heads_and_the_mask(browser, tmp_path, name):
    """freshToml (the page's download when the lesson's text cannot be edited): the heads, their names,
    W_O, the focus head, the mask and the [training], [positions] and [tiling] tables read back as the
    lesson's."""
    page = Page(browser, build(tmp_path, name, "en"))
    fresh = loads(page.p.evaluate("AL.exporter.freshToml()"))
    assert page.close() == []
    lesson = load(name)
    assert fresh.mask == lesson.mask and fresh.focus_head == lesson.focus_head
    assert [(h.key, h.names) for h in fresh.heads] == [(h.key, h.names) for h in lesson.heads]
    for a, b in zip(fresh.heads, lesson.heads):
        assert all((getattr(a, m) == getattr(b, m)).all() for m in ("w_q", "w_k", "w_v"))
    assert (fresh.w_q == lesson.w_q).all() and (fresh.w_o is None) == (lesson.w_o is None)
    tables = ("training", "positions", "tiling")
    assert [getattr(fresh, t) for t in tables] == [getattr(lesson, t) for t in tables]


@pytest.mark.parametrize("name", ["two_heads", "causal"])
def test_no_word_is_missing_from_the_next_lessons_views(browser, tmp_path, name):
    index = build(tmp_path, name, "zh")
    lesson = load(name)
    page = Page(browser, index)
    visit(page, lesson, ("scaled", "uniform"), mask=True)
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []
    view = index.with_name("view.html")  # the view the studio shows: no number fields, W_O as numbers
    view.write_text(index.read_text(encoding="utf-8").replace(
        "AttentionCore);", "AttentionCore, { editable: false });"), encoding="utf-8")
    page = Page(browser, view)
    assert page.p.locator("input[type=number]").count() == 0
    if lesson.heads:
        same(page.values("#w-o .num"), lesson.w_o.ravel())
    visit(page, lesson, ("scaled", "uniform"), mask=True)
    assert page.p.evaluate("AL.missing") == []
    assert page.close() == []


@pytest.mark.parametrize("name", ["two_heads", "causal", "four"])
def test_layouts_of_two_and_four_heads_at_laptop_and_phone_widths(browser, tmp_path, name):
    if name == "four":  # 4 heads, up to 8 tokens, masked
        path = tmp_path / "four.toml"
        path.write_text(random_next_lesson(5, 4, True), encoding="utf-8")
        assert len(loads(path.read_text(encoding="utf-8")).heads) == 4
        name = str(path)
    for lang in ("zh", "en"):
        index = build(tmp_path / lang, name, lang)
        for width in (1280, 360):
            page = Page(browser, index, width=width)
            if "four" in name:
                page.p.click("[role=tab]:last-child")
            assert page.p.evaluate(OVERFLOW_JS) == [], (name, lang, width)
            assert page.p.evaluate(CLIP_JS) == [], (name, lang, width)
            assert page.close() == []


@contextlib.contextmanager
def numbers_tab(browser, tmp_path, name: str):
    """A built-in lesson copied to tmp_path/lesson.toml, opened in the studio (en) on its numbers tab:
    (page, console problems, values(selector) -> the numbers' data-value); the studio then stops clean."""
    from .studio_helpers import ROOT, start, stop, watch_console

    shutil.copy(ROOT / "attention_core" / "lessons" / name, tmp_path / "lesson.toml")
    proc, url = start(tmp_path, "--lang", "en")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        problems = watch_console(page)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.click("#tab-numbers")
        yield page, problems, lambda sel: [float(v) for v in page.eval_on_selector_all(
            sel, "els => els.map(e => e.dataset.value)")]
    finally:
        page.close()
        code, out, err, left = stop(proc)
    assert code == 0 and "Traceback" not in err and not left, (code, err, left)


@pytest.mark.xdist_group("studio")
def test_the_studio_shows_the_heads_and_the_mask_from_its_servers_numbers(browser, tmp_path):
    from .studio_helpers import edit_row

    tabs_of = lambda p: p.eval_on_selector_all("[role=tab][data-head]",  # noqa: E731
                                              "els => els.map(e => e.getAttribute('aria-selected'))")

    with numbers_tab(browser, tmp_path, "two_heads.toml") as (page, problems, values):
        lesson = load(tmp_path / "lesson.toml")
        want = numbers_json(lesson, "river")
        assert values("#scores .num.weight") == want["weights"][3]
        page.click("[role=tab][data-head=grammar]")
        assert values("#scores .num.weight") == want["heads"]["grammar"]["weights"][3]
        assert values("#mh-output tr[data-row] .num") == [x for row in want["multi_head_output"] for x in row]
        assert values("#w-o .num") == [x for row in want["w_o"] for x in row]
        # no what-if mask in the studio (its numbers are the file's): the teacher masks the file itself
        assert page.locator("#app #mask, #app #whatif").count() == 0
        edit_row(page, 'focus = "bank"', 'mask = "causal"  # and focus on the next line')
        page.keyboard.type('\nfocus = "bank"')
        masked = numbers_json(replace(lesson, mask="causal"), "river")
        page.wait_for_function("document.querySelectorAll('#app #masked td.masked').length === 6",
                               timeout=10000)
        assert values("#scores .num.weight") == masked["heads"]["grammar"]["weights"][3]
        flat = [x for row in masked["multi_head_output"] for x in row]
        assert values("#mh-output tr[data-row] .num") == flat
        # the teacher types a new row into the grammar head's W_Q: its numbers and the heads together follow
        edit_row(page, "[0.0, 2.0],  # a noun", "  [0.0, 0.5],")
        typed = with_grammar_w_q(replace(lesson, mask="causal"), 0.5)
        want = numbers_json(typed, "river")
        page.wait_for_function("want => JSON.stringify([...document.querySelectorAll('#scores .num.weight')]"
                               ".map(e => +e.dataset.value)) === JSON.stringify(want)",
                               arg=want["heads"]["grammar"]["weights"][3], timeout=10000)
        assert values("#mh-output tr[data-row] .num") == [x for row in want["multi_head_output"] for x in row]
        assert tabs_of(page) == ["false", "true"]  # the page's choice of head kept
        assert problems == []


def test_the_new_scenes_steps_are_counted_before_they_are_drawn():
    """The studio lays out a scene's steps from its source before drawing it (plan.step_count): the
    learning, positions and tiles scenes name theirs in a loop, counted once per name (positions: with
    RoPE's shift step, the most it has); the other scenes' counts as they were."""
    from attention_lesson.pipeline.plan import _steps_in
    from scenes.registry import SCENES

    counts = {s.id: _steps_in(s.file, s.file.stat().st_mtime_ns) for s in SCENES}
    assert (counts["learning"], counts["positions"], counts["tiles"]) == (6, 5, 5)
    assert (counts["mask"], counts["heads"], counts["geometry"], counts["overview"]) == (6, 6, 9, 4)


@pytest.mark.xdist_group("studio")
def test_the_studio_shows_the_tiles_from_its_servers_numbers(browser, tmp_path):
    """The tiled lesson in the studio: its tiles box from the server's numbers (numbers --json's tiles),
    following a block size typed into the file."""
    from attention_core.next.tables import Tiling

    from .studio_helpers import edit_row

    with numbers_tab(browser, tmp_path, "tiled.toml") as (page, problems, values):
        lesson = load(tmp_path / "lesson.toml")
        want = numbers_json(lesson)["tiles"]
        assert values(".tile-l") == [row[2] for row in want["l"]] and len(want["l"]) == 3
        assert values("#tile-output .num") == want["output"][2]
        edit_row(page, "block = 2", "block = 4")
        page.wait_for_function("document.querySelectorAll('.tile-l').length === 2", timeout=10000)
        four = numbers_json(replace(lesson, tiling=Tiling(4)))["tiles"]  # the working text (not saved)
        assert four["block"] == 4 and values(".tile-l") == [row[2] for row in four["l"]]
        assert values("#tiles .memory strong") == [24, 36]
        assert problems == []
