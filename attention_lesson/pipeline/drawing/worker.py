"""Render one job with manim in this process, then move its files into place atomically.

Everything is first written under a private temporary folder inside the output folder and renamed
into place only when the whole job succeeded: an interrupted or failed render leaves no partial file at
an output path.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import time
import traceback
from pathlib import Path

from attention_core import load
from scenes.common import stored
from scenes.common.i18n import lesson_title
from scenes.common.settings import Settings
from scenes.common.words import use_words
from scenes.registry import step_file

from .. import ffmpeg, manifest
from ..plan import FRAMES, POSTER, QUALITIES, SLIDES, STEPS, VIDEO, Job, Result
from ..voice.track import Voice, cut, mux, track
from . import manim_speedups
from .manim_speedups import skipped_animations

# glibc's mallopt parameters, and what this process keeps of freed memory: a frame buffer (up to
# 3840x2160x4 bytes) is allocated and freed every frame, and must be reused from the heap, not mapped
# and unmapped (with every page faulted in again) each time.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
LABELS_ENV = manifest.LABELS_ENV
MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's largest on 64 bits
TRIM_THRESHOLD = 64 * 1024 * 1024
_malloc_tuned = False


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
    if o.kind in (FRAMES, STEPS):  # no video: every play jumps to its end (frames: drawn at step ends)
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
        mux(movie, sound, o.format, o.quality, title=_title(job, scene),
            prores_4444=o.format == "mov" and o.transparent)
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
        name = step_file(job.id, n, sec["name"], job.options.format)
        if job.options.format == "gif":
            gif = tmp / name
            ffmpeg.to_gif(src, gif, job.options.frame_rate)
            src = gif
        else:
            part = None if sound is None else cut(sound, steps[n - 1].start, steps[n - 1].end)
            mux(src, part, job.options.format, job.options.quality, title=f"{title} ({n})",
                prores_4444=job.options.format == "mov" and job.options.transparent)
        out[name] = src
    return out


def _steps(job: Job, scene, tmp: Path) -> Path:
    """A sidecar naming each step and its narration (for chapters, slides and speaker notes)."""
    steps = [{"step": s.step, "key": s.key, "narration": s.narration, "start": s.start, "end": s.end}
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
        name = f"frames/{step_file(job.id, n, s.step, 'png')}"
        files[name] = png
        steps.append({"step": s.step, "key": s.key, "narration": s.narration, "frame": name,
                      "start": round(s.start, 3), "end": round(s.end, 3)})  # times as in a whole video
    index = tmp / f"{job.id}.frames.json"
    index.write_text(json.dumps({"id": job.id, "title": job.scene.title(job.options.lang),
                                 "lang": job.options.lang, "steps": steps}, ensure_ascii=False, indent=2),
                     encoding="utf-8")
    files[job.main_file()] = index
    return files


def tune_malloc() -> bool:
    """Keep frame buffers in this process's heap (glibc only; once per process; True if applied).

    Why: a Dask worker starts with `MALLOC_TRIM_THRESHOLD_=65536` (Dask's
    `distributed.nanny.pre-spawn-environ`, which also turns off glibc's adaptive mmap threshold), so
    every frame buffer was mmapped and unmapped, in system time, once per frame (docs/performance.md,
    "The figures behind the code")."""
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


def install() -> bool:
    """The pipeline's own versions of manim's methods, in this process, where manim is the one they were
    written for (manim_speedups; once; what a scene draws does not change, only how quickly): True if
    they are in place."""
    tune_malloc()
    return manim_speedups.install()


def _settings(job: Job) -> Settings:
    o = job.options
    return Settings(o.lesson, o.context, o.mode, o.lang, o.theme, o.words)


def _voice(job: Job, media_dir: Path) -> Voice | None:
    o = job.options
    # one cache for every worker (media/.cache/voice): a line made by one is there for the others, and
    # for the next run whichever worker draws its scene; each voice is written atomically
    return Voice(o.voice, o.lang, media_dir.parent / "voice") if o.voice else None


def _video(job: Job, cls, media_dir: Path, tmp: Path, on_step):
    """The scene's videos (with their sound, sidecars and step clips)."""
    voice = _voice(job, media_dir)
    scene = cls(lesson=job.lesson, settings=_settings(job), on_step=on_step, voice=voice)
    scene.render()
    return _collect(job, scene, tmp, _sound(scene, voice)), voice


def _piece(job: Job, cls, media_dir: Path, tmp: Path, on_step):
    """A piece of a scene (pipeline/drawing/pieces.py) but its last: the segments of its steps' animations,
    moved into the pieces' folder for the last piece to join; no file of its own."""
    from manim.utils.exceptions import EndSceneEarlyException

    voice = _voice(job, media_dir)
    scene = cls(lesson=job.lesson, settings=_settings(job), on_step=on_step, voice=voice)
    scene.renderer.scene_finished = lambda s: None  # the last piece makes the scene's files
    try:
        scene.render()
    except EndSceneEarlyException:  # raised again by tear_down's wait, past the piece's last step
        pass
    writer = scene.renderer.file_writer
    writer.join_all_encode_jobs()
    for f in filter(None, writer.partial_movie_files):
        Path(f).replace(job.piece.folder / Path(f).name)
    return {}, voice


def _progress(job: Job, on_step):
    """A piece's progress: the steps it draws only (each piece of a scene sees every step begin)."""
    if job.piece is None or on_step is None:
        return on_step
    first, stop = job.piece.steps
    seen = []

    def forward(scene_id: str, step: str) -> None:
        seen.append(step)
        if len(seen) > first and (stop is None or len(seen) <= stop):
            on_step(scene_id, step)
    return forward


def _slides(job: Job, cls, media_dir: Path, tmp: Path, on_step):
    """The scene as a manim-slides Slide: a clip and notes per step."""
    from .slides import collect, slide_class

    voice = _voice(job, media_dir)
    scene = slide_class(cls)(output_folder=(tmp / "slides").resolve(), lesson=job.lesson,
                             settings=_settings(job), on_step=on_step, voice=voice)
    scene.render()
    return collect(job, scene, tmp / "slides", tmp, _title(job, scene), _sound(scene, voice)), voice


def _keyframes(job: Job, cls, media_dir: Path, tmp: Path, on_step, on_frame=None):
    """The last frame of every step, as the scene draws it (each animation jumps to its end: the same
    pixels, a third of the time). on_frame(scene_id, n, step, png) is told of each as it is saved (the
    studio's frames: their body's box and smallest text, for a printed page, are not measured)."""
    saved: list[Path] = []

    def keep(s, step: str) -> None:
        saved.append(s.save_keyframe(tmp, measured=on_frame is None))  # told as drawn: the studio's
        if on_frame is not None:
            on_frame(job.id, len(saved), step, saved[-1])

    scene = cls(lesson=job.lesson, settings=_settings(job), on_step=on_step, skip_animations=True,
                after_step=keep)
    scene.render()
    return _frames(job, scene, saved, tmp), None


def _steps_only(job: Job, cls, media_dir: Path, tmp: Path, on_step):
    """Only the steps: their lines and how long they last, nothing drawn."""
    scene = cls(lesson=job.lesson, settings=_settings(job), on_step=on_step)  # not skipped: manim's clock
    scene.renderer.update_frame = lambda *args, **kwargs: None  # then moves by whole frames, as in a video
    scene.render()
    return {job.main_file(): _steps(job, scene, tmp)}, None


def label_folder(media_dir: Path) -> Path:
    """Where the workers keep the labels they make (scenes/common/stored.py): beside their manim folders,
    or one folder for every output folder when LABELS_ENV names it (a course team's renders of many
    variants, or a test run's hundreds of output folders, make each label once)."""
    return Path(os.environ.get(LABELS_ENV) or media_dir.parent / "mobjects")


MAKERS = {VIDEO: _video, POSTER: _video, SLIDES: _slides, FRAMES: _keyframes, STEPS: _steps_only}


def render(job: Job, media_dir: Path, on_step=None, quiet: bool = False, on_frame=None) -> Result:
    """Render one job; never raises: a failure is a Result with ok=False and the error.
    on_step(scene_id, step) is called as each step starts (progress); quiet hides manim's warnings;
    on_frame(scene_id, n, step, png): a frames job's step frame, as soon as it is drawn."""
    from manim import tempconfig

    speedups = install()
    stored.keep_in(label_folder(media_dir))  # every worker's labels, for the others (scenes/common)
    start = time.perf_counter()
    tmp = manifest.private_folder(job.out_dir, job.id)
    try:
        if job.lesson is None:  # a job made without one: its lesson file
            job.lesson = load(job.options.lesson)
        use_words(job.options.words)  # the job's words, for its voice and titles as for its scene
        if job.piece is not None and not speedups:  # planned where the gate was open (pieces.most)
            raise RuntimeError("a scene in pieces needs manim's speed-ups, which are off in this worker")
        maker = _piece if job.piece and not job.piece.joins else MAKERS[job.options.kind]
        if maker is _keyframes and on_frame is not None:
            maker = functools.partial(_keyframes, on_frame=on_frame)
        with tempconfig(manim_config(job, media_dir, tmp, quiet)), skipped_animations.drawing(job.piece):
            files, voice = maker(job, job.scene.load(), media_dir, tmp, _progress(job, on_step))
        manifest.move_into(files, job.out_dir)
        return Result(job.task, True, sorted(files), seconds=time.perf_counter() - start,
                      drafted=voice.drafted if voice else [])
    except BaseException as e:  # noqa: BLE001 - reported per scene, the others go on
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = traceback.format_exc(limit=-3)
        return Result(job.task, False, [], f"{type(e).__name__}: {e}\n{tb}", time.perf_counter() - start)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
