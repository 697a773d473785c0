"""What is made from rendered scenes: the products (registry: lesson, html, pptx, handout, sheet, each a
pipeline.products.Product), slide decks (deck: reveal.js HTML, PowerPoint), the handout (handout), the
contact sheet (sheet) and the recording script (script)."""
