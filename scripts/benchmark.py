#!/usr/bin/env python3
"""Time the CLI's rendering against the naive way, on this machine, in one run.

    .venv/bin/python scripts/benchmark.py [--quality low medium] [--jobs N] [--voice | --batch | --rerun]

1. cold render of every scene: `attention-lesson render --all` (fresh output and cache folders)
   against plain `manim render` of each scene one after the other (fresh media folder);
2. a re-run with nothing changed;
3. a re-run after editing one number that only the savings context uses;
4. with --voice: the whole lesson (`attention-lesson lesson`) silent against narrated by the draft
   voice (`--voice draft`), each from fresh output and cache folders;
5. with --batch: a plan of 8 variants of the default lesson (2 contexts x 2 modes x 2 languages, every
   scene, low quality unless --quality says otherwise) with `batch` on a LocalCluster of --jobs workers
   against `render --all -j N` of each variant one after the other, both from fresh output and cache
   folders; Dask's overhead per task (the idle gap between two tasks on a worker) against a task's time;
   and, from the measured per-scene times, the wall time of a 200-job plan on 1 to 64 workers.
6. with --rerun: `lesson`, `render --all`, `slides`, `handout`, `sheet` and `voice script` of the
   default lesson, each once from nothing and then five times with nothing changed (the median and
   the slowest re-run; whether lesson.mp4 was left untouched).
7. with --holds SCENE...: each scene rendered alone (`render SCENE -j 1`, fresh output folder), silent
   and with the draft voice, with held frames converted once (`pipeline/holds.py`) against manim's
   conversion of every frame (`ATTENTION_LESSON_HOLDS=manim`), the two side by side, --repeats times
   (alternating which goes first); the median and the fastest of each (docs/performance.md).
8. with --publish: for each quality (default low, medium, high), from fresh output and cache folders:
   the naive way; `render --all -j N` silent and narrated by the draft voice (`--voice draft`); and
   four scenes (scores, softmax, mixing, matrix) silent, in pieces (pipeline/pieces.py) and whole
   (`ATTENTION_LESSON_PIECES=1`). Each with its core utilisation: the CPU time of the command and its
   workers over N x its wall time (docs/performance.md).
9. with --w-edit: `render --all -j N` from nothing, then again after an edit of W_Q (every scene
   re-renders), each with its core utilisation: the second run orders the scenes by the first run's
   times (pipeline/timings.py).
10. with --explorer: the explorer page of the default lesson and of an 8-token, 8-dimension lesson
   opened in Debian's chromium (Playwright, headless): 200 edits of W_Q entries, each typed into its
   field; the time the page's script takes to recompute and redraw (explorer.js's own timings), that
   and the browser's style and layout (forced at once), and the time from the input event to the next
   frame painted (two requestAnimationFrame callbacks later),
   median and 95th percentile.
11. with --studio: `attention-lesson studio` of the default lesson (2 warm workers) in a fresh folder:
   the cold drawing of every scene's frames; then, in chromium, a keystroke in the editor to the numbers
   on the page (median of 20, the 60 ms debounce included); then edits through the API: a number only
   the savings context uses, and an entry of W_Q (every scene), each to its first step's frame drawn,
   its first scene done and its last, three times each (median). The keystroke's time is measured in
   the page: from the editor's change to the animation frame after the new numbers are in the page.
12. with --neural: Piper with the bundled English voice: every English line of the default lesson
   synthesised in one process and in --jobs processes at once (seconds of speech per second of wall
   time, the model's load excluded); then `lesson --lang en` with `--voice neural` against
   `--voice draft`, each from fresh output and cache folders.
Prints each figure and its ratio to the naive way. Not a test: the numbers go in the README.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))

from attention_core.lesson import resolve  # noqa: E402
from scenes.registry import available  # noqa: E402

MANIM_Q = {"low": "-ql", "medium": "-qm", "high": "-qh"}
SAVINGS_LINE = "savings = [0.0, 1.0, 0.0, 0.0]"


def timed(cmd, cwd, env=None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def naive(work: Path, quality: str) -> float:
    """Plain manim, each scene after the other, a fresh media folder, manim's defaults."""
    media = work / "naive-media"
    shutil.rmtree(media, ignore_errors=True)
    total = 0.0
    for s in available():
        total += timed([str(BIN / "manim"), "render", MANIM_Q[quality], "--media_dir", str(media),
                        "-v", "WARNING", str(s.file), s.cls], cwd=work)
    return total


def cli(work: Path, quality: str, lesson: Path, jobs: int) -> tuple[float, str]:
    cmd = [str(BIN / "attention-lesson"), "render", "--all", "--quality", quality, "--lesson",
           str(lesson), "--out", str(work / f"out-{quality}"), "-j", str(jobs), "-q"]
    start = time.perf_counter()
    r = subprocess.run(cmd, cwd=work, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, r.stdout


def lesson_time(work: Path, quality: str, jobs: int, *extra: str) -> float:
    """The whole lesson joined, from nothing (fresh output folder and worker caches)."""
    shutil.rmtree(work / "media", ignore_errors=True)
    out = work / f"lesson-{quality}{'-'.join(('', *extra)).replace('/', '_')}"
    shutil.rmtree(out, ignore_errors=True)
    return timed([str(BIN / "attention-lesson"), "lesson", "--quality", quality, "--out", str(out),
                  "-j", str(jobs), "-q", *extra], cwd=work)


BATCH_VARIANTS = {"contexts": ["river", "savings"], "modes": ["scaled", "unscaled"], "langs": ["zh", "en"]}
PROJECTED_JOBS = 200
PROJECTED_WORKERS = (1, 2, 4, 8, 16, 32, 64)


def makespan(times: list[float], workers: int, gap: float) -> float:
    """Jobs started in order, each on the first worker free (as Dask hands out tasks submitted in
    order), each followed by Dask's idle gap: when the last one ends."""
    free = [0.0] * workers
    for t in times:
        k = min(range(workers), key=free.__getitem__)
        free[k] += t + gap
    return max(free)


def batch_benchmark(work: Path, quality: str, jobs: int, variants: dict = BATCH_VARIANTS,
                    scenes: list[str] | None = None) -> dict:
    """`batch` (in this process, through the functions the CLI calls) against `render --all` of each
    variant one after the other (the CLI in a process each), both from fresh output and cache folders."""
    from attention_lesson.outputs.products import PRODUCTS
    from attention_lesson.pipeline import batch as B
    from attention_lesson.pipeline.batch.client import connect

    lesson = work / "lesson.toml"
    shutil.copy(resolve("default"), lesson)
    ids = scenes or [s.id for s in available()]
    combos = [(c, m, lang) for c in variants["contexts"] for m in variants["modes"] for lang in variants["langs"]]
    shutil.rmtree(work / "media", ignore_errors=True)
    t_render = 0.0
    for k, (c, m, lang) in enumerate(combos):
        t_render += timed([str(BIN / "attention-lesson"), "render", *ids, "--lesson", str(lesson),
                           "--context", c, "--mode", m, "--lang", lang, "--quality", quality,
                           "--out", str(work / "render" / str(k)), "-j", str(jobs), "-q"], cwd=work)
    plan = work / "plan.toml"
    plan.write_text("\n".join([f'lessons = ["{lesson}"]', f'qualities = ["{quality}"]',
                               f"scenes = {json.dumps(ids)}", 'out = "batch"',
                               *(f"{k} = {json.dumps(v)}" for k, v in variants.items())]) + "\n",
                    encoding="utf-8")
    shutil.rmtree(work / "media", ignore_errors=True)  # the workers' caches: fresh too
    here = Path.cwd()
    os.chdir(work)
    try:
        start = time.perf_counter()
        jobs_plan = B.read_plan(plan, list(available()), PRODUCTS)
        todo = B.expand(jobs_plan, PRODUCTS)
        with connect(None, jobs, quiet=True) as (client, _):
            up = time.perf_counter() - start
            report = B.run(todo, client, quiet=True, cache=B.local_cache())
        t_batch = time.perf_counter() - start
    finally:
        os.chdir(here)
    t_cli = timed([str(BIN / "attention-lesson"), "--version"], cwd=work)  # what a CLI run adds
    assert not report.failures, report.failures
    by_key = {t.key: t for t in todo.tasks}
    per_scene: dict[str, list[float]] = {}
    for t in report.timings:
        per_scene.setdefault(by_key[t.key].scene.id, []).append(t.end - t.start)
    mean = {i: sum(v) / len(v) for i, v in per_scene.items()}
    gap, busy = report.overhead()
    times = [mean[ids[n % len(ids)]] for n in range(PROJECTED_JOBS)]
    projected = {w: round(makespan(times, w, gap) + up, 1) for w in PROJECTED_WORKERS}
    return {
        "variants": len(combos), "scene_renders": len(report.done), "workers": jobs,
        "render_one_after_another_s": round(t_render, 1), "batch_s": round(t_batch + t_cli, 1),
        "batch_ratio": round((t_batch + t_cli) / t_render, 3), "cluster_start_s": round(up, 1),
        "dask_gap_per_task_ms": round(1000 * gap, 1),
        "dask_gap_median_ms": round(1000 * statistics.median(report.gaps() or [0.0]), 1),
        "mean_task_s": round(busy, 2),
        "overhead_share_of_task": round(gap / busy, 4) if busy else None,
        "per_scene_s": {i: round(mean[i], 1) for i in ids if i in mean},
        f"projected_{PROJECTED_JOBS}_jobs_s_by_workers": projected,
    }


RERUNS = 5
RERUN_COMMANDS = {  # what a teacher re-runs, each after it has made its output once
    "lesson": ["lesson", "-q"], "render --all": ["render", "--all", "-q"],
    "slides html": ["slides", "--to", "html", "-q"], "handout": ["handout", "-q"],
    "sheet": ["sheet", "--dest", "sheet.png", "-q"], "voice script": ["voice", "script"],
}


def rerun_benchmark(work: Path) -> dict:
    """Each command once from nothing, then RERUNS times with nothing changed: the median re-run, and
    whether the joined lesson was left untouched (its mtime)."""
    shutil.rmtree(work / "media", ignore_errors=True)
    result = {}
    for name, args in RERUN_COMMANDS.items():
        cmd = [str(BIN / "attention-lesson"), *args]
        cold = timed(cmd, cwd=work)
        lesson = work / "media" / "default" / "river-scaled-zh-480p15" / "lesson.mp4"
        before = lesson.stat().st_mtime_ns if lesson.exists() else None
        again = [timed(cmd, cwd=work) for _ in range(RERUNS)]
        result[name] = {"cold_s": round(cold, 1), "rerun_median_s": round(statistics.median(again), 3),
                        "rerun_max_s": round(max(again), 3)}
        if name == "lesson":
            result[name]["lesson_mp4_untouched"] = lesson.stat().st_mtime_ns == before
    return result


FOUR = ["scores", "softmax", "mixing", "matrix"]


def used(cmd, cwd, env=None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(cmd, cwd, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def render_all(work: Path, quality: str, jobs: int, scenes: list[str], *extra: str, env=None,
               fresh: bool = True) -> dict:
    """`render` of the scenes (fresh: from nothing, fresh output folder and worker caches): seconds,
    CPU seconds and the utilisation of `jobs` cores."""
    if fresh:
        shutil.rmtree(work / "media", ignore_errors=True)
        shutil.rmtree(work / "pub-out", ignore_errors=True)
    wall, cpu = used([str(BIN / "attention-lesson"), "render", *(scenes or ["--all"]), "--quality", quality,
                      "--out", str(work / "pub-out"), "-j", str(jobs), "-q", *extra], work, env)
    return {"s": round(wall, 1), "cpu_s": round(cpu, 1), "utilisation": round(cpu / (jobs * wall), 3)}


def publish_benchmark(work: Path, quality: str, jobs: int) -> dict:
    """The naive way, the lesson silent and voiced, four scenes, one scene in pieces and whole: side by
    side."""
    whole_env = {**os.environ, "ATTENTION_LESSON_PIECES": "1"}
    r = {"naive_s": round(naive(work, quality), 1),
         "silent": render_all(work, quality, jobs, []),
         "voiced": render_all(work, quality, jobs, [], "--voice", "draft"),
         "four": render_all(work, quality, jobs, FOUR),
         "one_in_pieces": render_all(work, quality, jobs, ["matrix"]),
         "one_whole": render_all(work, quality, jobs, ["matrix"], env=whole_env)}
    r["silent_ratio_to_naive"] = round(r["silent"]["s"] / r["naive_s"], 3)
    r["voiced_ratio_to_silent"] = round(r["voiced"]["s"] / r["silent"]["s"], 3)
    r["one_pieces_ratio_to_whole"] = round(r["one_in_pieces"]["s"] / r["one_whole"]["s"], 3)
    return r


W_Q_LINE = "[1.0, 0.0, 0.0, 0.0],  # geography"


def w_edit_benchmark(work: Path, quality: str, jobs: int) -> dict:
    """`render --all` from nothing, then after an edit of W_Q: seconds and utilisation of each."""
    lesson = work / "lesson.toml"
    shutil.copy(resolve("default"), lesson)
    cold = render_all(work, quality, jobs, [], "--lesson", str(lesson))
    text = lesson.read_text(encoding="utf-8")
    assert W_Q_LINE in text
    lesson.write_text(text.replace(W_Q_LINE, "[1.1, 0.0, 0.0, 0.0],  # geography"), encoding="utf-8")
    return {"cold": cold, "after_w_edit": render_all(work, quality, jobs, [], "--lesson", str(lesson), fresh=False)}


def holds_run(work: Path, scene: str, quality: str, voice: bool, mode: str) -> float:
    """One scene rendered from nothing, held frames converted once ("once") or by manim ("manim")."""
    out = work / "holds-out"
    shutil.rmtree(out, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "ATTENTION_LESSON_HOLDS"}
    env["PYTHONPATH"] = str(ROOT)  # this checkout's code, whichever the environment installed
    if mode == "manim":
        env["ATTENTION_LESSON_HOLDS"] = "manim"
    voiced = ["--voice", "draft"] if voice else []
    cli_main = "from attention_lesson.cli import main; main()"
    return timed([sys.executable, "-c", cli_main, "render", scene, "--quality", quality, "--out", str(out),
                  "-j", "1", "-q", *voiced], cwd=work, env=env)


def holds_benchmark(work: Path, quality: str, scenes: list[str], repeats: int) -> dict:
    """Per scene, silent and voiced: seconds with manim's held frames and with ours, side by side."""
    times: dict[str, list[float]] = {}
    for r in range(repeats):
        for scene in scenes:
            for voice in (False, True):
                for mode in (("manim", "once") if r % 2 == 0 else ("once", "manim")):
                    key = f"{scene} {'voice' if voice else 'silent'} {mode}"
                    times.setdefault(key, []).append(holds_run(work, scene, quality, voice, mode))
                    print(f"{key}: {times[key][-1]:.1f} s", flush=True)
    return {k: {"median_s": round(statistics.median(v), 1), "min_s": round(min(v), 1),
                "runs": [round(x, 1) for x in v]} for k, v in times.items()}


EDIT_JS = """async ([n]) => {
  const cells = [...document.querySelectorAll('input[data-matrix=w_q]')];
  const frames = [], laid = [];
  for (let i = 0; i < n; i++) {
    const cell = cells[i % cells.length];
    const t0 = performance.now();
    cell.value = String(((i % 7) - 3) / 2);
    cell.dispatchEvent(new Event('input', {bubbles: true}));
    document.body.offsetHeight;  // style and layout, now
    laid.push(performance.now() - t0);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    frames.push(performance.now() - t0);
  }
  return [Explorer.timings.slice(-n), laid, frames];
}"""


def _quantiles(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"median_ms": round(statistics.median(xs), 2), "p95_ms": round(xs[int(0.95 * (len(xs) - 1))], 2)}


def explorer_benchmark(work: Path, edits: int = 200) -> dict:
    """Edits of W_Q typed into the explorer of the default and an 8x8 lesson, timed in chromium."""
    from playwright.sync_api import sync_playwright

    from tests.test_explorer import eight_by_eight
    from tests.test_slides import CHROMIUM, CHROMIUM_ARGS

    (work / "eight.toml").write_text(eight_by_eight(), encoding="utf-8")
    results = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, lesson in (("default (4 tokens)", "default"), ("8 tokens, 8 dims", str(work / "eight.toml"))):
            out = work / name.split()[0]
            subprocess.run([BIN / "attention-lesson", "explorer", "--lesson", lesson, "--out", str(out), "-q"],
                           check=True, capture_output=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((out / "explorer" / "index.html").as_uri())
            script, laid, frames = page.evaluate(EDIT_JS, [edits])
            results[name] = {"script": _quantiles(script), "script_style_layout": _quantiles(laid),
                             "to_next_frame": _quantiles(frames)}
            page.close()
        browser.close()
    return results


def _studio_edit(client, events, text: str) -> tuple[float, float, float]:
    """PUT one text; seconds to its run's first step frame drawn, first scene done, and idle."""
    from tests.test_studio import wait_for

    t0 = time.perf_counter()
    status, body = client.request("PUT", "/api/lesson", text)
    assert status == 200, body
    run = body["run"]
    wait_for(events, lambda e, d: e == "step" and d["run"] == run, timeout=300)
    step = time.perf_counter() - t0
    wait_for(events, lambda e, d: e == "frames" and d["run"] == run and d["drawn"], timeout=300)
    scene = time.perf_counter() - t0
    wait_for(events, lambda e, d: e == "idle" and d["run"] == run, timeout=300)
    return step, scene, time.perf_counter() - t0


def _keystrokes(url: str, n: int = 20) -> list[float]:
    """Seconds from a key typed in the editor to the page's numbers of that text."""
    from playwright.sync_api import sync_playwright

    from tests.test_slides import CHROMIUM, CHROMIUM_ARGS

    times = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.locator(".cm-line", has_text="savings = [0.0, 1.0").first.click()
        page.keyboard.press("End")
        for i in range(n):
            page.keyboard.type(" ")  # a space at the end of the line: a new text, the same numbers
            page.wait_for_function(f"window.studioTimings.length > {i}")
            page.wait_for_timeout(100)
        times = [t / 1000 for t in page.evaluate("window.studioTimings")]
        browser.close()
    return times


def studio_benchmark(work: Path, repeats: int = 3) -> dict:
    from tests.test_studio import Client, wait_for

    shutil.copy(resolve("default"), work / "lesson.toml")
    t0 = time.perf_counter()
    proc = subprocess.Popen([BIN / "attention-lesson", "studio", "--no-browser", "--port", "0"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    client = Client(url)
    events = client.events()
    try:
        wait_for(events, lambda e, d: e == "idle", timeout=600)
        cold = time.perf_counter() - t0
        keys = _keystrokes(url)
        text = (work / "lesson.toml").read_text(encoding="utf-8")
        edits = {"savings": [], "w_q": []}
        for i in range(repeats):  # each edit on top of the last: a savings edit leaves W_Q as it was
            text = text.replace(re.search(r"savings = \[.*\]", text).group(0), f"savings = [0.0, 1.{i + 1}, 0.0, 0.0]")
            edits["savings"].append(_studio_edit(client, events, text))
            text = re.sub(r"\[[\d.]+, 2\.3, 0\.0, 0\.0\],  # ambiguity", f"[2.{i + 4}, 2.3, 0.0, 0.0],  # ambiguity", text)
            edits["w_q"].append(_studio_edit(client, events, text))
    finally:
        proc.send_signal(__import__("signal").SIGINT)
        proc.communicate(timeout=60)
    med = lambda xs: round(statistics.median(xs), 2)  # noqa: E731
    return {"cold_all_frames_s": round(cold, 1), "keystroke_to_numbers_ms": round(1000 * statistics.median(keys)),
            "keystroke_p95_ms": round(1000 * sorted(keys)[int(0.95 * (len(keys) - 1))]),
            **{f"{k}_{what}_s": med([t[i] for t in v]) for k, v in edits.items()
               for i, what in enumerate(("first_step_frame", "first_scene", "all_frames"))}}


def _english_lines() -> list[str]:
    out = subprocess.run([BIN / "attention-lesson", "voice", "script", "--lang", "en", "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    import csv
    import io

    return [row["line"] for row in csv.DictReader(io.StringIO(out))]


def _synthesise(lines: list[str]) -> tuple[float, float]:
    """(seconds of speech, seconds spent) of Piper saying these lines, in this process."""
    import wave

    from attention_lesson.pipeline.speakers import speaker_for
    from scenes.common.speech import speakable

    speaker = speaker_for("neural", "en")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "line.wav"
        speaker.say("warm up", out)  # the model's load
        spoken, t0 = 0.0, time.perf_counter()
        for line in lines:
            speaker.say(speakable(line, "en"), out)
            with wave.open(str(out)) as w:
                spoken += w.getnframes() / w.getframerate()
        return spoken, time.perf_counter() - t0


def neural_benchmark(work: Path, jobs: int) -> dict:
    from concurrent.futures import ProcessPoolExecutor

    lines = _english_lines()
    spoken, spent = _synthesise(lines)
    with ProcessPoolExecutor(jobs) as pool:
        t0 = time.perf_counter()
        parts = list(pool.map(_synthesise, [lines[i::jobs] for i in range(jobs)]))
        wall = time.perf_counter() - t0
    results = {"lines": len(lines), "speech_s": round(spoken, 1), "one_process_speech_per_s": round(spoken / spent, 1),
               f"{jobs}_processes_speech_per_s": round(sum(p[0] for p in parts) / wall, 1)}
    for voice in ("draft", "neural"):
        results[f"lesson_en_{voice}_s"] = round(lesson_time(work, "low", jobs, "--lang", "en", "--voice", voice), 1)
    results["neural_over_draft"] = round(results["lesson_en_neural_s"] / results["lesson_en_draft_s"], 2)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quality", nargs="+", default=None, choices=list(MANIM_Q),
                    help="Default: low medium (with --batch: low).")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--voice", action="store_true",
                    help="Only time the whole lesson silent against narrated by the draft voice.")
    ap.add_argument("--batch", action="store_true",
                    help="Only time `batch` on a LocalCluster against `render` variant after variant.")
    ap.add_argument("--rerun", action="store_true",
                    help="Only time re-runs with nothing changed (lesson, render, slides, handout, sheet, "
                         "voice script), each after one cold run.")
    ap.add_argument("--holds", nargs="+", metavar="SCENE",
                    help="Only time held frames converted once against manim's way, for these scenes.")
    ap.add_argument("--repeats", type=int, default=2, help="With --holds: runs of each (default 2).")
    ap.add_argument("--publish", action="store_true",
                    help="Only time the lesson silent and voiced and four scenes in pieces and whole, "
                         "against the naive way, with the core utilisation (default: every quality).")
    ap.add_argument("--w-edit", action="store_true",
                    help="Only time render --all from nothing and again after an edit of W_Q.")
    ap.add_argument("--explorer", action="store_true",
                    help="Only time edits in the explorer page (chromium): script and time to the next frame.")
    ap.add_argument("--studio", action="store_true",
                    help="Only time the studio: keystroke to numbers, edit to first and last redrawn frame.")
    ap.add_argument("--neural", action="store_true",
                    help="Only time the neural voice: synthesis rate, the English lesson neural against draft.")
    args = ap.parse_args()
    if args.neural:
        with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
            print(json.dumps(neural_benchmark(Path(tmp), args.jobs), indent=2))
        return
    if args.studio:
        with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
            print(json.dumps(studio_benchmark(Path(tmp)), indent=2))
        return
    if args.explorer:
        with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
            print(json.dumps(explorer_benchmark(Path(tmp)), indent=2))
        return
    if args.w_edit:
        with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
            results = {q: w_edit_benchmark(Path(tmp), q, args.jobs) for q in args.quality or ["high"]}
            print(json.dumps(results, indent=2))
        return
    if args.publish:
        with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
            results = {}
            for q in args.quality or list(MANIM_Q):
                results[q] = publish_benchmark(Path(tmp), q, args.jobs)
                print(f"{q}: " + json.dumps(results[q]), flush=True)
            print(json.dumps(results, indent=2))
        return
    if args.holds:
        for q in args.quality or ["high"]:
            with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
                print(json.dumps(holds_benchmark(Path(tmp), q, args.holds, args.repeats), indent=2))
        return
    args.quality = args.quality or (["low"] if args.batch else ["low", "medium"])
    results = {}
    with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
        work = Path(tmp)
        if args.rerun:
            results = rerun_benchmark(work)
            print(json.dumps(results, indent=2))
            return
        if args.batch:
            for q in args.quality:
                results[q] = batch_benchmark(work, q, args.jobs)
                print(f"{q}: " + json.dumps(results[q], ensure_ascii=False), flush=True)
            print(json.dumps(results, indent=2, ensure_ascii=False))
            return
        if args.voice:
            for q in args.quality:
                silent = lesson_time(work, q, args.jobs)
                voiced = lesson_time(work, q, args.jobs, "--voice", "draft")
                results[q] = {"lesson_silent_s": round(silent, 1), "lesson_draft_voice_s": round(voiced, 1),
                              "voice_ratio": round(voiced / silent, 2)}
                print(f"{q}: " + json.dumps(results[q]), flush=True)
            print(json.dumps(results, indent=2))
            return
        lesson = work / "lesson.toml"
        for q in args.quality:
            shutil.copy(resolve("default"), lesson)
            shutil.rmtree(work / "media", ignore_errors=True)  # the CLI's worker caches
            t_naive = naive(work, q)
            t_cold, _ = cli(work, q, lesson, args.jobs)
            t_noop, _ = cli(work, q, lesson, args.jobs)
            text = lesson.read_text(encoding="utf-8")
            assert SAVINGS_LINE in text
            lesson.write_text(text.replace(SAVINGS_LINE, "savings = [0.0, 1.1, 0.0, 0.0]"),
                              encoding="utf-8")
            t_edit, out = cli(work, q, lesson, args.jobs)
            rendered = [line for line in out.splitlines() if line.endswith(".mp4")]
            results[q] = {
                "scenes": len(available()), "naive_s": round(t_naive, 1), "cold_s": round(t_cold, 1),
                "cold_ratio": round(t_cold / t_naive, 2), "noop_s": round(t_noop, 2),
                "noop_ratio_to_cold": round(t_noop / t_cold, 3), "savings_edit_s": round(t_edit, 1),
                "savings_edit_rerendered": sorted(Path(p).stem for p in rendered),
            }
            print(f"{q}: " + json.dumps(results[q], ensure_ascii=False), flush=True)
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
