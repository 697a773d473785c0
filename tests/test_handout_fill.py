"""No page of a handout less than a third full but its last (the answers): a scene too large for one
page is spread over its pages, whole lines of frames and tables, not left to spill onto a page of its
own. Printed by chromium from real frames (low quality) for the scenes that spilled before, in lessons
other than the default, and read back as printed: each page's lowest ink (pdftoppm -gray) against the
page's text area. Before, the 5-token lesson's projection and matrix scenes ended on pages 24 % and
32 % full (in Chinese), the 2-token lesson's common mistakes on one 17 % full, the 8-token lesson's
hard lookup on one 6 % full, and with every frame large the softmax scene's second table alone on a
page 10 % full. No page blank (no text but its number, no image): a scene without tables whose frames
ended within 3 mm of the page's foot printed an empty box of numbers, its 3 mm margin, on a page of its
own (the English tiled lesson's common mistakes, page 19 of 22); a page made to end so shows it."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from attention_lesson.outputs import handout as H
from attention_lesson.outputs.handout_print import MIN_FILL
from attention_lesson.pipeline.products import ProductArgs

from .cli_helpers import cli

pytestmark = pytest.mark.render
LESSONS = Path(__file__).parent / "lessons"
TOP_MM, BOTTOM_MM, PAGE_MM = 14, 16, 297  # the handout's @page margins, A4
INK = 0.9  # a row with a pixel darker than this (0 black, 1 white) is printed on


def page_fills(pdf: Path) -> list[float]:
    """Each page's filled fraction as printed: from the top of its text area down to its lowest inked
    row, over the text area's height (the page number, in the bottom margin, left out)."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", "50", "-gray", "-png", str(pdf), str(pdf.with_name("fill"))],
                   check=True, capture_output=True)
    fills = []
    for png in sorted(pdf.parent.glob("fill-*.png"), key=lambda p: int(p.stem.split("-")[-1])):
        grey = np.asarray(Image.open(png), dtype=float) / 255  # [rows, cols]
        mm = grey.shape[0] / PAGE_MM
        area = grey[int(TOP_MM * mm): int((PAGE_MM - BOTTOM_MM) * mm)]
        inked = np.nonzero((area < INK).any(axis=1))[0]
        fills.append(0.0 if inked.size == 0 else (inked.max() + 1) / area.shape[0])
    return fills


def blank_pages(pdf: Path) -> list[int]:
    """The pages (from 1) with no text but their number and no image, as pypdf reads the PDF."""
    from pypdf import PdfReader

    pages = PdfReader(str(pdf)).pages
    return blank_among([page.extract_text() or "" for page in pages], [len(page.images) for page in pages])


def blank_among(texts: list[str], images: list[int]) -> list[int]:
    """blank_pages from each page's text and its number of images, read once for other checks too."""
    return [n for n, (text, found) in enumerate(zip(texts, images), 1)
            if not re.sub(r"^\s*\d+\s*/\s*\d+", "", text).strip() and not found]


def scene_pages(pdf: Path, titles: list[str]) -> list[int]:
    """How many pages each scene takes: from the page its title heads to the next title's (pdftotext)."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout.split("\f")
    starts = [next(i for i, page in enumerate(text) if f"{n}.{title}" in page.replace(" ", ""))
              for n, title in enumerate(titles, 1)]
    return [b - a for a, b in zip(starts, [*starts[1:], len(text) - 3])]  # the exercises, answers, ""


# lesson, language, scenes, --frames: each one a scene that spilled onto a nearly empty page before
# (tiny's mistakes in English now fits one page: its stacked panels are laid out closer); the fourth,
# tiny's softmax in English with every frame large, is test_handout's English handout (the same pages,
# in the dark theme: a theme changes no size), checked there with check_fill
CASES = [("bat.toml", "zh", ("projection", "matrix"), "key"),
         ("tiny.toml", "en", ("mistakes",), "key"),
         ("wide.toml", "zh", ("lookup",), "key")]
ONE_PAGE = {("tiny.toml", "en", ("mistakes",), "key")}  # the cases whose scenes no longer spread


@pytest.mark.parametrize(("lesson", "lang", "scenes", "frames"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{'+'.join(c[2])}-{c[3]}" for c in CASES])
def test_no_page_less_than_a_third_full(tmp_path, monkeypatch, lesson, lang, scenes, frames):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "h"
    cli("handout", *scenes, "--lesson", str(LESSONS / lesson), "--lang", lang, "--quality", "low",
        "--frames", frames, "--out", str(out), "-q")
    assert blank_pages(out / "handout.pdf") == []
    check_fill(out / "handout.pdf", lang, scenes, spreads=(lesson, lang, scenes, frames) not in ONE_PAGE)


def check_fill(pdf: Path, lang: str, scenes: tuple[str, ...], spreads: bool) -> None:
    """No page but the last (the answers) less than MIN_FILL full; the summary, the scenes' pages, the
    exercises and the answers and no other page; some scene over two pages or more if it `spreads`,
    else every scene on one."""
    from scenes.registry import SCENES

    fills = page_fills(pdf)
    assert [round(float(f), 2) for f in fills[:-1] if f < MIN_FILL] == [], fills  # the last: the answers
    titles = [s.title(lang).replace(" ", "") for s in SCENES if s.id in scenes]
    taken = scene_pages(pdf, titles)
    assert len(fills) == 1 + sum(taken) + 2, taken  # summary, the scenes' pages, exercises, answers
    assert (max(taken) >= 2) == spreads, taken


FOOT_GAP_MM = 1.5  # where the scene's frames end, above the page's foot: less than the tables' 3 mm margin
# the common-mistakes page laid out as printed (A4 less the margins: 182 mm wide); where its frames end
MEASURE_JS = """() => { const s = document.querySelector('section.scene');
  return [s.querySelector('.shots').getBoundingClientRect().bottom - s.getBoundingClientRect().top,
          s.querySelector('.frame').getBoundingClientRect().height]; }"""


def one_frame(out: Path, height: int) -> None:
    """The common-mistakes scene's one step: a frame 800 px wide, `height` tall, its smallest text's cap
    10 px (0.15 mm a pixel on paper: 120 mm wide, its caption beside it), as the pipeline writes it."""
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    from scenes.registry import FRAME_BODY, FRAME_MIN_CAP

    info = PngInfo()
    info.add_text(FRAME_BODY, f"0,0,800,{height}")
    info.add_text(FRAME_MIN_CAP, "10")
    (out / "frames").mkdir(exist_ok=True)
    Image.new("RGB", (800, height), "white").save(out / "frames" / "mistakes-01.png", pnginfo=info)
    steps = [{"step": "one", "frame": "frames/mistakes-01.png", "narration": "one step"}]
    (out / "frames" / "mistakes.json").write_text(json.dumps({"title": "Common mistakes", "steps": steps}),
                                                  encoding="utf-8")


def test_a_scene_without_tables_ending_at_the_page_foot_leaves_no_blank_page(tmp_path, browser):
    """A scene of one frame and no tables (common mistakes), its frame as tall as makes it end 1.5 mm
    above the page's foot (measured in chromium, then made so), printed: summary, the scene, exercises,
    answers, and no blank page (there was one after the scene)."""
    text = (LESSONS / "tiny.toml").read_text(encoding="utf-8")
    args = ProductArgs(ids=("mistakes",), titles=("Common mistakes",), file_format="mp4", fps=15,
                       quality="low", title="Tiny", author="", lang="en", context="short", mode="scaled",
                       lesson_name=str(LESSONS / "tiny.toml"), lesson_text=text)
    one_frame(tmp_path, 1500)
    (tmp_path / "page.html").write_text(H.page(tmp_path, args), encoding="utf-8")
    page = browser.new_page(viewport={"width": round(182 * 96 / 25.4), "height": 900})
    try:
        page.emulate_media(media="print")
        page.goto((tmp_path / "page.html").as_uri())
        end, frame = page.evaluate(MEASURE_JS)  # CSS px
    finally:
        page.close()
    mm = 96 / 25.4
    want = (H.PAGE_H_MM - FOOT_GAP_MM) * mm  # the frame's end: 1.5 mm above the foot
    one_frame(tmp_path, round(1500 * (frame + want - end) / frame))
    _, pdf = H.build_handout(tmp_path, args)
    assert blank_pages(pdf) == []
    fills = page_fills(pdf)
    assert len(fills) == 4 and fills[1] > 0.97, fills  # the scene's page full to its foot, then exercises
