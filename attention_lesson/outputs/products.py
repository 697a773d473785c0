"""The products: what is made of one variant's rendered scenes, each a `pipeline.products.Product`.

| name | made of | writes |
|---|---|---|
| lesson | the scenes' videos | lesson.<format>, lesson.chapters.vtt, lesson.srt |
| html | their slide clips | deck/ (index.html, clips, reveal.js) |
| pptx | their slide clips | deck.pptx |
| handout | every step's last frame | handout.html, handout.pdf |
| sheet | each scene's last frame (png) | contact-sheet.png |
| explorer | the lesson alone (no scene) | explorer/ (index.html, its scripts and style) |

`lesson`, `slides`, `handout`, `sheet` and `explorer` make them through pipeline/build.py, `batch` on Dask
workers: the same `Product` and the same functions below (module-level: Dask sends them by reference).
"""

from __future__ import annotations

from pathlib import Path

from attention_core import LANGS
from scenes.common import style

from ..pipeline import ffmpeg
from ..pipeline import join as joining
from ..pipeline.drawing import slides
from ..pipeline.plan import FRAMES, POSTER, SLIDES, VIDEO
from ..pipeline.products import Product, ProductArgs, package_files, sources
from ..pipeline.voice import loudness, track
from . import deck, handout_print
from . import explorer as explorer_page
from . import handout as handout_page
from . import sheet as sheet_page
from .deck import DECK_HTML, DECK_PPTX, REVEAL, build_deck
from .explorer import FOLDER as EXPLORER_FOLDER
from .explorer import INDEX as EXPLORER_INDEX
from .explorer import build_explorer
from .handout import build_handout, engine_missing
from .sheet import SHEET, contact_sheet


def join_lesson(folder: Path, args: ProductArgs) -> list[str]:
    """The scenes joined into lesson.<format> with a chapter per scene and one subtitle file."""
    return joining.join(folder, list(args.ids), args.file_format, args.quality, args.title, args.fps)


def _deck(folder: Path, args: ProductArgs, to: str) -> list[str]:
    build_deck(folder, args, to)
    if to == "pptx":
        return [DECK_PPTX]
    return sorted(str(p.relative_to(folder)) for p in (folder / "deck").rglob("*") if p.is_file())


def deck_html(folder: Path, args: ProductArgs) -> list[str]:
    return _deck(folder, args, "html")


def deck_pptx(folder: Path, args: ProductArgs) -> list[str]:
    return _deck(folder, args, "pptx")


def handout(folder: Path, args: ProductArgs) -> list[str]:
    paths = build_handout(folder, args)
    return sorted(str(Path(p).resolve().relative_to(folder.resolve())) for p in paths)


def sheet(folder: Path, args: ProductArgs) -> list[str]:
    """Every scene's last frame, numbered and titled, in one PNG."""
    items = [(f"{n}. {title}", folder / f"{i}.png")
             for n, (i, title) in enumerate(zip(args.ids, args.titles), 1)]
    contact_sheet(items, folder / SHEET, args.choices.sheet_columns, args.theme)
    return [SHEET]


def explorer(folder: Path, args: ProductArgs) -> list[str]:
    """The offline explorer page of the lesson, starting at the variant's context, normalizer and language."""
    paths = build_explorer(folder, args.lesson(), args.lang, args.context, args.mode, args.theme,
                           text=args.lesson_text)
    return sorted(str(p.relative_to(folder)) for p in paths)


def catalogs(*names: str) -> tuple[str, ...]:
    """The catalog files (both languages) a product's words come from: part of its code."""
    return tuple(f"scenes/i18n/{lang}/{name}.toml" for name in names for lang in LANGS)


# a product's code: the modules named (so a moved one fails at import, never drops out of the digest)
# and files by path (tests/test_products.py checks each exists; manifest.hash_files refuses a missing one)
_DECK_CODE = (*sources(deck, slides), *package_files(REVEAL), *catalogs("deck", "common"))
LESSON = Product("lesson", join_lesson, VIDEO, needs_video=True, label="lesson.{format}",
                 code=sources(joining, ffmpeg, track, loudness))
HTML = Product("html", deck_html, SLIDES, folder="deck", code=_DECK_CODE, label=DECK_HTML)
PPTX = Product("pptx", deck_pptx, SLIDES, code=_DECK_CODE, label=DECK_PPTX)
HANDOUT = Product("handout", handout, FRAMES,
                  code=(*sources(handout_page, handout_print), *catalogs("handout", "common")),
                  label="handout.html, handout.pdf", check=engine_missing)
SHEET_PRODUCT = Product("sheet", sheet, POSTER, code=sources(sheet_page), label=SHEET)
EXPLORER = Product("explorer", explorer, None, folder=EXPLORER_FOLDER, label=EXPLORER_INDEX,
                   code=(*sources(explorer_page, style),
                         *(f"attention_lesson/web/{a}" for a in explorer_page.ASSETS),
                         *catalogs("explorer", "common")))
PRODUCTS = {p.name: p for p in (LESSON, HTML, PPTX, HANDOUT, SHEET_PRODUCT, EXPLORER)}
