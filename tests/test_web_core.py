"""The browser's copy of the core (attention_lesson/web/core.js) against attention_core itself, run in
Debian's chromium: every intermediate of every context and normalizer of the seeded random lessons and
the test lessons, the hard lookup, and softmax rows of extreme scores (±1e6), to 1e-12 (relative to
the value's size, at least 1)."""

from pathlib import Path

import numpy as np
import pytest

from attention_core import attend, hard_lookup, load
from attention_core.attention import MODES, softmax

from .random_lessons import random_lesson
from .test_slides import CHROMIUM, CHROMIUM_ARGS

CORE_JS = Path(__file__).resolve().parent.parent / "attention_lesson" / "web" / "core.js"
LESSONS = sorted((Path(__file__).parent / "lessons").glob("*.toml"))
EXTREME = [[1e6, -1e6, 0.0], [1e6, 1e6 - 1, -1e6, 3.0], [-1e6] * 4, [1e6, 1e6], [0.0] * 8 + [1e6],
           [1e6 - k for k in range(9)]]
FIELDS = ("x", "q", "k", "v", "scores", "scaled", "weights", "output")


def as_js(lesson) -> dict:
    return {"vocab": {t: v.tolist() for t, v in lesson.vocab.items()},
            "w_q": lesson.w_q.tolist(), "w_k": lesson.w_k.tolist(), "w_v": lesson.w_v.tolist()}


def close(js, py, what: str) -> None:
    js, py = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    assert js.shape == py.shape, (what, js.shape, py.shape)
    err = np.abs(js - py) / np.maximum(1.0, np.abs(py))
    assert err.max(initial=0.0) <= 1e-12, (what, float(err.max()))


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "chromium is missing: run ./scripts/setup.sh"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p = browser.new_page()
        errors = []
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.add_script_tag(path=str(CORE_JS))
        yield p
        assert not errors
        browser.close()


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
    message = page.evaluate("() => { try { AttentionCore.scaleFor('softer', 4); } catch (e) { return e.message; } }")
    assert message == 'mode must be one of scaled, unscaled, uniform, not "softer"'
