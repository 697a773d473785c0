"""`batch`: a plan file of variants rendered on Dask, with real small renders of fixture scenes: on a
LocalCluster against a serial `render`, and on a real `dask scheduler` with two `dask worker`
processes (127.0.0.1 only), one of them killed mid-batch."""

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import load
from attention_core.lesson import resolve
from attention_lesson.cli import main
from attention_lesson.pipeline.plan import RenderOptions, input_digest

from .cli_helpers import cli
from .conftest import BLINK

pytestmark = pytest.mark.render

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.fixture
def fixture_lessons():
    """`fixtures` (the registry holds blink and broken: the plan carries them to the workers) gives a
    folder with a second lesson in it."""
    return ("tiny.toml",)


def write_plan(folder: Path, name="plan.toml", **keys) -> Path:
    lines = [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in keys.items()]
    (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / name


def frames(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt",
                          "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8)


def leftovers(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".tmp-*"))


def manifest(folder: Path) -> dict:
    """The folder's manifest, each output's modification time left out (the size and the hash of its ends
    stay: two folders made alike hold the same files, written at other instants)."""
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in data.values():
        if isinstance(entry, dict) and isinstance(entry.get("stat"), dict):
            entry["stat"] = {name: [size, sample] for name, (size, _, sample) in entry["stat"].items()}
    return data


def assert_manifest_true(folder: Path, lesson_file, context, lang, scenes=(BLINK,)):
    """Every scene entry holds the hash of what the scene depends on now, and every file it names
    exists (the manifest describes the folder, not what was hoped for)."""
    m = manifest(folder)
    les = load(lesson_file)
    for s in scenes:
        for slides in (False, True):
            key = f"{s.id}@slides" if slides else s.id
            if key in m:
                opts = RenderOptions(lesson=str(Path(les.source).resolve()), context=context, lang=lang,
                                     kind="slides" if slides else "video")
                assert m[key]["hash"] == input_digest(les, s, opts), (folder, key)
    for entry in m.values():
        assert entry["files"] and all((folder / f).is_file() for f in entry["files"]), (folder, entry)


# -- the plan: errors and dry runs, nothing rendered ---------------------------------------------------

@pytest.mark.parametrize("keys,expected", [
    ({"lessons": ["default"], "scenes": ["nope"]}, "unknown scene 'nope'; choose from: blink, broken"),
    ({"lessons": ["default"], "contexts": ["lake"]},
     "'lake' is in none of the lessons (default: river, savings"),
    ({"lessons": ["default"], "modes": ["cosine"]}, "unknown mode 'cosine'"),
    ({"lessons": ["default"], "langs": ["fr"]}, "unknown language 'fr'"),
    ({"lessons": ["default"], "themes": ["sepia"]},
     "themes: unknown theme 'sepia'; choose from: dark, light"),
    ({"lessons": ["missing.toml"]}, "'missing.toml' is neither a lesson file"),
    ({"lessons": ["default"], "products": ["video"]}, "unknown product 'video'"),
    ({"lessons": ["default"], "qualitys": ["low"]}, "unknown key 'qualitys'"),
    ({"contexts": ["river"]}, "lessons: name at least one lesson"),
    ({"lessons": ["default"], "formats": ["png"], "products": ["lesson"]}, "needs a video format"),
])
def test_a_bad_plan_is_one_line_and_exit_2(fixtures, keys, expected):
    plan = write_plan(fixtures, **keys)
    r = CliRunner().invoke(main, ["batch", str(plan), "--lang", "en"])
    assert r.exit_code == 2, r.output
    assert expected in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert not (fixtures / "media").exists()


def test_handout_and_sheet_are_planned_from_their_own_jobs(fixtures):
    """A dry run plans the handout from every step's frames and the sheet from the scenes' posters."""
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["blink"],
                      products=["handout", "sheet"])
    out = cli("batch", str(plan), "--dry-run", "--list", "--lang", "en")
    assert "would render blink@frames" in out and "would build  handout" in out, out
    assert "would render blink@poster" in out and "would build  sheet" in out, out
    assert "4 to do in 4 tasks (0 shared between variants), 0 up to date, 1 variants" in out, out


def test_themes_are_variants_of_their_own(fixtures):
    """Each theme is a variant in its own folder (the light one's name ends in -light); a handout of a
    dark variant is noted (its frames print dark), none of a light one."""
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["blink"],
                      themes=["dark", "light"], products=["scenes", "handout"], out="o")
    out = cli("batch", str(plan), "--dry-run", "--list", "--lang", "en")
    for folder in ("o/default/river-scaled-zh-480p15", "o/default/river-scaled-zh-480p15-light"):
        assert f"\n{folder}\n" in "\n" + out, out
    assert out.count("would render blink@frames") == 2 and out.count("would build  handout") == 2, out
    assert 'note: a handout of a dark variant has dark frames (much ink); themes = ["light"]' in out, out
    light = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["blink"], themes=["light"],
                       products=["handout"], out="o")
    assert "note:" not in cli("batch", str(light), "--dry-run", "--list", "--lang", "en")


def test_the_explorer_is_planned_from_no_scene(fixtures):
    """The explorer is made of the lesson alone: a plan of only it renders no scene."""
    plan = write_plan(fixtures, lessons=["default"], contexts=["river", "savings"], scenes=["blink"],
                      products=["explorer"])
    out = cli("batch", str(plan), "--dry-run", "--list", "--lang", "en")
    assert (out.count("would build  explorer           -> explorer/index.html") == 2
            and "render" not in out), out
    assert "2 to do in 2 tasks (0 shared between variants), 0 up to date, 2 variants" in out, out


def test_dry_run_lists_jobs_and_shares_identical_work(fixtures):
    """Two formats: each its own folder; the deck and its clips do not depend on the format, so the two
    variants share their tasks; a context a lesson lacks is skipped."""
    plan = write_plan(fixtures, lessons=["default", "tiny.toml"], contexts=["river"], langs=["en"],
                      scenes=["blink"], formats=["mp4", "webm"], products=["scenes", "html"], out="o")
    out = cli("batch", str(plan), "--dry-run", "--list")
    for fmt in ("mp4", "webm"):
        assert f"\no/default/river-scaled-en-480p15-{fmt}\n" in "\n" + out, out
        assert f"would render blink              -> blink.{fmt}" in out, out
    assert out.count("would render blink@slides") == 2 and out.count("would build  html") == 2, out
    assert "note: tiny has no context 'river': skipped" in out
    assert "6 to do in 4 tasks (2 shared between variants), 0 up to date, 2 variants" in out, out
    assert not (fixtures / "o").exists()


# -- real renders ----------------------------------------------------------------------------------

def test_local_cluster_equals_serial_render_and_reruns_nothing(fixtures, monkeypatch):
    """Two lessons x two languages on a LocalCluster of two workers: the same frames, subtitles and
    manifest hashes as `render` one variant after the other; the joined lesson per variant; a second
    run submits nothing (and starts no cluster)."""
    plan = write_plan(fixtures, lessons=["default", "tiny.toml"], contexts=["river", "short"],
                      langs=["zh", "en"], scenes=["blink"], products=["scenes", "lesson"], out="b")
    variants = [("default", resolve("default"), "river", lang) for lang in ("zh", "en")] + \
               [("tiny", fixtures / "tiny.toml", "short", lang) for lang in ("zh", "en")]
    cli("batch", str(plan), "--workers", "2", "-q")
    for i, (stem, file, ctx, lang) in enumerate(variants):
        cli("render", "blink", "--lesson", str(file), "--context", ctx, "--lang", lang, "--out", f"s{i}",
            "-j", "1", "-q")
    for i, (stem, file, ctx, lang) in enumerate(variants):
        folder, serial = fixtures / "b" / stem / f"{ctx}-scaled-{lang}-480p15", fixtures / f"s{i}"
        a, b = frames(folder / "blink.mp4"), frames(serial / "blink.mp4")
        assert np.array_equal(a, b), folder
        for name in ("blink.srt", "blink.steps.json"):
            assert (folder / name).read_text(encoding="utf-8") == (serial / name).read_text(encoding="utf-8")
        assert manifest(folder)["blink"] == manifest(serial)["blink"]
        assert set(manifest(folder)) == {"blink", "@lesson"}
        assert (folder / "lesson.mp4").stat().st_size > 0
        vtt = (folder / "lesson.chapters.vtt").read_text(encoding="utf-8")
        assert vtt.count(" --> ") == 1 and ("闪" if lang == "zh" else "Blink") in vtt
        assert_manifest_true(folder, file, ctx, lang)
        assert leftovers(folder) == []
    before = (fixtures / "b" / "tiny" / "short-scaled-en-480p15" / "lesson.mp4").stat().st_mtime_ns
    from attention_lesson.pipeline.batch import client

    def no_cluster(*args, **kwargs):
        raise AssertionError("nothing to do, yet a cluster was started")

    monkeypatch.setattr(client, "connect", no_cluster)
    again = cli("batch", str(plan), "--lang", "en")
    assert "0 done, 8 up to date, 0 failed" in again, again
    assert (fixtures / "b" / "tiny" / "short-scaled-en-480p15" / "lesson.mp4").stat().st_mtime_ns == before
    dry = cli("batch", str(plan), "--dry-run", "--list", "--lang", "en")
    assert "would" not in dry and dry.count("up to date") == 9, dry


def stealing(dask_scheduler) -> bool:
    return "stealing" in dask_scheduler.extensions


def test_a_local_cluster_schedules_without_work_stealing():
    """A LocalCluster's scheduler steals no task (QUIET_SCHEDULER: stealing left workers idle for
    seconds between tasks)."""
    from attention_lesson.pipeline.batch import client

    with client.connect(None, 1, quiet=True) as (c, _):
        assert c.run_on_scheduler(stealing) is False


# -- the distributed path: a scheduler and two workers, one killed -----------------------------------

def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def dask_env() -> dict[str, str]:
    """The variables `scripts/dask-env.sh` exports, as bash reads them."""
    out = subprocess.run(["bash", "-c", ". scripts/dask-env.sh && env -0"], cwd=ROOT, env={},
                         capture_output=True, check=True).stdout.decode()
    return dict(kv.split("=", 1) for kv in out.split("\0") if kv.startswith("DASK_"))


@contextmanager
def dask_processes(tmp_path: Path, workers=("wa", "wb")):
    """`dask scheduler` and `dask worker --nthreads 1 --no-nanny` processes on 127.0.0.1 (random ports,
    from a scheduler file); (address, name -> process, their environment); every process stopped
    afterwards, however the caller ends."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ATTENTION_LESSON_CACHE": str(tmp_path / "cache"),
           "DASK_LOGGING__DISTRIBUTED": "error", **dask_env()}
    sched_file = tmp_path / "scheduler.json"
    procs: dict[str, subprocess.Popen] = {}
    log = open(tmp_path / "dask.log", "wb")
    try:
        procs["scheduler"] = subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(sched_file)], cwd=tmp_path, env=env, stdout=log, stderr=log)
        wait_for(lambda: sched_file.exists() and sched_file.stat().st_size, 60, "the scheduler")
        address = json.loads(sched_file.read_text())["address"]
        for name in workers:
            procs[name] = subprocess.Popen(
                [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny", "--name", name,
                 "--host", "127.0.0.1", "--no-dashboard", "--local-directory", str(tmp_path / "scratch")],
                cwd=tmp_path, env=env, stdout=log, stderr=log)
        yield address, procs, env
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
            p.wait()
        log.close()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A scheduler and two workers (dask_processes) for this module's tests (the last one kills a
    worker), both connected before the first test."""
    with dask_processes(tmp_path_factory.mktemp("dask")) as (address, procs, env):
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs, env


@pytest.mark.xdist_group("dask-cluster")
def test_a_failing_scene_is_reported_and_nothing_half_written(dask_cluster, fixtures):
    """One scene fails: reported with its scene, variant and error, the other done, exit 1; its folder
    holds only whole outputs and a manifest naming only them. Through a shared staging folder (the
    files are not sent as bytes), which is gone afterwards."""
    address, _, _ = dask_cluster
    plan = write_plan(fixtures, lessons=["default"], contexts=["river"], scenes=["blink", "broken"],
                      products=["scenes", "lesson"], out="f", shared="stage")
    r = CliRunner().invoke(main, ["batch", str(plan), "--scheduler", address, "-q", "--lang", "en"])
    assert r.exit_code == 1, r.output
    assert "broken failed in default/river-scaled-zh-480p15: RuntimeError: this fixture scene fails on " \
           "purpose" in r.output, r.output
    assert "lesson failed in default/river-scaled-zh-480p15: not made: broken failed" in r.output
    folder = fixtures / "f" / "default" / "river-scaled-zh-480p15"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["blink.mp4", "blink.srt", "blink.steps.json", "manifest.json"]
    assert list(manifest(folder)) == ["blink"]
    assert_manifest_true(folder, resolve("default"), "river", "zh")
    assert list((fixtures / "stage").iterdir()) == []


def quiet_config() -> dict:
    import dask

    from attention_lesson.pipeline.batch import QUIET_WORKER

    return {k: dask.config.get(k) for k in QUIET_WORKER}


@pytest.mark.xdist_group("dask-cluster")
def test_workers_started_with_dask_env_get_the_local_clusters_config(dask_cluster):
    """`dask worker` started after `. scripts/dask-env.sh` runs with the configuration a LocalCluster
    gives its workers (no sampling profiler, slow tick and system monitor)."""
    from distributed import Client

    from attention_lesson.pipeline.batch import QUIET_WORKER

    with Client(dask_cluster[0], timeout=30, set_as_default=False) as client:
        assert list(client.run(quiet_config).values()) == [QUIET_WORKER] * 2


@pytest.mark.xdist_group("dask-cluster")
def test_scheduler_and_workers_with_one_killed_mid_batch(dask_cluster, tmp_path):
    """batch --scheduler against real worker processes; once the first output is written, the worker
    busy with a task is killed (SIGKILL): Dask runs its task again on the other, and the batch ends
    with every output whole, the decks built and every manifest true."""
    address, procs, env = dask_cluster
    plan = write_plan(tmp_path, lessons=["default"], contexts=["river"], langs=["zh", "en"], scenes=["blink"],
                      products=["scenes", "html", "pptx"], out="d")
    proc = subprocess.Popen([sys.executable, "-m", "tests.fixtures.cli_with_fixtures", "batch", str(plan),
                             "--scheduler", address, "-q"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = tmp_path / "d" / "default"

    def victim() -> str:
        def first_output() -> bool:  # a batch that ended early (a missing tool, say) fails at once
            if proc.poll() is not None:
                raise AssertionError(f"batch ended before its first output: {proc.stdout.read().decode()}")
            return any(manifest(m.parent) for m in out.glob("*/manifest.json"))

        wait_for(first_output, 180, "a first output")
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            def busy():
                names = {a: w["name"] for a, w in client.scheduler_info()["workers"].items()}
                return next((names[a] for a, keys in client.processing().items() if keys), None)

            return wait_for(busy, 60, "a worker with a task")

    kill_mid_batch(proc, procs, victim, 300)
    for lang, title in (("zh", "闪"), ("en", "Blink")):
        folder = out / f"river-scaled-{lang}-480p15"
        assert set(manifest(folder)) == {"blink", "blink@slides", "@html", "@pptx"}, folder
        assert_manifest_true(folder, resolve("default"), "river", lang)
        assert frames(folder / "blink.mp4").size > 0
        steps = json.loads((folder / "blink.steps.json").read_text(encoding="utf-8"))
        assert steps["title"] == title and [s["step"] for s in steps["steps"]] == ["scores", "weights"]
        assert "scores: by the river bank" in (folder / "blink.srt").read_text(encoding="utf-8")
        page = (folder / "deck" / "index.html").read_text(encoding="utf-8")
        assert (page.count("clips/blink-0") >= 2
                and (folder / "deck" / "reveal.js" / "dist" / "reveal.js").exists())
        assert zipfile_names(folder / "deck.pptx")
        assert leftovers(folder) == []


def kill_mid_batch(proc: subprocess.Popen, procs: dict, victim, timeout: float) -> str:
    """Kill (SIGKILL) the worker victim() names while the batch `proc` runs; the batch must still end
    well; its output."""
    try:
        name = victim()
        os.kill(procs[name].pid, signal.SIGKILL)
        output = proc.communicate(timeout=timeout)[0].decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, output
    assert procs[name].wait(timeout=10) == -signal.SIGKILL
    return output


def zipfile_names(path: Path) -> list[str]:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return [n for n in z.namelist() if n.startswith("ppt/media/")]
