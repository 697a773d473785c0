"""A skipped animation jumps to its end without manim's work for the frames it does not draw.

manim skips an animation (a frames job, a poster, the part of a scene before a piece's first step)
by playing it all the same at one instant: every animation begins (a FadeIn or FadeOut copies its
mobject twice, a Transform its source and target), the still mobjects are drawn into a background
image that nothing reads, and each animation is interpolated to its end (a third of a keyframes
render's time: docs/performance.md).

Here the animations whose end leaves their mobject exactly as it was (a FadeIn, Create, Write,
GrowArrow or GrowFromCenter ending at rate 1: each interpolates from a copy to the mobject's own
values, which at alpha 1 are those values) only add it to the scene; a FadeOut only removes it
(manim's clean-up sets it back to its start, which is itself); every other animation begins,
finishes and cleans up as manim does, in manim's order (all begun, all finished, all cleaned up),
with no background image. The scene, the renderer's clock, play count and file writer's record end
as after manim's play. Once any mobject of the process has had an updater (`Mobject.add_updater`,
which `always_redraw` and the trackers use too; the lesson's scenes have none), plays are left to
manim, which runs the updaters.
"""

from __future__ import annotations

from . import patches

_SAME_AT_END: tuple[type, ...] = ()
_FADE_OUT: type | None = None
_updaters = False  # an updater was added to a mobject in this process
_manim_add_updater = None

# `play` is manim's CairoRenderer.play's skip branch (its bookkeeping: clock, play count, the writer's
# record), and `finish` its begin/finish/clean-up of each animation; FadeOut's own clean-up is passed over
RELIES_ON = (
    "manim.mobject.mobject.Mobject.add_updater",
    "manim.renderer.cairo_renderer.CairoRenderer.play",
    "manim.renderer.cairo_renderer.CairoRenderer.time",
    "manim.renderer.cairo_renderer.CairoRenderer.num_plays",
    "manim.renderer.cairo_renderer.CairoRenderer.animations_hashes",
    "manim.renderer.cairo_renderer.CairoRenderer.static_image",
    "manim.scene.scene.Scene.compile_animation_data",
    "manim.scene.scene_file_writer.SceneFileWriter.add_partial_movie_file",
    "manim.scene.scene_file_writer.SceneFileWriter.begin_animation",
    "manim.scene.scene_file_writer.SceneFileWriter.end_animation",
    "manim.animation.animation.Animation._setup_scene",
    "manim.animation.animation.Animation.begin",
    "manim.animation.animation.Animation.finish",
    "manim.animation.animation.Animation.clean_up_from_scene",
    "manim.animation.fading.FadeOut.clean_up_from_scene",
)


def install() -> None:
    global _manim_add_updater
    from manim import Mobject

    _manim_add_updater = patches.replace(Mobject, "add_updater", _add_updater)


def _add_updater(self, *args, **kwargs):
    global _updaters
    _updaters = True
    return _manim_add_updater(self, *args, **kwargs)


def _kinds() -> None:
    global _SAME_AT_END, _FADE_OUT
    from manim import Create, FadeIn, FadeOut, GrowArrow, GrowFromCenter, Write

    _SAME_AT_END, _FADE_OUT = (FadeIn, Create, Write, GrowArrow, GrowFromCenter), FadeOut


def play(renderer, scene, *args, **kwargs) -> None:
    """manim's CairoRenderer.play for an animation that is skipped (renderer.skip_animations)."""
    if not _SAME_AT_END:
        _kinds()
    scene.compile_animation_data(*args, **kwargs)
    renderer.time += scene.duration
    renderer.file_writer.add_partial_movie_file(None)
    renderer.animations_hashes.append(None)
    renderer.file_writer.begin_animation(False, animation_index=renderer.num_plays)
    finish(scene, scene.animations)
    renderer.static_image = None
    renderer.file_writer.end_animation(False)
    renderer.num_plays += 1


def can_jump(scene) -> bool:
    """No updater anywhere: nothing moves but what the animations move."""
    return _manim_add_updater is not None and not _updaters and not scene.updaters


def finish(scene, animations) -> None:
    """Each animation at its end, and the scene as manim leaves it."""
    quick = [_same_at_end(a) for a in animations]
    for a, q in zip(animations, quick):
        a._setup_scene(scene)
        if not q:
            a.begin()
    for a, q in zip(animations, quick):
        if not q:
            a.finish()
    for a, q in zip(animations, quick):
        if q and type(a) is _FADE_OUT:
            super(_FADE_OUT, a).clean_up_from_scene(scene)  # its own also sets it back to its start
        else:
            a.clean_up_from_scene(scene)


def _same_at_end(a) -> bool:
    """Its mobject ends as it began (or, a FadeOut, is removed as it was)."""
    t = type(a)
    if t is _FADE_OUT:
        return True
    return t in _SAME_AT_END and a.rate_func(1.0) == 1.0
