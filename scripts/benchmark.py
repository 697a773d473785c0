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
   and with the draft voice, with held frames converted once
   (`pipeline/drawing/manim_speedups/held_frames.py`) against manim's conversion of every frame
   (`ATTENTION_LESSON_HOLDS=manim`), the two side by side, --repeats times (alternating which goes
   first); the median and the fastest of each (docs/performance.md).
8. with --publish: for each quality (default low, medium, high), from fresh output and cache folders:
   the naive way; `render --all -j N` silent and narrated by the draft voice (`--voice draft`); and
   four scenes (scores, softmax, mixing, matrix) silent, in pieces (pipeline/drawing/pieces.py) and whole
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
   the savings context uses, and an entry of W_Q (every scene), each to the frame of the step on screen
   (the third of scores, after its first two; the savings edit: the first of contexts) drawn,
   its first scene done and its last, three times each (median). The keystroke's time is measured in
   the page: from the editor's change to the animation frame after the new numbers are in the page.
   Then, in the page on the third step of scores, an edit of W_Q and Play clicked 0.3 s later: seconds
   from the edit to the step's clip playing (median of three; scripts/bench/play.py).
12. with --studio-memory [N]: `attention-lesson studio` of the default lesson (2 warm workers): the
   resident memory of its processes after the first drawing, then every 100 of N edits of W_Q (default
   1,000) made through its API one every 0.4 s, and once the last edit's frames are drawn (a teacher's
   afternoon; the guide's studio page, docs/teach/en/studio.md).
13. with --neural: Piper with the bundled English voice: every English line of the default lesson
   synthesised in one process and in --jobs processes at once (seconds of speech per second of wall
   time, the model's load excluded); then `lesson --lang en` with `--voice neural` against
   `--voice draft`, each from fresh output and cache folders.
14. with --voices [LANG...]: every voice of every language (default zh en ja) heard by the ear (Whisper
   base, offline): each line of the whole lesson's narration in the language, spoken by the neural
   voice and by the draft voice as a render gives it them, levelled, transcribed; the error rate (CER
   for zh and ja, WER for en), apart for the Chinese lines with English words, and the synthesis's
   real-time factor (docs/voices.md); --every N: one line in N.
15. with --noop DIR [--against CHECKOUT...]: `lesson`, `slides` and `handout` re-run with nothing to do
   in DIR (each first run once, which renders what is missing: reuse the folder), by this checkout and
   each other one named, interleaved, --repeats times (default 10): the best wall time, the median CPU
   time, the modules imported (`-X importtime`), and whether DIR's media/ was left untouched.
16. with --voiced [LANG]: the whole lesson (default zh) at 480p15 from nothing, silent and narrated by the
   neural voice, side by side in one run: wall and CPU seconds, the cores' use, the seconds of speech
   and the lesson's length, the voiced time over each; then a warm re-run after the lesson's story line
   changed: its time and how many lines were synthesised again (one).
Prints each figure and its ratio to the naive way. Not a test: the numbers go in the guide
(docs/develop/speed.md). The timings themselves are in scripts/bench/; this file reads the options and
prints.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from bench.batch import batch_benchmark  # the first import of bench: this checkout first on sys.path
from bench.memory import studio_memory_benchmark
from bench.neural import neural_benchmark
from bench.noop import noop_benchmark
from bench.pages import explorer_benchmark, studio_benchmark
from bench.plan import plan_benchmark
from bench.real import real_benchmark
from bench.reruns import holds_benchmark, publish_benchmark, rerun_benchmark, w_edit_benchmark
from bench.runs import MANIM_Q, naive_benchmark, voice_benchmark
from bench.voiced import voiced_benchmark
from bench.voices import voices_benchmark


def parse_args() -> argparse.Namespace:
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
    ap.add_argument("--repeats", type=int, default=None,
                    help="With --holds: runs of each (default 2); with --noop: re-runs (default 10).")
    ap.add_argument("--publish", action="store_true",
                    help="Only time the lesson silent and voiced and four scenes in pieces and whole, "
                         "against the naive way, with the core utilisation (default: every quality).")
    ap.add_argument("--w-edit", action="store_true",
                    help="Only time render --all from nothing and again after an edit of W_Q.")
    ap.add_argument("--explorer", action="store_true",
                    help="Only time edits in the explorer page (chromium): script and time to the "
                         "next frame.")
    ap.add_argument("--studio", action="store_true",
                    help="Only time the studio: keystroke to numbers, edit to first and last redrawn frame.")
    ap.add_argument("--studio-memory", type=int, nargs="?", const=1000, metavar="EDITS",
                    help="Only measure the studio's memory over EDITS edits of W_Q (default 1000).")
    ap.add_argument("--neural", action="store_true",
                    help="Only time the neural voice: synthesis rate, the English lesson neural "
                         "against draft.")
    ap.add_argument("--voices", nargs="*", metavar="LANG", choices=["zh", "en", "ja"],
                    help="Only hear every voice of these languages (default: all) with the ear: error "
                         "rates and real-time factors.")
    ap.add_argument("--voiced", nargs="?", const="zh", choices=["zh", "en", "ja"], metavar="LANG",
                    help="Only time the whole lesson voiced by the neural voice against silent and against "
                         "its speech's length, then a warm re-run with one changed line (default: zh).")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="With --voices: one line in N of the lesson (default: every line).")
    ap.add_argument("--plan", type=int, nargs="?", const=278, metavar="LESSONS",
                    help="Only time a batch plan's dry run (summary, then --list) over LESSONS lesson files "
                         "x 36 variants (default 278: 10,008 variants).")
    ap.add_argument("--real", action="store_true",
                    help="Only time the real models (the [real] extra): import, load, a sentence each.")
    ap.add_argument("--noop", type=Path, metavar="DIR",
                    help="Only time lesson, slides and handout re-run with nothing to do in DIR.")
    ap.add_argument("--against", type=Path, nargs="+", default=[], metavar="CHECKOUT",
                    help="With --noop: other checkouts to time side by side with this one.")
    return ap.parse_args()


def fresh(run) -> None:
    """run(work) in a fresh temporary folder, its figures printed as JSON."""
    with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
        print(json.dumps(run(Path(tmp)), indent=2))


def each_quality(qualities: list[str], run, **dump) -> dict:
    """run(quality) for each quality, each one's figures printed as they come."""
    results = {}
    for q in qualities:
        results[q] = run(q)
        print(f"{q}: " + json.dumps(results[q], **dump), flush=True)
    return results


def run_alone(args: argparse.Namespace) -> bool:
    """The benchmarks that take a folder of their own (--neural ... --holds): True if one was asked for."""
    if args.noop:
        args.noop.mkdir(parents=True, exist_ok=True)
        checkouts = [c.resolve() for c in args.against] + [Path(__file__).resolve().parent.parent]
        print(json.dumps(noop_benchmark(args.noop.resolve(), checkouts, args.repeats or 10), indent=2))
    elif args.real:
        print(json.dumps(real_benchmark(args.repeats or 3), indent=2))
    elif args.plan:
        fresh(lambda work: plan_benchmark(work, args.plan, args.repeats or 2))
    elif args.voiced:
        fresh(lambda work: voiced_benchmark(work, args.voiced, args.jobs))
    elif args.voices is not None:
        fresh(lambda work: voices_benchmark(work, args.voices or ["zh", "en", "ja"], args.every))
    elif args.neural:
        fresh(lambda work: neural_benchmark(work, args.jobs))
    elif args.studio_memory:
        fresh(lambda work: studio_memory_benchmark(work, args.studio_memory))
    elif args.studio:
        fresh(studio_benchmark)
    elif args.explorer:
        fresh(explorer_benchmark)
    elif args.w_edit:
        fresh(lambda work: {q: w_edit_benchmark(work, q, args.jobs) for q in args.quality or ["high"]})
    elif args.publish:
        fresh(lambda work: each_quality(args.quality or list(MANIM_Q),
                                        lambda q: publish_benchmark(work, q, args.jobs)))
    elif args.holds:
        for q in args.quality or ["high"]:
            fresh(lambda work: holds_benchmark(work, q, args.holds, args.repeats or 2))
    else:
        return False
    return True


def main() -> None:
    args = parse_args()
    if run_alone(args):
        return
    qualities = args.quality or (["low"] if args.batch else ["low", "medium"])
    with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
        work = Path(tmp)
        if args.rerun:
            print(json.dumps(rerun_benchmark(work), indent=2))
        elif args.batch:
            results = each_quality(qualities, lambda q: batch_benchmark(work, q, args.jobs),
                                   ensure_ascii=False)
            print(json.dumps(results, indent=2, ensure_ascii=False))
        elif args.voice:
            results = each_quality(qualities, lambda q: voice_benchmark(work, q, args.jobs))
            print(json.dumps(results, indent=2))
        else:
            results = each_quality(qualities, lambda q: naive_benchmark(work, q, args.jobs),
                                   ensure_ascii=False)
            print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
