"""Slide decks through the CLI, with real small renders of fixture scenes: the PowerPoint deck read
back with python-pptx (every slide's poster its step's last frame, decoded from the slide's own movie),
the HTML deck clicked through in a real headless chromium (Debian's, driven by Playwright, with every
non-file request blocked: the deck must work offline), its corner link to the explorer in sight and
clear of reveal's arrows and progress bar; a light deck."""

import io
import json
import re
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from attention_lesson.cli import main
from attention_lesson.outputs.deck import EXPLORER
from scenes.common.i18n import catalog
from scenes.common.languages import tag
from tests.fixtures.pulse import LINES

from .cli_helpers import cli
from .conftest import BLINK, PULSE

pytestmark = pytest.mark.render

SENTENCE = "by the river bank"
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def explore_link(index: Path, lang: str) -> str:
    """The deck's link to the explorer, in the deck's language."""
    doc = index.read_text(encoding="utf-8")
    assert f'<html lang="{tag(lang)}">' in doc
    links = re.findall(r'<a class="explore"[^>]*>[^<]*</a>', doc)
    assert len(links) == 1, links
    assert f'href="{EXPLORER}"' in links[0] and 'target="_blank"' in links[0]
    assert f">{catalog(lang)('deck.explore')} ↗</a>" in links[0]
    return links[0]


def steps(lang):
    """(narration, loops) of every slide of the fixture deck, in order: blink's 2 steps, pulse's 3."""
    pulse = LINES[lang]
    return [(f"scores: {SENTENCE}", False), (f"weights: {SENTENCE}", False),
            (pulse["show"].format(s=SENTENCE), False), (pulse["pulse"], True), (pulse["settle"], False)]


@pytest.fixture
def fixture_scenes():
    """`fixtures` registers two fixture scenes here (the second has a looping step)."""
    return (BLINK, PULSE)


def posters_and_frames(deck: Path, folder: Path) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per slide: its movie's poster, and the first and the last frame of the movie itself (decoded
    from the deck: what PowerPoint and LibreOffice show and play), as RGB arrays."""
    import av
    from pptx import Presentation
    from pptx.opc.constants import RELATIONSHIP_TYPE as RT
    from pptx.shapes.picture import Movie

    found = []
    for n, slide in enumerate(Presentation(str(deck)).slides):
        movie = next(s for s in slide.shapes if isinstance(s, Movie))
        poster = np.asarray(Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB"), dtype=int)
        media = next(r.target_part for r in slide.part.rels.values() if r.reltype == RT.VIDEO)
        (folder / f"slide-{n}.mp4").write_bytes(media.blob)
        with av.open(str(folder / f"slide-{n}.mp4")) as clip:
            frames = [np.asarray(f.to_image(), dtype=int) for f in clip.decode(video=0)]
        found.append((poster, frames[0], frames[-1]))
    return found


def check_posters(deck: Path, folder: Path) -> list[np.ndarray]:
    """Every slide's poster is its step's last frame, not the movie's first (which, for the first step
    of a scene, is the empty background); returns the posters."""
    shown = posters_and_frames(deck, folder)
    for n, (poster, first, last) in enumerate(shown):
        assert poster.shape == last.shape and np.abs(poster - last).max() <= 2, n
    assert np.abs(shown[0][0] - shown[0][1]).mean() > 1  # the first slide's movie starts before its drawing
    return [poster for poster, _, _ in shown]


def test_pptx_a_movie_and_notes_per_step(fixtures):
    from pptx import Presentation
    from pptx.shapes.picture import Movie

    out = cli("slides", "--to", "pptx", "--lang", "zh", "--out", "d", "-q")
    deck = fixtures / "d" / "deck.pptx"
    check_posters(deck, fixtures)
    assert str(Path("d") / "deck.pptx") in out
    props = Presentation(str(deck)).core_properties  # the lesson's, no python-pptx template default
    assert props.title == "注意力机制" and props.language == "zh-CN"
    assert props.author == props.last_modified_by == props.comments == ""
    assert props.created.year >= 2026 and props.modified >= props.created
    slides = list(Presentation(str(deck)).slides)
    assert len(slides) == len(steps("zh"))
    for slide, (line, loops) in zip(slides, steps("zh")):
        movies = [s for s in slide.shapes if isinstance(s, Movie)]
        assert len(movies) == 1 and movies[0].poster_frame.content_type == "image/png"
        notes = slide.notes_slide.notes_text_frame.text
        assert notes == line and notes.strip()
        timing = slide._element.xml
        assert ('repeatCount="indefinite"' in timing) == loops  # the looping step loops
    assert all(CJK.search(s.notes_slide.notes_text_frame.text) for s in slides[2:4])
    with zipfile.ZipFile(deck) as z:  # PowerPoint plays H.264 in yuv420p
        clips = [n for n in z.namelist() if n.startswith("ppt/media/") and n.endswith(".mp4")]
        assert len(clips) == len(slides)
        z.extract(clips[0], fixtures)
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=codec_name,pix_fmt", "-of", "json", str(fixtures / clips[0])],
                           capture_output=True, text=True, check=True).stdout
    assert json.loads(probe)["streams"][0] == {"codec_name": "h264", "pix_fmt": "yuv420p"}
    title = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format_tags=title", "-of",
                            "csv=p=0", str(fixtures / clips[0])], capture_output=True, text=True).stdout
    assert re.fullmatch(r"注意力机制 – (闪|跳) \(\d\)", title.strip()), title  # lesson – scene (step)

    # nothing changed: no manim work, and the deck is up to date too (not written again)
    before = deck.stat().st_mtime_ns
    assert "渲染 0 个，2 个已是最新，0 个失败、pptx 已是最新" in \
        cli("slides", "--to", "pptx", "--lang", "zh", "--out", "d")
    assert deck.stat().st_mtime_ns == before
    # the video of a scene shares the folder (and manifest) without invalidating its slides
    cli("render", "blink", "--lang", "zh", "--out", "d", "-q")
    assert "渲染 0 个，2 个已是最新" in cli("slides", "--to", "pptx", "--lang", "zh", "--out", "d")
    manifest = json.loads((fixtures / "d" / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest) == ["@pptx", "blink", "blink@slides", "pulse@slides"]
    assert deck.stat().st_mtime_ns == before
    # the same clips as an HTML deck (no render): its link to the explorer in Chinese
    assert "渲染 0 个，2 个已是最新" in cli("slides", "--to", "html", "--lang", "zh", "--out", "d")
    assert CJK.search(explore_link(fixtures / "d" / "deck" / "index.html", "zh"))


VIDEO = "Reveal.getCurrentSlide().slideBackgroundContentElement.querySelector('video')"


def test_html_deck_clicks_through_offline(fixtures, browser):
    out = cli("slides", "--to", "html", "--lang", "en", "--out", "d", "-q")
    index = fixtures / "d" / "deck" / "index.html"
    assert str(Path("d") / "deck" / "index.html") in out
    page_text = re.sub(r"<!--.*?-->", "", index.read_text(encoding="utf-8"), flags=re.S)
    refs = re.findall(r'(?:src|href|data-background-video)="([^"]+)"', page_text)
    assert refs and not [r for r in refs if "://" in r or r.startswith("//")]  # no network asset
    explore_link(index, "en")  # beside deck/, made by its own command: not required here
    assert all((index.parent / r).is_file() for r in refs if r != EXPLORER)

    problems, offline = [], []
    context = browser.new_context(viewport={"width": 960, "height": 540})
    try:
        context.on("console", lambda m: m.type == "error" and problems.append(m.text))
        context.on("weberror", lambda e: problems.append(str(e.error)))
        context.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))

        def only_files(route):
            if route.request.url.startswith("file:"):
                return route.continue_()
            offline.append(route.request.url)
            return route.abort()

        context.route("**/*", only_files)
        page = context.new_page()
        page.goto(index.as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady()")
        assert page.evaluate("Reveal.getTotalSlides()") == len(steps("en"))
        check_explore_link(page)
        for n, (line, loops) in enumerate(steps("en")):
            assert page.evaluate("Reveal.getIndices().h") == n
            # the slide's video has a source that loads and plays: time advances by playing
            page.wait_for_function(f"""() => {{ const v = {VIDEO};
                return v && v.currentSrc.startsWith('file:') && !v.error && v.readyState >= 2
                    && v.played.length > 0 && v.played.end(0) - v.played.start(0) > 0.2; }}""",
                                   timeout=15_000)
            notes = page.evaluate(
                "Reveal.getCurrentSlide().querySelector('aside.notes').textContent")
            assert notes.strip() == line  # Markdown and HTML specials shown as written
            assert page.evaluate(f"{VIDEO}.loop") == loops
            assert page.evaluate(f"{VIDEO}.muted")  # silent clips: autoplay needs no click
            if loops:  # played to its end, it goes on from the start
                page.wait_for_function(f"""() => {{ const v = {VIDEO};
                    return v.played.end(v.played.length - 1) > v.duration - 0.2; }}""",
                                       timeout=15_000)
                page.wait_for_function(f"""() => {{ const v = {VIDEO};
                    return !v.ended && !v.paused && v.currentTime < v.duration * 0.8; }}""",
                                       timeout=15_000)
                page.screenshot(path=str(fixtures / "slide.png"))
                with page.expect_popup() as popup:  # the speaker view shows the notes
                    page.keyboard.press("s")
                popup.value.wait_for_function("line => document.body.innerText.includes(line)",
                                              arg=line, timeout=15_000)
                popup.value.close()
            if n < len(steps("en")) - 1:
                page.click(".reveal .controls .navigate-right")  # a person clicking "next"
        assert page.evaluate("Reveal.isLastSlide()")
        # reopened at a slide (the URL keeps it), with no click at all, the slide still plays
        again = context.new_page()
        again.goto(index.as_uri() + "#/3")
        again.wait_for_function(f"""() => window.Reveal && Reveal.isReady() && (v => v &&
            v.played.length > 0 && v.played.end(0) > 0.2)({VIDEO})""", timeout=15_000)
        again.keyboard.press("Tab")  # the link takes the focus, and reveal's keys still work
        assert again.evaluate("document.activeElement.className") == "explore"
        again.keyboard.press("ArrowLeft")
        again.wait_for_function("Reveal.getIndices().h === 2")
    finally:
        context.close()
    assert problems == [] and offline == []
    shot = np.asarray(Image.open(fixtures / "slide.png").convert("L"), dtype=float)
    assert shot.shape == (540, 960) and shot.std() > 5  # a frame with something drawn on it


def test_a_light_deck(fixtures):
    """--theme light: the clips' and the posters' background is the light theme's, the HTML deck's
    reveal.js theme white (its arrows, bar and start slide on white)."""
    from scenes.common.style import LIGHT

    cli("slides", "pulse", "--to", "pptx", "--theme", "light", "--out", "l", "-q")
    white = np.array(LIGHT.background.to_rgb()) * 255
    for poster in check_posters(fixtures / "l" / "deck.pptx", fixtures):
        assert np.abs(poster[2, 2] - white).max() <= 2 and poster.mean() > 200
    assert "渲染 0 个，1 个已是最新" in cli("slides", "pulse", "--to", "html", "--theme", "light",
                                             "--out", "l")
    page = (fixtures / "l" / "deck" / "index.html").read_text(encoding="utf-8")
    assert ('href="reveal.js/dist/theme/white.css"' in page
            and (fixtures / "l" / "deck" / "reveal.js" / "dist" / "theme" / "white.css").is_file())
    assert set(re.findall(r'data-background-color="([^"]*)"', page)) == {"white"}  # manim-slides names it
    assert str(Path("media/default/river-scaled-zh-480p15-light/deck.pptx")) in \
        cli("slides", "pulse", "--to", "pptx", "--theme", "light", "--dry-run")


def check_explore_link(page):
    """The explorer's link is shown, inside the window, and covers neither reveal's arrows nor its
    progress bar."""
    link = page.locator("a.explore")
    assert link.is_visible()
    box = link.bounding_box()
    assert (box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= 960 and box["y"] + box["height"] <= 540)
    others = page.evaluate("""[...document.querySelectorAll('.reveal .controls button, .reveal .progress')]
        .map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0)
        .map(r => [r.left, r.top, r.right, r.bottom])""")
    assert len(others) >= 2  # the arrows and the bar are there to be missed
    x0, y0, x1, y1 = box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]
    assert not [r for r in others if x0 < r[2] and r[0] < x1 and y0 < r[3] and r[1] < y1], (box, others)
    on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).className",
                           [(x0 + x1) / 2, (y0 + y1) / 2])
    assert on_top == "explore"  # nothing drawn over it


def test_dry_run_and_usage(fixtures):
    out = cli("slides", "--dry-run", "--out", "d")
    assert f"将渲染   blink -> {Path('d') / 'slides' / 'blink.json'}" in out
    assert f"将生成   html -> {Path('d') / 'deck' / 'index.html'}" in out
    assert "deck.pptx" in cli("slides", "pulse", "--to", "pptx", "--dry-run", "--out", "d")
    assert not (fixtures / "d").exists()
    r = CliRunner().invoke(main, ["slides", "nope"])
    assert r.exit_code == 2 and "blink" in r.output
    r = CliRunner().invoke(main, ["slides", "--format", "gif"])  # a deck's clips are always mp4
    assert r.exit_code == 2


def test_scene_classes_stay_plain_scenes():
    from manim_slides import Slide

    from attention_lesson.pipeline.drawing.slides import slide_class
    from tests.fixtures.pulse import Pulse

    assert not issubclass(Pulse, Slide)
    deck = slide_class(Pulse)
    assert issubclass(deck, Pulse) and issubclass(deck, Slide) and deck.__name__ == "Pulse"


def test_slides_have_their_own_digest(lesson):
    from attention_lesson.pipeline.plan import RenderOptions, input_digest

    video, deck = (RenderOptions(lesson=lesson.source, context="river", kind=k) for k in ("video", "slides"))
    assert input_digest(lesson, BLINK, video) != input_digest(lesson, BLINK, deck)
