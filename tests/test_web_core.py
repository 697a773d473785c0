"""The browser's copy of the core (attention_lesson/web/core.js) against attention_core itself, run in
Debian's chromium: every intermediate of every context and normalizer of the seeded random lessons and
the test lessons, the hard lookup, and softmax rows of extreme scores (±1e6), to 1e-12 (relative to
the value's size, at least 1). Then the helpers the explorer and the studio share (web/shared.js): the
catalog look-up and its missing words, escaping, the normalizers, and style.py's contrast rule."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from attention_core import attend, hard_lookup, load, loads
from attention_core.attention import MODES, softmax
from attention_core.geometry import picture, picture_json

from .random_lessons import random_lesson

WEB = Path(__file__).resolve().parent.parent / "attention_lesson" / "web"
CORE_JS = WEB / "core.js"
SHARED_JS = WEB / "shared.js"  # needs core.js first
LESSONS = sorted((Path(__file__).parent / "lessons").glob("*.toml"))
EXTREME = [[1e6, -1e6, 0.0], [1e6, 1e6 - 1, -1e6, 3.0], [-1e6] * 4, [1e6, 1e6], [0.0] * 8 + [1e6],
           [1e6 - k for k in range(9)]]
FIELDS = ("x", "q", "k", "v", "scores", "scaled", "weights", "output")


def as_js(lesson) -> dict:
    return {"vocab": {t: v.tolist() for t, v in lesson.vocab.items()},
            "w_q": lesson.w_q.tolist(), "w_k": lesson.w_k.tolist(), "w_v": lesson.w_v.tolist(),
            "contexts": {n: list(t) for n, t in lesson.contexts.items()}, "focus": lesson.focus,
            "geometry": {k: list(a) for k, a in lesson.geometry.items()}}


def close(js, py, what: str) -> None:
    js, py = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    assert js.shape == py.shape, (what, js.shape, py.shape)
    err = np.abs(js - py) / np.maximum(1.0, np.abs(py))
    assert err.max(initial=0.0) <= 1e-12, (what, float(err.max()))


@pytest.fixture(scope="module")
def page(browser):
    p = browser.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.add_script_tag(path=str(CORE_JS))
    p.add_script_tag(path=str(SHARED_JS))
    yield p
    p.close()
    assert not errors


def lessons(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lessons")
    for seed in range(12):
        (folder / f"random-{seed}.toml").write_text(random_lesson(seed), encoding="utf-8")
    return [load(p) for p in [*sorted(folder.glob("*.toml")), *LESSONS]] + [load("default")]


def test_every_intermediate_agrees_with_the_core(page, tmp_path_factory):
    cases = [(les, ctx, mode) for les in lessons(tmp_path_factory) for ctx in les.contexts for mode in MODES]
    js = page.evaluate("cases => cases.map(([l, t, m]) => { const a = AttentionCore.attendTokens(l, t, m);"
                       " return [a, AttentionCore.hardLookup(a)]; })",
                       [[as_js(les), list(les.context(ctx)), mode] for les, ctx, mode in cases])
    assert len(js) == len(cases) > 90  # 16 lessons, their contexts, three normalizers
    for (les, ctx, mode), (att_js, hard_js) in zip(cases, js):
        att = attend(les, ctx, mode)
        for f in FIELDS:
            close(att_js[f], getattr(att, f), f"{ctx} {mode} {f}")
        hard = hard_lookup(att)
        assert hard_js["choice"] == hard.choice.tolist(), (ctx, mode)
        close(hard_js["output"], hard.output, f"{ctx} {mode} hard output")
        close(hard_js["weights"], hard.weights, f"{ctx} {mode} hard weights")


def with_geometry(text: str, table: str) -> str:
    return text + "\n[geometry]\n" + table + "\n"


def geometry_lessons(tmp_path_factory) -> list:
    """Every lesson above, and two that name their planes in a [geometry] table."""
    default = load("default")
    named = loads(with_geometry(Path(default.source).read_text(encoding="utf-8"),
                                'qk = [4, 1]\nvalues = ["金融", "function"]'))
    assert named.geometry == {"qk": (0, 3), "values": (1, 2)}
    return [*lessons(tmp_path_factory), named, loads(with_geometry(random_lesson(5), "values = [2, 1]"))]


# each case's picture_json, and what Picture's properties give besides (weighted: tip minus tail, |q|)
PICTURE_JS = """cases => cases.map(([l, c, m]) => {
  const p = AttentionCore.picture(l, c, m);
  return [AttentionCore.pictureJson(p), p.weighted, p.query_length]; })"""


def same_picture(js: dict, py: dict, what: str) -> None:
    assert js.keys() == py.keys(), (what, sorted(js.keys() ^ py.keys()))
    for f, want in py.items():
        if f in ("tokens", "focus", "qk_axes", "v_axes"):
            assert js[f] == want, (what, f, js[f], want)
        else:
            close(js[f], want, f"{what} {f}")


def test_the_plane_agrees_with_the_core(page, tmp_path_factory):
    """core.js's picture (the planes' axes and shares, every arrow, shadow and tip) against
    attention_core.geometry's, for every context and normalizer."""
    cases = [(les, ctx, mode) for les in geometry_lessons(tmp_path_factory) for ctx in les.contexts
             for mode in MODES]
    js = page.evaluate(PICTURE_JS, [[as_js(les), ctx, mode] for les, ctx, mode in cases])
    assert len(js) == len(cases) > 100
    shares = set()
    for (les, ctx, mode), (got, weighted, length) in zip(cases, js):
        p = picture(les, ctx, mode)
        want = picture_json(p)
        same_picture(got, want, f"{les.source} {ctx} {mode}")
        close(weighted, p.weights[:, None] * p.values, f"{les.source} {ctx} {mode} weighted")
        close(length, np.linalg.norm(p.query), f"{les.source} {ctx} {mode} |q|")
        shares.add(want["qk_share"] < 1)
    assert shares == {True, False}  # planes that hold every term, and planes that hold a part


def test_the_plane_of_another_query(page):
    """A query other than the focus (the page's clicked token) is drawn in its own planes: as the core
    draws the lesson whose focus it is."""
    lesson = load("default")
    the = replace(lesson, focus="the")
    got = page.evaluate("([l, c, m]) => AttentionCore.pictureJson(AttentionCore.picture(l, c, m, null, 1))",
                        [as_js(lesson), "savings", "unscaled"])
    same_picture(got, picture_json(picture(the, "savings", "unscaled")), "the, savings")


def test_extreme_scores_stay_finite_and_agree(page):
    js = page.evaluate("rows => rows.map(AttentionCore.softmax)", EXTREME)
    for row, got in zip(EXTREME, js):
        want = softmax(np.array(row))
        assert np.isfinite(got).all() and abs(sum(got) - 1) < 1e-12
        close(got, want, f"softmax {row}")


def test_sums_as_numpy_sums(page):
    rng = np.random.default_rng(3)
    rows = [rng.normal(0, 10.0 ** rng.integers(-3, 7), n).tolist() for n in (1, 3, 7, 8, 9, 15, 16, 17, 40)]
    got = page.evaluate("rows => rows.map(AttentionCore.sum)", rows)
    assert got == [float(np.sum(np.array(r))) for r in rows]  # the same order of additions: the same bits


def test_an_unknown_normalizer_is_an_error(page):
    message = page.evaluate("() => { try { AttentionCore.scaleFor('softer', 4); } "
                            "catch (e) { return e.message; } }")
    assert message == 'mode must be one of scaled, unscaled, uniform, not "softer"'


def test_a_missing_word_shows_its_key_and_is_recorded_once(page):
    """shared.js's catalog look-up: a missing key shows as the key, a {field} not given as itself, and
    each is recorded in AL.missing and warned about on the console, once."""
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    got = page.evaluate("""() => {
      const tables = { en: { hi: "hello {name}", n: "{n} of {total}" }, zh: { hi: "你好 {name}" } };
      let lang = "en";
      const w = AL.catalog(() => tables, () => lang);
      const out = [w("hi", { name: "Ada" }), w("n", { n: 1, total: 2 }), w("nope"), w("nope"), w("hi")];
      lang = "zh";
      out.push(w("hi", { name: "<b>" }), w("n", { n: 1, total: 2 }));
      return [out, AL.missing.splice(0)];
    }""")
    assert got == [["hello Ada", "1 of 2", "nope", "nope", "hello {name}", "你好 <b>", "n"],
                   ["en: nope", "en: hi {name}", "zh: n"]]
    page.evaluate("() => new Promise(requestAnimationFrame)")  # the console's messages are in
    assert warnings == [f"attention-lesson: no word for {m}" for m in ("en: nope", "en: hi {name}", "zh: n")]


def test_the_shared_helpers(page):
    got = page.evaluate("""() => [AL.esc(`<a href="x">'&'</a>`), AL.MODES === AttentionCore.MODES,
      AL.langName("zh"), AL.langName("en"), AL.langName("fr"), AL.$("body") === document.body]""")
    escaped = "&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;"
    assert got == [escaped, True, "中文", "English", "fr", True]
    assert page.evaluate("AL.MODES") == list(MODES)


def test_the_contrast_rule_is_style_pys(page):
    """AL.luminance, AL.contrast and AL.inkOn against style.luminance, contrast and text_on on random
    colours and every theme's heat ramp."""
    from scenes.common.style import INKS, THEMES, contrast, luminance, text_on

    rng = np.random.default_rng(5)
    colours = ["#%02X%02X%02X" % tuple(rng.integers(0, 256, 3)) for _ in range(200)]
    colours += [c.to_hex() for t in THEMES.values() for c in t.heat] + ["#000000", "#FFFFFF", "#777777"]
    inks = [i.to_hex() for i in INKS]
    js = page.evaluate("""([cs, inks]) => cs.map((c) => [AL.luminance(AL.rgb(c)),
      AL.contrast(AL.rgb(c), AL.rgb(inks[0])), AL.inkOn(AL.rgb(c), inks)])""", [colours, inks])
    for c, (lum, con, ink) in zip(colours, js):
        assert abs(lum - luminance(c)) < 1e-12 and abs(con - contrast(c, inks[0])) < 1e-12, c
        assert ink == text_on(c).to_hex(), c


def test_argmax_as_numpys(page):
    """The hard lookup's choice: the first largest, or the first NaN (scores past the largest double)."""
    rows = [[1.0, 3.0, 3.0], [float("nan"), 2.0, float("nan")], [1.0, float("inf"), float("nan")],
            [-float("inf"), -float("inf")], [0.5]]
    got = page.evaluate("rows => rows.map(AttentionCore.argmax)", rows)
    assert got == [int(np.argmax(np.array(r))) for r in rows] == [1, 0, 2, 0, 0]
