"""Everything the pipeline asks of ffmpeg and x264, in one place: encoder settings, GIF palettes,
ProRes tags, durations."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# x264's assembly by name (x264's cpu names) for each CPU feature Linux lists in /proc/cpuinfo
X264_CPU = (("sse", "MMX2"), ("sse", "SSE"), ("sse2", "SSE2"), ("ssse3", "SSE2Fast"), ("pni", "SSE3"),
            ("ssse3", "SSSE3"), ("sse4_1", "SSE4.1"), ("sse4_2", "SSE4.2"), ("abm", "LZCNT"), ("avx", "AVX"),
            ("xop", "XOP"), ("fma4", "FMA4"), ("fma", "FMA3"), ("bmi1", "BMI1"), ("bmi2", "BMI2"),
            ("avx2", "AVX2"), ("clflush", "Cache64"))


def x264_asm(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    """x264's `asm` setting: the instruction sets this CPU has, AVX-512 left out; None where the CPU's
    features are not listed (not Linux on x86: x264 then detects them itself).

    Measured on the 2-core machine this project is built on (a Firecracker VM, AMD EPYC with AVX-512):
    with AVX-512, 16 of 1000 encodes of the same frames came out different while other processes kept
    both cores busy (never on an idle machine); without it, 1000 of 1000 were the same. Whatever loses
    the AVX-512 state under preemption, x264's result must not depend on the machine's load."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    flags = next((set(line.split(":", 1)[1].split()) for line in text.splitlines()
                  if line.startswith("flags")), set())
    if "sse2" not in flags:
        return None
    return ",".join(name for flag, name in X264_CPU if flag in flags)


# x264 for every H.264 the pipeline writes (manim's movies and the joins' intermediates). veryfast was
# measured at ~0.77x the time of the default preset at 720p, with smaller files.
# threads=1: the same frames always give the same bits, in any process on any machine. With PyAV's
# default (as many slice threads as cores) the slices and the lookahead's split depend on the core
# count, and the threaded lookahead reads memory left uninitialised, so its decisions (and the pixels,
# by up to 2 levels) depend on what the process's heap held before: a Dask worker and `render` differed
# on the same frames. Measured: with threads=1 the output no longer changes with MALLOC_PERTURB_.
X264_OPTIONS = {"preset": "veryfast", "crf": "20", "threads": "1"}
# asm: x264's assembly without AVX-512 (x264_asm): the same bits whatever else the machine is doing
X264_OPTIONS.update({"x264-params": f"asm={asm}"} if (asm := x264_asm()) else {})


def x264_args(pix_fmt: str = "yuv420p") -> list[str]:
    """The same settings as ffmpeg command-line arguments."""
    return ["-c:v", "libx264", "-preset", X264_OPTIONS["preset"], "-crf", X264_OPTIONS["crf"],
            "-threads", X264_OPTIONS["threads"],
            *(["-x264-params", X264_OPTIONS["x264-params"]] if "x264-params" in X264_OPTIONS else []),
            "-pix_fmt", pix_fmt]


def run(*args: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def to_gif(src: Path, dst: Path, fps: int) -> None:
    """A video -> GIF through a palette made for this clip (clean edges, no dithering noise)."""
    graph = (f"fps={fps},split[a][b];[a]palettegen=stats_mode=diff[p];"
             "[b][p]paletteuse=dither=sierra2_4a")
    run("-i", str(src), "-filter_complex", graph, "-loop", "0", str(dst))


def remux(path: Path, *, title: str | None = None, prores_4444: bool = False, sound: Path | None = None,
          sound_codec: tuple[str, ...] = ()) -> None:
    """Re-mux in place (the picture never re-encoded): set the container's title; with prores_4444, tag
    the video ap4h (manim joins its segments with PyAV's add_stream_from_template, which writes the
    ProRes HQ tag (apch) over 4444 frames, and editors then ignore the alpha); with sound (a WAV), encode
    it by sound_codec's arguments as the file's only sound, in the same pass (a run of its own cost
    another 50 ms of CPU a file)."""
    fixed = path.with_name(f"{path.stem}.remux{path.suffix}")
    args = ["-i", str(path), "-map", "0", "-c", "copy"]
    if sound is not None:
        args = ["-i", str(path), "-i", str(sound), "-map", "0:v", "-map", "1:a", "-map_metadata", "0",
                "-c:v", "copy", *sound_codec]
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


def seconds(path: Path) -> float:
    """A file's duration (its longest stream's), read in this process by PyAV (an ffprobe run took 40 ms
    of CPU)."""
    import av

    with av.open(str(path)) as container:
        return container.duration / av.time_base


def duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                          "csv=p=0", str(path)], capture_output=True, text=True, check=True).stdout
    return float(out.strip())
