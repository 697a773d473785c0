"""Re-runs with nothing changed, publishing (the lesson silent and voiced, four scenes in pieces and
whole), render --all after an edit of W_Q, and held frames converted once against manim's way."""

from __future__ import annotations

import os
import shutil
import statistics
import sys
from pathlib import Path

from attention_core.lesson import resolve

from . import BIN, ROOT
from .runs import naive, render_all, timed

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



def publish_benchmark(work: Path, quality: str, jobs: int) -> dict:
    """The naive way, the lesson silent and voiced, four scenes, one scene in pieces and whole: side by
    side."""
    whole_env = {**os.environ, "ATTENTION_LESSON_PIECES": "1"}
    r = {"naive_s": round(naive(work, quality), 1),
         "silent": render_all(work, quality, jobs, []),
         "voiced": render_all(work, quality, jobs, [], "--voice", "draft"),
         "naive_four_s": round(naive(work, quality, FOUR), 1),
         "four": render_all(work, quality, jobs, FOUR),
         "one_in_pieces": render_all(work, quality, jobs, ["matrix"]),
         "one_whole": render_all(work, quality, jobs, ["matrix"], env=whole_env)}
    r["silent_ratio_to_naive"] = round(r["silent"]["s"] / r["naive_s"], 3)
    r["voiced_ratio_to_silent"] = round(r["voiced"]["s"] / r["silent"]["s"], 3)
    r["four_ratio_to_naive"] = round(r["four"]["s"] / r["naive_four_s"], 3)
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
    return {"cold": cold, "after_w_edit": render_all(work, quality, jobs, [], "--lesson", str(lesson),
                                                     fresh=False)}


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
