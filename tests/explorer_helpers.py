"""The explorer's test harness: a page built by the CLI (`build`), opened in the shared chromium with
every request outside its folder refused (`Page`), its numbers read back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from attention_lesson.cli import main
from devtools.lessons import eight_by_eight  # noqa: F401  (the tests import it from here)

LESSONS = Path(__file__).parent / "lessons"


def build(tmp_path: Path, lesson: str = "default", lang: str = "zh", *extra: str) -> Path:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["explorer", "--lesson", lesson, "--lang", lang,
                                       "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out / "explorer" / "index.html"


class Tab:
    """The one browser tab a worker's explorer pages open in, one after another: a context and a page
    cost a new renderer process (about a second of CPU), a page loaded into a tab a third of that. Every
    request that is not a file (or data/blob) is refused and recorded for the page it serves."""

    tabs: dict = {}  # browser -> its Tab

    def __init__(self, browser):
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        self.owner: Page | None = None
        self.ctx.route("**/*", self._route)
        self.p = self.ctx.new_page()

    def _route(self, route):
        if route.request.url.startswith(("file:", "data:", "blob:")):
            return route.continue_()
        if self.owner:
            self.owner.problems.append(f"network {route.request.url}")
        return route.abort()

    @classmethod
    def take(cls, browser, owner: Page) -> Tab:
        """The browser's shared tab for `owner`; a tab of its own while the shared one is taken."""
        tab = cls.tabs.get(browser)
        if tab is None or tab.p.is_closed():
            tab = cls.tabs[browser] = cls(browser)
        if tab.owner is not None:
            tab = cls(browser)
        tab.owner = owner
        return tab


class Page:
    """A page opened offline, a new document in the worker's tab: every request that is not a file (or
    data/blob) is refused and recorded, as are console errors and page errors."""

    def __init__(self, browser, index: Path, width: int = 1280, hash_: str = ""):
        self.problems: list[str] = []
        self.tab = Tab.take(browser, self)
        self.ctx, self.p = self.tab.ctx, self.tab.p
        self.listeners = {
            "console": lambda m: m.type in ("error", "warning") and self.problems.append(m.text),
            "pageerror": lambda e: self.problems.append(str(e)),
            "requestfailed": lambda r: self.problems.append(f"failed {r.url}"),
        }
        for event, listener in self.listeners.items():
            self.p.on(event, listener)
        self.p.set_viewport_size({"width": width, "height": 900})
        url = index.as_uri()
        if self.p.url.split("#")[0] == url:
            self.p.goto("about:blank")  # the same file with a new hash would stay the same document
        self.p.goto(url + hash_)
        self.p.wait_for_selector("#matrix td")

    def values(self, selector: str) -> list[float]:
        return [float(v) for v in self.p.eval_on_selector_all(selector,
                                                              "els => els.map(e => e.dataset.value)")]

    def weights(self) -> list[float]:
        return self.values("#scores .num.weight")

    def output(self) -> list[float]:
        return self.values("#output .num")

    def matrix(self) -> np.ndarray:
        cells = self.p.eval_on_selector_all(
            "#matrix td", "els => els.map(e => [+e.dataset.row, +e.dataset.col, +e.dataset.value])")
        n = int(round(len(cells) ** 0.5))
        m = np.full((n, n), np.nan)
        for r, c, v in cells:
            m[r, c] = v
        return m

    def close(self) -> list[str]:
        """The page's problems; its tab free for the next page (a tab of its own closed)."""
        for event, listener in self.listeners.items():
            self.p.remove_listener(event, listener)
        if any(t is self.tab for t in Tab.tabs.values()):
            self.tab.owner = None
        else:
            self.ctx.close()
        return self.problems


NOT_FINITE = re.compile(r'"\\u0000(-?Infinity|NaN)"')  # how evaluate_json marks them


def evaluate_json(page, fn: str, arg):
    """page.evaluate(fn, arg) for large arguments and results: each crosses as one JSON string, not as
    Playwright's tree of typed values (whose checking in Python costs more than the work itself). JSON
    writes a double's shortest exact form, so the numbers keep their bits; ±Infinity and NaN, which JSON
    lacks, cross as marked words and come back as floats."""
    text = page.evaluate(f"""arg => JSON.stringify(({fn})(JSON.parse(arg)),
      (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `\\0${{v}}` : v))""",
                         json.dumps(arg, allow_nan=False))
    return json.loads(NOT_FINITE.sub(r"\1", text))


# every view of a walk, in one call: each control pressed as a click would (the page draws each view as
# the event comes); one missing, hidden or disabled stops the walk with an error naming it
VISIT_JS = """({langs, contexts, modes, mask, heads}) => {
  const press = (selector, value) => {
    const e = document.querySelector(selector);
    if (!e || !e.getClientRects().length || e.disabled) throw new Error(`cannot press ${selector}`);
    if (value === undefined) return e.click();
    e.value = value;  // a choice in a <select>, which the page reads on input
    if (e.value !== value) throw new Error(`no ${value} in ${selector}`);
    e.dispatchEvent(new Event('input', { bubbles: true }));
  };
  for (const lang of langs) {
    press(`button[data-lang=${lang}]`);
    for (const context of contexts) {
      press('#context', context);
      for (const mode of modes) {
        press(`input[name=mode][value=${mode}]`);
        if (mask) press('#mask');
        for (const head of heads.length ? heads : [null]) {
          if (head) press(`[role=tab][data-head=${head}]`);
          const n = document.querySelectorAll('#tokens button.token').length;
          for (let i = 0; i < n; i++) press(`#tokens button.token[data-query='${i}']`);
        }
      }
    }
  }
}"""


def visit(page: Page, lesson, modes=("scaled", "unscaled", "uniform"), mask: bool = False) -> None:
    """Both languages, every context, every normalizer of `modes` (the mask switched at each when `mask`),
    every head and every query of the lesson."""
    page.p.evaluate(VISIT_JS, {"langs": ["zh", "en"], "contexts": list(lesson.contexts), "modes": list(modes),
                               "mask": mask, "heads": [h.key for h in lesson.heads]})


def same(got, want) -> None:
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape and np.allclose(got, want, rtol=1e-12, atol=1e-12), (got, want)
