"""Everything the pipeline asks of ffmpeg and x264, in one place: encoder settings, GIF palettes,
ProRes tags, durations."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# x264 for every H.264 the pipeline writes (manim's movies and the joins' intermediates). veryfast was
# measured at ~0.77x the time of the default preset at 720p, with smaller files.
# threads=1: the same frames always give the same bits, in any process on any machine. With PyAV's
# default (as many slice threads as cores) the slices and the lookahead's split depend on the core
# count, and the threaded lookahead reads memory left uninitialised, so its decisions (and the pixels,
# by up to 2 levels) depend on what the process's heap held before: a Dask worker and `render` differed
# on the same frames. Measured: with threads=1 the output no longer changes with MALLOC_PERTURB_.
X264_OPTIONS = {"preset": "veryfast", "crf": "20", "threads": "1"}


def x264_args(pix_fmt: str = "yuv420p") -> list[str]:
    """The same settings as ffmpeg command-line arguments."""
    return ["-c:v", "libx264", "-preset", X264_OPTIONS["preset"], "-crf", X264_OPTIONS["crf"],
            "-threads", X264_OPTIONS["threads"], "-pix_fmt", pix_fmt]


def run(*args: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def to_gif(src: Path, dst: Path, fps: int) -> None:
    """A video -> GIF through a palette made for this clip (clean edges, no dithering noise)."""
    graph = (f"fps={fps},split[a][b];[a]palettegen=stats_mode=diff[p];"
             "[b][p]paletteuse=dither=sierra2_4a")
    run("-i", str(src), "-filter_complex", graph, "-loop", "0", str(dst))


def remux(path: Path, *, title: str | None = None, prores_4444: bool = False) -> None:
    """Re-mux in place (no re-encode): set the container's title; with prores_4444, tag the video
    ap4h. manim joins its segments with PyAV's add_stream_from_template, which writes the ProRes HQ tag
    (apch) over 4444 frames, and editors then ignore the alpha."""
    fixed = path.with_name(f"{path.stem}.remux{path.suffix}")
    args = ["-i", str(path), "-map", "0", "-c", "copy"]
    if title is not None:
        args += ["-metadata", f"title={title}"]
    if prores_4444:
        args += ["-tag:v", "ap4h"]
    run(*args, str(fixed))
    os.replace(fixed, path)


def video_duration(path: Path) -> float:
    """The picture's length (a file's duration is its longest stream's)."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=duration", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                          "csv=p=0", str(path)], capture_output=True, text=True, check=True).stdout
    return float(out.strip())
