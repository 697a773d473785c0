"""The lines to record: every step a teacher records, how long it already lasts and how long the voice
that speaks it without a recording takes to say it (a guide).

The steps come from the scenes' `steps` jobs (pipeline/plan.py): each scene built in a worker process
in manim's dry-run mode (nothing drawn or encoded), its steps recorded as steps/<id>.json and kept in
the manifest under media/.cache/steps/ (`plan.steps_folder`), so a second `voice script` builds nothing
and never imports manim.
"""

from __future__ import annotations

import json
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

from scenes.common.speech import speakable
from scenes.registry import step_name

from .speakers import DRAFT, espeak_version, speaker_for


@dataclass(frozen=True)
class Line:
    """One step to record."""

    file: str  # <lang>/<scene>/<nn>-<step>.wav, relative to the recordings folder
    scene: str
    n: int  # the step's number within its scene, from 1
    step: str
    line: str  # the narration, exactly as the subtitles show it
    seconds: float  # the step's length without a voice (its animations, or its reading time)
    draft: float | None = None  # how long the draft voice takes to say it (a guide), if espeak-ng is here


def script_lines(report, lang: str) -> list[Line]:
    """Every step of a build's `steps` jobs, in scene order."""
    out = []
    for job in report.jobs:
        data = json.loads((report.out_dir / job.main_file()).read_text(encoding="utf-8"))
        for n, s in enumerate(data["steps"], 1):
            out.append(Line(f"{lang}/{job.id}/{step_name(n, s['step'])}.wav", job.id, n, s["step"],
                            s["narration"], s["end"] - s["start"], draft_seconds(s["narration"], lang)))
    return out


def draft_seconds(line: str, lang: str) -> float | None:
    """How long the voice that speaks a step with no recording (the neural voice where the language
    has one, else the draft voice) takes to say a line, before any processing: a guide."""
    speaker = speaker_for("recordings", lang)  # what a recordings folder falls back to
    if speaker.kind == DRAFT and espeak_version() is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "guide.wav"
        speaker.say(speakable(line, lang), wav)
        with wave.open(str(wav)) as w:
            return w.getnframes() / w.getframerate()
