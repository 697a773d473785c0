"""A scene rendered as manim-slides slides: one clip per step, the step's narration as its notes.

`slide_class(cls)` is the same scene class plus manim-slides' `Slide`, each step opening a slide
(`next_slide`) instead of a section. The plain class stays a plain manim `Scene`, so `manim render` and
the video pipeline are untouched. The worker renders the variant like any job and `collect` keeps its
per-step clips as slides/<id>-<nn>-<step>.mp4 with slides/<id>.json (manim-slides'
PresentationConfig, paths relative to the output folder), recorded in the manifest: a re-run with
nothing changed renders nothing. outputs/deck.py joins them into a deck.
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from scenes.registry import step_file

from ..plan import Job
from ..voice.track import cut, mux

# manim-slides' private members this module relies on, behind manim's gate (scenes/common/manim_gate.py:
# the release in WRITTEN_FOR, each member resolving): the Deck saves its slides itself and reads a step's
# loop flag; a PowerPoint slide's poster is read through the converter's frame reader. With the gate
# shut the Deck renders as manim-slides' own Slide does, and a looping step holds for reading time too
RELIES_ON = (
    "manim_slides.slide.base.BaseSlide._save_slides",
    "manim_slides.slide.base.BaseSlide._base_slide_config",
    "manim_slides.slide.base.BaseSlide._current_animation",
    "manim_slides.slide.base.BaseSlide._start_animation",
    "manim_slides.convert.read_image_from_video_file",
)


def slide_class(cls):
    """`cls` as a manim-slides Slide: every step starts a slide with its line as notes."""
    from manim_slides import Slide
    from manim_slides.slide.base import BaseSlide

    from scenes.common.manim_gate import open_for

    logging.getLogger("manim-slides").setLevel(logging.WARNING)  # not its per-scene INFO lines

    class Deck(cls, Slide):
        skip_reversing = True  # a deck plays forwards: no reversed clips

        # Slide.__init__ and Slide.render set config keys manim 0.22 no longer has (write_to_movie:
        # video is the default output; flush_cache; max_files_cached=inf): the same steps here.
        def __init__(self, *args, lesson=None, settings=None, on_step=None, after_step=None, voice=None,
                     **kwargs):
            self.set_data(lesson, settings)
            self.set_hooks(on_step, after_step, voice)
            BaseSlide.__init__(self, *args, **kwargs)

        def render(self, *args, **kwargs):
            return _render(self, *args, **kwargs)

        def open_step(self, key, line, loop):
            self.next_slide(key, notes=line, loop=loop)

        def _close_line(self):
            # a looping step replays while the teacher talks: no hold for reading time at its end
            if (self._step is not None and open_for(__name__) and self._base_slide_config.loop
                    and self._current_animation > self._start_animation):
                self._step.end = self.renderer.time
                self.steps.append(self._step)
                self._step = None
                return
            super()._close_line()

    Deck.__name__ = Deck.__qualname__ = cls.__name__
    return Deck


def _render(deck, *args, **kwargs) -> None:
    """A Deck rendered: its scene as manim renders it, then its slides saved (manim-slides' own render
    when manim's gate is shut: another release)."""
    from manim import Scene, config
    from manim_slides import Slide

    from scenes.common.manim_gate import open_for

    if not open_for(__name__):
        return Slide.render(deck, *args, **kwargs)
    config["max_files_cached"] = -1  # unlimited: the slides are made of the partial movies
    Scene.render(deck, *args, **kwargs)
    deck._save_slides(use_cache=False, skip_reversing=True)


def collect(job: Job, scene, folder: Path, tmp: Path, title: str, sound=None) -> dict[str, Path]:
    """Map of final file name -> file, for the slides manim-slides saved under `folder`; each clip
    titled "<title> (<n>)" in its metadata, as the section clips are, and with its step's sound."""
    from manim_slides.config import PresentationConfig

    config = PresentationConfig.from_file(folder / f"{scene}.json")
    steps = scene.step_keys if len(scene.step_keys) == len(config.slides) else [None] * len(config.slides)
    files: dict[str, Path] = {}
    data = json.loads(config.model_dump_json())
    for n, (slide, entry, step) in enumerate(zip(config.slides, data["slides"], steps), start=1):
        name = "slides/" + (step_file(job.id, n, step, "mp4") if step else f"{job.id}-{n:02d}.mp4")
        part = None if sound is None or step is None else cut(sound, scene.steps[n - 1].start,
                                                              scene.steps[n - 1].end)
        mux(Path(slide.file), part, "mp4", job.options.quality, title=f"{title} ({n})")
        files[name] = slide.file
        entry["file"] = entry["rev_file"] = name  # relative to the output folder
    index = tmp / f"{job.id}.slides.json"
    index.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    files[job.main_file()] = index
    return files


def presentation(out_dir: Path, scene_id: str):
    from manim_slides.config import PresentationConfig

    # from_file reads clip paths relative to the folder above slides/, i.e. the output folder
    return PresentationConfig.from_file(out_dir / "slides" / f"{scene_id}.json")


def last_frame(file: Path):
    """A movie's last frame as a PIL image, decoded from its last keyframe on (not from its start: a
    1080p60 lesson's clips are tens of thousands of frames)."""
    from collections import deque

    import av

    with av.open(str(file)) as movie:
        stream = movie.streams.video[0]
        if stream.duration:
            movie.seek(stream.duration, stream=stream, backward=True, any_frame=False)
        frames = deque(movie.decode(stream), maxlen=1)
        if not frames:  # a seek past every keyframe: from the start
            movie.seek(0, stream=stream)
            frames = deque(movie.decode(stream), maxlen=1)
        return frames[0].to_image()


@contextlib.contextmanager
def posters_from_last_frames():
    """While manim-slides' PowerPoint converter runs, the frame it reads of each slide's movie for the
    poster is the last one (it asks for the first, which for every scene's first step is an empty
    background). Behind manim's gate: plain manim-slides' posters when it is shut."""
    from manim_slides import convert

    from scenes.common.manim_gate import other_version

    from .manim_speedups.patches import swapped

    # the release, and the reader there (not open_for: resolving the Deck's members would import manim,
    # which a deck's conversion has no use for)
    if other_version() is not None or not hasattr(convert, "read_image_from_video_file"):
        yield
        return
    with swapped(convert, "read_image_from_video_file", lambda file, frame_index: last_frame(file)):
        yield
