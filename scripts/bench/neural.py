"""The neural voice: Piper's synthesis rate in one process and in several, and the English lesson
narrated by it against the draft voice."""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path

from . import BIN
from .runs import lesson_time


def _english_lines() -> list[str]:
    out = subprocess.run([BIN / "attention-lesson", "voice", "script", "--lang", "en", "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    import csv
    import io

    return [row["line"] for row in csv.DictReader(io.StringIO(out))]


def _synthesise(lines: list[str]) -> tuple[float, float]:
    """(seconds of speech, seconds spent) of Piper saying these lines, in this process."""
    import wave

    from attention_lesson.pipeline.voice.speakers import speaker_for
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
    results = {"lines": len(lines), "speech_s": round(spoken, 1),
               "one_process_speech_per_s": round(spoken / spent, 1),
               f"{jobs}_processes_speech_per_s": round(sum(p[0] for p in parts) / wall, 1)}
    for voice in ("draft", "neural"):
        results[f"lesson_en_{voice}_s"] = round(
            lesson_time(work, "low", jobs, "--lang", "en", "--voice", voice), 1)
    results["neural_over_draft"] = round(results["lesson_en_neural_s"] / results["lesson_en_draft_s"], 2)
    return results
