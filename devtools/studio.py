"""A studio's processes and its HTTP API from outside: the processes a server started (from /proc), a
client for its API and event stream, waiting for an event. The studio tests (tests/studio_helpers.py)
and the benchmarks (scripts/bench/memory.py, pages.py) share them."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit


def descendants(pid: int) -> set[int]:
    """Every process started by pid, and by those, from /proc."""
    parent = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(stat.parent.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parent.items() if pp == p}
        todo += list(kids - found)
        found |= kids
    return found


class Client:
    """HTTP requests to the studio, with its token unless told otherwise; JSON answers."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.token = parts.query.split("=", 1)[1]

    def request(self, method, path, body=None, token=True, headers=None):
        c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        h = {"Authorization": f"token {self.token}"} if token else {}
        c.request(method, path, body=body.encode() if isinstance(body, str) else body,
                  headers=h | (headers or {}))
        r = c.getresponse()
        data = r.read()
        c.close()
        ctype = r.getheader("content-type", "")
        return r.status, json.loads(data) if "json" in ctype else data

    def events(self) -> queue.Queue:
        """The event stream, parsed in a thread: (event, data) items."""
        q: queue.Queue = queue.Queue()
        c = http.client.HTTPConnection(self.host, self.port)
        c.request("GET", f"/api/events?token={self.token}")
        r = c.getresponse()
        assert r.status == 200 and r.getheader("content-type").startswith("text/event-stream")

        def read():
            event = None
            for raw in r:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event:
                    q.put((event, json.loads(line[5:].strip())))
        threading.Thread(target=read, daemon=True).start()
        return q


def wait_for(q: queue.Queue, pred, timeout: float = 60.0):
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        try:
            item = q.get(timeout=left)
        except queue.Empty:
            break
        if pred(*item):
            return item
    raise AssertionError("no such event in time")
