"""The explorer page and the studio in Debian's chromium (Playwright, headless): edits typed into the
explorer, timed in the page; the studio's keystroke to numbers and edits to redrawn frames."""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from attention_core.lesson import resolve

from . import BIN
from .play import play_after_edit

EDIT_JS = """async ([n]) => {
  const cells = [...document.querySelectorAll('input[data-matrix=w_q]')];
  const frames = [], laid = [];
  for (let i = 0; i < n; i++) {
    const cell = cells[i % cells.length];
    const t0 = performance.now();
    cell.value = String(((i % 7) - 3) / 2);
    cell.dispatchEvent(new Event('input', {bubbles: true}));
    document.body.offsetHeight;  // style and layout, now
    laid.push(performance.now() - t0);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    frames.push(performance.now() - t0);
  }
  return [Explorer.timings.slice(-n), laid, frames];
}"""


def _quantiles(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"median_ms": round(statistics.median(xs), 2), "p95_ms": round(xs[int(0.95 * (len(xs) - 1))], 2)}


def explorer_benchmark(work: Path, edits: int = 200) -> dict:
    """Edits of W_Q typed into the explorer of the default and an 8x8 lesson, timed in chromium."""
    from playwright.sync_api import sync_playwright

    from devtools.browser import launch_chromium
    from devtools.lessons import eight_by_eight

    (work / "eight.toml").write_text(eight_by_eight(), encoding="utf-8")
    results = {}
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        for name, lesson in (("default (4 tokens)", "default"),
                             ("8 tokens, 8 dims", str(work / "eight.toml"))):
            out = work / name.split()[0]
            subprocess.run([BIN / "attention-lesson", "explorer", "--lesson", lesson, "--out", str(out),
                            "-q"], check=True, capture_output=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((out / "explorer" / "index.html").as_uri())
            script, laid, frames = page.evaluate(EDIT_JS, [edits])
            results[name] = {"script": _quantiles(script), "script_style_layout": _quantiles(laid),
                             "to_next_frame": _quantiles(frames)}
            page.close()
        browser.close()
    return results


ON_SCREEN = "scores"  # the scene of the step the page shows while the edits are made
ON_SCREEN_STEP = 3  # and that step (all the scores: what a W_Q edit changes), drawn after steps 1 and 2
SHOWN_FOR = {"savings": "contexts", "w_q": ON_SCREEN}  # a savings edit changes no scene of river alone


def _studio_edit(client, events, text: str, on_screen: str = ON_SCREEN) -> tuple[float, float, float]:
    """PUT one text, with the page on a step of `on_screen`; seconds to the frame of the step on screen
    (ON_SCREEN_STEP of its scene, drawn first; the savings edit's scene: its first step), first scene
    done, and idle."""
    from devtools.studio import wait_for

    t0 = time.perf_counter()
    status, body = client.request("PUT", f"/api/lesson?focus={on_screen}", text)
    assert status == 200, body
    run = body["run"]
    n = ON_SCREEN_STEP if on_screen == ON_SCREEN else 1
    wait_for(events, lambda e, d: e == "step" and d["run"] == run and d["scene"] == on_screen and d["n"] == n,
             timeout=300)
    step = time.perf_counter() - t0
    wait_for(events, lambda e, d: e == "frames" and d["run"] == run and d["drawn"], timeout=300)
    scene = time.perf_counter() - t0
    wait_for(events, lambda e, d: e == "idle" and d["run"] == run, timeout=300)
    return step, scene, time.perf_counter() - t0


def _keystrokes(url: str, n: int = 20) -> list[float]:
    """Seconds from a key typed in the editor to the page's numbers of that text."""
    from playwright.sync_api import sync_playwright

    from devtools.browser import launch_chromium

    times = []
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.locator(".cm-line", has_text="savings = [0.0, 1.0").first.click()
        page.keyboard.press("End")
        for i in range(n):
            page.keyboard.type(" ")  # a space at the end of the line: a new text, the same numbers
            page.wait_for_function(f"window.studioTimings.length > {i}")
            page.wait_for_timeout(100)
        times = [t / 1000 for t in page.evaluate("window.studioTimings")]
        browser.close()
    return times


def studio_benchmark(work: Path, repeats: int = 3) -> dict:
    from devtools.studio import Client, wait_for

    shutil.copy(resolve("default"), work / "lesson.toml")
    t0 = time.perf_counter()
    proc = subprocess.Popen([BIN / "attention-lesson", "studio", "--no-browser", "--port", "0"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    client = Client(url)
    events = client.events()
    try:
        wait_for(events, lambda e, d: e == "idle", timeout=600)
        cold = time.perf_counter() - t0
        keys = _keystrokes(url)
        text = (work / "lesson.toml").read_text(encoding="utf-8")
        edits = {"savings": [], "w_q": []}
        for i in range(repeats):  # each edit on top of the last: a savings edit leaves W_Q as it was
            text = text.replace(re.search(r"savings = \[.*\]", text).group(0),
                                f"savings = [0.0, 1.{i + 1}, 0.0, 0.0]")
            edits["savings"].append(_studio_edit(client, events, text, SHOWN_FOR["savings"]))
            text = re.sub(r"\[[\d.]+, 2\.3, 0\.0, 0\.0\],  # ambiguity",
                          f"[2.{i + 4}, 2.3, 0.0, 0.0],  # ambiguity", text)
            edits["w_q"].append(_studio_edit(client, events, text))
        play = _play(client, events)  # the server still up: after the last edit's idle
        in_page = play_after_edit(url)  # Play 0.3 s after an edit, in chromium
    finally:
        proc.send_signal(__import__("signal").SIGINT)
        proc.communicate(timeout=60)
    med = lambda xs: round(statistics.median(xs), 2)  # noqa: E731
    return {"cold_all_frames_s": round(cold, 1),
            "keystroke_to_numbers_ms": round(1000 * statistics.median(keys)),
            "keystroke_p95_ms": round(1000 * sorted(keys)[int(0.95 * (len(keys) - 1))]),
            **{f"{k}_{what}_s": med([t[i] for t in v]) for k, v in edits.items()
               for i, what in enumerate(("on_screen_step_frame", "first_scene", "all_frames"))},
            "play_s": play, **in_page}


def _play(client, events) -> float:
    """Seconds from a press on Play on ON_SCREEN's second step (the frames idle, the scene not drawn as a
    video yet) to that step's clip ready (drawn alone, before the whole scene's)."""
    from devtools.studio import wait_for

    t0 = time.perf_counter()
    status, body = client.request("POST", f"/api/clip?scene={ON_SCREEN}&n=2")
    assert status == 200, body
    if not body["ready"]:
        wait_for(events, lambda e, d: e == "clip" and d["scene"] == ON_SCREEN and d.get("n") == 2,
                 timeout=300)
    return round(time.perf_counter() - t0, 2)
