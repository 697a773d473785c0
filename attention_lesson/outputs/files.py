"""What the products and the commands that make them share, named once, in a module that loads nothing:
where each product's files go in its output folder, and the handout's choices (a command's options are
built before it runs, and a re-run with nothing to make never loads the handout's own module)."""

DECK_HTML = "deck/index.html"
DECK_PPTX = "deck.pptx"
SHEET = "contact-sheet.png"
KEY_FRAMES, ALL_FRAMES = "key", "all"  # the handout: a scene as one page of thumbnails, or every frame large
FRAME_LAYOUTS = (KEY_FRAMES, ALL_FRAMES)
HANDOUT_THEME = "light"  # the handout's: little ink, and greys that print apart
