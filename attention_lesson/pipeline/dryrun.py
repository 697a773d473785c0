"""A scene's steps without rendering it: built in-process in manim's dry-run mode (every play jumps to its
end, no frame drawn, nothing encoded), so a scene takes seconds. For the recording script."""

from __future__ import annotations

from pathlib import Path

from scenes.common.settings import Settings


def scene_steps(info, lesson_source: str, context: str, mode: str, lang: str, media_dir: Path):
    """The steps a scene runs under these settings (LessonScene.steps), from a dry-run build: no frame
    drawn, no video written. media_dir holds manim's TeX and text caches (one per process)."""
    from manim import tempconfig

    cls = info.load()
    opts = {"dry_run": True, "write_to_movie": False, "disable_caching": True, "quality": "low_quality",
            "verbosity": "ERROR", "progress_bar": "none", "media_dir": str(media_dir)}
    with Settings(lesson_source, context, mode, lang).applied(), tempconfig(opts):
        scene = cls()
        scene.renderer.update_frame = lambda *args, **kwargs: None  # nothing looks at a frame
        scene.render()
    return scene.steps
