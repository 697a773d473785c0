#!/usr/bin/env python3
"""The guide's and the README's pictures of the product, made from the current code, each stamped in
media/preview/figures.json with a hash of the sources it shows (tests/test_guide_figures.py recomputes the
hashes and fails, naming this script, when a picture is older than its sources).

    .venv/bin/python scripts/guide_figures.py                     # every figure
    .venv/bin/python scripts/guide_figures.py contact-sheet-zh    # one (its name without .png)
    .venv/bin/python scripts/guide_figures.py --stamp-only NAME   # re-stamp a figure looked at and kept

The contact sheets are `attention-lesson sheet` (every scene's last frame, the default lesson); the
studio's picture is the studio itself on a copy of the default lesson, opened by Playwright in Debian's
chromium (as the tests do: tests/conftest.py) at 1280 × 800, the scores scene's scores step selected
once every scene is drawn. A dev tool, not a test: run it after changing what a figure shows, look at
the picture, commit it with figures.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREVIEW = ROOT / "media" / "preview"
STAMPS = PREVIEW / "figures.json"
CHROMIUM = "/usr/bin/chromium"  # Debian's; Playwright never downloads one
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
DEFAULT_LESSON = "attention_core/lessons/default.toml"
WEB = "attention_lesson/web/"


@dataclass(frozen=True)
class Figure:
    """A picture: how it is made (`kind` and its options) and the sources it shows (globs under ROOT)."""

    kind: str  # "sheet" or "studio"
    lang: str
    sources: tuple[str, ...]
    theme: str = "dark"
    context: str | None = None
    leave_out: tuple[str, ...] = ()  # file names the globs find that the figure does not show


def scene_sources(lang: str) -> tuple[str, ...]:
    """What a scene's frames are made of: the scenes' code, their words in `lang`, the default lesson."""
    return ("scenes/*.py", "scenes/common/**/*.py", f"scenes/i18n/{lang}/*.toml", DEFAULT_LESSON)


PAGES = ("deck.toml", "handout.toml", "explorer.toml", "studio.toml", "speech.toml")  # no scene's words


FIGURES = {
    "contact-sheet-zh": Figure("sheet", "zh", scene_sources("zh"), leave_out=PAGES),
    "contact-sheet-zh-light": Figure("sheet", "zh", scene_sources("zh"), theme="light", leave_out=PAGES),
    "contact-sheet-en": Figure("sheet", "en", scene_sources("en"), context="savings", leave_out=PAGES),
    "studio-zh": Figure("studio", "zh", (*scene_sources("zh"), f"{WEB}*.js", f"{WEB}*.css",
                                         "attention_lesson/studio/*.py")),
}


def source_files(figure: Figure) -> list[Path]:
    """The files a figure shows, sorted, caches left out."""
    found = {p for pattern in figure.sources for p in ROOT.glob(pattern)
             if p.is_file() and "__pycache__" not in p.parts and p.name not in figure.leave_out}
    return sorted(found)


def sources_hash(figure: Figure) -> str:
    """sha256 over each source file's path (relative, POSIX) and its bytes, in path order."""
    h = hashlib.sha256()
    for path in source_files(figure):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()


def scene_count(lang: str) -> int:
    """How many scenes the default lesson has (the sheet's tiles)."""
    from attention_core import load
    from scenes.registry import available

    return len(list(available(load(None))))


def cli(*args: str, cwd: Path = ROOT) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "attention_lesson", *args], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout


def make_sheet(name: str, figure: Figure) -> None:
    with tempfile.TemporaryDirectory(prefix="figure-") as tmp:
        context = ("--context", figure.context) if figure.context else ()
        cli("sheet", "--lang", figure.lang, "--theme", figure.theme, *context, "-q",
            "--dest", str(PREVIEW / f"{name}.png"), cwd=Path(tmp))


def start_studio(folder: Path, lang: str) -> tuple[subprocess.Popen, str]:
    """The studio on a copy of the default lesson in `folder`, on a free port; its process and address."""
    shutil.copy(ROOT / DEFAULT_LESSON, folder / "lesson.toml")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "attention_lesson", "studio", "lesson.toml",
                             "--lang", lang, "--no-browser", "--port", "0"], cwd=folder, env=env, text=True,
                            stdout=subprocess.PIPE, start_new_session=True)
    url = proc.stdout.readline().strip()
    if not re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{20,}", url):
        proc.kill()
        raise SystemExit(f"the studio did not start: {url!r}")
    return proc, url


def make_studio(name: str, figure: Figure, timeout: float = 900) -> None:
    """Every scene drawn (the timeline all fresh), then the scores scene's third step on the stage."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="figure-") as tmp:
        proc, url = start_studio(Path(tmp), figure.lang)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(url)
                page.wait_for_selector("body[data-ready=true]", timeout=60_000)
                page.wait_for_function("(document.body.dataset.timeline || '').split(' ').length > 1 && "
                                       "document.body.dataset.timeline.split(' ')"
                                       ".every(s => s.endsWith(':fresh'))", timeout=timeout * 1000)
                page.locator("#timeline .block[data-scene=scores] .seg").nth(2).click()
                page.wait_for_function("document.querySelector('#stage').dataset.scene === 'scores'")
                time.sleep(1)  # the frame's image decoded and the stage's text laid out
                page.screenshot(path=str(PREVIEW / f"{name}.png"))
                browser.close()
        finally:
            os.killpg(proc.pid, 2)  # Ctrl-C, as in the terminal
            proc.wait(timeout=60)


def stamp(name: str) -> None:
    """Record the figure's sources' hash (and, for a sheet, its scene count) in figures.json."""
    figure = FIGURES[name]
    stamps = json.loads(STAMPS.read_text(encoding="utf-8")) if STAMPS.exists() else {}
    entry = {"made_by": f"scripts/guide_figures.py {name}", "sources": list(figure.sources),
             "leave_out": list(figure.leave_out), "sources_sha256": sources_hash(figure)}
    if figure.kind == "sheet":
        entry["scenes"] = scene_count(figure.lang)
    stamps[f"{name}.png"] = entry
    STAMPS.write_text(json.dumps(dict(sorted(stamps.items())), indent=2, ensure_ascii=False) + "\n",
                      encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"of {', '.join(FIGURES)} (default: all)")
    parser.add_argument("--stamp-only", action="store_true", help="only record the sources' hashes")
    args = parser.parse_args()
    if unknown := set(args.names) - set(FIGURES):
        parser.error(f"no figure {', '.join(sorted(unknown))}")
    sys.path.insert(0, str(ROOT))
    for name in args.names or FIGURES:
        figure = FIGURES[name]
        if not args.stamp_only:
            (make_sheet if figure.kind == "sheet" else make_studio)(name, figure)
        stamp(name)
        print(PREVIEW / f"{name}.png")


if __name__ == "__main__":
    main()
