"""The studio's answers to a bad request in the page's language (the studio's --lang, then the page's
language bar): a bad mode, theme, context, scene, step or render choice gets its JSON error in zh or ja,
the key it names, and the page shows it (chromium: a render of a quality the form does not offer is
refused in the render list, in Chinese). The server is real (tests/studio_helpers.py), on tiny.toml with
the fixture scenes overview and blink."""

from __future__ import annotations

import json

import pytest

from .studio_helpers import tiny_shared
from .test_studio_workspace import open_page

pytestmark = pytest.mark.xdist_group("studio")


@pytest.fixture(scope="session")
def zh_studio(tmp_path_factory):
    """A studio on tiny.toml started in Chinese (shared with test_studio_words.py), its fixture scenes
    drawn once."""
    with tiny_shared(tmp_path_factory, "zh") as given:
        yield given



def refusals(client) -> list[tuple[int, str | None, str]]:
    """Bad requests of every kind: each answer's status, key and message."""
    asked = [("POST", "/api/view", {"mode": "max"}), ("POST", "/api/view", {"theme": "pink"}),
             ("POST", "/api/view", {"context": "sea"}),
             ("POST", "/api/render", {"product": "lesson", "quality": "8k"}),
             ("GET", "/api/line?scene=nope&n=1", None), ("GET", "/api/line?scene=blink&n=x", None),
             ("POST", "/api/focus", {"scene": "", "n": 1}), ("POST", "/api/clip?scene=blink&n=0", None),
             ("PUT", "/api/line", {"key": "softmax.say.nope", "text": "x"}), ("POST", "/api/view", [1])]
    out = []
    for method, path, body in asked:
        status, answer = client.request(method, path, None if body is None else json.dumps(body))
        out.append((status, answer["error"]["key"], answer["error"]["message"]))
    return out


ZH = [
    (422, "mode", "mode：应为 scaled、unscaled、uniform 之一，实际是 'max'"),
    (422, "theme", "theme：应为 dark、light 之一，实际是 'pink'"),
    (422, "context", "context：应为 short 之一，实际是 'sea'"),
    (422, "quality", "quality：应为 low、medium、high 之一，实际是 '8k'"),
    (404, "scene", "没有这个场景：'nope'"),
    (400, "n", "n 应为从 1 开始的步骤号，而不是 'x'"),
    (400, "scene", "应为一个 JSON 对象：scene：应为场景的 id，实际是 ''"),
    (400, "n", "n 应为从 1 开始的步骤号，而不是 '0'"),
    (404, "key", "key：没有旁白句 'softmax.say.nope'"),
    (400, None, "应为一个 JSON 对象：不是对象"),
]
JA = [
    (422, "mode", "mode：scaled、unscaled、uniform のいずれかが必要ですが、実際は 'max'"),
    (422, "theme", "theme：dark、light のいずれかが必要ですが、実際は 'pink'"),
    (422, "context", "context：short のいずれかが必要ですが、実際は 'sea'"),
    (422, "quality", "quality：low、medium、high のいずれかが必要ですが、実際は '8k'"),
    (404, "scene", "そのようなシーンはありません：'nope'"),
    (400, "n", "n は 1 から始まるステップ番号です（'x' ではありません）"),
    (400, "scene", "JSON オブジェクトが必要です：scene：シーンの id が必要ですが、実際は ''"),
    (400, "n", "n は 1 から始まるステップ番号です（'0' ではありません）"),
    (404, "key", "key：ナレーションの行 'softmax.say.nope' はありません"),
    (400, None, "JSON オブジェクトが必要です：オブジェクトではありません"),
]


def test_a_bad_request_is_answered_in_the_pages_language(zh_studio):
    _, client, _ = zh_studio
    assert refusals(client) == ZH
    assert client.request("POST", "/api/view", json.dumps({"lang": "ja"}))[0] == 200  # the language bar
    try:
        assert refusals(client) == JA
    finally:
        assert client.request("POST", "/api/view", json.dumps({"lang": "zh"}))[0] == 200


@pytest.mark.parametrize("width", [1280, 360])
def test_a_chinese_page_shows_a_refused_render_in_chinese(zh_studio, tab, width):
    _, _, url = zh_studio
    page, problems = open_page(tab, url, width=width)
    page.click("#tab-render")
    # the voice choices say who speaks and what it can: long options wrap the form, never widen the page
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.eval_on_selector("#render-form select[name=quality] option", "o => { o.value = '8k'; }")
    page.eval_on_selector("#render-form select[name=quality]", "s => { s.selectedIndex = 0; }")
    page.click("#render")
    item = page.locator("#renders li[data-state=failed] .what")
    item.wait_for(timeout=10000)
    said = item.inner_text()
    assert said.endswith("quality：应为 low、medium、high 之一，实际是 '8k'"), said
    box = item.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # on the screen
    assert [p for p in problems if "422" not in p] == []
