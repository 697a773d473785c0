"""Build a lesson scene in-process without encoding video, with layout checks at every beat."""

from __future__ import annotations

import re
from pathlib import Path

from manim import SingleStringMathTex, tempconfig

from scenes.common.settings import Settings

LESSONS = Path(__file__).parent / "lessons"
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def build(info, tmp_path, *, lesson=None, context=None, mode="scaled", lang="zh", last_frame=False):
    """Run a scene's construct in dry-run mode (or save its last frame); return the scene."""
    cls = info.load()
    try:
        opts = {"dry_run": not last_frame, "save_last_frame": last_frame, "write_to_movie": False,
                "disable_caching": True, "quality": "low_quality", "verbosity": "ERROR",
                "progress_bar": "none", "media_dir": str(tmp_path / "media")}
        with Settings(lesson, context, mode, lang).applied(), tempconfig(opts):
            cls.check_layout = True
            scene = cls()
            scene.render()
    finally:
        cls.check_layout = False
    return scene


def math_with_cjk(scene) -> list[str]:
    found = []
    for m in scene.mobjects:
        for sub in m.get_family():
            if isinstance(sub, SingleStringMathTex) and CJK.search(sub.tex_string):
                found.append(sub.tex_string)
    return found
