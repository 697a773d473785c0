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

from ..pipeline.plan import FRAMES, POSTER, SLIDES, VIDEO
from ..pipeline.products import Product, ProductArgs, package_files, sources
from .files import (
    DECK_HTML,
    DECK_PPTX,
    EXPLORER_ASSETS,
    EXPLORER_FOLDER,
    EXPLORER_INDEX,
    SHEET,
    VENDOR,
    deck_owns,
    explorer_owns,
)

# A product's maker imports what makes it when it runs: a re-run with nothing to make plans every product
# and makes none, and importing the deck's, the handout's and the join's modules (manim-slides, PIL, PyAV
# readers) cost it more than the rest of its work.


def join_lesson(folder: Path, args: ProductArgs) -> list[str]:
    """The scenes joined into lesson.<format> with a chapter per scene and one subtitle file."""
    from ..pipeline import join as joining

    return joining.join(folder, list(args.ids), args.file_format, args.quality, args.title, args.fps)


def _deck(folder: Path, args: ProductArgs, to: str) -> list[str]:
    from .deck import build_deck

    build_deck(folder, args, to)
    if to == "pptx":
        return [DECK_PPTX]
    deck = folder / "deck"  # (its files: not a teacher's kept beside them)
    return sorted(f"deck/{p.relative_to(deck).as_posix()}" for p in deck.rglob("*")
                  if p.is_file() and deck_owns(p.relative_to(deck).as_posix()))


def deck_html(folder: Path, args: ProductArgs) -> list[str]:
    return _deck(folder, args, "html")


def deck_pptx(folder: Path, args: ProductArgs) -> list[str]:
    return _deck(folder, args, "pptx")


def handout(folder: Path, args: ProductArgs) -> list[str]:
    from .handout import build_handout

    paths = build_handout(folder, args)
    return sorted(str(Path(p).resolve().relative_to(folder.resolve())) for p in paths)


def handout_engine_missing() -> str | None:
    """What the handout's PDF needs and this machine lacks (chromium), or None."""
    from .handout import engine_missing

    return engine_missing()


def sheet(folder: Path, args: ProductArgs) -> list[str]:
    """Every scene's last frame, numbered and titled, in one PNG."""
    from .sheet import contact_sheet

    items = [(f"{n}. {title}", folder / f"{i}.png")
             for n, (i, title) in enumerate(zip(args.ids, args.titles), 1)]
    contact_sheet(items, folder / SHEET, args.choices.sheet_columns, args.theme)
    return [SHEET]


def explorer(folder: Path, args: ProductArgs) -> list[str]:
    """The offline explorer page of the lesson, starting at the variant's context, normalizer and language."""
    from .explorer import build_explorer

    paths = build_explorer(folder, args.lesson(), args.lang, args.context, args.mode, args.theme,
                           text=args.lesson_text)
    return sorted(str(p.relative_to(folder)) for p in paths)


def explorer_inputs(args: ProductArgs) -> dict | None:
    """The explorer's digest beyond its code: for a lesson with [real], whether its model is installed."""
    if "real" not in args.lesson_text:  # no [real] table: the lesson need not be read
        return None
    from .explorer_real import real_inputs

    return real_inputs(args)


def modules(*names: str) -> tuple[str, ...]:
    """The files of these modules of attention_lesson (names relative to it): part of a product's code."""
    return sources(*(f"attention_lesson.{n}" for n in names))


def catalogs(*names: str) -> tuple[str, ...]:
    """The catalog files (both languages) a product's words come from: part of its code."""
    return tuple(f"scenes/i18n/{lang}/{name}.toml" for name in names for lang in LANGS)


# a product's code: its modules by name (found without importing them; a moved one fails here, never drops
# out of the digest) and files by path (tests/test_digests.py checks each exists; manifest.hash_files
# refuses a missing one)
_DECK_CODE = (*modules("outputs.deck", "pipeline.drawing.slides"), "attention_lesson/outputs/deck.html",
              *package_files(VENDOR / "reveal.js"), *catalogs("deck", "common"))
LESSON = Product("lesson", join_lesson, VIDEO, needs_video=True, label="lesson.{format}",
                 code=modules("pipeline.join", "pipeline.ffmpeg", "pipeline.voice.track",
                              "pipeline.voice.loudness"))
HTML = Product("html", deck_html, SLIDES, folder="deck", owns=deck_owns, code=_DECK_CODE, label=DECK_HTML)
PPTX = Product("pptx", deck_pptx, SLIDES, code=_DECK_CODE, label=DECK_PPTX)
HANDOUT = Product("handout", handout, FRAMES,
                  code=(*modules("outputs.handout", "outputs.handout_print"),
                        *catalogs("handout", "common")),
                  label="handout.html, handout.pdf", check=handout_engine_missing)
SHEET_PRODUCT = Product("sheet", sheet, POSTER, code=modules("outputs.sheet"), label=SHEET)
EXPLORER = Product("explorer", explorer, None, folder=EXPLORER_FOLDER, owns=explorer_owns,
                   label=EXPLORER_INDEX, inputs=explorer_inputs,
                   code=(*modules("outputs.explorer", "outputs.explorer_real"),
                         *sources("scenes.common.style"),
                         *(f"attention_lesson/web/{a}" for a in EXPLORER_ASSETS),
                         *catalogs("explorer", "common")))
PRODUCTS = {p.name: p for p in (LESSON, HTML, PPTX, HANDOUT, SHEET_PRODUCT, EXPLORER)}
