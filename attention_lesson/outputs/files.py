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
EXPLORER_SCRIPTS = ("core.js", "shared.js", "explorer-state.js", "explorer-url.js", "explorer-plane.js",
                    "explorer-views.js", "explorer-heads.js", "explorer-next.js", "explorer-inputs.js",
                    "explorer-export.js", "explorer.js")
EXPLORER_ASSETS = (*EXPLORER_SCRIPTS, "explorer.css")  # copied as they are
EXPLORER_FOLDER = "explorer"
EXPLORER_INDEX = f"{EXPLORER_FOLDER}/index.html"
