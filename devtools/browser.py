"""Debian's chromium, headless, through Playwright: the tests' shared browser (tests/conftest.py) and the
benchmarks' (scripts/bench/pages.py, play.py) launch it here."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"  # Debian's, installed by scripts/setup.sh; Playwright never downloads one
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
MISSING = f"chromium is missing ({CHROMIUM}): run ./scripts/setup.sh (apt-get install chromium)"


def launch_chromium(playwright):
    """Debian's chromium, headless, through a started Playwright; FileNotFoundError (saying how to
    install it) when it is not there."""
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(MISSING)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
