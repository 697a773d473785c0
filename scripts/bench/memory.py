"""A long studio session's memory: `attention-lesson studio` of the default lesson (2 warm workers) in a
fresh folder, its first drawing, then edits of W_Q through its API as a teacher's afternoon makes them
(one every 0.4 s, each a new value); the resident memory of the studio's processes (the server, its
workers, multiprocessing's resource tracker) after the first drawing, every 100 edits, and once the last
edit's frames are drawn. Not a test: the figures go in the guide's studio page (docs/teach/en/studio.md)."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from attention_core.lesson import resolve

from . import BIN

ROW = re.compile(r"\[[-\d.]+, 2\.3, 0\.0, 0\.0\],  # ambiguity")  # bank's query: every scene redraws


def resident_mb(pid: int) -> dict[int, int]:
    """pid and every process it started, each with its resident memory in MB (from /proc)."""
    from devtools.studio import descendants

    out = {}
    for p in {pid} | descendants(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        out[p] = kb // 1024
    return out


def _sample(proc, edits: int, seen: set[int]) -> dict:
    rss = resident_mb(proc.pid)
    seen |= set(rss)
    return {"edits": edits, "total_mb": sum(rss.values()), "server_mb": rss.get(proc.pid, 0),
            "others_mb": sorted((v for k, v in rss.items() if k != proc.pid), reverse=True)}


def studio_memory_benchmark(work: Path, edits: int = 1000, gap: float = 0.4) -> dict:
    from devtools.studio import Client, wait_for

    shutil.copy(resolve("default"), work / "lesson.toml")
    t0 = time.perf_counter()
    proc = subprocess.Popen([BIN / "attention-lesson", "studio", "--no-browser", "--port", "0"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    client = Client(proc.stdout.readline().strip())
    events = client.events()
    seen: set[int] = set()
    try:
        wait_for(events, lambda e, d: e == "idle", timeout=900)
        first = {"seconds": round(time.perf_counter() - t0, 1), **_sample(proc, 0, seen)}
        samples, run = _edits(client, proc, edits, gap, seen)
        wait_for(events, lambda e, d: e == "idle" and d["run"] == run, timeout=900)
        last = _sample(proc, edits, seen)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    return {"after_first_drawing": first, "every_100_edits": samples, "after_the_last_drawing": last,
            "growth_mb": last["total_mb"] - first["total_mb"],
            "most_mb": max(s["total_mb"] for s in [first, *samples, last]) - first["total_mb"],
            "processes_seen": len(seen)}


def _edits(client, proc, edits: int, gap: float, seen: set[int]) -> tuple[list[dict], int]:
    """`edits` edits of W_Q, one every `gap` seconds, the page on the scores scene; the memory every 100;
    the last edit's run."""
    text = client.request("GET", "/api/lesson")[1]["text"]
    samples, run = [], None
    for i in range(1, edits + 1):
        value = 1 + (i % 997) / 1000  # a new number each time, as a teacher's slider would give
        status, body = client.request("PUT", "/api/lesson?focus=scores&n=3",
                                      ROW.sub(f"[{value:.3f}, 2.3, 0.0, 0.0],  # ambiguity", text))
        assert status == 200, body
        run = body["run"]
        time.sleep(gap)
        if i % 100 == 0:
            samples.append(_sample(proc, i, seen))
            print(f"{i} edits: {samples[-1]}", flush=True)
    return samples, run
