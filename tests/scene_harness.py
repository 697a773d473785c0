"""Build a lesson scene in-process without encoding video, watching the end of every step: layout
problems, the text on screen and (optionally) the frame, all from one build."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from manim import Text, Typst, logger, tempconfig

from attention_lesson.pipeline.drawing.worker import LABELS_ENV, install
from scenes.common import stored
from scenes.common.layout import layout_problems, visible_texts
from scenes.common.settings import Settings

LESSONS = Path(__file__).parent / "lessons"
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@dataclass
class Watch:
    """What the end of every step showed."""

    keyframes: Path | None = None  # save the frame of every step end here as <scene>-<nn>-<step>.png
    problems: list[str] = field(default_factory=list)  # "<step>: <problem>"
    texts: dict[str, list[str]] = field(default_factory=dict)  # step -> the strings of its Text mobjects
    formulas: dict[str, list[str]] = field(default_factory=dict)  # step -> its formulas' Typst sources
    # Typst sources of formulas with Chinese in them: Chinese goes in labels, in the lesson's font (Typst
    # would draw it in whatever system font has the glyphs)
    cjk_in_math: list[str] = field(default_factory=list)

    def __call__(self, scene, step: str) -> None:
        shown = visible_texts(scene)  # once a step: finding them bounds every text
        self.problems += [f"{step}: {p}" for p in layout_problems(scene, shown)]
        self.texts[step] = [t.text for t in shown if isinstance(t, Text)]
        self.formulas[step] = [t.typst_code for t in shown if isinstance(t, Typst)]
        self.cjk_in_math += [s.typst_code for m in scene.mobjects for s in m.get_family()
                             if isinstance(s, Typst) and CJK.search(s.typst_code)]
        if self.keyframes is not None:
            scene.save_keyframe(self.keyframes)

    def all_texts(self) -> list[str]:
        return [t for texts in self.texts.values() for t in texts]


class Warnings(logging.Handler):
    """manim's warnings during a build, as problems (a user sees them on the terminal of every render)."""

    def __init__(self, watch: Watch):
        super().__init__(logging.WARNING)
        self.watch = watch

    def emit(self, record) -> None:
        self.watch.problems.append(f"manim warning: {' '.join(record.getMessage().split())}")


def build(info, media_dir: Path, *, lesson=None, context=None, mode="scaled", lang="zh", theme="dark",
          keyframes: Path | None = None, video_clock: bool = False, words: str | None = None):
    """Run a scene's construct in dry-run mode (animations skipped, nothing encoded), watching every
    step's end; return (scene, watch). media_dir holds manim's formula and text caches: reuse it within
    one process, never share it between processes. A warning manim logs is one of the problems. Every
    play jumps to its end (the same frames, half the time) unless `video_clock`: then manim's clock moves
    by whole frames, as in a video, and the steps' start and end times are the video's. `words`: a words
    folder (DIR/<lang>/*.toml) whose lines win over the built-in ones."""
    install()  # the pipeline's versions of manim's methods, as in every render
    if os.environ.get(LABELS_ENV):  # the run's one label store (conftest.shared_labels), as the renders'
        stored.keep_in(Path(os.environ[LABELS_ENV]))
    cls = info.load()
    opts = {"dry_run": True, "write_to_movie": False, "disable_caching": True, "quality": "low_quality",
            "verbosity": "WARNING", "progress_bar": "none", "media_dir": str(media_dir)}
    watch = Watch(keyframes)
    warnings = Warnings(watch)
    logger.addHandler(warnings)
    try:
        with tempconfig(opts):
            scene = cls(settings=Settings(lesson, context, mode, lang, theme, words), after_step=watch,
                        skip_animations=not video_clock)
            if keyframes is None:  # no frame is looked at: skip drawing the static frame of every play
                scene.renderer.update_frame = lambda *args, **kwargs: None
            scene.render()
    finally:
        logger.removeHandler(warnings)
    return scene, watch


def set_up(infos, lesson: str | None, lang: str, media: Path, context: str | None = None):
    """Each scene of `infos` (SceneInfos) for the lesson, context and language, set up and yielded as it
    comes (setup() alone: nothing drawn, manim's config a dry run's for as long as it is read)."""
    opts = {"dry_run": True, "write_to_movie": False, "media_dir": str(media), "verbosity": "ERROR"}
    with tempconfig(opts):
        for info in infos:
            scene = info.load()(settings=Settings(lesson, context, "scaled", lang))
            scene.setup()
            yield scene
