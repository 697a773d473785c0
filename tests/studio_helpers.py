"""The studio's test harness: a real server in a process of its own on a free port (with the fixture
scenes of tests/fixtures/studio_cli.py), a client for its HTTP API and event stream, Ctrl-C as in a
terminal, and typing in its editor as a teacher would."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from attention_core import LANGS
from attention_core.errors import text as said
from devtools.studio import Client, descendants, wait_for  # noqa: F401  (the tests import them from here)

ROOT = Path(__file__).resolve().parent.parent
BANK_ROW = "  [2.3, 2.3, 0.0, 0.0],  # ambiguity -> look for geography and finance"


def start(folder: Path, *args: str, scenes: str | None = None) -> tuple[subprocess.Popen, str]:
    """The studio on a free port in `folder` (with the fixture scenes `scenes`, ids comma-separated:
    default blink and hush); its process and the address it printed first."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    if scenes:
        env["ATTENTION_LESSON_TEST_SCENES"] = scenes
    proc = subprocess.Popen([sys.executable, "-m", "tests.fixtures.studio_cli", "studio", "--no-browser",
                             "--port", "0", "-j", "1", *args], cwd=folder, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    url = proc.stdout.readline().strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{20,}", url), (url, proc.stderr.read())
    return proc, url


def stop(proc: subprocess.Popen) -> tuple[int, str, str, set[int]]:
    """Ctrl-C, as in the terminal (the whole process group gets it); the processes still running after."""
    kids = descendants(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    time.sleep(0.5)
    return proc.returncode, out, err, {k for k in kids if Path(f"/proc/{k}").exists()
                                       and "zombie" not in Path(f"/proc/{k}/status").read_text().lower()}


def edit_row(page, contains: str, new_text: str) -> None:
    """Replace the text of the editor's line that contains `contains` by typing, as a teacher would (the
    line selected through CodeMirror's view, window.studio.editor: Home and End move along a wrapped
    line's visual rows, not the whole line)."""
    page.evaluate("""text => { const v = window.studio.editor;
        for (let n = 1; n <= v.state.doc.lines; n++) {
          const line = v.state.doc.line(n);
          if (line.text.includes(text)) {
            v.focus();
            v.dispatch({ selection: { anchor: line.from, head: line.to } });
            return;
          }
        }
        throw new Error("no line contains " + text); }""", contains)
    page.keyboard.type(new_text)


def watch_console(page) -> list[str]:
    """The page's errors and warnings as they come (a 422 is the studio answering a bad text: expected)."""
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: m.type in ("error", "warning") and "422" not in m.text
            and problems.append(m.text))
    return problems


class Tab:
    """One chromium page for the tests of one studio server: each test opens the studio again in it, as a
    fresh page would be (the origin's stored selection and drafts cleared, its console watched anew). A
    navigation costs about a third of the CPU of a new page (a new renderer process each)."""

    def __init__(self, browser):
        self.page = browser.new_page()
        self.problems = watch_console(self.page)
        # leaving a page with typed, unsaved edits asks first: the next test's navigation goes on
        self.page.on("dialog", lambda d: d.accept() if d.type == "beforeunload" else d.dismiss())

    def open(self, url: str, width: int = 1280, height: int = 800):
        """The studio at url in this page, at width × height, nothing of an earlier test stored;
        (page, the list its console's problems go to from now on)."""
        page = self.page
        page.unroute_all()
        origin = url.split("/?", 1)[0]
        if page.url.startswith(origin):  # (a first open has nothing stored)
            # the studio's page unloaded (its storage written) for an empty one of its origin, made here (a
            # document of the server's would ask for a favicon: a 404 on the next test's console)
            page.route(f"{origin}/blank", lambda r: r.fulfill(content_type="text/html",
                                                              body="<link rel=icon href='data:,'>"))
            page.goto(f"{origin}/blank")
            page.evaluate("localStorage.clear(); sessionStorage.clear()")
            page.unroute_all()
        page.set_viewport_size({"width": width, "height": height})
        self.problems.clear()
        page.goto(url)
        return page, self.problems


DEFAULT = ROOT / "attention_core" / "lessons" / "default.toml"
TINY_SCENES = "overview,blink"
_shared: dict[str, dict] = {}  # a server modules share, while one uses it: its process, what it gives, users


def drawn_out(folder: Path, timeout: float = 60.0) -> None:
    """Wait until no job is drawing in the studio of `folder` (each keeps a private folder, .tmp-*, while
    it draws); fail if one is still there after `timeout`. A run's `idle` is not the end of drawing: the
    scene on the page's screen then has its step clips drawn for Play (studio/drawing.py)."""
    deadline = time.monotonic() + timeout
    while list((folder / "media").rglob(".tmp-*")):
        assert time.monotonic() < deadline, "a drawing an earlier module started did not end"
        time.sleep(0.2)


@contextlib.contextmanager
def shared(key: str, begin, again):
    """The server `key` for a module (a session fixture in each: one server, started by begin() ->
    (process, what it gives) for the first module that asks, stopped, exit 0, no traceback and no process
    left, when the last lets it go); again(what it gives) makes it as a module expects before each
    later one."""
    if key not in _shared:
        proc, given = begin()
        _shared[key] = {"proc": proc, "given": given, "users": 0}
    else:
        again(_shared[key]["given"])
    _shared[key]["users"] += 1
    given = _shared[key]["given"]
    try:
        yield given
    finally:
        _shared[key]["users"] -= 1
        if not _shared[key]["users"]:
            code, out, err, left = stop(_shared.pop(key)["proc"])
            stopped = any(said(lang, "studio_stopped") in out for lang in LANGS)  # in the studio's language
            assert code == 0 and stopped and "Traceback" not in err, (code, out, err)
            assert not left, f"processes left running: {left}"
            folder = given[0]
            assert not list((folder / "media").rglob(".tmp-*")), "a temporary folder was left"


def default_studio(tmp_path_factory):
    """A studio on a copy of the default lesson with blink and hush, in English (the API's messages as
    the tests read them), shared: each module gets the default lesson as its saved and edited text, every
    scene drawn (idle); a module that changes the context puts it back."""
    def begin():
        folder = tmp_path_factory.mktemp("studio")
        shutil.copy(DEFAULT, folder / "lesson.toml")
        proc, url = start(folder, "--lang", "en")
        client = Client(url)
        wait_for(client.events(), lambda e, d: e == "idle", timeout=120)
        return proc, (folder, client, url)

    def again(given):
        client = given[1]
        text = DEFAULT.read_text(encoding="utf-8")
        if client.request("GET", "/api/lesson")[1]["text"] != text:  # an earlier module's edits undone, saved
            status, body = client.request("PUT", "/api/lesson", text)
            assert status == 200 and client.request("POST", "/api/save", text)[0] == 200, body
            wait_for(client.events(), lambda e, d: e == "idle" and d["run"] >= body["run"], timeout=120)
    return shared("default", begin, again)


def tiny_shared(tmp_path_factory, lang: str):
    """A studio on a copy of tests/lessons/tiny.toml with the fixture scenes overview and blink, started in
    zh, shared: each module gets it in `lang` (the page's language bar's choice), every scene drawn."""
    def begin():
        folder = tmp_path_factory.mktemp("tiny")
        shutil.copy(Path(__file__).parent / "lessons" / "tiny.toml", folder / "lesson.toml")
        proc, url = start(folder, "lesson.toml", "--lang", "zh", scenes=TINY_SCENES)
        client = Client(url)
        wait_for(client.events(), lambda e, d: e == "idle", timeout=120)
        _tiny_lang[0] = "zh"
        again((folder, client, url))
        return proc, (folder, client, url)

    def again(given):
        client = given[1]
        if _tiny_lang[0] != lang:
            status, body = client.request("POST", "/api/view", json.dumps({"lang": lang}))
            assert status == 200 and body["lang"] == lang, body
            wait_for(client.events(), lambda e, d: e == "idle" and d["run"] >= body["run"], timeout=120)
            _tiny_lang[0] = lang
    return shared("tiny", begin, again)


_tiny_lang = ["zh"]  # the shared tiny studio's language now (a module that changes it puts it back)
