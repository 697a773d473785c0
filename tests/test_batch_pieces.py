"""`batch` draws scenes in pieces when the cluster has threads to spare (pipeline/batch/graph.py): the
plan (the longest scenes get the most pieces), the dry run's critical path from timings the test sets,
and real renders of the fixture scene pulse (three steps: two pieces at once, then the join) at 720p30:
on a LocalCluster, frame for frame equal to `render`; on a real scheduler, one worker killed while it
draws a piece, the piece drawn again and the scene still equal. Batches are silent (no voice): the
sound is not compared."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attention_lesson.pipeline.batch import graph, tasks
from attention_lesson.pipeline.drawing import pieces

from .cli_helpers import cli
from .conftest import BLINK, PULSE
from .test_batch import dask_processes, kill_mid_batch, manifest, wait_for, write_plan

FOLDER = "default/river-scaled-zh-720p30"


@pytest.fixture
def fixture_scenes():
    return (BLINK, PULSE)


def frame_digests(path: Path) -> list[str]:
    """The md5 of every decoded frame (rgb24), in order."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height", "-of", "json", str(path)], capture_output=True,
                           check=True).stdout
    size = json.loads(probe)["streams"][0]
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24",
                          "-"], capture_output=True, check=True).stdout
    n = size["width"] * size["height"] * 3
    return [hashlib.md5(raw[i:i + n]).hexdigest() for i in range(0, len(raw), n)]


def assert_equals_render(batch_folder: Path, serial: Path) -> None:
    """The batch's pulse is `render`'s: every frame, the subtitles, the steps and the manifest entry."""
    a, b = frame_digests(batch_folder / "pulse.mp4"), frame_digests(serial / "pulse.mp4")
    assert len(a) == len(b) > 0 and a == b
    for name in ("pulse.srt", "pulse.steps.json"):
        text = (batch_folder / name).read_text(encoding="utf-8")
        assert text == (serial / name).read_text(encoding="utf-8"), name
    assert manifest(batch_folder)["pulse"] == manifest(serial)["pulse"]
    assert not [p for p in batch_folder.iterdir() if p.name.startswith(".")]


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> Path:
    """`render -j 1`'s pulse, the one both real batches are compared with (drawn once for the module)."""
    from scenes import registry

    folder = tmp_path_factory.mktemp("serial")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "SCENES", (BLINK, PULSE))
        mp.chdir(folder)
        cli("render", "pulse", "--context", "river", "--quality", "medium", "-j", "1", "--out", "s", "-q")
    return folder / "s"


# -- the plan, nothing rendered --------------------------------------------------------------------

def test_the_longest_scenes_get_the_most_pieces():
    cost, limit = {"a": 60.0, "b": 30.0, "c": 10.0}, {"a": 8, "b": 8, "c": 8}
    assert graph.plan_pieces(cost, limit, 3) == {"a": 1, "b": 1, "c": 1}  # no thread to spare
    assert graph.plan_pieces(cost, limit, 6) == {"a": 4, "b": 3, "c": 1}  # 3 spare: a, b, a again
    assert graph.plan_pieces(cost, {"a": 2}, 6) == {"a": 1, "b": 1, "c": 1}  # two pieces gain nothing
    assert graph.plan_pieces({"a": 10.0, "b": 10.0}, limit, 3) == {"a": 1, "b": 3}  # ties: the last name
    assert graph.chain(30.0, 1) == 30.0 and graph.chain(30.0, 3) == 20.0 and graph.chain(30.0, 6) == 10.0
    assert pieces.most(8, "low") == 1 and pieces.most(8, "medium") == 8  # never at 480p15, as render


def test_a_join_refuses_segments_with_a_gap():
    names = ["uncached_00000.mp4", "uncached_00002.mp4"]
    assert tasks.missing(names) == [1] and tasks.missing(names[:1]) == [] and tasks.missing([]) == []


def set_timings(folder: Path, seconds: dict[str, float]) -> None:
    cache = folder / "media" / ".cache"
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "timings.json").write_text(json.dumps(seconds), encoding="utf-8")


def test_dry_run_prints_the_critical_path_from_the_timings(fixtures):
    """blink 10 s and pulse 30 s known: on 4 workers pulse goes in 3 pieces (a chain of 2 x 10 s), the
    wall time max(40 / 4, 20) = 20 s; on 1 worker the work, 40 s; at 480p15 nothing is split."""
    set_timings(fixtures, {"blink/video/medium30/mp4": 10.0, "pulse/video/medium30/mp4": 30.0})
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], qualities=["medium"], out="b")
    out = cli("batch", str(plan), "--dry-run", "--lang", "en", "--workers", "4")
    assert "critical path on 4 workers: about 20.0 s = max(work 40.0 s / 4 = 10.0 s, longest chain " \
           "20.0 s)" in out, out
    assert f"longest chain: pulse ({FOLDER}), 30.0 s in 3 pieces: 2 at once, then the join" in out, out
    assert "1 of 2 scene tasks in pieces; timings: 2 known, 0 estimated" in out, out
    one = cli("batch", str(plan), "--dry-run", "--lang", "en", "--workers", "1")
    assert "critical path on 1 worker: about 40.0 s = max(work 40.0 s / 1 = 40.0 s" in one, one
    assert f"longest chain: pulse ({FOLDER}), 30.0 s whole" in one, one
    set_timings(fixtures, {"blink/video/low15/mp4": 10.0, "pulse/video/low15/mp4": 30.0})
    low = write_plan(fixtures, name="low.toml", lessons=["default"], contexts=["river"], out="b")
    out = cli("batch", str(low), "--dry-run", "--lang", "en", "--workers", "4")
    assert "about 30.0 s = max(work 40.0 s / 4 = 10.0 s, longest chain 30.0 s)" in out, out
    assert "0 of 2 scene tasks in pieces" in out, out


def test_dry_run_says_what_it_assumes_when_the_scheduler_does_not_answer(fixtures):
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["pulse"])
    out = cli("batch", str(plan), "--dry-run", "--lang", "en", "--scheduler", "tcp://127.0.0.1:9")
    n = os.cpu_count()
    assert f"critical path on {n} worker{'s' if n > 1 else ''} (assumed: the scheduler did not answer)" \
        in out, out


# -- real renders ----------------------------------------------------------------------------------

@pytest.fixture
def split_calls(monkeypatch):
    """Each scene the batch split, with its pieces' step ranges."""
    calls = []
    real = pieces.split

    def spy(job, n, folder):
        parts, last = real(job, n, folder)
        calls.append((job.id, [p.piece.steps for p in [*parts, last]]))
        return parts, last

    monkeypatch.setattr(pieces, "split", spy)
    return calls


def pieces_started(address: str) -> int:
    """How many times the scheduler handed a piece to a worker (its transition log)."""
    from distributed import Client

    def count(dask_scheduler) -> int:
        return sum(1 for key, _, finish, *_ in dask_scheduler.transition_log
                   if "#" in str(key) and finish == "processing")

    with Client(address, timeout=30, set_as_default=False) as client:
        return client.run_on_scheduler(count)


@pytest.mark.render
def test_a_split_batch_equals_render(fixtures, split_calls, serial):
    """One scene on a LocalCluster of two workers: drawn in three pieces, the segments sent as bytes to
    the join; the same frames, subtitles, steps and manifest entry as `render -j 1`."""
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["pulse"],
                      qualities=["medium"], out="b")
    cli("batch", str(plan), "--workers", "2", "-q")
    assert split_calls == [("pulse", [(0, 1), (1, 2), (2, None)])]
    assert_equals_render(fixtures / "b" / FOLDER, serial)


@pytest.fixture
def two_workers(tmp_path):
    """A scheduler and two workers (test_batch.dask_processes), one of which the test kills."""
    with dask_processes(tmp_path) as found:
        yield found


def piece_worker(address: str):
    """The name of a worker drawing a piece (a key scene-task#first-step), once there is one."""
    from distributed import Client

    with Client(address, timeout=30, set_as_default=False) as client:
        def busy():
            names = {a: w["name"] for a, w in client.scheduler_info()["workers"].items()}
            return next((names[a] for a, keys in client.processing().items()
                         if any("#" in str(k) for k in keys)), None)

        return wait_for(busy, 60, "a worker drawing a piece")


WITH_PULSE = ("import sys; from scenes import registry; from tests.conftest import PULSE; "
              "registry.SCENES = (PULSE,); from attention_lesson.cli import main; sys.exit(main())")


@pytest.mark.render
def test_a_piece_whose_worker_dies_is_drawn_again(fixtures, two_workers, tmp_path, serial):
    """Through a shared staging folder: a worker drawing a piece is killed (SIGKILL); Dask gives the
    piece to the other worker, the join finds every segment, and the scene equals `render`'s."""
    address, procs, env = two_workers
    plan = write_plan(tmp_path, lessons=["default"], contexts=["river"], scenes=["pulse"],
                      qualities=["medium"], out="d", shared="stage")
    from distributed import Client

    with Client(address, timeout=30, set_as_default=False) as client:  # both, before the batch counts them
        client.wait_for_workers(2, timeout=60)
    dry = cli("batch", str(plan), "--dry-run", "--lang", "en", "--scheduler", address)
    assert "critical path on 2 workers (the scheduler's threads now)" in dry and "1 of 1 scene tasks in " \
        "pieces" in dry, dry
    proc = subprocess.Popen([sys.executable, "-c", WITH_PULSE, "batch", str(plan), "--scheduler", address,
                             "-q"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    kill_mid_batch(proc, procs, lambda: piece_worker(address), 120)
    assert pieces_started(address) >= 3  # two pieces, one of them twice
    assert_equals_render(tmp_path / "d" / FOLDER, serial)
    assert list((tmp_path / "stage").iterdir()) == []
