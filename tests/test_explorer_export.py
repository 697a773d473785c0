"""The explorer's download: the lesson file's own text with only the edited numbers changed (every
comment kept), checked by `check` and read back by the core; the page finds every number where tomllib
reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core import load, loads
from attention_lesson.cli import main

from .explorer_helpers import LESSONS, Page, build, same

pytestmark = pytest.mark.xdist_group("explorer")

NUMBER = re.compile(r"([+-]?(?:0[xob][\dA-Fa-f_]+|\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?\d+)?))")


def toml_number(text: str) -> float:
    try:
        return float(int(text, 0))
    except ValueError:
        return float(text)


def download(page: Page, folder: Path) -> Path:
    with page.p.expect_download() as info:
        page.p.click("#export")
    dest = folder / info.value.suggested_filename
    info.value.save_as(dest)
    return dest


@pytest.mark.parametrize("name", ["commented.toml", "default", "tiny.toml", "wide.toml"])
def test_the_download_keeps_the_lesson_files_text_but_the_numbers_changed(browser, tmp_path, name):
    """The download is the lesson file's own text with only the edited numbers rewritten: every comment,
    the order, the spacing and every other number as the teacher wrote them (the texts split at their
    numbers have the same pieces between); a number edited and set back is not rewritten; the file
    passes `check` and loads with the edited numbers."""
    path = LESSONS / name if name.endswith(".toml") else Path(load(name).source)
    original = load(path)
    first, last = original.context()[0], original.d_model - 1
    edits = {("x", first, 0): "-0.75", ("w_q", last, 0): "1.5", ("w_k", 0, 1): "0.125",
             ("w_v", 1, 0): "-2"}
    page = Page(browser, build(tmp_path, str(path), "en"))
    field = "input[data-matrix={}][data-r='{}'][data-c='{}']".format
    page.p.fill(field("w_q", 0, 0), "9")  # edited, then set back
    page.p.fill(field("w_q", 0, 0), str(original.w_q[0, 0]))
    for (matrix, r, c), value in edits.items():
        page.p.fill(field(matrix, r, c), value)
    dest = download(page, tmp_path)
    assert page.close() == []
    text, got = path.read_bytes().decode("utf-8"), dest.read_bytes().decode("utf-8")
    before, after = NUMBER.split(text), NUMBER.split(got)
    assert after[0::2] == before[0::2]  # the comments, keys, strings and spacing: all as they were
    changed = [(a, b) for a, b in zip(before[1::2], after[1::2]) if a != b]
    assert len(changed) == len(edits), changed
    assert {toml_number(b) for _, b in changed} == {float(v) for v in edits.values()}
    assert [line for line in got.splitlines() if line.lstrip().startswith("#")] == \
        [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert CliRunner().invoke(main, ["check", str(dest)]).exit_code == 0
    exported = load(dest)
    vocab = {t: v.copy() for t, v in original.vocab.items()}
    vocab[first][0] = -0.75
    w_q, w_k, w_v = original.w_q.copy(), original.w_k.copy(), original.w_v.copy()
    w_q[last, 0], w_k[0, 1], w_v[1, 0] = 1.5, 0.125, -2
    assert exported.vocab.keys() == vocab.keys()
    for token, row in vocab.items():
        same(exported.vocab[token], row)
    same(exported.w_q, w_q)
    same(exported.w_k, w_k)
    same(exported.w_v, w_v)
    assert exported.contexts == original.contexts and exported.focus == original.focus
    assert exported.title == original.title and exported.context_labels == original.context_labels
    assert exported.narration == original.narration and exported.dimensions == original.dimensions


LOCATE_JS = """text => [...AL.exporter.locate(text)].map(([path, [a, b]]) =>
  [JSON.parse(path), text.slice(a, b)])"""


def numbers_of(value, path=()):
    """(path, number) of every number in parsed TOML."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from numbers_of(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from numbers_of(v, (*path, i))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, float(value)


def test_the_page_finds_every_number_where_tomllib_reads_it(browser, tmp_path):
    """explorer-export.js's locate(): in every lesson of the tests (CRLF line ends too), each number's
    path and text, read as TOML reads it, are tomllib's; TOML it does not read (an array of tables)
    throws, and the download is then the lesson written anew, its first lines saying so."""
    import tomllib

    page = Page(browser, build(tmp_path, "default", "en"))
    texts = [Path(load("default").source).read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in sorted(LESSONS.glob("*.toml"))]
    texts.append(texts[-1].replace("\n", "\r\n"))
    for text in texts:
        located = {tuple(path): toml_number(s) for path, s in page.p.evaluate(LOCATE_JS, text)}
        assert located == dict(numbers_of(tomllib.loads(text))), text[:80]
    assert page.p.evaluate("""() => { try { AL.exporter.locate('[[a]]\\nb = 1\\n'); return 'read'; }
                              catch (e) { return e.name; } }""") == "SyntaxError"
    page.p.fill("input[data-matrix=w_q][data-r='3'][data-c='0']", "0.5")
    text = page.p.evaluate("AL.state.data.text")
    for unread in (text.replace("[vocab]", "[[vocab]]"), text.replace("2.3, 2.3", "2.4, 2.3")):
        page.p.evaluate("t => { AL.state.data.text = t; }", unread)  # TOML it does not read; not the lesson's
        fresh = page.p.evaluate("Explorer.lessonToml()")
        assert fresh.splitlines()[1] == "# Written anew: the lesson file's comments could not be kept."
        assert loads(fresh).w_q[3, 0] == 0.5
    assert page.close() == []
