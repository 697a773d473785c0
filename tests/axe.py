"""axe-core (npm, vendored in node_modules by scripts/setup.sh: never from the network) run in a Playwright
page: the WCAG 2.0 and 2.1 A and AA rules, the violations as readable lines.

    from tests.axe import violations
    assert violations(page) == []        # no serious or critical violation

Any page will do (the explorer's, the studio's, a deck): axe's source is evaluated in the page through
Playwright (the DevTools protocol, not a <script> tag), so it works on file:// pages and under a strict
Content-Security-Policy alike, and adds nothing to the page's DOM.
"""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
MISSING = f"axe-core is missing ({AXE}): run ./scripts/setup.sh (npm ci)"

RUN_JS = """async ([tags, context]) => {
  // preload: false, or axe fetches every stylesheet again (XHR, which a file:// page refuses, loudly)
  const result = await axe.run(context || document, { runOnly: { type: 'tag', values: tags },
                                                       resultTypes: ['violations'], preload: false });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({ target: n.target.map(String).join(' '), impact: n.impact,
                               summary: n.failureSummary || '' })),
  }));
}"""


def inject(page) -> None:
    """axe into the page (once: a page that has it keeps it)."""
    if not AXE.exists():
        raise FileNotFoundError(MISSING)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")


def results(page, context: str | None = None) -> list[dict]:
    """axe's violations of the WCAG 2 A/AA rules in the page (or in the elements `context` selects):
    [{id, impact, help, nodes: [{target, impact, summary}]}]."""
    inject(page)
    return page.evaluate(RUN_JS, [list(TAGS), context])


def violations(page, impacts=("serious", "critical"), context: str | None = None) -> list[str]:
    """The violations of the given impacts, one readable line per element:
    "color-contrast (serious) #qkv tr.query td:nth-child(2): Fix any of the following: ..." (axe's
    summary on one line). Empty when the page passes."""
    out = []
    for v in results(page, context):
        for node in v["nodes"]:
            impact = node["impact"] or v["impact"]
            if impact in impacts:
                summary = " ".join(node["summary"].split())
                out.append(f"{v['id']} ({impact}) {node['target']}: {v['help']}. {summary}")
    return out
