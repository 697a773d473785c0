"""Each test's CPU, its worker's and every process it starts (renders, chromium, servers, Dask): a
pytest plugin for finding where the suite's time goes, not loaded by default.

    .venv/bin/python -m pytest -p tests.cpu_per_test          # as root, on Linux with cgroups
    ATTENTION_LESSON_CPU_OUT=cpu/ ...                          # where the JSON files go (default: .cpu/)

Each test worker moves itself into a control group of its own; its CPU count (cgroup v2's `cpu.stat`, or
v1's `cpuacct.usage`) covers every process started in it, waited for or not, which `time` and
`getrusage` miss. Each test is charged what the group used from its setup to its teardown (a session
fixture's start goes to the first test that asks for it). One file per worker, `<worker>.json`: test id
→ CPU seconds, and `__total__`. CPU seconds depend far less on the other worker's load than wall time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

V2, V1 = Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/cpuacct")


def _group(name: str) -> Path | None:
    """A new control group holding this process, or None when the machine does not allow it."""
    root = V1 if (V1 / "cpuacct.usage").exists() else V2 if (V2 / "cgroup.controllers").exists() else None
    if root is None:
        return None
    group = root / name
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return None
    return group


def _used(group: Path) -> float:
    """CPU seconds the group's processes used so far."""
    if (group / "cpuacct.usage").exists():
        return int((group / "cpuacct.usage").read_text()) / 1e9
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    group = _group(f"attention-lesson-{worker}-{os.getpid()}")
    if group is None:
        raise pytest.UsageError("tests.cpu_per_test: no control group could be made (needs root and cgroups)")
    config._cpu = {"group": group, "start": _used(group), "tests": {}, "worker": worker}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu = item.config._cpu
    before = _used(cpu["group"])
    yield
    cpu["tests"][item.nodeid] = round(_used(cpu["group"]) - before, 2)


def pytest_unconfigure(config):
    cpu = config._cpu
    out = Path(os.environ.get("ATTENTION_LESSON_CPU_OUT", ".cpu"))
    out.mkdir(parents=True, exist_ok=True)
    found = {**cpu["tests"], "__total__": round(_used(cpu["group"]) - cpu["start"], 2)}
    (out / f"{cpu['worker']}.json").write_text(json.dumps(found, indent=0) + "\n", encoding="utf-8")
