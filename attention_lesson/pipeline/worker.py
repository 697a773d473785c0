"""Render one job with manim in this process, then move its files into place atomically.

Everything is first written under a private temporary folder inside the output folder and renamed
into place only when the whole job succeeded: an interrupted or failed render leaves no partial file at
an output path.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from scenes.common.i18n import lesson_title
from scenes.common.settings import Settings

from . import ffmpeg
from .plan import QUALITIES, Job
from .voice import Voice, cut, mux, track

TMP_PREFIX = ".tmp-"  # a job's private folder in the output folder: .tmp-<scene>-<pid>-<random>

# glibc's mallopt parameters, and what this process keeps of freed memory: a frame buffer (up to
# 3840x2160x4 bytes) is allocated and freed every frame, and must be reused from the heap, not mapped
# and unmapped (with every page faulted in again) each time.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's largest on 64 bits
TRIM_THRESHOLD = 64 * 1024 * 1024
_malloc_tuned = False


@dataclass
class Result:
    id: str
    ok: bool
    files: list[str]
    error: str = ""
    seconds: float = 0.0
    drafted: list[str] = field(default_factory=list)  # steps a recordings folder had no file for


def manim_config(job: Job, media_dir: Path, tmp: Path, quiet: bool = False) -> dict:
    """All manim configuration of a job, in one place (tempconfig ignores unknown keys silently)."""
    o = job.options
    video = o.format in ("mp4", "webm", "mov", "gif")
    cfg = {
        "quality": QUALITIES[o.quality][0],
        "frame_rate": o.frame_rate,
        "media_dir": str(media_dir),
        "video_dir": str(tmp),
        "images_dir": str(tmp),
        "sections_dir": str(tmp / "sections"),
        "output_file": job.id,
        "disable_caching": True,  # measured: manim's per-play cache costs more than it saves here
        "verbosity": "ERROR" if quiet else "WARNING",
        "progress_bar": "none",
        "transparent": o.transparent,
        "save_sections": o.sections and video,
        "write_to_movie": video,
        "save_last_frame": not video,
        "format": "mp4" if o.format == "gif" else o.format,
    }
    if o.frames:  # no video: every play jumps to its end, the frame is drawn at each step's end only
        cfg.update(dry_run=True, write_to_movie=False, save_last_frame=False)
    if cfg["format"] == "mp4":
        cfg["video_encoder_options"] = dict(ffmpeg.X264_OPTIONS)
    if o.format == "mov" and o.transparent:
        # ProRes 4444 with alpha: what Final Cut, Premiere, PowerPoint and Keynote read (not qtrle)
        cfg.update(video_codec="prores_ks", pixel_format="yuva444p10le",
                   video_encoder_options={"profile": "4444"})
    return cfg


def _sound(scene, voice: Voice | None):
    """The scene's sound track (int16 samples), or None for a silent render."""
    if voice is None:
        return None
    return track(scene.steps, voice.clips, scene.renderer.time)


def _collect(job: Job, scene, tmp: Path, sound=None) -> dict[str, Path]:
    """Map of final file name -> file written by manim (converted where the format needs it), with
    the sound (if any) in the video and in each step's clip."""
    o, fw = job.options, scene.renderer.file_writer
    files: dict[str, Path] = {}
    if o.format == "png":
        files[f"{job.id}.png"] = Path(fw.image_file_path)
        return files
    movie = Path(fw.movie_file_path)
    if o.format == "gif":
        gif = tmp / f"{job.id}.final.gif"
        ffmpeg.to_gif(movie, gif, o.frame_rate)
        files[f"{job.id}.gif"] = gif
    else:  # the title a player shows: the lesson's and the scene's
        if sound is not None:
            mux(movie, sound, o.format)
        ffmpeg.remux(movie, title=_title(job, scene), prores_4444=o.format == "mov" and o.transparent)
        files[job.main_file()] = movie
    srt = movie.with_suffix(".srt")
    if srt.exists():
        files[f"{job.id}.srt"] = srt
    if o.sections:
        files.update(_sections(job, tmp / "sections", tmp, _title(job, scene), scene.steps, sound))
    files[f"{job.id}.steps.json"] = _steps(job, scene, tmp)
    return files


def _title(job: Job, scene) -> str:
    return f"{lesson_title(scene.lesson, job.options.lang)} – {job.scene.title(job.options.lang)}"


def _sections(job: Job, folder: Path, tmp: Path, title: str, steps, sound=None) -> dict[str, Path]:
    """manim's section clips renamed <id>-<nn>-<step>.<ext> (GIF clips converted), each with its
    step's part of the sound."""
    index = json.loads((folder / f"{job.id}.json").read_text(encoding="utf-8"))
    out = {}
    for n, sec in enumerate((s for s in index if s["name"] != "autocreated"), start=1):
        src = folder / sec["video"]
        name = f"{job.id}-{n:02d}-{sec['name']}.{job.options.format}"
        if job.options.format == "gif":
            gif = tmp / name
            ffmpeg.to_gif(src, gif, job.options.frame_rate)
            src = gif
        else:
            if sound is not None:
                mux(src, cut(sound, steps[n - 1].start, steps[n - 1].end), job.options.format)
            ffmpeg.remux(src, title=f"{title} ({n})",
                         prores_4444=job.options.format == "mov" and job.options.transparent)
        out[name] = src
    return out


def _steps(job: Job, scene, tmp: Path) -> Path:
    """A sidecar naming each step and its narration (for chapters, slides and speaker notes)."""
    steps = [{"step": s.step, "narration": s.narration, "start": s.start, "end": s.end}
             | ({"voice": s.voice} if s.voice is not None else {}) for s in scene.steps]
    data = {"id": job.id, "title": job.scene.title(job.options.lang), "lang": job.options.lang,
            "duration": scene.renderer.time, "steps": steps}
    p = tmp / f"{job.id}.steps.json"
    p.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return p


def _frames(job: Job, scene, saved: list[Path], tmp: Path) -> dict[str, Path]:
    """frames/<id>-<nn>-<step>.png and frames/<id>.json (title, steps, narration, frame files)."""
    files, steps = {}, []
    for n, (s, png) in enumerate(zip(scene.steps, saved), start=1):
        name = f"frames/{job.id}-{n:02d}-{s.step}.png"
        files[name] = png
        steps.append({"step": s.step, "narration": s.narration, "frame": name})
    index = tmp / f"{job.id}.frames.json"
    index.write_text(json.dumps({"id": job.id, "title": job.scene.title(job.options.lang),
                                 "lang": job.options.lang, "steps": steps}, ensure_ascii=False, indent=2),
                     encoding="utf-8")
    files[job.main_file()] = index
    return files


def tmp_folder(job: Job) -> Path:
    """A private folder for one job's files, named so that a later run can tell whether the process
    that made it is still alive (runner.sweep)."""
    job.out_dir.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{job.id}-{os.getpid()}-", dir=job.out_dir))


def tune_malloc() -> bool:
    """Keep frame buffers in this process's heap (glibc only; once per process; True if applied).

    Measured: in a Dask worker, which starts with `MALLOC_TRIM_THRESHOLD_=65536` (Dask's
    `distributed.nanny.pre-spawn-environ`, which also turns off glibc's adaptive mmap threshold), every
    frame buffer was mmapped and unmapped: a low-quality scene spent 3 s of system time instead of 0.7 s
    and took 35 % longer. With these thresholds it spends 0.2-0.3 s there, anywhere it runs."""
    global _malloc_tuned
    if _malloc_tuned:
        return True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        _malloc_tuned = bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and \
            bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    except (OSError, AttributeError):  # not glibc (macOS, musl): its allocator, as it is
        _malloc_tuned = False
    return _malloc_tuned


def render(job: Job, media_dir: Path, on_beat=None, quiet: bool = False) -> Result:
    """Render one job; never raises: a failure is a Result with ok=False and the error.
    on_beat(scene_id, beat) is called as each step starts (progress); quiet hides manim's warnings."""
    from manim import tempconfig

    tune_malloc()
    start = time.perf_counter()
    tmp = tmp_folder(job)
    o = job.options
    try:
        cls = job.scene.load()
        voice = Voice(o.voice, o.lang, media_dir / "voice") if o.voice else None
        with Settings(o.lesson, o.context, o.mode, o.lang).applied(), \
                tempconfig(manim_config(job, media_dir, tmp, quiet)):
            if o.slides:  # the scene as a manim-slides Slide: a clip and notes per step
                from .slides import collect, slide_class

                scene = slide_class(cls)(output_folder=(tmp / "slides").resolve(), on_beat=on_beat,
                                         voice=voice)
                scene.render()
                files = collect(job, scene, tmp / "slides", tmp, _title(job, scene), _sound(scene, voice))
            elif o.frames:  # the last frame of every step, as the scene draws it
                saved: list[Path] = []
                scene = cls(on_beat=on_beat, after_beat=lambda s, beat: saved.append(s.save_keyframe(tmp)))
                scene.render()
                files = _frames(job, scene, saved, tmp)
            else:
                scene = cls(on_beat=on_beat, voice=voice)
                scene.render()
                files = _collect(job, scene, tmp, _sound(scene, voice))
        for name, src in files.items():  # each rename is atomic; all files exist before the first
            (job.out_dir / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, job.out_dir / name)
        return Result(job.id, True, sorted(files), seconds=time.perf_counter() - start,
                      drafted=voice.drafted if voice else [])
    except BaseException as e:  # noqa: BLE001 - reported per scene, the others go on
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = traceback.format_exc(limit=-3)
        return Result(job.id, False, [], f"{type(e).__name__}: {e}\n{tb}",
                      time.perf_counter() - start)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
