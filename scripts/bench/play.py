"""Play pressed just after an edit, in Debian's chromium (Playwright, headless), as the issue's trial did:
the studio's page on a step of the scores scene, an edit of W_Q in its editor, Play clicked 0.3 s later;
seconds from the edit to the step's clip playing (its time past 0), and what the Play button said
meanwhile."""

from __future__ import annotations

import re
import statistics

EDIT_JS = """([pattern, value]) => {
  const v = window.studio.editor, text = v.state.doc.toString(), m = new RegExp(pattern).exec(text);
  window.editAt = performance.now();
  v.dispatch({ changes: { from: m.index, to: m.index + m[0].length, insert: value } });
}"""
PLAYING = """(() => { const v = document.querySelector('#preview-video');
  return !v.hidden && v.currentTime > 0 ? (performance.now() - window.editAt) / 1000 : false; })()"""
ROW = r"\[[-\d.]+, 2\.3, 0\.0, 0\.0\],  # ambiguity"


def play_after_edit(url: str, scene: str = "scores", n: int = 3, repeats: int = 3,
                    after: float = 0.3) -> dict:
    """Seconds from an edit to its step's clip playing, Play pressed `after` seconds after the edit; the
    median of `repeats`, each after the last edit's frames are all drawn."""
    from playwright.sync_api import sync_playwright

    from devtools.browser import launch_chromium

    times, said = [], []
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("document.querySelectorAll('#timeline .seg').length > 10", timeout=600000)
        page.locator(f"#timeline .block[data-scene={scene}] .seg").nth(n - 1).click()
        for i in range(repeats):
            page.wait_for_function("!/stale|drawing/.test(document.body.dataset.timeline)", timeout=600000)
            page.wait_for_timeout(1000)
            page.evaluate(EDIT_JS, [ROW, f"[2.{i + 5}1, 2.3, 0.0, 0.0],  # ambiguity"])
            page.wait_for_timeout(1000 * after)
            page.click("#play")
            said.append(page.inner_text("#play"))
            times.append(page.wait_for_function(PLAYING, timeout=120000, polling="raf").json_value())
            assert re.search(rf"/{scene}-0{n}-", page.get_attribute("#preview-video", "src"))
        browser.close()
    return {"edit_to_playing_s": round(statistics.median(times), 2), "each_s": [round(t, 2) for t in times],
            "play_said": said[0]}
