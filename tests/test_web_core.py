"""The browser's copy of the core (attention_lesson/web/core.js) against attention_core itself, run in
Debian's chromium: every intermediate of every context and normalizer of the seeded random lessons and
the test lessons, the hard lookup, and softmax rows of extreme scores (±1e6), to 1e-12 (relative to
the value's size, at least 1); the causal mask (the lesson's, and on or off as the page's what-if switch
asks) and every head, the heads together and W_O, on the built-ins and random lessons of 2 to 4 heads.
Then the helpers the explorer and the studio share (web/shared.js): the
catalog look-up and its missing words, escaping, the normalizers, and style.py's contrast rule."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from attention_core import attend, hard_lookup, load, loads
from attention_core.attention import MODES, softmax
from attention_core.geometry import picture, picture_json
from attention_core.multihead import attend_heads

from .explorer_helpers import evaluate_json
from .random_lessons import random_lesson
from .random_next_lessons import random_next_lesson

WEB = Path(__file__).resolve().parent.parent / "attention_lesson" / "web"
CORE_JS = WEB / "core.js"
CORE_NEXT_JS = WEB / "core-next.js"  # the next lessons' functions, added to core.js's
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


def core_page(browser):
    """A page of the shared chromium with core.js, core-next.js and shared.js, no script error while it is
    used."""
    p = browser.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.add_script_tag(path=str(CORE_JS))
    p.add_script_tag(path=str(CORE_NEXT_JS))
    p.add_script_tag(path=str(SHARED_JS))
    yield p
    p.close()
    assert not errors


@pytest.fixture(scope="module")
def page(browser):
    yield from core_page(browser)


def lessons(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lessons")
    for seed in range(12):
        (folder / f"random-{seed}.toml").write_text(random_lesson(seed), encoding="utf-8")
    return [load(p) for p in [*sorted(folder.glob("*.toml")), *LESSONS]] + [load("default")]


ATTEND_JS = """cases => cases.map(([l, t, m]) => {
  const a = AttentionCore.attendTokens(l, t, m); return [a, AttentionCore.hardLookup(a)]; })"""


def test_every_intermediate_agrees_with_the_core(page, tmp_path_factory):
    cases = [(les, ctx, mode) for les in lessons(tmp_path_factory) for ctx in les.contexts for mode in MODES]
    js = evaluate_json(page, ATTEND_JS, [[as_js(les), list(les.context(ctx)), mode]
                                         for les, ctx, mode in cases])
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
    js = evaluate_json(page, PICTURE_JS, [[as_js(les), ctx, mode] for les, ctx, mode in cases])
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
      AL.langName("zh"), AL.langName("en"), AL.langName("fr"), AL.langName("pt-BR"), AL.langName("x!"),
      AL.$("body") === document.body]""")
    escaped = "&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;"
    # a words folder's language: the browser's name of it, in it; no language code: as it is
    assert got == [escaped, True, "中文", "English", "Français", "Português (Brasil)", "x!", True]
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


# -- the next lessons: the causal mask and several heads -------------------------------------------
def next_lessons() -> list:
    """The two built-ins, random lessons with a mask and / or 2 to 4 heads, and the default lesson (its
    mask a what-if)."""
    shapes = [(heads, mask) for heads in (0, 2, 3, 4) for mask in (True, False) if heads or mask]
    randoms = [loads(random_next_lesson(seed, *shapes[seed % len(shapes)]), f"next-{seed}")
               for seed in range(14)]
    return [load("causal"), load("two_heads"), *randoms, load("default")]


def close_masked(js, py, what: str) -> None:
    """close(), where -inf (a masked score) must be -inf on both sides."""
    js, py = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    assert js.shape == py.shape, (what, js.shape, py.shape)
    assert (np.isneginf(js) == np.isneginf(py)).all(), what
    close(np.where(np.isneginf(py), 0.0, js), np.where(np.isneginf(py), 0.0, py), what)


# each case through core.js as the page runs it: the page's own lesson data, attendTokens with the mask
# (the lesson's: null, or forced) and the head (null: the focus head's), its hard lookup
NEXT_JS = """cases => cases.map(([l, t, m, masked, head]) => {
  const a = AttentionCore.attendTokens(l, t, m, masked, head);
  return [a, AttentionCore.hardLookup(a)]; })"""


def test_the_mask_and_every_head_agree_with_the_core(page):
    """core.js's attention with the causal mask (the lesson's, on and off) through every head, from
    the page's lesson data (outputs/explorer.lesson_data), against attention_core to 1e-12; a masked
    score -inf on both sides, its weight exactly 0, every row summing to 1, the first row on itself."""
    from attention_lesson.outputs.explorer import lesson_data

    cases = [(les, ctx, mode, masked, head) for les in next_lessons() for ctx in les.contexts
             for mode in MODES for masked in (None, True, False)
             for head in (None, *(h.key for h in les.heads))]
    js = evaluate_json(page, NEXT_JS, [[lesson_data(les), list(les.context(ctx)), mode, masked, head]
                                 for les, ctx, mode, masked, head in cases])
    assert len(js) == len(cases) > 900
    for (les, ctx, mode, masked, head), (att_js, hard_js) in zip(cases, js):
        what = f"{les.source} {ctx} {mode} masked={masked} head={head}"
        att = attend(les, ctx, mode, masked, head)
        for f in FIELDS:
            close_masked(att_js[f], getattr(att, f), f"{what} {f}")
        assert (att_js["mask"] is None) == (att.mask is None), what
        if att.mask is not None:
            assert att_js["mask"] == att.mask.tolist(), what
            weights = np.array(att_js["weights"])
            assert (weights[~att.mask] == 0.0).all() and weights[0, 0] == 1.0, what  # exactly
            assert np.abs(weights.sum(axis=1) - 1).max() < 1e-12, what
        hard = hard_lookup(att)
        assert hard_js["choice"] == hard.choice.tolist(), what
        close(hard_js["output"], hard.output, f"{what} hard output")


HEADS_JS = """cases => cases.map(([l, t, m, masked]) => AttentionCore.attendHeads(l, t, m, masked))"""


def test_the_heads_together_agree_with_the_core(page):
    """core.js's attendHeads (each head's pass, the outputs side by side, W_O, the multi-head output)
    against multihead.attend_heads, with the lesson's mask, with one and without."""
    from attention_lesson.outputs.explorer import lesson_data

    cases = [(les, ctx, mode, masked) for les in next_lessons() if les.heads for ctx in les.contexts
             for mode in MODES for masked in (None, True, False)]
    js = evaluate_json(page, HEADS_JS, [[lesson_data(les), list(les.context(ctx)), mode, masked]
                                  for les, ctx, mode, masked in cases])
    assert len(js) == len(cases) > 150
    assert {len(les.heads) for les, *_ in cases} == {2, 3, 4}
    for (les, ctx, mode, masked), got in zip(cases, js):
        what = f"{les.source} {ctx} {mode} masked={masked}"
        mh = attend_heads(les, ctx, mode, masked)
        assert got["keys"] == list(mh.keys), what
        for p_js, p in zip(got["heads"], mh.heads, strict=True):
            for f in FIELDS:
                close_masked(p_js[f], getattr(p, f), f"{what} {f}")
        close(got["concat"], mh.concat, f"{what} concat")
        close(got["w_o"], mh.w_o, f"{what} w_o")
        close(got["output"], mh.output, f"{what} output")


def test_a_lesson_of_one_head_has_no_heads_together(page):
    message = page.evaluate("l => { try { AttentionCore.attendHeads(l, ['the', 'bank']); } "
                            "catch (e) { return e.message; } }", as_js(load("default")))
    assert message == "a lesson of one head has no W_O"


def test_the_plane_of_a_masked_lesson_and_of_each_head(page):
    """The plane the page draws for the causal lesson and for each head of the two-head lesson (the
    page's lesson data, its attend naming the head) is the core's picture of that head's lesson."""
    from attention_lesson.outputs.explorer import lesson_data

    causal, two = load("causal"), load("two_heads")
    cases = [(causal, None, causal), *((two, h.key, replace(two, w_q=h.w_q, w_k=h.w_k, w_v=h.w_v, heads=()))
                                      for h in two.heads)]
    got = page.evaluate("""cases => cases.map(([l, head, c, m]) => {
      const attend = (les, t, mode) => AttentionCore.attendTokens(les, t, mode, null, head);
      return AttentionCore.pictureJson(AttentionCore.picture(l, c, m, null, null, attend)); })""",
                        [[lesson_data(les), head, ctx, mode] for les, head, _ in cases
                         for ctx in les.contexts for mode in MODES])
    want = [picture_json(picture(py, ctx, mode)) for les, _, py in cases for ctx in les.contexts
            for mode in MODES]
    assert len(got) == len(want) == 18
    for g, p in zip(got, want):
        same_picture(g, p, "next lessons' plane")
    assert want[0]["weights"][2:] == [0.0, 0.0]  # bank, masked, gives by and river nothing
