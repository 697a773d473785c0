"""Slide decks from the scenes' slides (pipeline/drawing/slides.py): manim-slides' converters join them into
deck/index.html (RevealJS, with the reveal.js files from npm copied beside it: no network needed) or
deck.pptx (a movie per slide), one slide per step of every scene, the narration as speaker notes.
The HTML deck has a small link in its bottom-left corner to the explorer beside it (../explorer/), and
reveal.js's theme of the scenes' background (black or white: its arrows, progress bar, start slide).
A PowerPoint slide's poster (what thumbnails, the slide sorter, printed slides and PDF exports show, and
the slide before its movie plays) is the step's last frame: manim-slides takes the first, which for
every scene's first step is an empty background.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from attention_core import LANGS
from scenes.common import style
from scenes.common.i18n import catalog
from scenes.common.languages import tag

from ..pipeline.drawing.slides import posters_from_last_frames, presentation
from ..pipeline.manifest import swap_folder
from ..pipeline.products import ProductArgs
from .explorer import VENDOR
from .files import DECK_HTML, DECK_PPTX, deck_owns

# in the package (scripts/vendor.sh copies them from npm); package.json pins the version manim-slides'
# RevealJS template is written for (its reveal_version, 6.0.1)
REVEAL = VENDOR / "reveal.js"
TEMPLATE = Path(__file__).with_name("deck.html")  # the page, a template manim-slides renders
REVEAL_DIR = "reveal.js"  # where the deck's copy of reveal.js sits, beside index.html
PPTX_WIDTH = 1280  # slide width in px (PowerPoint's 13.33 in widescreen); the height keeps the aspect
EXPLORER = "../explorer/index.html"  # the explorer, beside deck/ in the same output folder
# bottom left, just above the progress bar: reveal's arrows are bottom right, the slide number shows in
# the speaker view only; dim until hovered or focused, over the scenes' free margin
EXPLORE_CSS = (".reveal a.explore{position:absolute;left:8px;bottom:8px;z-index:40;font-size:12px;"
               "line-height:1.4;padding:1px 6px;border-radius:4px;color:#ddd;background:rgba(0,0,0,.45);"
               "opacity:.6;text-decoration:none;font-family:sans-serif}"
               ".reveal a.explore:hover,.reveal a.explore:focus-visible{opacity:1;color:#fff;"
               "outline:2px solid #fff;outline-offset:1px}")


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")


def _as_markdown(text: str) -> str:
    """The narration as literal Markdown inside HTML: reveal.js reads the notes' text (entities
    decoded) and parses it as Markdown, so escape both (no emphasis, no tags, nothing lost)."""
    return html.escape(_MARKDOWN.sub(r"\\\1", text), quote=False)


def build_deck(out_dir: Path, args: ProductArgs, to: str) -> Path:
    """Join the scenes' slides (args.ids) into one deck in out_dir (deck/ for html, deck.pptx); its path.
    `args.start`: the clips speak; the HTML deck opens on a start slide with this text (browsers play a
    video with sound only after the viewer has clicked or pressed a key on the page). `args.theme`: the
    scenes' (the HTML deck's reveal.js theme follows its background)."""
    configs = [presentation(out_dir, i) for i in args.ids]
    with tempfile.TemporaryDirectory(prefix=".tmp-deck-", dir=out_dir) as tmp:
        tmp = Path(tmp)
        if to == "pptx":
            _pptx(configs, tmp / DECK_PPTX, args.title, args.author, args.lang)
            os.replace(tmp / DECK_PPTX, out_dir / DECK_PPTX)
            return out_dir / DECK_PPTX
        _html(configs, tmp / "deck", args.title, args.lang, args.start, args.theme)
        swap_folder(tmp / "deck", out_dir / "deck", deck_owns)  # the teacher's files in deck/ stay
    return out_dir / DECK_HTML


def _pptx(configs, dest: Path, title: str, author: str, lang: str) -> None:
    """deck.pptx: a movie per slide, the step's last frame its poster, the narration its notes."""
    from manim_slides.convert import PowerPoint

    w, h = configs[0].resolution
    # (its tqdm bars go nowhere, whatever -q says)
    with contextlib.redirect_stderr(io.StringIO()), posters_from_last_frames():
        PowerPoint(presentation_configs=configs, width=PPTX_WIDTH,
                   height=round(PPTX_WIDTH * h / w)).convert_to(dest)
    _describe(dest, title, author, lang)


def _html(configs, deck: Path, title: str, lang: str, start: str | None, theme: str) -> None:
    """deck/: index.html (reveal.js, from our page template), its clips and the reveal.js files it names."""
    from manim_slides.convert import RevealJS

    for c in configs:
        for s in c.slides:
            s.notes = _as_markdown(s.notes)
    # reveal.js from the copy beside the page; arrows to click (bottom right, off the drawing),
    # a progress bar, the slide number in the speaker view (S), the slide in the URL (reload)
    light = style.luminance(style.THEMES[theme].background) > 0.5
    with tempfile.TemporaryDirectory(prefix=".tmp-template-", dir=deck.parent) as tmp:
        RevealJS(presentation_configs=configs, title=title, cdn_url=REVEAL_DIR, assets_dir="clips",
                 background_color=configs[0].background_color, reveal_theme="white" if light else "black",
                 controls="true", progress="true", slide_number="c/t", show_slide_number="speaker",
                 hash="true", template=_template(Path(tmp), lang or LANGS[0], start),
                 ).convert_to(deck / "index.html")
    _copy_reveal(deck)


def _template(tmp: Path, lang: str, start: str | None) -> Path:
    """The page template (deck.html) with this deck's words set at its top, as Jinja string literals
    (JSON's strings are Jinja's): its language's tag, its start slide's line, its link to the explorer."""
    tr = catalog(lang)
    words = {"page_lang": tag(lang), "start_text": start or "", "explore_href": EXPLORER,
             "explore_label": tr("deck.explore"), "explore_title": tr("deck.explore_title"),
             "explore_css": EXPLORE_CSS}
    preamble = "".join(f"{{% set {name} = {json.dumps(value)} %}}\n" for name, value in words.items())
    path = tmp / "deck.html"
    path.write_text(preamble + TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def _describe(pptx: Path, title: str, author: str, lang: str) -> None:
    """The deck's document properties from the lesson, none of python-pptx's template defaults
    (its "Steve Canny", "generated using python-pptx", a 2013 date)."""
    from datetime import datetime, timezone

    from pptx import Presentation

    deck = Presentation(str(pptx))
    props = deck.core_properties
    now = datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)
    props.title, props.author, props.last_modified_by = title, author, author
    props.comments, props.subject, props.keywords = "", "", ""
    props.language = tag(lang)
    props.created = props.modified = now
    props.revision = 1
    deck.save(str(pptx))


def _copy_reveal(deck: Path) -> None:
    """Copy the reveal.js files the page names (and reveal.js's licence) beside it."""
    page = (deck / "index.html").read_text(encoding="utf-8")
    wanted = set(re.findall(rf'(?:href|src)="{re.escape(REVEAL_DIR)}/([^"]+)"', page)) | {"LICENSE"}
    for rel in sorted(wanted):
        dst = deck / REVEAL_DIR / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REVEAL / rel, dst)
