"""What is made from rendered scenes: slide decks (deck: reveal.js HTML, PowerPoint) and the contact
sheet (sheet)."""
