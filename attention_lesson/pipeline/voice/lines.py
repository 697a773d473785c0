"""The lines to record: every step a teacher records, how long it already lasts and how long the voice
that speaks it without a recording takes to say it (a guide, made and cached as a render makes it).

The steps come from the scenes' `steps` jobs (pipeline/plan.py): each scene built in a worker process
in manim's dry-run mode (nothing drawn or encoded), its steps recorded as steps/<id>.json and kept in
the manifest under media/.cache/steps/ (`plan.steps_folder`), so a second `voice script` builds nothing
and never imports manim.
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import dataclass, replace

from scenes.registry import step_name


@dataclass(frozen=True)
class Line:
    """One step to record."""

    file: str  # <lang>/<scene>/<nn>-<step>.wav, relative to the recordings folder
    scene: str
    n: int  # the step's number within its scene, from 1
    step: str
    line: str  # the narration, exactly as the subtitles show it
    seconds: float  # the step's length without a voice (its animations, or its reading time)
    draft: float | None = None  # how long its voice lasts when no recording speaks it (a guide), if any
    guide: str = ""  # which voice that is (Speaker.label), when there is a guide


def script_lines(report, lang: str, voice=None) -> list[Line]:
    """Every step of a build's `steps` jobs, in scene order; with `voice` (track.guide_voice: a render's
    voice hook) how long the step's voice lasts when no recording speaks it."""
    out, pending = [], []
    for job in report.jobs:
        data = json.loads((report.out_dir / job.main_file()).read_text(encoding="utf-8"))
        for n, s in enumerate(data["steps"], 1):
            out.append(Line(f"{lang}/{job.id}/{step_name(n, s['step'])}.wav", job.id, n, s["step"],
                            s["narration"], s["end"] - s["start"]))
            pending.append(voice(job.id, n, s["step"], s["narration"]) if voice else None)
    guide = voice.speaker.label if voice else ""
    return [replace(line, draft=_seconds(said), guide=guide) for line, said in zip(out, pending)]


def _seconds(said: float | Future | None) -> float | None:
    return said.result() if isinstance(said, Future) else said
