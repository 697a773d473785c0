"""The studio's stage as a teacher first meets it, on lessons that are not the default
(8 tokens, 2 tokens) with the fixture scenes pulse (3 steps), blink (2) and hush (1), drawn by one
worker: the page opens on the first step of the first scene, every scene's steps counted from the
first event on, and on the step selected last time after a reload; one set of choices (language,
context, normalizer, theme) for the frames, the numbers and the renders, and no what-if mask; the
timeline names each scene by a short name, its title in its tooltip; a banner keeps the timeline in the
window; Play says what it waits for, and a step's clip is drawn before the other scenes' frames."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest

from .conftest import LESSONS
from .studio_helpers import ROOT, Client, start, stop, wait_for
from .test_studio_workspace import box, open_page, replace_text

pytestmark = pytest.mark.xdist_group("studio")
SCENES = "pulse,blink,hush"
W_Q_ROW = "[2.1, 2.1, 0.0, 0.0, 0.0, -0.4],"  # bank's query in wide.toml: every fixture scene redraws


def words(lang: str = "zh") -> dict:
    return tomllib.loads((ROOT / f"scenes/i18n/{lang}/studio.toml").read_text(encoding="utf-8"))["studio"]


@pytest.fixture
def cold(tmp_path):
    """A studio just started on wide.toml (8 tokens): nothing drawn yet."""
    shutil.copy(LESSONS / "wide.toml", tmp_path / "lesson.toml")
    proc, url = start(tmp_path, "lesson.toml", scenes=SCENES)
    yield tmp_path, Client(url), url
    code, out, err, left = stop(proc)
    assert code == 0 and "Traceback" not in err and not left, (code, out, err, left)


def test_the_page_opens_on_the_first_step_with_every_scenes_steps_counted(cold, browser):
    _, _, url = cold
    page, problems = open_page(browser, url, frames=False)
    try:
        page.wait_for_function("document.querySelectorAll('#timeline .seg').length === 6", timeout=20000)
        # before pulse is drawn (the worker still starts): its three steps stand, the first one selected
        assert page.get_attribute("#stage", "data-state") == "stale"
        assert [page.get_attribute("#stage", a) for a in ("data-scene", "data-n")] == ["pulse", "1"]
        w = words()
        assert page.inner_text("#preview-caption") == \
            f"{w['step_of_new'].format(scene='跳', n=1, total=3)} · {w['state_stale']}"
        segs = page.eval_on_selector_all("#timeline .block", "els => els.map(e => [e.dataset.scene,"
                                         " e.querySelectorAll('.seg:not(.empty)').length])")
        assert segs == [["pulse", 3], ["blink", 2], ["hush", 1]]
        page.wait_for_function("document.body.dataset.timeline === 'pulse:fresh blink:fresh hush:fresh'",
                               timeout=120000)
        first = w["step_of_new"].format(scene="跳", n=1, total=3)
        assert page.inner_text("#preview-caption").startswith(f"{first}：show")  # its name, once drawn
        page.locator("#timeline .block[data-scene=hush] .seg").first.click()
        page.reload()  # the step selected last is the one the page opens on
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("document.querySelector('#stage').dataset.scene === 'hush'", timeout=20000)
        assert page.get_attribute("#stage", "data-n") == "1"
    finally:
        page.close()
    assert problems == []


def test_an_edit_during_the_first_drawing_draws_the_step_on_screen_first(cold):
    folder, client, _ = cold
    events = client.events()
    wait_for(events, lambda e, d: e == "plan", timeout=30)  # the first drawing has begun (cold workers)
    text = (folder / "lesson.toml").read_text(encoding="utf-8")
    status, body = client.request("PUT", "/api/lesson?focus=hush&n=1",
                                  text.replace(W_Q_ROW, "[2.0, 2.1, 0.0, 0.0, 0.0, -0.4],"))
    assert status == 200
    run = body["run"]
    _, first = wait_for(events, lambda e, d: e in ("step", "frames") and d.get("run") == run, timeout=120)
    assert first["scene"] == "hush"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """A studio on wide.toml whose first drawing is done, and a file of edits kept from a last session."""
    folder = tmp_path_factory.mktemp("stage")
    shutil.copy(LESSONS / "wide.toml", folder / "lesson.toml")
    kept = (LESSONS / "wide.toml").read_text(encoding="utf-8") + "\n# kept from last time\n"
    (folder / ".lesson.unsaved.toml").write_text(kept, encoding="utf-8")
    proc, url = start(folder, "lesson.toml", scenes=SCENES)
    client = Client(url)
    wait_for(client.events(), lambda e, d: e == "idle", timeout=120)
    yield folder, client, url
    code, out, err, left = stop(proc)
    assert code == 0 and "Traceback" not in err and not left, (code, out, err, left)



def test_one_set_of_choices_and_no_what_if_mask(drawn, tab):
    _, client, url = drawn
    page, problems = open_page(tab, url)
    try:
        page.click("#tab-numbers")
        page.wait_for_function("document.querySelectorAll('#scores .num.weight').length === 8")
        count = "sel => document.querySelectorAll(sel).length"
        assert page.evaluate(count, "select#view-context, #app #context, select[name=context]") == 1
        # the page's one language (the bar's); the render form's starts at it (it may take a language the
        # page has no words for: a words folder's)
        assert page.evaluate(count, "#view-lang, [data-lang], select[name=lang]:not(#render-form *)") == 1
        assert page.eval_on_selector("#render-form select[name=lang]", "s => s.value") == "zh"
        assert page.evaluate(count, "#view-mode, #app input[name=mode]") == 1
        assert page.evaluate(count, "#mask, #whatif") == 0  # the file has no mask: the page shows none
        assert page.evaluate(count, "#claims .broken") == 0
        page.select_option("#view-context", "money")  # the numbers follow the one context switch
        page.wait_for_function("document.querySelector('#tokens').textContent.includes('deposited')")
        assert "money" in page.inner_text("#render-with")
        page.select_option("#view-lang", "en")  # the whole page in English: its words, numbers and frames
        page.wait_for_function("document.documentElement.lang === 'en' && document.body.dataset.ready")
        assert page.inner_text("#tab-numbers") == words("en")["tab_numbers"]
        assert page.eval_on_selector("#render-form select[name=lang]", "s => s.value") == "en"
        assert client.request("GET", "/api/numbers")[0] == 200
    finally:
        client.request("POST", "/api/view", json.dumps({"lang": "zh", "context": "walk"}))
    assert problems == []
    assert "|causal" not in json.dumps(list(client.request("GET", "/api/page")[1]["page"]["passes"]))


def test_a_banner_keeps_the_timeline_in_the_window(drawn, tab):
    _, _, url = drawn
    page, problems = open_page(tab, url)
    assert page.is_visible("#recovery")  # the edits kept last time, offered
    preview, timeline = box(page, "#preview-img"), box(page, "#timeline")
    assert timeline["y"] + timeline["h"] <= 800
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    assert min(preview["w"], preview["h"] * 16 / 9) >= 640  # the frame as drawn, letterboxed
    assert problems == []


def test_the_timeline_names_scenes_shortly_with_their_titles_in_tooltips(drawn, tab):
    """The lesson's own scenes' names, in the page's timeline at 1280 px: none cut, each block's tooltip
    its whole title."""
    from scenes.registry import SCENES as REAL

    _, _, url = drawn
    page, problems = open_page(tab, url)
    # the lesson's scenes are not this server's (the fixtures): the page's focus is answered here
    page.route("**/api/focus", lambda r: r.fulfill(status=200, body="{}", content_type="text/json"))
    page.route("**/api/line?*", lambda r: r.fulfill(status=200, body='{"drawn": false}',
                                                     content_type="text/json"))
    for lang in ("zh", "en"):
        plan = {"run": 10**6, "scenes": [{"id": s.id, "title": s.title(lang), "short": s.short(lang),
                                          "stale": True, "steps": 4} for s in REAL if not s.needs]}
        page.evaluate("async plan => (await import('/static/studio-timeline.js')).onPlan(plan)", plan)
        names = page.eval_on_selector_all("#timeline .block", """els => els.map(e => {
            const name = e.querySelector('.name');
            return [e.title, name.textContent, name.scrollWidth <= name.clientWidth + 1,
                    e.getBoundingClientRect().right <= 1280]; })""")
        want = [[s["title"], s["short"], True, True] for s in plan["scenes"]]
        assert names == want
        assert all(len(s["short"]) < len(s["title"]) for s in plan["scenes"] if ":" in s["title"])
    assert problems == []


def test_a_steps_clip_goes_before_the_other_scenes_frames_and_play_says_what_it_waits_for(drawn, tab):
    folder, client, url = drawn
    page, problems = open_page(tab, url)
    events = client.events()
    _, before = wait_for(events, lambda e, d: e == "plan")  # the newest run's, replayed
    page.locator("#timeline .block[data-scene=blink] .seg").nth(1).click()  # blink's step 2
    replace_text(page, W_Q_ROW, "[2.2, 2.1, 0.0, 0.0, 0.0, -0.4],")
    page.wait_for_timeout(300)  # Play 0.3 s after the edit, as a teacher's trial did
    page.click("#play")
    w = words()
    assert page.inner_text("#play") == w["play_waiting"].format(n=2)  # it says what it waits for
    playing(page)
    assert page.inner_text("#play") == w["play"]
    _, plan = wait_for(events, lambda e, d: e == "plan" and d["run"] > before["run"])
    order = []
    while True:  # the edit's run: blink's frames (on screen), its step's clip, then the others' frames
        event, d = wait_for(events, lambda e, d: e in ("frames", "clip", "idle")
                            and d.get("run", plan["run"]) == plan["run"], timeout=120)
        if event == "idle":
            break
        order.append(f"{event}:{d['scene']}")
    assert order.index("clip:blink") < min(order.index("frames:pulse"), order.index("frames:hush")), order
    assert page.get_attribute("#preview-video", "src") == f"/files/{new_clip(client)}"
    replace_text(page, "[2.2, 2.1,", "[2.3, 2.1,")
    page.evaluate("document.querySelector('#play').click()")  # in the edit's task: before its answer,
    assert page.inner_text("#play") == w["play_waiting"].format(n=2)  # the press waits for the new clip
    playing(page)
    assert page.get_attribute("#preview-video", "src") == f"/files/{new_clip(client)}"
    assert problems == []


def playing(page) -> None:
    page.wait_for_function("(() => { const v = document.querySelector('#preview-video');"
                           " return !v.hidden && v.currentTime > 0.2; })()", timeout=90000)


def new_clip(client) -> str:
    """The newest text's clip of blink's step 2 (drawn by now)."""
    status, body = client.request("POST", "/api/clip?scene=blink&n=2")
    assert status == 200 and body["ready"], body
    return body["clips"][0]


def test_a_steps_clip_replaces_its_clips_of_older_inputs(tmp_path):
    """Each edit draws the step on screen ahead: a long session keeps one clip a step, not one an edit."""
    from attention_lesson.studio.clips import prune

    steps = tmp_path / "steps"
    steps.mkdir()
    names = [f"blink-{n}-{c * 16}.mp4" for n, c in (("02", "a"), ("02", "b"), ("03", "c"), ("02-01", "d"))]
    # the last: step 1 of a scene called blink-02
    for name in names:
        (steps / name).write_bytes(b"")
    prune(steps / names[1])
    assert sorted(p.name for p in steps.iterdir()) == sorted(names[1:])


def test_bad_choices_get_a_status_and_a_json_error(drawn):
    _, client, _ = drawn
    for body, status in (("not json", 400), ("[1]", 400), ('{"scene": 3}', 400),
                         ('{"scene": "blink", "n": 0}', 400), ('{"scene": "blink", "n": true}', 400),
                         ('{"scene": "nope"}', 404)):
        got, answer = client.request("POST", "/api/focus", body)
        assert (got, answer["error"]["key"]) == (status, "scene"), (body, answer)
    good = '{"scene": "hush", "n": 1}'
    assert client.request("POST", "/api/focus", good) == (200, {"scene": "hush", "n": 1})
    got, answer = client.request("POST", "/api/view", json.dumps({"lang": "fr"}))
    assert got == 422 and answer["error"]["key"] == "lang"
