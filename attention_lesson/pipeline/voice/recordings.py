"""The teacher's recordings: where a step's recording is (DIR/<lang>/<scene>/<nn>-<step>.<wav|flac|mp3|
m4a|ogg>, any rate, mono or stereo), what is wrong in a recordings folder, and what speaks each step now
(recorded, stale: its line changed since, neural or draft: no recording, that voice speaks it, missing).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from scenes.registry import step_name

from .. import manifest
from .lines import Line
from .loudness import measure
from .speakers import DRAFT, espeak_version, speaker_for

EXTENSIONS = ("wav", "flac", "mp3", "m4a", "ogg")  # a recording's, in order of preference
RECORDED = "recorded.json"  # in DIR/<lang>/: each recording (by content hash) -> the line it was read from
QUIET_LUFS = -35.0  # a recording quieter than this is flagged: normalising it raises its noise too
CLIP_DBTP = -0.1  # a peak this high is flagged as clipped
_NAME = re.compile(r"(\d\d)-(.+)")


def recording(folder: Path, lang: str, scene_id: str, n: int, step: str) -> Path | None:
    """The teacher's recording of a step, if there is one."""
    for ext in EXTENSIONS:
        p = folder / lang / scene_id / f"{step_name(n, step)}.{ext}"
        if p.is_file():
            return p
    return None


def step_names(scene_id: str, lang: str) -> set[str] | None:
    """The steps a scene may have, from its catalog's narration keys (say.<step>, a variant
    say.<step>_<variant> is the same step); None when the catalog has none (a scene that narrates
    itself)."""
    from scenes.common.i18n import catalog

    prefix = f"{scene_id.replace('-', '_')}.say."
    keys = {k[len(prefix):] for k in catalog(lang).entries if k.startswith(prefix)}
    return {k for k in keys if not any(k.startswith(f"{o}_") for o in keys if o != k)} or None


def audio_seconds(path: Path) -> float | None:
    """How long a file's sound lasts, as ffprobe reads it; None if it has no readable sound."""
    r = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                        "stream=duration:format=duration", "-of", "json", str(path)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    data = json.loads(r.stdout or "{}")
    streams = data.get("streams") or []
    if not streams:
        return None
    value = streams[0].get("duration") or data.get("format", {}).get("duration")
    return float(value) if value not in (None, "N/A") else None


def recording_problems(folder: Path, lang: str, scene_ids: list[str]) -> list[str]:
    """What is wrong in a recordings folder for these scenes, one line per file: a name that is no
    step of its scene (the valid names listed), a format not read, a file with no sound in it."""
    problems = []
    for sid in scene_ids:
        valid = step_names(sid, lang)
        for p in sorted((folder / lang / sid).glob("*")):
            if p.is_dir() or p.name.startswith("."):
                continue
            m = _NAME.fullmatch(p.stem)
            if p.suffix[1:].lower() not in EXTENSIONS:
                if p.suffix.lower() not in (".json", ".md", ".csv", ".txt"):
                    problems.append(f"{p}: not a recording format; expected "
                                    + ", ".join(f".{e}" for e in EXTENSIONS))
                continue
            if m is None or (valid is not None and m.group(2) not in valid):
                problems.append(f"{p}: no step of {sid} is named {p.stem!r}; expected <nn>-<step> "
                                f"with step one of: {', '.join(sorted(valid or []))} "
                                "(see `attention-lesson voice script`)")
                continue
            seconds = audio_seconds(p)
            if not seconds or seconds <= 0.05:
                problems.append(f"{p}: no sound could be read from it (empty or not a {p.suffix[1:]} file)")
    return problems


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def step_status(folder: Path, x: Line, seen: dict) -> dict:
    """One step: recorded / stale (its line changed since it was recorded) / neural or draft (no
    recording: that voice speaks it) / missing (no recording and no espeak-ng), which engine speaks it,
    and the recording's measures."""
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
