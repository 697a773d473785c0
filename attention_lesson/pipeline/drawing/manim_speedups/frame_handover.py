"""A drawn frame handed to the encoder as drawn, not copied: manim's `CairoRenderer.render` draws into
the camera's pixel array and hands the writer a copy of it (`get_frame`), because the camera draws the
next frame into the same array while the encoder thread still holds the last ones (a queue of 8). Here
the camera's array itself goes to the writer, and the camera draws the next frame into a new one. Every
frame starts from the background (or the still mobjects' image) copied in, as in manim, so the pixels
written are the same, bit for bit; what is saved is one copy of every frame drawn (docs/performance.md).

manim keeps a cairo context per pixel array, found by the array's `id`, and the context's surface holds
the array: the handed-over array's context is dropped with it, or every frame ever drawn would stay in
memory (and an array freed, another made at its address, would find the freed one's context). The new
array comes from the heap the worker keeps (`worker.tune_malloc`: no page to fault in).

`install()` puts `render` in place of manim's, in this process (manim_speedups.install, through the
gate); `ATTENTION_LESSON_HANDOVER=copy` in the environment copies every frame as manim does (for the
tests' comparisons and for measuring)."""

from __future__ import annotations

import os

from . import patches

ENV = "ATTENTION_LESSON_HANDOVER"

# `render` is a copy of manim's render with one line changed, and drops the camera's cairo context by the
# array's id (manim's cache of them; the constructor makes it)
RELIES_ON = (
    "manim.renderer.cairo_renderer.CairoRenderer.render",
    "manim.renderer.cairo_renderer.CairoRenderer.update_frame",
    "manim.renderer.cairo_renderer.CairoRenderer.add_frame",
    "manim.renderer.cairo_renderer.CairoRenderer.skip_animations",
    "manim.camera.camera.Camera.get_cached_cairo_context",
    "manim.camera.camera.Camera.pixel_array_to_cairo_context",
)


def handed_over(camera):
    """The frame the camera has drawn, as an array the caller now owns; the camera draws the next one
    into a new array (its contents do not matter: a frame starts by copying its background in)."""
    import numpy as np

    frame = camera.pixel_array
    if os.environ.get(ENV) == "copy":
        return frame.copy()
    camera.pixel_array_to_cairo_context.pop(id(frame), None)
    camera.pixel_array = np.empty_like(frame)
    return frame


def render(self, scene, time, moving_mobjects=None) -> None:
    """manim's `CairoRenderer.render` (draw the moving mobjects over the still ones' image, hand the
    frame to the writer), the frame handed over rather than copied. A warm worker's job no longer wanted
    stops here, within a frame (skipped_animations.before_play): one animation of a video is up to a second of
    frames, which the edit that replaced it waited for."""
    from . import skipped_animations

    if skipped_animations.before_play is not None:
        skipped_animations.before_play()
    self.update_frame(scene, moving_mobjects)
    if self.skip_animations:  # manim's add_frame writes nothing then
        return
    self.add_frame(handed_over(self.camera))


def install() -> None:
    """Use `render` for every frame manim's Cairo renderer draws in this process."""
    from manim.renderer.cairo_renderer import CairoRenderer

    patches.replace(CairoRenderer, "render", render)
