"""Join rendered scenes into one lesson video, with chapters and one subtitle file.

mp4, webm and mov are joined with ffmpeg's concat demuxer without re-encoding (every clip has the same
codec and parameters) and get a chapter per scene in the container; gif is re-encoded through one
palette. Beside the video: lesson.chapters.vtt (WebVTT chapters) and lesson.srt.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import timedelta
from pathlib import Path

import srt

from . import ffmpeg
from .voice.loudness import RATE
from .voice.track import audio_codec, has_audio


def _ts(seconds: float) -> str:
    ms = round(seconds * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def chapters_vtt(chapters: list[tuple[str, float, float]]) -> str:
    lines = ["WEBVTT", ""]
    for n, (title, start, end) in enumerate(chapters, start=1):
        lines += [str(n), f"{_ts(start)} --> {_ts(end)}", title, ""]
    return "\n".join(lines)


def ffmetadata(chapters: list[tuple[str, float, float]], title: str) -> str:
    esc = lambda s: "".join("\\" + c if c in "=;#\\\n" else c for c in s)  # noqa: E731
    lines = [";FFMETADATA1", f"title={esc(title)}"]
    for t, start, end in chapters:
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={round(start * 1000)}",
                  f"END={round(end * 1000)}", f"title={esc(t)}"]
    return "\n".join(lines) + "\n"


def merged_srt(parts: list[tuple[Path, float]]) -> str:
    """Every scene's subtitles, shifted by the scene's start in the lesson."""
    subs = []
    for path, offset in parts:
        if not path.exists():
            continue
        for s in srt.parse(path.read_text(encoding="utf-8")):
            subs.append(srt.Subtitle(len(subs) + 1, s.start + timedelta(seconds=offset),
                                     s.end + timedelta(seconds=offset), s.content))
    return srt.compose(subs)


def _sound(clips: list[Path], chapters, file_format: str, quality: str) -> list[str]:
    """ffmpeg arguments for the joined lesson's streams: the pictures copied; the scenes' sound (when
    they have any) decoded, each cut or padded to exactly its picture's length in samples and joined
    into one continuous track, so that it cannot drift from the picture at any join (copying AAC
    streams end to end adds each one's priming samples)."""
    if not all(has_audio(c) for c in clips):
        return ["-map", "0", "-c", "copy"]
    inputs, graph = [], []
    for k, (clip, (_, start, end)) in enumerate(zip(clips, chapters)):
        inputs += ["-i", str(clip)]
        n = round(end * RATE) - round(start * RATE)  # whole samples, counted from the lesson's start
        graph.append(f"[{k + 2}:a]aresample={RATE},atrim=end_sample={n},apad=whole_len={n}[a{k}]")
    graph.append("".join(f"[a{k}]" for k in range(len(clips))) + f"concat=n={len(clips)}:v=0:a=1[a]")
    return [*inputs, "-filter_complex", ";".join(graph), "-map", "0:v", "-map", "[a]", "-c:v", "copy",
            *audio_codec(file_format, quality), "-ar", str(RATE)]


def join(out_dir: Path, ids: list[str], file_format: str, quality: str, title: str, fps: int) -> list[str]:
    """Write lesson.<format>, lesson.chapters.vtt and lesson.srt into out_dir; return their names."""
    clips = [out_dir / f"{i}.{file_format}" for i in ids]
    titles = []
    for i in ids:
        steps = out_dir / f"{i}.steps.json"
        titles.append(json.loads(steps.read_text(encoding="utf-8"))["title"] if steps.exists() else i)
    chapters, t = [], 0.0
    for clip, name in zip(clips, titles):
        d = ffmpeg.video_duration(clip) if file_format != "gif" else ffmpeg.duration(clip)
        chapters.append((name, t, t + d))
        t += d
    with tempfile.TemporaryDirectory(prefix=".tmp-lesson-", dir=out_dir) as tmp:
        tmp = Path(tmp)
        listing = tmp / "clips.txt"
        listing.write_text("".join(f"file '{c.resolve()}'\n" for c in clips), encoding="utf-8")
        video = tmp / f"lesson.{file_format}"
        if file_format == "gif":  # GIF clips cannot be concatenated as they are: through H.264 once
            joined = tmp / "joined.mp4"
            ffmpeg.run("-f", "concat", "-safe", "0", "-i", str(listing),
                       *ffmpeg.x264_args("yuv444p"), str(joined))
            ffmpeg.to_gif(joined, video, fps)
        else:
            meta = tmp / "chapters.txt"
            meta.write_text(ffmetadata(chapters, title), encoding="utf-8")
            ffmpeg.run("-f", "concat", "-safe", "0", "-i", str(listing), "-i", str(meta),
                       *_sound(clips, chapters, file_format, quality), "-map_metadata", "1",
                       "-map_chapters", "1", str(video))
        vtt = tmp / "lesson.chapters.vtt"
        vtt.write_text(chapters_vtt(chapters), encoding="utf-8")
        subs = tmp / "lesson.srt"
        subs.write_text(merged_srt([(out_dir / f"{i}.srt", c[1]) for i, c in zip(ids, chapters)]),
                        encoding="utf-8")
        names = [video.name, vtt.name, subs.name]
        for n in names:
            os.replace(tmp / n, out_dir / n)
    return names
