"""How busy the machine's cores were while the tests ran, printed at the end of a run (Linux's
/proc/stat, read by the controller at the start and the end): the CPU of every process counts, the
browsers', renders' and servers' that no test waits for included. `time make test` counts only the
processes its children waited for (a worker's chromium, a Dask worker or a forked render's children are
missed), so it says the cores idle when they are not.

The machine's, not the suite's: anything else running counts too (docs/develop/tests.md: Its time)."""

from __future__ import annotations

import os
from pathlib import Path

STAT = Path("/proc/stat")
_start: list[int] = []


def cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) clock ticks of every core since boot (/proc/stat's first line); None off Linux."""
    try:
        fields = [int(x) for x in STAT.read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput") and (ticks := cpu_ticks()):
        _start[:] = ticks


def pytest_terminal_summary(terminalreporter):
    ticks = cpu_ticks()
    if not _start or ticks is None or ticks[1] == _start[1]:
        return
    busy, total = ticks[0] - _start[0], ticks[1] - _start[1]
    cores = os.cpu_count() or 1
    hz = os.sysconf("SC_CLK_TCK")
    terminalreporter.write_line(f"cores busy: {busy / total:.2f} of {cores} ({busy / hz / 60:.1f} min of "
                                "CPU; every process on the machine, from /proc/stat)")
