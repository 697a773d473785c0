"""One name for the d_k axis, the columns W_Q, W_K, Q and K share, in every output: the handout's tables,
`numbers`, the explorer's computed Q and K and its W_Q and W_K inputs (the studio shows the explorer's
views), all from `scenes.common.i18n.d_k_labels` (the catalog's `common.d_k_column`). Before, the handout
headed them k1 k2 k3 k4, `numbers` q1 q2 q3 q4 (and k1... over K), the explorer 1 2 3 4."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from attention_core import attend, load
from attention_lesson.cli import main
from attention_lesson.outputs import handout as H
from scenes.common.i18n import catalog, d_k_labels

from .test_explorer import Page, build

pytestmark = pytest.mark.xdist_group("explorer")
MATRICES = ("w_q", "w_k", "q", "k")


def handout_heads(lang: str) -> dict[str, list[str]]:
    """The column heads of the handout's W_Q, W_K, Q and K tables (the projection scene's page), as
    its HTML writes them."""
    lesson, tr = load("default"), catalog(lang)
    doc = "".join(H._table(t) for t in H.tables("projection", lesson, "river", "scaled", lang))
    heads = {}
    for caption, row in re.findall(r"<caption>(.*?)</caption><tr><th></th>(.*?)</tr>", doc):
        heads[caption] = re.findall(r"<th>(.*?)</th>", row)
    return {m: heads[tr(f"handout.table_{m}")] for m in MATRICES}


def numbers_heads() -> dict[str, list[str]]:
    """The column heads `numbers` prints over Q and K."""
    out = CliRunner().invoke(main, ["numbers"]).output.splitlines()
    return {m: out[out.index(f"{m.upper()} = X W_{m.upper()}") + 1].split() for m in ("q", "k")}


def explorer_heads(page: Page) -> dict[str, list[str]]:
    """The explorer's column heads over its computed Q and K and its W_Q and W_K inputs."""
    heads = lambda sel: page.p.eval_on_selector_all(sel, "els => els.map(e => e.textContent)")  # noqa: E731
    return {"q": heads("#qkv table.role-q th[scope=col]"), "k": heads("#qkv table.role-k th[scope=col]"),
            "w_q": heads("#edit-w_q th[scope=col]"), "w_k": heads("#edit-w_k th[scope=col]")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_handout_names_the_d_k_axis_as_the_catalog_does(lang):
    d_k = attend(load("default"), "river").d_k
    assert handout_heads(lang) == {m: d_k_labels(d_k, lang) for m in MATRICES}


def test_one_name_for_the_d_k_axis_in_every_output(browser, tmp_path):
    d_k = attend(load("default"), "river").d_k
    labels = d_k_labels(d_k, "en")  # `numbers` speaks English
    assert len(set(labels)) == d_k and all(labels)
    assert numbers_heads() == {"q": labels, "k": labels}
    assert handout_heads("en") == {m: labels for m in MATRICES}
    for lang in ("en", "zh"):
        page = Page(browser, build(tmp_path / lang, "default", lang))
        assert explorer_heads(page) == {m: d_k_labels(d_k, lang) for m in MATRICES}
        assert page.close() == []

