"""Scenes in pieces (pipeline/drawing/pieces.py, pipeline/drawing/manim_speedups/skipped_animations.py):
the ranges cover every step, and a scene drawn in pieces by two workers and joined equals the scene
drawn whole: every frame, the sound, the subtitles, the steps' times and every step's clip."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from attention_lesson.pipeline.drawing import pieces, runner
from scenes import registry
from scenes.registry import SceneInfo

from .cli_helpers import cli

TINY = Path(__file__).parent / "lessons" / "tiny.toml"  # 2 tokens: the smallest drawing of a real scene

BLINK = SceneInfo("blink", "Blink", package="tests.fixtures", titles={"zh": "闪", "en": "Blink"})
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")


@pytest.mark.parametrize("steps, n", [(1, 1), (2, 2), (7, 3), (12, 5), (5, 5)])
def test_ranges_cover_every_step_once(steps, n):
    r = pieces.ranges(steps, n)
    assert len(r) == n and r[0][0] == 0 and r[-1][1] is None  # the last piece draws whatever follows
    assert all(a < b for a, b in r[:-1]) and all(r[i][1] == r[i + 1][0] for i in range(n - 1))
    sizes = [b - a for a, b in r[:-1] + [(r[-1][0], steps)]]
    assert max(sizes) - min(sizes) <= 1


def test_only_a_run_with_fewer_scenes_than_workers_is_split(monkeypatch):
    monkeypatch.delenv(pieces.ENV, raising=False)
    assert pieces.count(12, 2, 8) == 1 and pieces.count(2, 2, 8) == 1  # a scene for every worker
    assert pieces.count(1, 2, 8) == 3 and pieces.count(1, 2, 2) == 2  # each worker one, the last waits
    assert pieces.count(2, 4, 8) == 3 and pieces.count(1, 8, 5) == 5
    assert pieces.count(1, 1, 8) == 1  # one worker: nothing to share
    assert pieces.count(1, 2, 8, "low") == 1  # 480p15: a piece costs more than it draws
    monkeypatch.setenv(pieces.ENV, "1")
    assert pieces.count(1, 2, 8) == 1


def media(path, *args) -> bytes:
    """Every decoded frame (rgb24) or, with -vn, every audio sample (s16), as bytes."""
    kind = ["-f", "s16le", "-vn"] if "-vn" in args else ["-f", "rawvideo", "-pix_fmt", "rgb24"]
    return subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), *kind, "-"], capture_output=True,
                          check=True).stdout


def render(out: str, jobs: int, *args: str) -> None:
    cli("render", *args, "--sections", "--quality", "medium", "--fps", "5", "-j", str(jobs),
        "--out", out, "-q")


@pytest.fixture
def split_spy(monkeypatch):
    """The tasks each run planned (the last pieces, started later, included)."""
    planned = []
    real = runner.plan_tasks

    def spy(jobs, workers, known=None):
        tasks, joins = real(jobs, workers, known)
        planned.append([t.task for t in tasks] + [j.task for j, _ in joins.values()])
        return tasks, joins

    monkeypatch.setattr(runner, "plan_tasks", spy)
    return planned


@pytest.mark.render
@needs_espeak
@pytest.mark.parametrize("scene, args", [
    ("blink", ("--voice", "draft")),  # two steps, each a play and a spoken wait
    ("softmax", ("--lang", "en", "--voice", "draft", "--lesson", str(TINY))),  # a heading, more steps
], ids=["blink", "softmax"])
def test_a_scene_in_pieces_equals_the_whole_scene(tmp_path, monkeypatch, split_spy, scene, args):
    if scene == "blink":
        monkeypatch.setattr(registry, "SCENES", (BLINK,))
    monkeypatch.chdir(tmp_path)
    render("whole", 1, scene, *args)
    render("split", 2, scene, *args)
    assert len(split_spy[0]) == 1 and len(split_spy[1]) >= 2  # -j 1: whole; -j 2: in pieces
    whole, split = tmp_path / "whole", tmp_path / "split"
    names = sorted(p.name for p in whole.iterdir() if p.name not in ("manifest.json", ".cache"))
    assert sorted(p.name for p in split.iterdir() if p.name not in ("manifest.json", ".cache")) == names
    for name in names:
        if name.endswith(".mp4"):
            a, b = media(whole / name), media(split / name)
            assert len(a) == len(b) and a == b, name  # every frame, as many
            assert media(whole / name, "-vn") == media(split / name, "-vn"), name  # the sound
        else:
            assert ((whole / name).read_text(encoding="utf-8")
                    == (split / name).read_text(encoding="utf-8")), name
    steps = json.loads((split / f"{scene}.steps.json").read_text(encoding="utf-8"))["steps"]
    assert len(steps) >= 2 and all(s["voice"] > 0 for s in steps)
    assert not [p for p in split.iterdir()  # no pieces folder left behind (the workers' cache stays)
                if p.name.startswith(".") and p.name != ".cache"]


@pytest.mark.render
def test_a_failing_piece_fails_its_scene_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "SCENES", (BLINK,))
    monkeypatch.chdir(tmp_path)
    from attention_lesson.pipeline.drawing.manim_speedups import skipped_animations as skips

    monkeypatch.setattr(pieces, "ranges", lambda steps, n: [(0, 1), (1, 2), (2, None)])
    real = skips.bounds

    def broken(renderer, n):  # the second piece fails as its step begins
        if n == 1 and skips._piece.steps == (1, 2):
            raise RuntimeError("piece broke")
        real(renderer, n)

    monkeypatch.setattr(skips, "bounds", broken)
    out = cli("render", "blink", "-j", "2", "--quality", "medium", "--fps", "10", "--out", "v", code=1)
    assert "piece broke" in out
    assert not [p for p in (tmp_path / "v").iterdir()
                if p.suffix in (".mp4", ".srt") or p.name.startswith(".") and p.name != ".cache"]


def test_a_cold_voiced_run_starts_the_scenes_with_the_most_speech_first(tmp_path):
    """With a voice, the speech sets a scene's time: a cold voiced run starts geometry (its nine steps
    the lesson's longest narration, among the quickest to draw), a silent one mistakes."""
    from attention_lesson.pipeline.plan import Job, RenderOptions

    jobs = {v: [Job(s, RenderOptions(lesson="lesson.toml", context="river", voice=v), tmp_path)
                for s in registry.available()] for v in (None, "neural")}
    silent, voiced = (runner.plan_tasks(jobs[v], 2)[0] for v in (None, "neural"))
    assert (silent[0].id, voiced[0].id) == ("mistakes", "geometry")
    assert sorted(j.id for j in voiced) == sorted(runner.VOICED) == sorted(runner.ESTIMATES)


def test_a_run_starts_the_scenes_that_took_longest_last_time_first(tmp_path):
    """The longest first: by the last run's seconds, and on a cold run by the packaged estimates (each
    scene's seconds measured once), a scene never timed scaled from the timed ones."""
    from attention_lesson.pipeline import timings
    from attention_lesson.pipeline.plan import Job, RenderOptions

    opts = RenderOptions(lesson="lesson.toml", context="river")
    jobs = [Job(s, opts, tmp_path) for s in registry.available()[:4]]
    cold, _ = runner.plan_tasks(jobs, 2)  # nothing timed: the packaged estimates, the longest first
    assert cold[0].id == max((j.id for j in jobs), key=lambda i: runner.ESTIMATES[i])
    assert sorted(j.id for j in cold) == sorted(j.id for j in jobs)
    known = {timings.key(j): t for j, t in zip(jobs, (1.0, 9.0, 3.0))}  # the fourth never timed
    ordered, _ = runner.plan_tasks(jobs, 2, known)
    assert [j.id for j in ordered][:1] == [jobs[1].id]  # 9 s
    results = [runner.Result(j.id, True, [], seconds=s) for j, s in zip(jobs, (2.0, 4.0, 6.0, 8.0))]
    timings.save(tmp_path, jobs, results)
    assert timings.load(tmp_path) == {timings.key(j): s for j, s in zip(jobs, (2.0, 4.0, 6.0, 8.0))}
    again, _ = runner.plan_tasks(jobs, 2, timings.load(tmp_path))
    assert [j.id for j in again] == [j.id for j in reversed(jobs)]


def test_the_order_ends_the_workers_together():
    """runner.balanced: the longest first, then swaps that end the run sooner. On the lesson's 13 scenes
    at 480p15 (their measured seconds) the longest first alone ends 2.5 s apart on two workers; the
    order found ends when the two cores' even share does. Never later than the longest first."""
    import random

    measured = [8.47, 7.54, 7.28, 6.99, 5.77, 5.42, 4.73, 4.67, 4.15, 3.49, 3.12, 3.05, 2.87]
    longest_first = list(range(len(measured)))
    order = runner.balanced(measured, 2)
    assert order[0] == 0 and sorted(order) == longest_first
    assert runner.finish(measured, longest_first, 2) == pytest.approx(35.03)
    assert runner.finish(measured, order, 2) <= sum(measured) / 2 + 0.05
    rng = random.Random(32)
    for _ in range(50):
        cost = [rng.uniform(0.5, 9) for _ in range(rng.randint(1, 20))]
        workers = rng.randint(1, 4)
        lpt = sorted(range(len(cost)), key=lambda i: -cost[i])
        found = runner.balanced(cost, workers)
        assert runner.finish(cost, found, workers) <= runner.finish(cost, lpt, workers)
