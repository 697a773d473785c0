"""A math renderer that fetches nothing: Sphinx's default, MathJax, loads its script from a CDN on every
page that holds math. Here a formula is shown as its source text (the guide writes formulas in Unicode,
softmax(QKᵀ/√dₖ)V), in a <span class="math"> or <div class="math">."""

from __future__ import annotations

from docutils import nodes


def _inline(self, node):
    self.body.append(f'<span class="math">{self.encode(node.astext())}</span>')
    raise nodes.SkipNode


def _block(self, node):
    self.body.append(f'<div class="math"><p>{self.encode(node.astext())}</p></div>')
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("offline", (_inline, None), (_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
