"""The drawing side of scenes in pieces (drawing/pieces.py): which animations a piece draws, the clock
of the ones it skips, and the segments the last piece borrows.

`install()` wraps manim's `CairoRenderer.play` in this process (once, through the gate:
manim_speedups.install; manim's files stay as they are). Pieces need it: without it
(`manim_speedups.wanted()` false) no scene is split (pieces.most).
It changes nothing unless a piece is being drawn (`drawing(...)`, around one scene's render):
- Before each animation it looks at the scene's step (LessonScene.step_keys): a piece draws from its
  first step on (manim's `from_animation_number` set to this animation as that step's first one
  comes) and ends as its stop step begins (`upto_animation_number`: manim ends the scene there).
- A skipped animation moves manim's clock by its run time; a drawn one by the frames it drew (one
  1/fps per frame, a wait `int(run_time * fps)` frames at once). Here a skipped animation moves the
  clock as drawing it would have, in the same steps, so a step's start, its wait's length (whole
  frames, computed from the clock) and its subtitles are the same in a piece and in a whole render.
- The last piece takes each animation it skips from the pieces' folder, under the name manim gives
  it (`uncached_<number>`), so manim joins them with its own as one scene.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ...plan import Piece
from . import patches, skip_jumps

NEVER = 10**9  # an animation number no scene reaches
_manim_play = None
_piece: Piece | None = None
before_play = None  # called before each animation (a warm worker's: stop when a newer run is asked for)

# `clock` repeats manim's clock loop (play_internal, freeze_current_frame), `segment_name` the name its
# play gives an uncached segment (CairoRenderer.play); `skipped` asks manim's own skip test,
# `bounds` moves its from/upto animation numbers
RELIES_ON = (
    "manim.renderer.cairo_renderer.CairoRenderer.play",
    "manim.renderer.cairo_renderer.CairoRenderer.update_skipping_status",
    "manim.renderer.cairo_renderer.CairoRenderer._original_skipping_status",
    "manim.renderer.cairo_renderer.CairoRenderer.freeze_current_frame",
    "manim.scene.scene.Scene.play_internal",
    "manim.scene.scene.Scene.is_current_animation_frozen_frame",
    "manim.scene.scene_file_writer.SceneFileWriter.partial_movie_files",
    "manim.scene.scene_file_writer.SceneFileWriter.sections",
    "manim.scene.scene_file_writer.SceneFileWriter.output_plan",
    "manim._config.utils.ManimConfig.from_animation_number",
    "manim._config.utils.ManimConfig.upto_animation_number",
    "manim.utils.exceptions.EndSceneEarlyException",
)


def install() -> None:
    global _manim_play
    from manim.renderer.cairo_renderer import CairoRenderer

    _manim_play = patches.replace(CairoRenderer, "play", play)


@contextmanager
def drawing(piece: Piece | None):
    """Draw `piece` of the scene rendered inside (None: all of it, as manim would)."""
    global _piece
    from manim import config

    saved = config.from_animation_number, config.upto_animation_number
    _piece = piece
    if piece is not None:
        config.from_animation_number = 0 if piece.steps[0] == 0 else NEVER
        config.upto_animation_number = NEVER
    try:
        yield
    finally:
        _piece = None
        config.from_animation_number, config.upto_animation_number = saved


def bounds(renderer, step: int) -> None:
    """The next animation is one of step `step` (from 0; -1 before the first): a piece starts drawing
    at its first step and ends at its stop step."""
    from manim import config

    first, stop = _piece.steps
    if step >= first and config.from_animation_number == NEVER:
        config.from_animation_number = renderer.num_plays
    if stop is not None and step >= stop and config.upto_animation_number == NEVER:
        config.upto_animation_number = renderer.num_plays - 1


def play(self, scene, *args, **kwargs):
    """manim's play (a skipped animation jumps to its end: skip_jumps.py); a skipped animation of a piece
    moves the clock by the frames it would draw."""
    if before_play is not None:
        before_play()
    if _piece is not None:
        bounds(self, len(getattr(scene, "step_keys", ())) - 1)
    before, number = self.time, self.num_plays
    if skipped(self) and skip_jumps.can_jump(scene):
        skip_jumps.play(self, scene, *args, **kwargs)
    else:
        _manim_play(self, scene, *args, **kwargs)
    if _piece is None or not self.skip_animations:
        return
    self.time = clock(before, scene.duration, scene.is_current_animation_frozen_frame(),
                      self.camera.frame_rate)
    if _piece.joins:
        borrow(self.file_writer, number, _piece.folder)


def skipped(renderer) -> bool:
    """Whether manim's play skips the next animation (its own test, which it makes again: the same
    answer; past a piece's stop it raises manim's EndSceneEarlyException, as manim's play would)."""
    renderer.skip_animations = renderer._original_skipping_status
    renderer.update_skipping_status()
    return renderer.skip_animations


def clock(time: float, run_time: float, frozen: bool, fps: float) -> float:
    """manim's clock after drawing an animation of run_time from `time` (its steps, in its order)."""
    dt = 1 / fps
    if frozen:  # freeze_current_frame: int(duration / dt) frames in one add_frame
        return time + int(run_time / dt) * dt
    for _ in range(len(np.arange(0, run_time, dt))):  # play_internal: a frame per step, add_frame each
        time += 1 * dt
    return time


def segment_name(number: int, ext: str) -> str:
    """The name manim gives an animation's segment when caching is off."""
    return f"uncached_{number:05}{ext}"


def borrow(writer, number: int, folder: Path) -> None:
    """Put the pieces' segment of animation `number` where manim left None (skipped)."""
    path = folder / segment_name(number, writer.output_plan.segment_extension)
    if path.exists() and writer.partial_movie_files and writer.partial_movie_files[-1] is None:
        writer.partial_movie_files[-1] = str(path)
        writer.sections[-1].partial_movie_files[-1] = str(path)
