"""The suite's order: the longest work first, so the two test workers end together.

xdist's loadgroup scheduler hands out work units (an xdist_group's tests, or one test) in the order the
collection gives them, each to the worker that is free; a long test that comes last keeps one worker
busy while the other idles (the suite had both cores 0.76 busy). This plugin orders the collection by
each unit's time in tests/durations.json, the longest first (a test it does not know counts as a second),
and xdist keeps that order (`--no-loadscope-reorder` in pyproject.toml); the tests of one unit keep
theirs.

`ATTENTION_LESSON_STORE_DURATIONS=1 make test` writes tests/durations.json from the run (setup, call and
teardown of each test, as xdist's controller receives them): commit it when tests are added or change
their cost much.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

FILE = Path(__file__).with_name("durations.json")
STORE = "ATTENTION_LESSON_STORE_DURATIONS"
UNKNOWN = 1.0  # seconds, for a test the file does not name yet
_GROUP = re.compile(r"@[\w-]+$")  # xdist's "@group" suffix on a grouped test's id
_seen: dict[str, float] = {}


def plain_id(nodeid: str) -> str:
    return _GROUP.sub("", nodeid)


def unit(item) -> str:
    """The scheduler's work unit of a test: its xdist_group, else the test itself."""
    mark = item.get_closest_marker("xdist_group")
    return f"@{mark.args[0] if mark.args else mark.kwargs['name']}" if mark else plain_id(item.nodeid)


def longest_first(items: list, known: dict[str, float]) -> list:
    """items ordered by their unit's total known time, the longest first; ties keep the collection's order."""
    units: dict[str, float] = {}
    for item in items:
        units[unit(item)] = units.get(unit(item), 0.0) + known.get(plain_id(item.nodeid), UNKNOWN)
    first = {}
    for n, item in enumerate(items):
        first.setdefault(unit(item), n)
    return sorted(items, key=lambda item: (-units[unit(item)], first[unit(item)]))


def module_fixtures(item) -> bool:
    """Whether a test uses a module-scoped fixture (made again wherever the module's tests are split)."""
    info = getattr(item, "_fixtureinfo", None)
    defs = [] if info is None else [d for found in info.name2fixturedefs.values() for d in found]
    return any(d.scope == "module" for d in defs)


@pytest.hookimpl(tryfirst=True)  # before xdist names each grouped test "<id>@<group>"
def pytest_collection_modifyitems(config, items):
    """A module whose tests share a module-scoped fixture is one unit (the fixture made once, by one
    worker: in another order a worker would make it again each time it came back to the module); then
    the longest units first."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None and module_fixtures(item):
            item.add_marker(pytest.mark.xdist_group(Path(item.fspath).stem))
    known = json.loads(FILE.read_text(encoding="utf-8")) if FILE.exists() else {}
    items[:] = longest_first(items, known)


def pytest_runtest_logreport(report):
    if os.environ.get(STORE):
        key = plain_id(report.nodeid)
        _seen[key] = _seen.get(key, 0.0) + report.duration


def pytest_sessionfinish(session):
    if os.environ.get(STORE) and _seen and not hasattr(session.config, "workerinput"):  # the controller
        FILE.write_text(json.dumps({k: round(v, 2) for k, v in sorted(_seen.items())}, indent=0) + "\n",
                        encoding="utf-8")
