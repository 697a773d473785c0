"""The explorer's accessibility: axe-core's WCAG 2.0/2.1 A and AA rules (tests/axe.py) find no serious or
critical violation in Chinese and English, the dark and the light theme, at laptop and phone widths, on
the page as it opens and as a student leaves it (a field edited, its slider bound, a claim broken, the
note of a bad link), and on the next lessons (the causal mask, a tab per head); every control is reached
by the keyboard and shows a focus ring, unclipped, off the faded edges of a scroll region, at 3:1 or
more on the page; the head tabs are ARIA tabs, ←/→ between them."""

from __future__ import annotations

import re

import pytest

from scenes.common.style import THEMES, contrast
from tests.axe import violations
from tests.test_explorer import EVERY_BAD, LESSONS, Page, build

pytestmark = pytest.mark.xdist_group("explorer")


def theme_args(theme: str) -> tuple[str, ...]:
    return ("--theme", theme) if theme != "dark" else ()


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [1280, 360])
def test_no_serious_violation_in_the_explorer(browser, tmp_path, theme, lang, width):
    page = Page(browser, build(tmp_path, "default", lang, *theme_args(theme)), width=width)
    assert violations(page.p) == []
    field = "input[data-matrix=x][data-r=river][data-c='0']"
    page.p.focus(field)  # its box's slider is bound to it
    page.p.fill(field, "-1.5")  # an edited field, a broken claim
    assert page.p.get_attribute("#claims li[data-context=river]", "data-holds") == "false"
    page.p.click("#tokens button.token[data-query='0']")
    assert violations(page.p) == []
    assert page.close() == []


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_no_serious_violation_with_the_note_and_scroll_regions(browser, tmp_path, theme):
    """An 8-token lesson on a phone (tables that scroll), and the note a bad link leaves."""
    page = Page(browser, build(tmp_path / "wide", str(LESSONS / "wide.toml"), "en", *theme_args(theme)),
                width=360)
    assert page.p.locator(".scroll[data-more]").count() > 3
    assert violations(page.p) == []
    assert page.close() == []
    page = Page(browser, build(tmp_path / "default", "default", "en", *theme_args(theme)), hash_=EVERY_BAD)
    assert page.p.is_visible("#note")
    assert violations(page.p) == []
    assert page.close() == []


# the focused element's ring: "" when it shows, else what is wrong; and the ring's colour
# (null when the focus is back on the page or on a control reached before: past the last control)
RING_JS = """async () => {
  const e = document.activeElement;
  if (e === document.body || (window.reached || new Set()).has(e)) return null;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));  // scroll marks follow
  (window.reached = window.reached || new Set()).add(e);
  const name = e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30) || e.tagName;
  const s = getComputedStyle(e);
  const width = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth);
  if (width < 2) return [`no focus ring: ${name}`, ''];  // an outline (a box-shadow may be a pressed look)
  const ring = width + Math.max(0, parseFloat(s.outlineOffset) || 0);
  const r = e.getBoundingClientRect();
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    const left = b.left + a.clientLeft, top = b.top + a.clientTop;
    const right = left + a.clientWidth, bottom = top + a.clientHeight;
    if (r.left - ring < left - 0.5 || r.right + ring > right + 0.5 || r.top - ring < top - 0.5
        || r.bottom + ring > bottom + 0.5) return [`ring cut by its scroll region: ${name}`, ''];
    const fade = parseFloat(cs.getPropertyValue('--fade')) * parseFloat(cs.fontSize) || 0;
    const more = a.dataset.more || '';
    const faded = (/right|both/.test(more) && r.right > right - fade)
      || (/left|both/.test(more) && r.left < left + fade);
    if (faded) return [`in a faded edge: ${name}`, ''];
  }
  return ['', s.outlineColor];
}"""

# what the keyboard must reach: every control shown and enabled (of a radio group, its checked one)
CONTROLS_JS = """() => [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')]
  .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length)
  .filter(e => !(e.type === 'radio' && !e.checked) && !window.reached.has(e))
  .map(e => e.id || e.getAttribute('aria-label') || e.outerHTML.slice(0, 80))"""


def rgb_hex(css: str) -> str:
    return "#%02X%02X%02X" % tuple(int(float(x)) for x in re.findall(r"[\d.]+", css)[:3])


def tab_through(page) -> tuple[list[str], set[str]]:
    """Tab from the top to past the last control: the focus rings' problems, and their colours."""
    problems, colours = [], set()
    for _ in range(300):
        page.p.keyboard.press("Tab")
        ring = page.p.evaluate(RING_JS)
        if ring is None:
            break  # past the last control, or round again
        problem, colour = ring
        problems += [problem] if problem else []
        colours.add(colour)
    return problems, colours


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("width", [1280, 360])
def test_every_control_is_reached_by_the_keyboard_with_a_visible_focus_ring(browser, tmp_path, theme, width):
    page = Page(browser, build(tmp_path, "default", "en", *theme_args(theme)), width=width)
    problems, colours = tab_through(page)
    assert problems == []
    assert page.p.evaluate(CONTROLS_JS) == []  # the sliders too: each is bound once its box's field is
    background = THEMES[theme].background
    assert colours and all(contrast(rgb_hex(c), background) >= 3 for c in colours if c), colours
    if width == 360:
        assert page.p.evaluate("[...window.reached].filter(e => e.classList.contains('scroll')).length") > 0
    assert page.close() == []


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("name", ["two_heads", "causal"])
def test_no_serious_violation_in_the_next_lessons(browser, tmp_path, name, lang, width):
    """The causal lesson (its −∞ cells, then its mask taken off) and the two-head lesson (its tabs, then
    the other head and the what-if mask): axe-core finds nothing serious or critical."""
    page = Page(browser, build(tmp_path, name, lang), width=width)
    assert violations(page.p) == []
    if name == "two_heads":
        page.p.click("[role=tab][data-head=grammar]")
    page.p.click("#mask")
    assert violations(page.p) == []
    assert page.close() == []


# the head tabs as ARIA tabs: a tablist named, each tab's panel there and labelled by the selected tab
TABS_JS = """() => {
  const list = document.querySelector('[role=tablist]');
  const tabs = [...list.querySelectorAll('[role=tab]')];
  const panel = document.getElementById(tabs[0].getAttribute('aria-controls'));
  return [list.getAttribute('aria-label'), tabs.map(t => [t.tagName, t.getAttribute('aria-selected'),
    t.tabIndex, t.getAttribute('aria-controls') === panel.id]), panel.getAttribute('role'),
    panel.getAttribute('aria-labelledby') === tabs.find(t => t.ariaSelected === 'true').id];
}"""


@pytest.mark.parametrize("width", [1280, 360])
def test_the_head_tabs_are_aria_tabs_reached_by_the_keyboard(browser, tmp_path, width):
    """Tab reaches the selected head's tab (the others are out of the tab order, as ARIA's tabs pattern
    has it) with a visible ring, then every control of its panel; ←/→ move between the heads."""
    page = Page(browser, build(tmp_path, "two_heads", "en"), width=width)
    assert page.p.evaluate(TABS_JS) == ["Heads", [["BUTTON", "true", 0, True], ["BUTTON", "false", -1, True]],
                                        "tabpanel", True]
    problems, _ = tab_through(page)
    assert problems == []
    assert page.p.evaluate(CONTROLS_JS) == []
    assert page.p.evaluate("[...window.reached].filter(e => e.getAttribute('role') === 'tab')"
                           ".map(e => e.dataset.head)") == ["meaning"]
    page.p.focus("[role=tab][data-head=meaning]")
    page.p.keyboard.press("ArrowRight")
    assert page.p.evaluate("document.activeElement.dataset.head") == "grammar"
    assert page.p.evaluate(TABS_JS)[1] == [["BUTTON", "false", -1, True], ["BUTTON", "true", 0, True]]
    page.p.keyboard.press("Tab")  # into the grammar head's panel: its first field
    assert page.p.evaluate("document.activeElement.dataset.head") == "grammar"
    assert page.close() == []
