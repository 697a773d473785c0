"""The guide (docs/, `make docs`): built once for the session as `make docs` builds it, with warnings as
errors; its CLI reference names every command and option click knows, its lesson-file reference every key
the parser reads (with the error the parser gives today); no page links to nothing; chromium opens it from
file:// with no console error and no request leaving the machine, the embedded explorer computing the
core's numbers; axe-core finds nothing serious or critical on the index, a Chinese teaching page and the
gallery."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import click
import pytest

from attention_core import attend, axes, heads, keys, lesson
from attention_core.errors import LessonError
from tests.axe import violations

pytestmark = pytest.mark.xdist_group("docs")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The guide built from this checkout (the Makefile's flags, a fresh environment, into a tmp folder)."""
    out = tmp_path_factory.mktemp("guide")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-E", "-b", "html",
                           "-d", str(out / "doctrees"), "docs", str(out / "html")],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stderr.strip() == "", done.stderr[-4000:]
    return out / "html"


def test_the_site_builds_offline(site):
    pages = sorted(site.rglob("*.html"))
    assert (site / "index.html") in pages and (site / "explorer" / "index.html").exists()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        loaded = re.findall(r'<(?:script|link|img|iframe)\b[^>]*?\b(?:src|href)="([^"]+)"', text)
        remote = [u for u in loaded if urlsplit(u).scheme or u.startswith("//")]
        assert remote == [], f"{page.relative_to(site)} loads {remote}"
        assert not re.search(r"<script[^>]*mathjax|MathJax\.", text, re.I), page


def test_a_page_without_its_toctree_line_is_listed_under_more_pages(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("guide_conf", ROOT / "docs" / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    for name in ("index", "listed", "teach/zh/index", "words", "_ext/notes"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f"{name}.md").write_text("# x\n", encoding="utf-8")
    index = "# i\n\n```{toctree}\n:maxdepth: 1\n\nlisted\nteach/zh/index\n```\n"
    assert conf.unlisted(tmp_path, index) == ["words"]


# -- the CLI reference: every command and option click knows ------------------------------------------

def commands(group: click.Group, path: tuple[str, ...] = ()):
    """(path, command) for every command under the group, lazy ones imported as `--help` would."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


def expected_ids(path: tuple[str, ...], command: click.Command) -> list[str]:
    """The anchors sphinx-click gives a command's section and each of its options and arguments."""
    prog = "-".join(("attention-lesson", *path))
    ids = [f"{prog}"]
    for param in command.params:
        if getattr(param, "hidden", False) or param.name == "help":
            continue
        if isinstance(param, click.Argument):  # -arg-FILE; [SCENE]... is -arg-SCENE-...
            ids.append(f"cmdoption-{prog}-arg-{param.human_readable_name.strip('[].')}")
        else:
            ids += [f"cmdoption-{prog}-{opt.lstrip('-')}" for opt in param.opts + param.secondary_opts]
    return ids


def test_every_command_and_option_is_in_the_cli_reference(site):
    from attention_lesson.cli import COMMANDS, main

    html = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    found = list(commands(main))
    assert {p[0] for p, _ in found} == set(COMMANDS)
    assert ("voice", "script") in [p for p, _ in found]
    missing = [i for path, command in found for i in expected_ids(path, command)
               if i not in ids and f"{i}-..." not in ids and f"{i}..." not in ids]
    assert missing == []
    # and the help text itself: the studio's --port option says what it does
    assert "cmdoption-attention-lesson-studio-port" in ids
    assert "cmdoption-attention-lesson-render-quality" in ids


# -- the lesson-file reference: every key, and the error a wrong value gets ----------------------------

def test_every_key_the_readers_accept_has_a_row():
    names = {k.name for k in keys.KEYS}
    assert lesson.TOP_KEYS == {n.split(".")[0] for n in names}
    assert {f"projections.{p}" for p in (*lesson.PROJECTIONS, "w_o")} <= names
    assert {f"heads.<head>.{k}" for k in heads.HEAD_KEYS} <= names
    assert {f"geometry.{k}" for k in axes.KEYS} <= names
    assert {f"narration.<lang>.{k}" for k in lesson.NARRATION_KEYS} <= names


def test_every_key_and_its_error_is_in_the_lesson_file_reference(site):
    html = unescape(re.sub(r"<[^>]+>", "", (site / "reference" / "lesson-file.html")
                           .read_text(encoding="utf-8")))
    for key in keys.KEYS:
        assert html.count(key.name) >= 2, key.name  # a row in the keys' table and in the errors'
        data = tomllib.loads(lesson.resolve(key.lesson).read_text(encoding="utf-8"))
        with pytest.raises(LessonError) as e:
            lesson.parse(keys.broken(data, key), "my.toml")
        assert e.value.message("en", file=False) in html
        assert e.value.message("zh", file=False) in html
    assert "vocab.bank: expected 4 numbers (d_model, as vocab.by), found 3 numbers" in html


# -- no link to nothing --------------------------------------------------------------------------------

class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids.add(value)
            elif name in ("href", "src") and value:
                self.links.append(value)


def parsed(page: Path, cache: dict) -> Links:
    if page not in cache:
        cache[page] = Links()
        cache[page].feed(page.read_text(encoding="utf-8"))
    return cache[page]


def dead_links(site: Path) -> list[str]:
    cache, dead = {}, []
    for page in sorted(site.rglob("*.html")):
        if "explorer" in page.relative_to(site).parts:
            continue
        for link in parsed(page, cache).links:
            url = urlsplit(link)
            if url.scheme or link.startswith("//"):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                dead.append(f"{page.relative_to(site)}: {link}")
            elif url.fragment and target.suffix == ".html" and url.fragment not in parsed(target, cache).ids:
                dead.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    return dead


def test_no_page_links_to_nothing(site, tmp_path):
    assert dead_links(site) == []
    broken = tmp_path / "broken"  # the check can fail: a page with a dead link and a dead anchor
    broken.mkdir()
    (broken / "index.html").write_text('<a href="gone.html">x</a><a href="#nowhere">y</a><p id="here">',
                                       encoding="utf-8")
    assert dead_links(broken) == ["index.html: gone.html", "index.html: #nowhere (no such anchor)"]


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert "make lesson   # " in readme and "make test     # " in readme and "make docs" in readme
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert "docs/teach/zh/index.md" in links and "LICENSE" in links
    assert [u for u in links if not urlsplit(u).scheme and not (ROOT / u).exists()] == []


# -- in chromium: offline, no console error; axe-core ---------------------------------------------------

PAGES = ("index.html", "teach/zh/index.html", "teach/ja/index.html", "gallery.html", "reference/cli.html")


class Opened:
    """A page of the site from file://, every request that is not a file refused and recorded, and every
    console error or warning and page error recorded."""

    def __init__(self, browser, page: Path, width: int = 1280, query: str = ""):
        self.ctx = browser.new_context(viewport={"width": width, "height": 900})
        self.problems: list[str] = []
        self.ctx.route("**/*", self._route)
        self.p = self.ctx.new_page()
        self.p.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(m.text))
        self.p.on("pageerror", lambda e: self.problems.append(str(e)))
        self.p.goto(page.as_uri() + query)
        self.p.wait_for_load_state("load")

    def _route(self, route):
        if route.request.url.startswith(("file:", "data:", "blob:")):
            return route.continue_()
        self.problems.append(f"network {route.request.url}")
        return route.abort()

    def close(self) -> list[str]:
        self.ctx.close()
        return self.problems


# the pages axe-core checks, at these widths
AXE = {("index.html", 1280), ("teach/zh/index.html", 1280), ("teach/zh/index.html", 360),
       ("teach/ja/index.html", 360), ("gallery.html", 1280)}
LANG_OF = {"/zh/": "zh-CN", "/ja/": "ja"}  # a teaching page's <html lang>; every other page's is en


@pytest.mark.parametrize("width", [1280, 360])
def test_the_pages_open_offline_without_errors_or_serious_accessibility_violations(browser, site, width):
    """Each page opened once at each width: no sideways scroll; axe-core finds nothing serious or critical
    on those of AXE; the gallery (1280) shows every scene and the live explorer; and none of it has a
    console error or a request leaving the machine."""
    for name in PAGES:
        page = Opened(browser, site / name, width)
        assert page.p.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), name
        if (name, width) in AXE:
            # the embedded explorer is left out: tests/test_accessibility.py checks its page (and axe's
            # messages to a file:// frame are refused, an error on the console)
            assert violations(page.p, context={"include": [["body"]], "exclude": [["iframe"]]}) == [], name
            lang = next((v for k, v in LANG_OF.items() if k in name), "en")
            assert page.p.get_attribute("html", "lang") == lang
        if name == "gallery.html" and width == 1280:
            check_gallery(page)
        assert page.close() == [], name


def check_gallery(page: Opened) -> None:
    """Every scene's poster and a frame per step, its render command, and the embedded explorer computing
    the core's weights for bank."""
    from scenes import registry

    images = page.p.eval_on_selector_all(".gallery img", "els => els.map(e => [e.naturalWidth, e.alt])")
    assert all(w > 0 and alt for w, alt in images)
    assert page.p.locator(".gallery img.poster").count() == len(registry.existing())
    # a frame per step: the scene's golden frames, else the ones the guide keeps (a lesson's own steps)
    kept = [ROOT / "tests" / "golden", ROOT / "docs" / "_static" / "gallery"]
    assert page.p.locator(".gallery-step img").count() == sum(
        next(n for n in (len(list(d.glob(f"{s.id}-[0-9][0-9]-*.png"))) for d in kept) if n)
        for s in registry.existing())
    text = page.p.inner_text("article")
    for scene in registry.existing():
        assert f"attention-lesson render {scene.id}" in text
    page.p.locator("iframe.explorer-frame").scroll_into_view_if_needed()  # it loads lazily
    frame = page.p.frame_locator("iframe.explorer-frame")
    frame.locator("#matrix td").first.wait_for()
    weights = [float(v) for v in frame.locator("#scores .num.weight").evaluate_all(
        "els => els.map(e => e.dataset.value)")]
    core = attend(lesson.load("default"), "river")
    assert weights == pytest.approx(core.weights[core.index("bank")], abs=1e-12)


def test_the_search_works_from_file(browser, site):
    page = Opened(browser, site / "search.html", query="?q=handout")
    page.p.wait_for_selector("ul.search li")
    found = page.p.eval_on_selector_all("ul.search li a", "els => els.map(e => e.getAttribute('href'))")
    assert any("teach/en/handout.html" in href for href in found)
    assert page.close() == []


# -- the Python API: documented as manim documents its own ----------------------------------------------

API = ("attention_core.lesson.load", "attention_core.attention.attend", "attention_core.numbers.numbers_json",
       "scenes.common.mobjects.NumberGrid", "scenes.common.mobjects.WeightBars",
       "attention_lesson.pipeline.build.build")


def test_the_api_reference_shows_parameters_returns_and_examples(site):
    page = (site / "reference" / "api.html").read_text(encoding="utf-8")
    for name in API:
        entry = page[page.index(f'id="{name}"'):].split('<dt class="sig', 1)[0]
        sections = ("Parameters", "Examples") if name.split(".")[-1][0].isupper() else (
            "Parameters", "Returns", "Examples")
        for section in sections:
            assert re.search(rf">{section}<|>{section}:<", entry), f"{name}: no {section} in the reference"
        assert "&gt;&gt;&gt;" in entry or 'class="gp"' in entry, f"{name}: its example is not shown"
