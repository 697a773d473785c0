"""The whole lesson voiced by the neural voice against its own length (issue: a voiced lesson in half its
length on 2 cores): the lesson silent and voiced from nothing side by side in one run, the speech's
seconds, the cores' use; then a warm re-run after one changed line, counting the lines synthesised."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from attention_core.lesson import resolve

from . import BIN
from .runs import used


def _lesson(work: Path, lang: str, story: str) -> Path:
    """The default lesson with another story line (a narration line the overview says) in `lang`."""
    path = work / "lesson.toml"
    lines = resolve(None).read_text(encoding="utf-8").splitlines()
    at = lines.index(f"[narration.{lang}]") + 1
    assert lines[at].startswith("story = "), lines[at]
    lines[at] = f'story = "{story}"'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lesson_run(work: Path, lesson: Path, lang: str, jobs: int, *extra: str) -> dict:
    """`lesson` at 480p15 into work/out-<voice>: wall and CPU seconds, the cores' use."""
    out = work / f"out{'-'.join(('', *extra))}".replace("/", "_").replace(":", "_")
    wall, cpu = used([str(BIN / "attention-lesson"), "lesson", "--lesson", str(lesson), "--lang", lang,
                      "--quality", "low", "--out", str(out), "-j", str(jobs), "-q", *extra], cwd=work)
    return {"s": round(wall, 1), "cpu_s": round(cpu, 1), "cores_busy": round(cpu / wall / jobs, 2),
            "out": out}


def _speech(out: Path) -> float:
    """Seconds of speech in a voiced render: the cached voices of its lines, added up."""
    from attention_lesson.pipeline.voice.track import seconds

    return sum(seconds(w) for w in (out / ".cache" / "voice").glob("*.wav"))


def _length(video: Path) -> float:
    r = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json",
                        str(video)], capture_output=True, text=True, check=True)
    return float(json.loads(r.stdout)["format"]["duration"])


def voiced_benchmark(work: Path, lang: str, jobs: int) -> dict:
    """Silent, then neural from nothing, then neural again after the story line changed."""
    lesson = _lesson(work, lang, "A first story line." if lang == "en" else "第一个故事。")
    silent = _lesson_run(work, lesson, lang, jobs)
    voiced = _lesson_run(work, lesson, lang, jobs, "--voice", "neural")
    out = voiced.pop("out")
    silent.pop("out")
    speech, length = _speech(out), _length(out / "lesson.mp4")
    made = {w.name for w in (out / ".cache" / "voice").glob("*.wav")}
    _lesson(work, lang, "A second story line." if lang == "en" else "第二个故事。")
    warm = _lesson_run(work, lesson, lang, jobs, "--voice", "neural")
    warm.pop("out")
    again = {w.name for w in (out / ".cache" / "voice").glob("*.wav")} - made
    shutil.rmtree(work / "media", ignore_errors=True)
    return {"lang": lang, "jobs": jobs, "silent": silent, "voiced": voiced,
            "speech_s": round(speech, 1), "lesson_s": round(length, 1), "lines": len(made),
            "voiced_over_speech": round(voiced["s"] / speech, 2),
            "voiced_over_lesson": round(voiced["s"] / length, 2),
            "warm_one_line": warm, "warm_lines_synthesised": len(again)}
