"""The handout read back as its readers get it: the PDF's text and images (pypdf), its pages as printed
(pdftoppm, in grey), the HTML in chromium (Playwright): for the whole default lesson at most 16 pages,
each scene on one page with a frame per step, every page light (little ink), the focus token's numbers
where the summary puts them, the answers equal to the core's; for a lesson of other words and shape in
English, its every-step large frames in the dark theme; the summary's QR code for the explorer decoded
from the printed page by zbarimg (zbar-tools, as a phone reads it)."""

import functools
import json
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import attend, load
from attention_lesson.cli import main
from attention_lesson.outputs import handout as H
from scenes.common.i18n import catalog
from scenes.common.mobjects import number_text

from .cli_helpers import cli
from .test_handout_fill import blank_among, check_fill

pytestmark = pytest.mark.render
TINY = str(Path(__file__).parent / "lessons" / "tiny.toml")
SCENE = "softmax"  # quick to draw; its four steps are four frames
MAX_PAGES = 16  # the default lesson's handout: a summary, a page per scene, exercises, answers
MIN_LUMINANCE = 0.85  # every printed page's mean, 0 black to 1 white: little ink
MIN_DPI = 250  # every frame at its placed size
MIN_PT = 6.0  # every text in a frame on paper (a cap height of 1.5 mm)


def pdf_pages(path: Path) -> list[str]:
    """Each page's text as pypdf reads it (a second read of the same file is the first's: one reading
    of a sixteen-page CJK handout costs seconds, and the default handout is read five ways)."""
    return list(_pdf_read(path)[0])


def pdf_page_images(path: Path) -> list[int]:
    """How many images each page holds, from the same one reading."""
    return list(_pdf_read(path)[1])


def pdf_images(path: Path) -> int:
    return sum(pdf_page_images(path))


def _pdf_read(path: Path) -> tuple[tuple[str, ...], tuple[int, ...]]:
    stat = path.stat()
    return _pdf_read_once(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _pdf_read_once(path: str, _mtime: int, _size: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    from pypdf import PdfReader

    pages = PdfReader(path).pages
    # NFKC: the CJK font maps some characters to their radicals' code points (力 read as ⼒)
    return (tuple(unicodedata.normalize("NFKC", p.extract_text()) for p in pages),
            tuple(len(p.images) for p in pages))


def qr_on_first_page(pdf: Path) -> str:
    """What the QR code on the PDF's first page says, read from the page as printed (150 dpi); "" when
    the page has none."""
    assert shutil.which("zbarimg"), "zbarimg is missing: run ./scripts/setup.sh"
    png = pdf.with_name("page-1")
    subprocess.run(["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-singlefile", "-png", str(pdf), str(png)],
                   check=True, capture_output=True)
    found = subprocess.run(["zbarimg", "-q", "--raw", str(png) + ".png"], capture_output=True, text=True,
                           check=False)
    assert found.returncode in (0, 4), found.stderr  # 4: no code found
    return found.stdout.strip()


def check_explorer_box(out: Path, lang: str, url: str | None):
    """The summary page names the explorer: the address as a link, what it is for, and a QR code of the
    address only when one was given (--explorer-url); all on the first page (the box adds no page).
    Without an address the link is the relative explorer/index.html, which a phone cannot open: no QR
    code in the HTML, none on the printed page (zbarimg finds nothing)."""
    tr, doc = catalog(lang), (out / "handout.html").read_text(encoding="utf-8")
    href, what = (url, "handout.explore_what") if url else ("explorer/index.html", "handout.explore_beside")
    assert f"<a href='{href}'>{href}</a>" in doc
    assert doc.count("<svg") == (1 if url else 0) and ("class=\"qr\"" in doc) == bool(url)
    summary = pdf_pages(out / "handout.pdf")[0].replace("\n", "")
    for text in (tr("handout.explore_title"), tr(what), href):
        assert re.search(as_read(text.replace(" ", "")), summary.replace(" ", "")), text
    assert qr_on_first_page(out / "handout.pdf") == (url or "")


def as_read(text: str) -> str:
    """A pattern for `text` as pypdf reads it back: some CJK characters come out as CJK radicals that
    NFKC leaves as they are (见 as ⻅, U+2EC5), so any radical stands for a CJK character."""
    return "".join(f"(?:{re.escape(c)}|[\u2e80-\u2fdf])" if "\u4e00" <= c <= "\u9fff" else re.escape(c)
                   for c in unicodedata.normalize("NFKC", text))


def page_luminance(pdf: Path) -> list[float]:
    """Each page's mean grey as printed in grey (pdftoppm -gray, 20 dpi), 0 black to 1 white."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", "20", "-gray", "-png", str(pdf), str(pdf.with_name("grey"))],
                   check=True, capture_output=True)
    return [float(np.asarray(Image.open(p), dtype=float).mean() / 255)
            for p in sorted(pdf.parent.glob("grey-*.png"))]


@pytest.fixture(scope="module")
def default_zh(tmp_path_factory):
    """The default handout of the whole default lesson (light frames, key frames, medium quality)."""
    out = tmp_path_factory.mktemp("handout-zh")
    with pytest.MonkeyPatch.context() as mp:  # manim's caches (<out>/.cache) private to this test
        mp.chdir(out)
        printed = cli("handout", "--all", "--out", str(out), "-q")
    assert str(out / "handout.pdf") in printed and str(out / "handout.html") in printed
    return out


def check_a_page_per_scene(default_zh):
    """Summary, one page per scene (its title, and every one of its steps' frames, on it), exercises,
    answers: at most 16 pages, every step's frame in the PDF once, every page light."""
    from scenes.registry import available

    pages, images = pdf_pages(default_zh / "handout.pdf"), pdf_page_images(default_zh / "handout.pdf")
    scenes = list(available())
    assert len(pages) == 1 + len(scenes) + 2 <= MAX_PAGES, len(pages)
    assert blank_among(pages, images) == []
    for n, (info, text, found) in enumerate(zip(scenes, pages[1:], images[1:]), start=1):
        steps = json.loads((default_zh / "frames" / f"{info.id}.json").read_text(encoding="utf-8"))["steps"]
        assert text.startswith(f"{n + 1} / {len(pages)}"), text[:20]  # the page's number, printed
        assert re.search(as_read(f"{n}. {info.title('zh')}"), text) and found == len(steps), (info.id, found)
    assert images[0] == 1 and images[-1] == images[-2] == 0  # the summary's one: the geometry's plane
    assert sum(images) == len(list((default_zh / "frames").glob("*.png"))) + 1
    light = page_luminance(default_zh / "handout.pdf")
    assert len(light) == len(pages) and min(light) >= MIN_LUMINANCE, light


def check_legend_prints_apart(default_zh):
    """The summary's Q, K and V swatches, found by their colour on the page as printed in colour, are
    at least 10 apart in L* on the same page printed in grey (pdftoppm -gray: a naive driver's grey)."""
    from colorspacious import cspace_convert
    from PIL import Image

    from scenes.common.style import LIGHT

    pdf = default_zh / "handout.pdf"
    for grey in ("", "-gray"):
        subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "1", "-singlefile", "-png",
                        *filter(None, [grey]), str(pdf), str(pdf.with_name(f"summary{grey}"))],
                       check=True, capture_output=True)
    colour = np.asarray(Image.open(pdf.with_name("summary.png")).convert("RGB"), dtype=int)
    printed = np.asarray(Image.open(pdf.with_name("summary-gray.png")).convert("L"), dtype=float) / 255
    lightness = {}
    for role in "qkv":
        swatch = np.abs(colour - np.array(getattr(LIGHT, role).to_rgb()) * 255).max(axis=2) <= 3
        assert swatch.sum() > 100, role  # a 4 mm square at 100 dpi is about 250 pixels
        lightness[role] = cspace_convert([float(np.median(printed[swatch]))] * 3, "sRGB1", "CIELab")[0]
    assert min(abs(lightness[a] - lightness[b]) for a, b in ("qk", "qv", "kv")) >= 10, lightness


def check_summary_and_frames(default_zh):
    pages = pdf_pages(default_zh / "handout.pdf")
    summary = pages[0]
    assert "注意力机制" in summary and "Query" in summary
    # the four steps with bank's numbers: query, scores (raw and scaled), weights, output
    for step, numbers in (("投影", "[2.3, 2.3, 0.0, 0.0]"), ("打分", "[0.92, 0.00, 4.60, 1.38]"),
                          ("softmax", "[0.11, 0.07, 0.69, 0.14]"), ("混合", "[1.43, 0.06, 0.14, 0.00]")):
        line = next(x for x in summary.splitlines() if step in x and "[" in x)
        assert numbers in line, (step, line)
    assert len(list((default_zh / "frames").glob(f"{SCENE}-*.png"))) == 4  # one frame per step
    # beside the numbers, the plane: the geometry scene's frame of the weights, its caption under it
    summary_html = (default_zh / "handout.html").read_text(encoding="utf-8").split("</section>")[0]
    plane = f"frames/{H.PLANE_SCENE}-05-{H.PLANE_STEP}.png"
    assert re.findall(r"<img src='([^']+)'", summary_html) == [plane]
    assert catalog("zh")("geometry.summary_plane") in summary_html


def check_answers(default_zh):
    pages = pdf_pages(default_zh / "handout.pdf")
    answers = pages[-1]
    les = load(None)
    att = attend(les, "river")
    f = att.index("bank")
    q, k = att.q[f], att.k[att.tokens.index("river")]
    assert f"= {number_text(q @ k)}" in answers and number_text(q @ k) == "4.6"  # the dot product
    assert "4.6 / 2 = 2.3" in answers  # scaled by √d_k
    assert "= 0.69" in answers  # river's weight
    assert "savings" in answers or "bank" in answers  # the other context's winner
    exercises_page = pages[-2]
    assert "___" not in exercises_page and exercises_page.count("[") >= 4


def test_another_lesson_in_english(tmp_path, monkeypatch):
    """Every step's frame large, in the dark theme: the frames' pages take ink (the luminance check tells
    them from the light ones); spread over pages none less than a third full (test_handout_fill's)."""
    monkeypatch.chdir(tmp_path)
    out, url = tmp_path / "h", "https://example.org/x"
    args = ("handout", SCENE, "--lesson", TINY, "--lang", "en", "--quality", "low", "--out", str(out),
            "--frames", "all", "--theme", "dark")
    cli(*args, "--explorer-url", url, "-q")
    check_explorer_box(out, "en", url)
    usage = " ".join(cli("handout", "--help", "--lang", "en").split())
    assert "--explorer-url URL" in usage
    assert "prints no QR code (a phone cannot open a relative path)" in usage
    # the address is in the handout's digest: another one makes it again, the same one does not
    assert "up to date   handout" in cli(*args, "--explorer-url", url, "--dry-run")
    assert "would build  handout" in cli(*args, "--explorer-url", "https://example.org/y", "--dry-run")
    assert "would build  handout" in cli(*args, "--dry-run")
    assert "would build  handout" in cli(*args[:-4], "--explorer-url", url, "--dry-run")  # key frames, light
    les = load(TINY)
    att = attend(les, None)
    f = att.index(les.focus)
    exs = H.exercises(les, les.context_name(None), "scaled", "en")
    top = int(np.argmax(att.weights[f]))
    assert exs[0].value == pytest.approx(float(np.dot(att.q[f], att.k[top])))  # computed another way
    assert exs[2].value == pytest.approx(np.exp(att.scaled[f][top]) / np.exp(att.scaled[f]).sum())
    mean = att.v.mean(axis=0)
    assert exs[-1].value == pytest.approx(1 / att.n) and H.vec(mean) in exs[-1].answer
    pages = pdf_pages(out / "handout.pdf")
    assert not re.search(r"[\u4e00-\u9fff]", "".join(pages))  # English throughout
    assert all(x.answer.split()[-1].strip("()") in pages[-1].replace("\n", " ") for x in exs)
    assert pdf_images(out / "handout.pdf") == len(list((out / "frames").glob("*.png"))) == 4
    pdf = out / "handout.pdf"
    assert blank_among(pages, pdf_page_images(pdf)) == []
    ink = [lum for lum, n in zip(page_luminance(pdf), pdf_page_images(pdf)) if n]
    assert ink and max(ink) < MIN_LUMINANCE, ink
    check_fill(pdf, "en", (SCENE,), spreads=True)  # the second table no longer alone on a page


def check_html_in_chromium(default_zh, browser):
    problems = []
    page = browser.new_page()
    try:
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto((default_zh / "handout.html").as_uri())
        page.wait_for_load_state("load")
        broken = page.evaluate("[...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                               ".map(i => i.src)")
        count = page.evaluate("document.images.length")
        mathml = page.evaluate("document.querySelector('math').getBoundingClientRect().height")
    finally:
        page.close()
    assert problems == [] and broken == [] and count == len(list((default_zh / "frames").glob("*.png"))) + 1
    assert mathml > 20  # the formula is laid out as MathML, not shown as raw tags


# every frame of a scene's page: its file, its width on the page (CSS px, 96 an inch), its pixels
PLACED_JS = """() => [...document.querySelectorAll('section.scene.key img')].map(i =>
  [i.getAttribute('src'), i.getBoundingClientRect().width, i.naturalWidth])"""


def frames_on_paper(out: Path, browser) -> list[tuple[str, float, float]]:
    """(frame, dpi, its smallest text in pt) of every frame as the handout places it: its width on
    the page laid out by chromium (the PDF's layout: the page's width is the paper's less its margins)
    against its pixels, and the cap height of its smallest text in pixels, as the scene's layout
    measured it (the frame's text chunk; scenes/common/layout.py print_box)."""
    from PIL import Image

    from scenes.registry import FRAME_MIN_CAP

    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        page.emulate_media(media="print")
        page.goto((out / "handout.html").as_uri())
        page.wait_for_load_state("load")
        placed = page.evaluate(PLACED_JS)
    finally:
        page.close()
    found = []
    for src, css_px, pixels in placed:
        inches = css_px / 96
        with Image.open(out / src) as im:
            cap_px = float(im.text[FRAME_MIN_CAP])
        found.append((src, pixels / inches, cap_px / pixels * inches * 25.4 / 1.5 * MIN_PT))
    return found


def check_frames_sharp_and_legible(default_zh, browser):
    """Every frame of every scene's page at least 250 dpi at its placed size, and its smallest text at
    least 6 pt on paper (its cap height 1.5 mm); before, frames 58 to 88 mm wide printed it at 3.4 pt."""
    found = frames_on_paper(default_zh, browser)
    assert len(found) == len(list((default_zh / "frames").glob("*.png")))
    assert [f for f in found if f[1] < MIN_DPI - 0.5] == []
    assert [f for f in found if f[2] < MIN_PT - 0.01] == []


def check_exercises_fill_their_page(default_zh):
    """The exercises' page is used: room to work each one out under it, down to the page's foot (its
    ink reaches past 85 % of the page's text area; before, a third of it)."""
    from PIL import Image

    pdf = default_zh / "handout.pdf"
    n = len(pdf_pages(pdf)) - 1  # the exercises' page, before the answers'
    subprocess.run(["pdftoppm", "-r", "50", "-gray", "-f", str(n), "-l", str(n), "-singlefile", "-png",
                    str(pdf), str(pdf.with_name("exercises"))], check=True, capture_output=True)
    grey = np.asarray(Image.open(pdf.with_name("exercises.png")), dtype=float) / 255  # [rows, cols]
    mm = grey.shape[0] / 297
    text_area = grey[: int((297 - 16) * mm)]  # above the bottom margin, where the page number is
    inked = np.nonzero((text_area < 0.9).any(axis=1))[0]
    assert (inked.max() / mm - 14) / (297 - 14 - 16) > 0.85, inked.max() / mm


def test_the_default_handout(default_zh, browser):
    """One handout, read five ways (drawn once: each check on its own would draw it again on another
    test worker)."""
    check_a_page_per_scene(default_zh)
    check_legend_prints_apart(default_zh)
    check_summary_and_frames(default_zh)
    check_answers(default_zh)
    check_html_in_chromium(default_zh, browser)
    check_explorer_box(default_zh, "zh", None)  # no --explorer-url: no QR code
    check_frames_sharp_and_legible(default_zh, browser)
    check_exercises_fill_their_page(default_zh)


def test_bad_lesson_and_missing_engine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text("focus = 'bank'\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["handout", SCENE, "--lesson", str(bad), "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "Traceback" not in r.output and not (tmp_path / "o").exists()
    monkeypatch.setattr(H, "chromium", lambda: None)
    r = CliRunner().invoke(main, ["handout", SCENE, "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "apt-get install chromium" in r.output and not (tmp_path / "o").exists()
