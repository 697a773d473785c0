"""The studio as a workspace (a real server with the fixture scenes, its page in chromium): the layout at
1280×800 shows the editor, a large preview and the timeline without scrolling; an edit marks the stale
steps at once and each turns up to date when drawn; a selected step shows its frame and narration; Play
gives a moving video; the page's context changes the frames'; a broken file opens with its error; an
unsaved edit survives Ctrl-C in a recovery file the next start offers; the start-up errors are one line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from attention_core.errors import text as said

from .studio_helpers import (
    BANK_ROW,
    DEFAULT,
    ROOT,
    Client,
    Tab,
    default_studio,
    start,
    stop,
    wait_for,
    watch_console,
)

pytestmark = pytest.mark.xdist_group("studio")


@pytest.fixture(scope="session")
def studio(tmp_path_factory):
    """The default lesson's studio (shared with test_studio.py), every scene drawn."""
    with default_studio(tmp_path_factory) as given:
        yield given



def open_page(browser, url, width=1280, height=800, frames=True):
    """The studio's page, ready (with its timeline's steps, unless `frames` is False: a broken file has
    none), in a new page of `browser` or in a module's shared Tab; the list its console's problems go to."""
    if isinstance(browser, Tab):
        page, problems = browser.open(url, width, height)
    else:
        page = browser.new_page(viewport={"width": width, "height": height})
        problems = watch_console(page)
        page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    if frames:
        page.wait_for_function("document.querySelectorAll('#timeline .seg').length > 0", timeout=60000)
    return page, problems


def box(page, selector):
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect();"
                                 " return {x: r.x, y: r.y, w: r.width, h: r.height}; }")


def test_the_workspace_fits_a_laptop_and_stacks_on_a_tablet(studio, tab):
    _, _, url = studio
    page, problems = open_page(tab, url)
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    editor, preview, timeline = (box(page, s) for s in (".cm-editor", "#preview-img", "#timeline"))
    assert preview["w"] >= 640 and preview["y"] + preview["h"] <= 800
    assert editor["x"] + editor["w"] <= preview["x"]  # the editor on the left
    assert timeline["y"] >= preview["y"] + preview["h"] and timeline["y"] + timeline["h"] <= 800
    # every scene a block, its steps segments as wide as they last
    widths = page.eval_on_selector_all("#timeline .block[data-scene=blink] .seg",
                                       "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(widths) >= 2 and all(w > 4 for w in widths)
    page.set_viewport_size({"width": 880, "height": 1000})
    editor, preview = box(page, ".cm-editor"), box(page, "#preview-img")
    assert preview["y"] >= editor["y"] + editor["h"] and preview["w"] >= 800  # stacked
    assert page.evaluate("document.documentElement.scrollWidth") <= 880
    assert problems == []


def test_selecting_a_step_shows_its_frame_and_narration_and_keys_move(studio, tab):
    folder, client, url = studio
    page, problems = open_page(tab, url)
    where = "[document.querySelector('#stage').dataset.scene, document.querySelector('#stage').dataset.n]"
    page.locator("#timeline .block[data-scene=blink] .seg").first.click()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(where) == ["blink", "2"]
    index = json.loads(next((folder / "media" / "studio").rglob("frames/blink.json")).read_text("utf-8"))
    assert page.inner_text("#narration") == index["steps"][1]["narration"]
    page.wait_for_function("document.querySelector('#preview-img').naturalWidth > 0")
    assert "blink-02-" in page.get_attribute("#preview-img", "src")
    page.keyboard.press("End")
    assert page.evaluate(where) == ["hush", "1"]
    page.keyboard.press("Home")
    assert page.evaluate(where) == ["blink", "1"]
    assert problems == []


def test_an_edit_marks_the_stale_steps_at_once_and_each_turns_fresh(studio, tab):
    folder, client, url = studio
    page, problems = open_page(tab, url)
    replace_text(page, "[2.3, 2.3, 0.0, 0.0]", "[2.2, 2.3, 0.0, 0.0]")  # bank's query: both scenes redraw
    page.wait_for_function("/stale|drawing/.test(document.body.dataset.timeline)", timeout=5000)
    states = page.eval_on_selector_all("#timeline .seg", "els => els.map(e => e.dataset.state)")
    assert set(states) <= {"stale", "drawing", "fresh"} and {"stale", "drawing"} & set(states)
    page.wait_for_function("document.body.dataset.timeline === 'blink:fresh hush:fresh'", timeout=90000)
    assert set(page.eval_on_selector_all("#timeline .seg",
                                         "els => els.map(e => e.dataset.state)")) == {"fresh"}
    assert problems == []


def test_play_gives_a_video_that_advances(studio, tab):
    _, _, url = studio
    page, problems = open_page(tab, url)
    page.locator("#timeline .block[data-scene=blink] .seg").first.click()
    page.click("#play")
    page.wait_for_function("(() => { const v = document.querySelector('#preview-video');"
                           " return !v.hidden && v.currentTime > 0.2; })()", timeout=90000)
    assert "/blink-01-" in page.get_attribute("#preview-video", "src")
    assert problems == []


def test_the_pages_context_is_the_frames_context(studio):
    folder, client, _ = studio
    events = client.events()
    status, body = client.request("POST", "/api/view", json.dumps({"context": "nope"}))
    assert status == 422 and body["error"]["key"] == "context"
    status, body = client.request("POST", "/api/view", json.dumps({"context": "savings"}))
    assert status == 200 and body["context"] == "savings"
    _, frames = wait_for(events, lambda e, d: e == "frames" and d["run"] == body["run"]
                         and d["scene"] == "blink", timeout=90)
    assert all("/savings-scaled-" in s["frame"] for s in frames["steps"])
    river = next((folder / "media" / "studio").rglob("river-scaled-*/frames/blink-01-*.png")).read_bytes()
    savings = (folder / "media" / frames["steps"][0]["frame"]).read_bytes()
    assert river != savings  # the fixture scene shows its context's sentence
    assert client.request("POST", "/api/view", json.dumps({"context": "river"}))[0] == 200


def test_a_broken_file_opens_with_its_error_and_unsaved_edits_survive_ctrl_c(tmp_path, browser):
    text = DEFAULT.read_text(encoding="utf-8")
    broken = text.replace(BANK_ROW, "  [2.3, 2.3, 0.0],")
    (tmp_path / "lesson.toml").write_text(broken, encoding="utf-8")
    proc, url = start(tmp_path)
    client = Client(url)
    lesson = client.request("GET", "/api/lesson")[1]
    line = broken.splitlines().index("  [2.3, 2.3, 0.0],") + 1
    assert lesson["error"]["line"] == line and lesson["text"] == broken
    page, problems = open_page(browser, url, frames=False)
    try:
        assert page.get_attribute("#problem", "data-line") == str(line)
        words = assert_opened_at_its_problem(page, line)
        assert_no_serious_violation_on_a_phone(page)  # the timeline empty: nothing passed yet
        replace_text(page, "  [2.3, 2.3, 0.0],", BANK_ROW)  # fixed in the studio: its numbers and frames come
        page.wait_for_function("document.querySelectorAll('#scores .num.weight').length > 0", timeout=20000)
        assert page.is_hidden("#problem")
        page.locator("#timeline .seg").last.click()  # a scene's step, drawn or not yet: shown once it is
        page.wait_for_function("document.querySelector('#preview-img').naturalWidth > 0", timeout=60000)
        last = page.get_attribute("#timeline .block:last-child", "data-scene")
        assert page.get_attribute("#stage", "data-scene") == last and not problems, problems
        assert page.title() == words["page_title"].format(title="注意力机制")  # the lesson's title now
    finally:
        page.close()
        if sys.exc_info()[1] is not None:  # a failure leaves no server running
            stop(proc)
    code, out, err, _ = stop(proc)
    recovery = tmp_path / ".lesson.unsaved.toml"
    kept = said("zh", "studio_kept", file="@", path="").split("@")[0]  # the studio's language: the default
    assert code == 0 and kept in out and recovery.name in out, (out, err)
    assert said("zh", "studio_stopped") in out
    assert recovery.read_text(encoding="utf-8") == text and (tmp_path / "lesson.toml").read_text() == broken
    proc, url = start(tmp_path)
    try:
        assert Client(url).request("GET", "/api/lesson")[1]["recovery"] == text
    finally:
        stop(proc)


def assert_opened_at_its_problem(page, line: int) -> dict:
    """A file that fails check, opened: its problem's line in view with the cursor on it, and the page saying
    that nothing has passed yet (not that the numbers shown are of an earlier text: there are none); the
    studio's words."""
    at = page.evaluate("""() => { const v = window.studio.editor, head = v.state.selection.main.head;
        const r = v.coordsAtPos(head), box = v.scrollDOM.getBoundingClientRect();
        return { line: v.state.doc.lineAt(head).number,
                 inView: !!r && r.top >= box.top && r.bottom <= box.bottom }; }""")
    assert at == {"line": line, "inView": True}, at
    words = tomllib.loads((ROOT / "scenes/i18n/zh/studio.toml").read_text(encoding="utf-8"))["studio"]
    assert page.text_content("#problem .hint") == words["invalid_first"] != words["invalid"]
    assert page.text_content("#preview-caption") == words["invalid_first"]
    assert page.title() == words["page_title"].format(title="lesson.toml")  # no title yet: its name
    return words


def assert_no_serious_violation_on_a_phone(page) -> None:
    """The page at a phone's width (the same page narrowed: a second page would cost a renderer), then
    back at its own."""
    from .axe import violations

    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 800})
    try:
        found = violations(page)
        assert page.evaluate("document.documentElement.clientWidth") == 360 and not found, found
    finally:
        page.set_viewport_size(size)


def test_startup_without_the_extra_and_without_the_token(tmp_path, studio):
    shutil.copy(DEFAULT, tmp_path / "lesson.toml")
    code = ("import importlib.util, sys; real = importlib.util.find_spec; importlib.util.find_spec = "
            "lambda n, *a: None if n == 'uvicorn' else real(n, *a); from attention_lesson.cli import main; "
            "sys.argv = ['attention-lesson', 'studio', '--no-browser', 'lesson.toml']; main()")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and "attention-lesson[studio]" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    _, client, _ = studio
    status, body = client.request("GET", "/", token=False, headers={"Accept": "text/html"})
    assert status == 403 and b"/?token=" in body and b"<h1>" in body
    assert client.request("GET", "/api/lesson", token=False)[0] == 403  # the API stays JSON


def test_leaving_with_unsaved_edits_asks_first(studio, tab):
    _, _, url = studio
    page, _ = open_page(tab, url)
    page.locator(".cm-line").first.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type("# typed, not saved\n")  # typing is the gesture beforeunload needs
    page.wait_for_function("document.querySelector('#status').className === 'unsaved'")
    # the page's beforeunload handler asks (a synthetic event: headless chromium shows no prompt to a
    # page closed by the test driver); once saved it lets the page go
    leaving = "(() => { const e = new Event('beforeunload', {cancelable: true});" \
              " window.dispatchEvent(e); return e.defaultPrevented; })()"
    assert page.evaluate(leaving) is True
    page.click("#save")
    page.wait_for_function("document.querySelector('#status').className === 'saved'")
    assert page.evaluate(leaving) is False


def replace_text(page, old: str, new: str) -> None:
    """Replace text in the editor as one edit (window.studio.editor: CodeMirror's view)."""
    page.evaluate("""([old, neu]) => {
        const v = window.studio.editor, at = v.state.doc.toString().indexOf(old);
        if (at < 0) throw new Error("not in the editor: " + old);
        v.dispatch({ changes: { from: at, to: at + old.length, insert: neu } }); }""", [old, new])


@pytest.mark.parametrize("width", [1280, 360])
def test_axe_finds_no_serious_violation_on_any_tab(studio, tab, width):
    from .axe import violations

    _, _, url = studio
    page, problems = open_page(tab, url, width=width, height=900)
    found = []
    for tab in ("frames", "numbers", "render"):
        page.click(f"#tab-{tab}")
        found += [f"{tab}: {v}" for v in violations(page)]
    assert found == []
    page.click("#tab-frames")
    page.keyboard.press("Tab")  # every control on the way takes a visible focus ring
    ring = """(() => { const a = document.activeElement;
        if (a === document.body) return 'body';
        const s = getComputedStyle(a.closest('.cm-editor') || a);  // the editor rings as a whole
        return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; })()"""
    for _ in range(12):
        shown = page.evaluate(ring)
        if shown == "body":  # past the last control
            break
        assert shown, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        page.keyboard.press("Tab")
    assert problems == []


def decoded(path) -> list:
    import av
    import numpy as np

    with av.open(str(path)) as f:
        return [np.asarray(fr.to_ndarray(format="rgb24")) for fr in f.decode(video=0)]


def test_play_draws_the_step_alone_first_with_the_frames_of_the_whole_scene(studio):
    """A press on Play when the scene is not drawn as a video: that step alone comes first (a piece of
    its scene, joined without re-encoding), frame for frame the step's clip of the whole scene."""
    folder, client, _ = studio
    events = client.events()
    text = client.request("GET", "/api/lesson")[1]["text"]
    edited = re.sub(r"\[2\.\d, 2\.3, 0\.0, 0\.0\],  # ambiguity", "[2.1, 2.3, 0.0, 0.0],  # ambiguity", text)
    assert edited != text
    # on screen: hush (its clips drawn ahead, not blink's)
    run = client.request("PUT", "/api/lesson?focus=hush&n=1", edited)[1]["run"]
    wait_for(events, lambda e, d: e == "idle" and d["run"] == run, timeout=120)
    status, body = client.request("POST", "/api/clip?scene=blink&n=2")
    assert status == 200 and body == {"scene": "blink", "n": 2, "run": run, "ready": False, "clips": []}
    _, step = wait_for(events, lambda e, d: e == "clip" and d.get("n") == 2, timeout=120)
    assert step["ready"] and re.fullmatch(r".*/steps/blink-02-[0-9a-f]{16}\.mp4", step["clips"][0]), step
    whole = client.request("POST", "/api/clip?scene=blink")[1]
    if not whole["ready"]:
        _, whole = wait_for(events, lambda e, d: e == "clip" and "n" not in d and d["scene"] == "blink",
                            timeout=120)
    mine, theirs = (decoded(folder / "media" / c) for c in (step["clips"][0], whole["clips"][1]))
    assert len(mine) == len(theirs) > 1 and all((a == b).all() for a, b in zip(mine, theirs))
    assert client.request("POST", "/api/clip?scene=blink&n=0")[0] == 400
