"""The guide: Sphinx with MyST (the pages are Markdown), sphinx-click (the CLI reference from the click
commands themselves), autodoc with napoleon (the Python API from its docstrings, numpy style: Parameters,
Returns, Examples) and furo.

Offline on purpose: no CDN, no web font, no MathJax (formulas are written in Unicode, and any math node
is shown as its text by `_ext/offline.py`); the site opens from file://. Built by `make docs` into
docs/_build/html with warnings as errors (-W --keep-going)."""

from __future__ import annotations

import logging
import sys
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))  # the checkout's code, whatever is installed
# the reference's mobjects import manim, which says at INFO that it read its config: a line on stderr
logging.getLogger("manim").setLevel(logging.WARNING)

project = "attention-lesson"
author = "The attention-lesson authors"
copyright = "the attention-lesson authors, MIT licence"
release = metadata.version("attention-lesson")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",  # numpy-style sections (Parameters, Returns, Raises, Examples), as manim's
    "sphinx_click",
    "offline",  # the math renderer that fetches nothing
    "lesson_keys",  # the lesson-file reference from attention_core.keys
    "gallery",  # the scenes' gallery and the live explorer
]

source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
root_doc = "index"
language = "en"

myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = "attention-lesson"
html_static_path = ["_static"]
html_css_files = ["guide.css"]
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
# a result's summary is fetched from its page, which chromium refuses from file:// (a CORS error each)
html_show_search_summary = False
html_math_renderer = "offline"
html_theme_options = {
    # furo names no web font: the pages use the system's fonts (the CJK font the set-up installs)
    "navigation_with_keys": True,
}

autodoc_member_order = "bysource"
napoleon_google_docstring = False  # a line "Note: ..." in a docstring is prose, not a section
napoleon_numpy_docstring = True
default_role = "literal"  # the docstrings write `name` for code, as Markdown does
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
nitpicky = False
smartquotes = False  # an error message is shown as the program prints it, straight quotes and all


def plain_docstrings(app, what, name, obj, options, lines):
    """The core's docstrings are plain text, not reStructuredText: |q| is a length, not a substitution."""
    lines[:] = [line.replace("|", "\\|") for line in lines]


def page_language(app, pagename, templatename, context, doctree):
    """The Chinese and Japanese pages say so (<html lang="zh-CN">, "ja"): screen readers and the CJK
    font choice follow it."""
    if pagename.startswith("teach/zh/"):
        context["language"] = "zh-CN"
    elif pagename.startswith("teach/ja/"):
        context["language"] = "ja"


CAPTION = '<p class="caption" role="heading">'


def accessible(app, pagename, templatename, context, doctree):
    """What axe-core finds in Sphinx's and furo's HTML, mended after furo has made its navigation: a
    toctree's caption is a heading with no level (aria-level: critical), and a code block or a table
    wider than the page scrolls in a box the keyboard cannot reach (tabindex: serious)."""
    for key in ("body", "furo_navigation_tree"):
        if isinstance(context.get(key), str):
            html = context[key].replace(CAPTION, CAPTION[:-1] + ' aria-level="2">')
            html = html.replace('<div class="highlight"><pre>', '<div class="highlight"><pre tabindex="0">')
            context[key] = html.replace('<div class="table-wrapper', '<div tabindex="0" class="table-wrapper')


def unlisted(docs: Path, index_text: str) -> list[str]:
    """The pages no toctree of the index names (a page added without its line), in name order."""
    listed, inside = set(), False
    for line in index_text.splitlines():
        if line.startswith("```{toctree}"):
            inside = True
        elif line.startswith("```"):
            inside = False
        elif inside and line.strip() and not line.startswith(":"):
            listed.add(line.strip())
    pages = {p.relative_to(docs).with_suffix("").as_posix() for p in docs.rglob("*.md")
             if not p.relative_to(docs).parts[0].startswith("_")}
    return sorted(pages - listed - {"index"})


def more_pages(app, docname, source):
    """A page added without its line in a toctree still has a place: "More pages", at the index's end,
    until its line is added where its readers look."""
    if docname == "index" and (rest := unlisted(HERE, source[0])):
        source[0] += "\n```{toctree}\n:caption: More pages\n:maxdepth: 1\n\n" + "\n".join(rest) + "\n```\n"


def setup(app):
    app.connect("source-read", more_pages)
    app.connect("autodoc-process-docstring", plain_docstrings)
    app.connect("html-page-context", page_language)
    app.connect("html-page-context", accessible, priority=900)  # after furo's own (500)
