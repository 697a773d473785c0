"""What many test modules share: the default lesson, one headless chromium per test worker, and a fresh
folder with only the fixture scenes registered (`fixtures`)."""

import os
import shutil
from pathlib import Path

import pytest

from attention_core import load
from devtools.browser import CHROMIUM, MISSING, launch_chromium
from scenes import registry
from scenes.registry import SceneInfo

pytest_plugins = ["tests.ordering", "tests.busy"]  # the longest work first; how busy the cores were

LESSONS = Path(__file__).parent / "lessons"
BLINK = SceneInfo("blink", "Blink", package="tests.fixtures", titles={"zh": "闪", "en": "Blink"})
BROKEN = SceneInfo("broken", "Broken", package="tests.fixtures", titles={"zh": "坏", "en": "Broken"})
PULSE = SceneInfo("pulse", "Pulse", package="tests.fixtures", titles={"zh": "跳", "en": "Pulse"})


def pytest_configure(config):
    """The tests' language is the one rule's own default (zh, attention_core.language), whatever the
    machine's teacher has chosen for her commands: each test that wants another says so."""
    os.environ.pop("ATTENTION_LESSON_LANG", None)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="Replace tests/golden/*.png by the frames this run renders (see tests/goldens.py).")
    parser.addoption("--pseudo-all", action="store_true",
                     help="Lay out every scene in the pseudo-locale for the 2-, 4- and 8-token lessons "
                          "(some 45 builds; a run builds a few: see tests/test_pseudo.py).")


@pytest.fixture(scope="session", autouse=True)
def shared_labels(tmp_path_factory, worker_id):
    """One label store for the whole run, both test workers and every render's worker processes: a label
    (a text or formula as manim mobjects, 20-80 ms to make) is made once, not once per output folder.
    Per run, never across runs: a label's key does not hold the code that draws it."""
    from attention_lesson.pipeline.drawing.worker import LABELS_ENV

    run = tmp_path_factory.getbasetemp()
    os.environ[LABELS_ENV] = str((run if worker_id == "master" else run.parent) / "labels")


@pytest.fixture(scope="session")
def lesson():
    return load()


@pytest.fixture(scope="session")
def browser():
    """One chromium for the whole test worker (xdist's -n: a session is a worker process), launched when
    a test first asks for it: a test opens its own contexts or pages on it and closes them. While it is
    open, Playwright's sync API holds the worker's main thread inside its asyncio loop (asyncio.run
    there would refuse): in-process asyncio belongs in a thread or a process of its own."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(MISSING, pytrace=False)
    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def tab(browser):
    """One chromium page for a studio test module's tests, each opening the studio anew in it
    (studio_helpers.Tab: a navigation costs a third of a new page)."""
    from .studio_helpers import Tab

    shared = Tab(browser)
    try:
        yield shared
    finally:
        shared.page.close()


@pytest.fixture
def fixture_scenes():
    """The scenes `fixtures` registers: a module overrides this fixture (or parametrizes it) for others."""
    return (BLINK, BROKEN)


@pytest.fixture
def fixture_lessons():
    """The lesson files of tests/lessons that `fixtures` copies into its folder: none unless overridden."""
    return ()


@pytest.fixture
def fixtures(monkeypatch, tmp_path, fixture_scenes, fixture_lessons):
    """The registry holds only the fixture scenes (fixture_scenes); the CLI runs in a fresh folder, with
    copies of fixture_lessons in it; returns the folder."""
    monkeypatch.setattr(registry, "SCENES", tuple(fixture_scenes))
    monkeypatch.chdir(tmp_path)
    for name in fixture_lessons:
        shutil.copy(LESSONS / name, tmp_path / name)
    return tmp_path
