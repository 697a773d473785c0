"""Where each product's files go in its output folder: named here once, for the product that makes them
(products.py) and the module that writes them."""

DECK_HTML = "deck/index.html"
DECK_PPTX = "deck.pptx"
SHEET = "contact-sheet.png"
