"""The studio's warm workers (pipeline/drawing/warm.py), driven directly with the fixture scenes on a lesson
of 2 tokens: a new run answers the older run's waiting jobs at once (none is started only to stop), an
urgent job stops a running job that matters less (which is drawn again after it), and a worker over its
memory budget is replaced between jobs."""

from __future__ import annotations

import queue
import time
from dataclasses import replace

import pytest

from attention_core import load
from attention_lesson.pipeline.drawing.warm import WarmPool
from attention_lesson.pipeline.plan import FRAMES, RenderOptions, plan

from .conftest import BLINK, LESSONS, PULSE

TINY = LESSONS / "tiny.toml"


@pytest.fixture
def jobs(tmp_path, monkeypatch):
    """Frames jobs of the fixture scenes for tests/lessons/tiny.toml, into a fresh folder."""
    monkeypatch.chdir(tmp_path)
    options = RenderOptions(lesson=str(TINY), context="short", kind=FRAMES, format="png")
    todo, _ = plan(load(TINY), [BLINK, PULSE, replace(BLINK, id="blink")], options, tmp_path / "out")
    return todo


def answers() -> tuple[queue.Queue, callable]:
    """A queue of (seconds since the epoch, the job's name, its Result) and the done callback filling it."""
    q: queue.Queue = queue.Queue()
    return q, lambda name: (lambda r: q.put((time.monotonic(), name, r)))


def test_a_new_run_answers_the_waiting_jobs_of_the_old_one_at_once(tmp_path, jobs):
    events = []
    pool = WarmPool(1, tmp_path / "cache", on_event=lambda *e: events.append(e))
    try:
        q, done = answers()
        run = pool.cancel()
        pool.submit_all([(job, run, done(f"{job.id}-{i}")) for i, job in enumerate(jobs)])
        cancelled_at = time.monotonic()
        pool.cancel()  # a newer edit, while the (cold) worker still starts on the first job
        got = [q.get(timeout=120) for _ in jobs]
        waited = got[:len(jobs) - 1]  # the jobs no worker had taken: answered before the one it had
        assert sorted(name for _, name, _ in waited) == ["blink-2", "pulse-1"]
        assert all(r.error.startswith("Cancelled") and t - cancelled_at < 0.5 for t, _, r in waited)
        assert got[-1][1] == "blink-0" and got[-1][2].error.startswith("Cancelled")
        assert [e for e in events if e[2] == "pulse"] == []  # never started
    finally:
        pool.close()


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    """One worker, with the studio's kind of priority and preemption, for the tests below in turn (a
    worker's start, manim imported, is most of what each costs): cold when the first of them begins."""
    pool = WarmPool(1, tmp_path_factory.mktemp("warm") / "cache",
                    priority=lambda t: (0,) if t.urgent else (1,), preemptible=lambda t: t.kind == "frames")
    yield pool
    pool.close()


def test_an_urgent_job_stops_one_that_matters_less_which_is_drawn_again_after_it(pool, jobs):
    q, done = answers()
    run = pool.cancel()
    pool.submit(jobs[0], run, done("frames"))  # taken by the (cold) worker, which is still starting
    pool.submit(jobs[1], run, done("play"), kind="step", urgent=True)
    order = [q.get(timeout=120) for _ in range(2)]
    assert [name for _, name, _ in order] == ["play", "frames"]
    assert all(r.ok for _, _, r in order), [r.error for _, _, r in order]  # the stopped one drawn whole
    assert q.empty()  # and told once


def test_a_worker_over_its_budget_is_replaced_between_jobs(pool, jobs):
    q, done = answers()
    run = pool.cancel()
    recycled = pool.recycled
    pool.submit(jobs[0], run, done("first"))
    assert q.get(timeout=120)[2].ok
    first = pool.slots[0].process
    pool.settle(growth_mb=-10**6)  # a budget every worker is over (after its next job)
    assert pool.budget_mb is not None and pool.budget_mb < 0
    pool.submit(jobs[1], run, done("second"))
    assert q.get(timeout=120)[2].ok
    assert pool.recycled == recycled + 1 and pool.slots[0].process is not first
    first.join(30)
    assert first.exitcode == 0  # it exited as a process should, between jobs
    pool.budget_mb = None
    pool.submit(jobs[2], run, done("third"))  # the new worker draws
    assert q.get(timeout=120)[2].ok and pool.recycled == recycled + 1
