"""What the products and the commands that make them share, named once, in a module that loads nothing:
where each product's files go in its output folder, and the handout's choices (a command's options are
built before it runs, and a re-run with nothing to make never loads the handout's own module, nor the
explorer's)."""

from pathlib import Path

DECK_HTML = "deck/index.html"
DECK_PPTX = "deck.pptx"
SHEET = "contact-sheet.png"
KEY_FRAMES, ALL_FRAMES = "key", "all"  # the handout: a scene as one page of thumbnails, or every frame large
FRAME_LAYOUTS = (KEY_FRAMES, ALL_FRAMES)
HANDOUT_THEME = "light"  # the handout's: little ink, and greys that print apart

WEB = Path(__file__).resolve().parent.parent / "web"  # the pages' files, inside the installed package
VENDOR = WEB / "vendor"  # what npm packages the pages use, built into the package by scripts/vendor.sh
# the explorer's scripts, in the order they load: the core, the shared helpers (window.AL), the explorer's
# parts, the explorer (classic scripts: ES modules do not load from file://); the studio loads the same
EXPLORER_SCRIPTS = ("core.js", "core-next.js", "shared.js", "explorer-state.js", "explorer-url.js",
                    "explorer-plane.js", "explorer-views.js", "explorer-heads.js", "explorer-next.js",
                    "explorer-real.js", "explorer-inputs.js", "explorer-export.js", "explorer.js")
EXPLORER_ASSETS = (*EXPLORER_SCRIPTS, "explorer.css")  # copied as they are
EXPLORER_FOLDER = "explorer"
EXPLORER_INDEX = f"{EXPLORER_FOLDER}/index.html"
EXPLORER_FILES = ("index.html", "data.js", *EXPLORER_ASSETS)  # all the explorer writes in its folder
DECK_OWN = ("clips/", "reveal.js/")  # the HTML deck's folders: its clips and its copy of reveal.js


def explorer_owns(name: str) -> bool:
    """Whether the explorer writes this file of explorer/ (a name relative to it): anything else there
    (the teacher's notes, pictures) is kept when the page is written again."""
    return name in EXPLORER_FILES


def deck_owns(name: str) -> bool:
    """Whether the HTML deck writes this file of deck/: index.html and everything under clips/ and
    reveal.js/; anything else there is kept when the deck is made again."""
    return name == "index.html" or name.startswith(DECK_OWN) or f"{name}/" in DECK_OWN
