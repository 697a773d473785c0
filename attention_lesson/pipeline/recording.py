"""The recording workflow: which steps a teacher records, how long each already lasts, how long the
draft voice takes to say it, and what speaks each step now (recorded, stale, draft, missing).

The steps come from the scenes' `steps` jobs (pipeline/plan.py): each scene built in a worker process
in manim's dry-run mode (nothing drawn or encoded), its steps recorded as steps/<id>.json and kept in
the manifest under media/.cache/steps/, so a second `voice script` builds nothing and never imports
manim.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

from scenes.common.speech import speakable

from . import manifest
from .plan import CACHE, RenderOptions, espeak_version, step_name

RECORDED = "recorded.json"  # in DIR/<lang>/: each recording (by content hash) -> the line it was read from
QUIET_LUFS = -35.0  # a recording quieter than this is flagged: normalising it raises its noise too
CLIP_DBTP = -0.1  # a peak this high is flagged as clipped


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


def steps_folder(options: RenderOptions) -> Path:
    """Where the scenes' steps are kept: a cache beside the workers' manim folders."""
    return CACHE / "steps" / options.folder_name()


def script_lines(report, lang: str) -> list[Line]:
    """Every step of a build's `steps` jobs, in scene order."""
    out = []
    for job in report.jobs:
        data = json.loads((report.out_dir / job.main_file()).read_text(encoding="utf-8"))
        for n, s in enumerate(data["steps"], 1):
            out.append(Line(f"{lang}/{job.id}/{step_name(n, s['step'])}.wav", job.id, n, s["step"], s["narration"],
                            s["end"] - s["start"], draft_seconds(s["narration"], lang)))
    return out


def draft_seconds(line: str, lang: str) -> float | None:
    """How long the voice that speaks a step with no recording (the neural voice where the language
    has one, else the draft voice) takes to say a line, before any processing: a guide."""
    from .speakers import DRAFT, speaker_for

    speaker = speaker_for("recordings", lang)  # what a recordings folder falls back to
    if speaker.kind == DRAFT and espeak_version() is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "guide.wav"
        speaker.say(speakable(line, lang), wav)
        with wave.open(str(wav)) as w:
            return w.getnframes() / w.getframerate()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def step_status(folder: Path, x: Line, seen: dict) -> dict:
    """One step: recorded / stale (its line changed since it was recorded) / neural or draft (no
    recording: that voice speaks it) / missing (no recording and no espeak-ng), which engine speaks it,
    and the recording's measures."""
    from .voice import audio_seconds, measure, recording

    from .speakers import DRAFT, speaker_for

    lang = x.file.split("/")[0]
    rec = recording(folder, lang, x.scene, x.n, x.step)
    row = {"file": x.file, "scene": x.scene, "step": x.step, "line": x.line}
    if rec is None:
        speaker = speaker_for(str(folder), lang)
        if speaker.kind == DRAFT:
            return row | {"state": "draft" if espeak_version() else "missing", "engine": speaker.label}
        return row | {"state": "neural", "engine": speaker.label}
    key, line = _sha(rec.read_bytes()), _sha(x.line.encode())
    seen.setdefault(key, line)  # first seen now: recorded from the line as it is
    lufs, peak = measure(rec)
    flags = (["clipped"] if peak >= CLIP_DBTP else []) + (["too quiet"] if lufs < QUIET_LUFS else [])
    return row | {"file": str(rec.relative_to(folder)), "state": "recorded" if seen[key] == line else "stale",
                  "engine": "recording",
                  "seconds": round(audio_seconds(rec) or 0.0, 2), "lufs": lufs, "peak_dbtp": peak,
                  "flags": flags}


def status(folder: Path, lines: list[Line], lang: str) -> list[dict]:
    """Every step's status; the line each recording was first seen with is kept in
    DIR/<lang>/recorded.json (so a line changed later shows the recording as stale)."""
    seen_path = folder / lang / RECORDED
    seen = json.loads(seen_path.read_text(encoding="utf-8")) if seen_path.exists() else {}
    rows = [step_status(folder, x, seen) for x in lines]
    manifest.write_atomically(seen_path, json.dumps(seen, indent=1, sort_keys=True))
    return rows
