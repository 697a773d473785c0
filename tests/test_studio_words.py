"""The teacher's own words in the studio: the selected step's narration line in a field, an edit written
to the lesson's words folder (made on the first edit, the lesson file naming it), the step redrawn with
it (its frame and its frames index), its draft voice; a broken placeholder refused with the text kept;
Revert bringing the built-in line (and the very frame) back; bad requests answered with a status and a
JSON error. The server is real (tests/studio_helpers.py), with the fixture scene `overview`
(tests/fixtures/overview.py: the overview table's `idea` line, drawn on screen) and blink (whose line
is no catalog line)."""

from __future__ import annotations

import json
import time
import tomllib
import wave

import numpy as np
import pytest
from PIL import Image

from attention_lesson.studio import toml_edit as T
from scenes.common.words import builtin_entries

from .conftest import LESSONS
from .studio_helpers import tiny_shared
from .test_studio_stage import words
from .test_studio_workspace import open_page

pytestmark = pytest.mark.xdist_group("studio")
KEY = "overview.say.idea"
LINE = "In my own words: {focus} listens to the whole sentence."
SAID = "In my own words: “cat” listens to the whole sentence."  # tiny.toml's focus, as a line names a token
BUILTIN = builtin_entries("en")[KEY].value


@pytest.fixture(scope="session")
def said(tmp_path_factory):
    """A studio on tiny.toml in English (shared with test_studio_languages.py), the fixture scenes
    overview and blink drawn once."""
    with tiny_shared(tmp_path_factory, "en") as given:
        yield given



def drawn(folder):
    """The overview step's frames index entry and its frame's pixels, as the studio drew them last."""
    index = next(folder.glob("media/studio/*/*-en-*/frames/overview.json"))
    step = json.loads(index.read_text(encoding="utf-8"))["steps"][0]
    return step["narration"], np.asarray(Image.open(index.parent.parent / step["frame"]).convert("RGB"))


def test_an_edit_reaches_the_words_file_the_lesson_file_and_the_frame(said, tab):
    from .axe import violations

    folder, client, url = said
    lesson_text = (folder / "lesson.toml").read_text(encoding="utf-8")
    w = words("en")
    page, problems = open_page(tab, url)
    page.wait_for_selector("#line-form[data-state=builtin]", timeout=30000)
    assert page.input_value("#line-text") == BUILTIN
    assert page.inner_text("#line-kind") == w["line_builtin"]
    assert violations(page) == []  # the field has its label, the buttons their names
    before_said, before = drawn(folder)
    assert before_said == BUILTIN.replace("{focus}", "“cat”")
    # by keyboard (the field comes right after Play): a broken placeholder is refused, the text kept
    # in the field, nothing written
    page.focus("#play")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "line-text"
    page.keyboard.press("Control+A")
    page.keyboard.type("In my own words: {focus listens.")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#line-problem:not([hidden])")
    assert "a broken placeholder" in page.inner_text("#line-problem")
    assert page.input_value("#line-text") == "In my own words: {focus listens."
    assert not (folder / "words").exists()
    page.locator("#timeline .block[data-scene=blink] .seg").first.click()  # another step, and back:
    page.wait_for_selector("#line-form[data-state=fixed]")  # (blink's line is no catalog line)
    assert page.is_disabled("#line-text") and page.input_value("#line-text") == "scores: the cat"
    page.locator("#timeline .block[data-scene=overview] .seg").first.click()
    page.wait_for_selector("#line-form[data-state=builtin]")
    assert page.input_value("#line-text") == "In my own words: {focus listens."  # the text typed, kept
    assert (folder / "lesson.toml").read_text(encoding="utf-8") == lesson_text
    page.fill("#line-text", LINE)
    page.click("#line-save")
    page.wait_for_function(f"document.querySelector('#narration').textContent === {json.dumps(SAID)}",
                           timeout=60000)
    assert page.get_attribute("#line-form", "data-state") == "own" and page.is_hidden("#line-problem")
    assert page.inner_text("#line-kind") == w["line_own"].format(file="words/en/overview.toml")
    own = (folder / "words" / "en" / "overview.toml").read_text(encoding="utf-8")
    assert tomllib.loads(own) == {"overview": {"say": {"idea": LINE}}}
    assert "# narration of step idea" in own  # the comment `words export` writes over the key
    new_lesson = (folder / "lesson.toml").read_text(encoding="utf-8")
    assert tomllib.loads(new_lesson) == tomllib.loads(lesson_text) | {"words": "words"}
    kept = [x for x in new_lesson.splitlines() if not x.startswith("words = ")]
    assert kept == lesson_text.splitlines()  # one line more, every other line as it was
    assert page.evaluate("window.studio.editor.state.doc.toString()") == new_lesson  # the editor has it
    after_said, after = drawn(folder)
    assert after_said == SAID and after.shape == before.shape and (after != before).any()
    page.click("#line-voice")  # the line as drawn, in the draft voice
    page.wait_for_function("document.querySelector('#line-audio').src.endsWith('.wav')", timeout=30000)
    audio = page.eval_on_selector("#line-audio", "e => e.getAttribute('src')").removeprefix("/files/")
    with wave.open(str(folder / "media" / audio)) as wav:
        assert wav.getnframes() / wav.getframerate() > 1.0
    page.click("#line-revert")  # the built-in line, and its very frame, back; the folder stays named
    page.wait_for_function("document.querySelector('#narration').textContent === "
                           f"{json.dumps(before_said)}", timeout=60000)
    assert page.get_attribute("#line-form", "data-state") == "builtin"
    assert page.input_value("#line-text") == BUILTIN
    kept = tomllib.loads((folder / "words" / "en" / "overview.toml").read_text(encoding="utf-8"))
    assert kept == {"overview": {"say": {}}}  # the key gone, its file and table there
    assert (folder / "lesson.toml").read_text(encoding="utf-8") == new_lesson
    reverted_said, reverted = drawn(folder)
    assert reverted_said == before_said and (reverted == before).all()
    assert problems == []


def test_bad_requests_get_a_status_and_a_json_error(said):
    _, client, _ = said
    put = lambda body: client.request("PUT", "/api/line", body)  # noqa: E731
    cases = [
        (put("{not json"), 400, "expected a JSON object"),
        (put(json.dumps({"key": "overview.say.nope", "text": "x"})), 404, "no narration line"),
        (put(json.dumps({"key": "overview.title", "text": "x"})), 404, "no narration line"),
        (put(json.dumps({"key": KEY, "text": "{focus} and {tip}"})), 422, "unknown placeholder {tip}"),
        (put(json.dumps({"key": KEY, "text": "{focus.__class__}"})), 422, "{focus.__class__} not allowed"),
        (put(json.dumps({"key": KEY, "text": " "})), 422, "an empty line"),
        (client.request("GET", "/api/line?scene=nope&n=1"), 404, "no such scene"),
        (client.request("GET", "/api/line?scene=overview&n=x"), 400, "step number"),
        (client.request("POST", "/api/line/voice", json.dumps({"scene": "../x", "n": 1})), 404,
         "no such scene"),
        (client.request("POST", "/api/line/revert", json.dumps({"key": 3})), 404, "no narration line"),
    ]
    for (status, body), want, message in cases:
        assert status == want and message in body["error"]["message"], (status, body)
    status, body = client.request("GET", "/api/line?scene=overview&n=9")  # a step not drawn (yet)
    assert status == 200 and body["drawn"] is False and "has 1 step(s) drawn, not 9" in body["why"]
    status, blink = client.request("GET", "/api/line?scene=blink&n=1")
    assert status == 200 and blink["key"] is None and blink["said"] == "scores: the cat"


def test_the_render_form_offers_every_language_named_in_itself(said, tab):
    """zh, en and ja, and fr from the lesson's words folder (its name the browser's, in French), the page's
    language chosen; the choice is said under the form and sent with the render."""
    folder, client, url = said
    lesson = folder / "lesson.toml"
    text = lesson.read_text(encoding="utf-8")
    if not tomllib.loads(text).get("words"):  # (run alone: the folder named, as the first edit names it)
        lesson.write_text('words = "words"\n' + text, encoding="utf-8")
    named = folder / tomllib.loads(lesson.read_text(encoding="utf-8"))["words"]
    (named / "fr").mkdir(parents=True)
    (named / "fr" / "softmax.toml").write_text('[softmax]\ntitle = "Softmax : des scores aux poids"\n',
                                               encoding="utf-8")
    end = time.monotonic() + 30  # the file's words line reaches the server within a second
    while client.request("GET", "/api/page")[1]["page"]["render_langs"] != ["zh", "en", "ja", "fr"]:
        assert time.monotonic() < end, "the words folder's fr is not offered"
        time.sleep(0.2)
    page, problems = open_page(tab, url)
    sent = []

    def render(route):
        sent.append(json.loads(route.request.post_data))
        route.fulfill(status=202, content_type="application/json", body='{"job": "seen"}')

    page.click("#tab-render")
    offered = page.eval_on_selector_all("#render-lang option",
                                        "os => os.map(o => [o.value, o.text, o.selected])")
    assert offered == [["zh", "中文", False], ["en", "English", True], ["ja", "日本語", False],
                       ["fr", "Français", False]]
    lead = words("en")["render_with"].split("{")[0]  # "Rendered with this page's choices: "
    assert page.inner_text("#render-with").startswith(lead + "English,")
    voices = lambda: page.eval_on_selector_all("#render-voice option", "os => os.map(o => o.text)")  # noqa: E731
    en = words("en")
    assert voices() == [en["voice_none"], en["voice_draft_en"], en["voice_neural_en"]]
    page.select_option("#render-lang", "ja")
    assert "日本語, the" in page.inner_text("#render-with")
    # each language's voices named, and what the draft voice cannot said before it is chosen
    assert voices() == [en["voice_none"], en["voice_draft_ja"], en["voice_neural_ja"]]
    assert "Chinese letter" in en["voice_draft_ja"] and "Kokoro jf_alpha" in en["voice_neural_ja"]
    page.route("**/api/render", render)  # what the page sends (the server's side: test_tool_messages)
    page.click("#render")
    page.wait_for_selector('#renders li[data-job="seen"]')
    assert sent == [{"product": "lesson", "lang": "ja", "quality": "low", "voice": "none"}]
    page.unroute("**/api/render")
    page.select_option("#render-lang", "fr")  # fr's folder lacks keys: the server refuses, the list says
    assert voices() == [en["voice_none"], en["voice_draft"], en["voice_neural"]]  # no catalog names fr's
    page.click("#render")
    page.wait_for_selector("#renders li[data-state=failed]")
    refused = page.inner_text("#renders li[data-state=failed]")
    assert refused.startswith(f"the lesson video failed: {named / 'fr'}/") and "missing key" in refused \
        and f"more: attention-lesson words check {named} --lang fr)" in refused, refused
    assert page.is_hidden("#problem")  # the lesson's text is fine
    assert problems == []


# -- the TOML edits, on text ------------------------------------------------------------------------

WORDS = '''# my words
[overview.say]
# the first line
idea = "old {focus}"  # said first # really
multi = """two
lines"""

# the next table's comment
[softmax.say]
reading = "x"
'''


def test_a_key_is_set_in_place_or_added_to_its_table_every_other_line_kept():
    changed = T.set_key(WORDS, KEY, 'new "quoted" {focus}')
    assert changed == WORDS.replace('idea = "old {focus}"', 'idea = "new \\"quoted\\" {focus}"')
    added = T.set_key(WORDS, "overview.say.soft_lookup", "soft", "# a note")
    assert added == WORDS.replace('lines"""\n', 'lines"""\n# a note\nsoft_lookup = "soft"\n')
    assert T.set_key(WORDS, "overview.say.multi", "one") == WORDS.replace('"""two\nlines"""', '"one"')
    assert T.set_key(WORDS, "mask.say.idea", "m").endswith('reading = "x"\n\n[mask.say]\nidea = "m"\n')
    assert T.drop_key(added, "overview.say.soft_lookup", "# a note") == WORDS
    dotted = '[overview]\nsay.idea = "x"\n'  # a [overview.say] table after dotted keys is not TOML
    with pytest.raises(T.EditError):
        T.set_key(dotted, "overview.say.soft_lookup", "y")


def test_the_lesson_file_names_its_folder_after_its_last_top_level_line():
    text = (LESSONS / "tiny.toml").read_text(encoding="utf-8")
    named = T.with_top_key(text, "words", "words", "note")
    lines = named.splitlines()
    assert lines[lines.index('focus = "cat"') + 1] == 'words = "words"  # note'
    assert T.with_top_key(named, "words", "other") == named  # named already: left as it is


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_studio_edits_the_line_the_scene_recorded_it_said(lang, tmp_path):
    """The key travels with its line (Step.key, frames/<scene>.json's "key"): the studio edits the line
    the scene chose (a variant its data and claims chose: a one-context lesson's overview says
    `two_sentences_one`), not one found again by reading the text; a step that said no catalog line
    has none to edit."""
    from attention_lesson.studio.narration import Place, describe
    from scenes.registry import BY_ID

    from .scene_harness import build

    lesson = LESSONS / "tiny.toml"  # one context
    scene, _ = build(BY_ID["overview"], tmp_path / "media", lesson=str(lesson), lang=lang)
    step = next(s for s in scene.steps if s.step == "two_sentences")
    place = Place(tmp_path / "words", lang, named=False)
    said = {"step": step.step, "narration": step.narration, "key": step.key}
    shown = describe(place, "overview", said, 1, lesson)
    assert step.key == shown["key"] == "overview.say.two_sentences_one"
    assert shown["builtin"] == builtin_entries(lang)["overview.say.two_sentences_one"].value
    assert shown["current"] and not shown["own"]
    assert describe(place, "overview", said | {"key": ""}, 1, lesson)["key"] is None


def test_the_render_buttons_read_the_lessons_words_folder(tmp_path):
    """A render runs on a snapshot of the text elsewhere: the words folder goes with it, resolved (the
    file's `words = "mine"` would name a folder beside the snapshot)."""
    from attention_lesson.pipeline.plan import RenderOptions
    from attention_lesson.studio.app import Studio, render_request
    from attention_lesson.studio.renders import _options
    from attention_lesson.studio.session import Session

    text = (LESSONS / "tiny.toml").read_text(encoding="utf-8")
    (tmp_path / "lesson.toml").write_text(text.replace('focus = "cat"\n', 'focus = "cat"\nwords = "mine"\n'),
                                          encoding="utf-8")
    session = Session.open(tmp_path / "lesson.toml", None, "scaled", "en")
    studio = Studio(session, RenderOptions(lesson=str(tmp_path / "lesson.toml"), context=""), "token", 0)
    assert render_request(studio, {"product": "lesson"}).words is None  # no such folder (yet)
    (tmp_path / "mine").mkdir()
    req = render_request(studio, {"product": "lesson"})
    assert req.words == str((tmp_path / "mine").resolve())
    _, options = _options(req, tmp_path / "snapshot" / "lesson.toml")
    assert options.words == req.words
