#!/usr/bin/env python3
"""Where a render's time goes, per drawn frame and per held frame (a dev tool, not a test).

    .venv/bin/python scripts/profile_frames.py softmax [--quality high] [--voice draft] [--top 25]

Renders one scene in this process with `pipeline.drawing.worker.render` (no worker process, so cProfile sees
the scene), with cProfile on the drawing thread and the encoder thread's writes timed apart: each
frame's RGBA -> stream format conversion and its encode, for drawn frames (repeat 1) and held frames
(repeat > 1).

By default the pipeline's own write path runs (`pipeline.drawing.manim_speedups.held_frames`, a hold
converted once), timed per write. With --split, manim's path (a conversion per frame) runs with the
conversion done explicitly (as the encoder would do it inside `encode`), so conversion and x264 are
timed apart.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import load  # noqa: E402
from attention_lesson.pipeline.plan import RenderOptions, plan  # noqa: E402
from scenes.registry import available  # noqa: E402

TIMES: dict[str, float] = defaultdict(float)
COUNTS: dict[str, int] = defaultdict(int)


def timed_write_frame(self, pixels, *, repeat=1):
    """manim's write_frame, with the conversion and the encode timed apart."""
    import av

    kind = "drawn" if repeat == 1 else "held"
    COUNTS[kind] += repeat
    COUNTS[f"{kind} writes"] += 1
    rate = self.spec.frame_rate
    for _ in range(repeat):
        t0 = time.perf_counter()
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
        t1 = time.perf_counter()
        frame = frame.reformat(format=self._stream.pix_fmt)
        t2 = time.perf_counter()
        frame.pts, frame.time_base = self._next_pts, 1 / rate
        self._next_pts += 1
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        t3 = time.perf_counter()
        TIMES[f"{kind} from_ndarray"] += t1 - t0
        TIMES[f"{kind} convert"] += t2 - t1
        TIMES[f"{kind} encode"] += t3 - t2


def timed(write):
    """A write_frame timed per call, its time spread over the frames it wrote."""
    def write_frame(self, pixels, *, repeat=1):
        kind = "drawn" if repeat == 1 else "held"
        t0 = time.perf_counter()
        write(self, pixels, repeat=repeat)
        TIMES[f"{kind} write"] += time.perf_counter() - t0
        COUNTS[kind] += repeat
        COUNTS[f"{kind} writes"] += 1
    return write_frame


def job_of(scene_id: str, quality: str, voice: str | None, out: Path, fmt: str = "mp4"):
    lesson = load()
    scene = next(s for s in available() if s.id == scene_id)
    options = RenderOptions(lesson=str(Path(lesson.source).resolve()), context=lesson.context_name(None),
                            quality=quality, voice=voice, format=fmt)
    todo, _ = plan(lesson, [scene], options, out, force=True)
    return todo[0]


def report(profile: cProfile.Profile, seconds: float, top: int) -> None:
    print(f"\nwall {seconds:.1f} s")
    for kind in ("drawn", "held"):
        n = COUNTS[kind]
        if n:
            parts = ", ".join(f"{k.split()[1]} {TIMES[k] / n * 1000:.2f} ms"
                              for k in TIMES if k.startswith(kind))
            print(f"{kind}: {n} frames in {COUNTS[f'{kind} writes']} writes; per frame: {parts}")
    stats = pstats.Stats(profile).sort_stats("cumulative")
    stats.print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scene")
    ap.add_argument("--quality", default="high")
    ap.add_argument("--voice", default=None)
    ap.add_argument("--format", default="mp4")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--split", action="store_true", help="manim's path, conversion and x264 apart")
    a = ap.parse_args()
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    from attention_lesson.pipeline.drawing import worker
    from attention_lesson.pipeline.drawing.manim_speedups import held_frames

    held_frames.install()
    VideoSegmentEncoder.write_frame = timed_write_frame if a.split else timed(held_frames.write_frame)
    with tempfile.TemporaryDirectory() as tmp:
        job = job_of(a.scene, a.quality, a.voice, Path(tmp) / "out", a.format)
        profile = cProfile.Profile()
        start = time.perf_counter()
        profile.enable()
        result = worker.render(job, Path(tmp) / "media", quiet=True)
        profile.disable()
        assert result.ok, result.error
        report(profile, time.perf_counter() - start, a.top)


if __name__ == "__main__":
    main()
