"""One step as a video, fast: what Play shows when the scene is not drawn as a video yet.

A whole scene at the studio's quality takes 3-30 s to draw; a press on Play should move within a
second or two. So the step on screen is drawn alone, as a piece of its scene (pipeline/drawing/pieces.py:
the animations before it jump to their end without drawing, the scene ends where the next step
begins) by a warm worker, and its segments (one per animation, the ones a whole render writes) are
joined without re-encoding into `steps/<scene>-<nn>-<digest>.mp4`, a name that changes with the
scene's inputs, so a file that exists is up to date.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from ..pipeline import ffmpeg
from ..pipeline.plan import Job, Piece


def step_clip(out_dir: Path, job: Job, n: int) -> Path:
    """Where step n (from 1) of a video job's scene is kept as a clip of its own."""
    return out_dir / "steps" / f"{job.id}-{n:02d}-{job.digest[:16]}.mp4"


def step_job(job: Job, n: int, folder: Path) -> Job:
    """The job that draws only step n (from 1) of `job`'s scene, its segments into `folder`."""
    return replace(job, piece=Piece(folder, (n - 1, n)))


def pieces_folder(out_dir: Path) -> Path:
    (out_dir / "steps").mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".piece-", dir=out_dir / "steps"))


def join_segments(folder: Path, dst: Path) -> bool:
    """The step's segments, in animation order, as one file at dst (copied, not re-encoded); the
    folder removed. False when the piece left no segment (a step with no animation)."""
    try:
        segments = sorted(folder.glob("uncached_*"))
        if not segments:
            return False
        listing = folder / "segments.txt"
        listing.write_text("".join(f"file '{s.resolve()}'\n" for s in segments), encoding="utf-8")
        part = dst.with_name(f".{dst.name}")
        ffmpeg.run("-f", "concat", "-safe", "0", "-i", str(listing), "-c", "copy",
                   "-movflags", "+faststart", str(part))
        part.replace(dst)
        prune(dst)
        return True
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def prune(dst: Path) -> None:
    """The step's clips of older inputs removed: each edit draws the step on screen ahead (drawing.py), and
    a long session would leave a clip per edit."""
    scene_step = dst.name.rsplit("-", 1)[0]  # <scene>-<nn>
    for old in dst.parent.glob(f"{scene_step}-*.mp4"):
        if old != dst and len(old.stem) == len(dst.stem):
            old.unlink(missing_ok=True)


def discard(folder: Path) -> bool:
    """A piece's folder that will not be joined, removed; False (no clip)."""
    shutil.rmtree(folder, ignore_errors=True)
    return False
