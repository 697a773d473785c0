"""The lesson's scenes in order: id, file and class. No manim import: the CLI lists and plans without
starting manim, so what it needs of a scene class is read from the file's source."""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .common.i18n import catalog, phrase

HERE = Path(__file__).parent
CONTEXTS = re.compile(r'^    contexts = "(all|current)"', re.M)  # a scene class's own attribute


@dataclass(frozen=True)
class SceneInfo:
    id: str  # CLI id and catalog table
    cls: str  # class name in scenes/<module>.py
    package: str = "scenes"  # tests register fixture scenes from their own package
    titles: dict[str, str] = field(default_factory=dict)  # only for fixtures: lang -> title
    needs: str = ""  # "mask", "heads", "training", "positions", "tiling", "real": only in a lesson with it

    def fits(self, lesson) -> bool:
        """Whether the lesson has what the scene shows (a mask, several heads); every scene fits a lesson
        of None (no lesson at hand) unless it needs a feature."""
        return not self.needs or bool(lesson is not None and getattr(lesson, self.needs))

    @cached_property
    def contexts(self) -> str:
        """The class's `contexts` ("all" when it shows every context of the lesson, else "current"),
        read from its source: planning decides what a scene's output depends on without manim. A class
        attribute is a line of its own at the class body's indentation: found by a regex, not by parsing the
        source, since every command plans (and a re-run with nothing to do is mostly planning)."""
        text = self.file.read_text(encoding="utf-8")
        head = re.search(rf"^class {self.cls}\b.*$", text, re.M)
        if head is None:
            return "current"
        after = text[head.end():]
        end = re.search(r"^\S", after, re.M)  # the class's body: up to the next unindented line
        found = CONTEXTS.search(after[:end.start()] if end else after)
        return found.group(1) if found else "current"

    @property
    def module(self) -> str:
        return self.id.replace("-", "_")

    @property
    def file(self) -> Path:
        if self.package == "scenes":
            return HERE / f"{self.module}.py"
        return Path(importlib.util.find_spec(f"{self.package}.{self.module}").origin)

    def title(self, lang: str = "zh") -> str:
        return self.titles.get(lang) or phrase(lang, f"{self.module}.title")

    def short(self, lang: str = "zh") -> str:
        """A name short enough for the studio's timeline (its catalog's `short`), else its title."""
        words, key = catalog(lang), f"{self.module}.short"
        return words(key) if not self.titles and key in words else self.title(lang)

    def step_titles(self, lang: str = "zh") -> dict[str, str]:
        """Each step's name for people, by the step's id (its catalog's `steps` table: "scale_step" ->
        "√dₖ で割る"); {} for a scene without one (a test's fixture scene: its ids stand in)."""
        return {k.removeprefix("steps."): v for k, v in catalog(lang).table(self.module).items()
                if k.startswith("steps.")}

    def load(self):
        """Import the scene class (this imports manim)."""
        return getattr(importlib.import_module(f"{self.package}.{self.module}"), self.cls)


SCENES: tuple[SceneInfo, ...] = (
    SceneInfo("overview", "Overview"),
    SceneInfo("projection", "Projection"),
    SceneInfo("scores", "Scores"),
    SceneInfo("geometry", "Geometry"),
    SceneInfo("softmax", "Softmax"),
    SceneInfo("mixing", "Mixing"),
    SceneInfo("matrix", "AttentionMatrix"),
    SceneInfo("mask", "Mask", needs="mask"),
    SceneInfo("heads", "Heads", needs="heads"),
    SceneInfo("learning", "Learning", needs="training"),
    SceneInfo("positions", "Positions", needs="positions"),
    SceneInfo("tiles", "Tiles", needs="tiling"),
    SceneInfo("real", "Real", needs="real"),
    SceneInfo("contexts", "Contexts"),
    SceneInfo("lookup", "Lookup"),
    SceneInfo("normalizers", "Normalizers"),
    SceneInfo("edge-cases", "EdgeCases"),
    SceneInfo("mistakes", "Mistakes"),
    SceneInfo("cost", "Cost"),
)
BY_ID = {s.id: s for s in SCENES}


def step_name(n: int, step: str) -> str:
    """A step's name in file names: <nn>-<step>, numbered from 1 within its scene."""
    return f"{n:02d}-{step}"


def step_file(scene_id: str, n: int, step: str, ext: str) -> str:
    """The one name of a step's file (clip, slide, frame): <id>-<nn>-<step>.<ext>."""
    return f"{scene_id}-{step_name(n, step)}.{ext}"


# a step's frame (PNG, LessonScene.save_keyframe) says in its text chunks what a page printing it needs:
# the box of its body "x0,y0,x1,y1" (the heading left out) and its smallest text's cap height, in pixels
FRAME_BODY, FRAME_MIN_CAP = "attention-lesson:body", "attention-lesson:min-cap"


def existing() -> tuple[SceneInfo, ...]:
    """Every scene whose file exists, in order, whatever lesson it needs (a batch plan's choices; the
    studio, whose lesson may gain a mask)."""
    return tuple(s for s in SCENES if s.file.exists())


def available(lesson=None) -> tuple[SceneInfo, ...]:
    """The scenes of the lesson in order: those whose file exists and whose feature (a mask, several
    heads) the lesson has; without a lesson, the scenes every lesson has."""
    return tuple(s for s in existing() if s.fits(lesson))


NEEDS_KEY = {"mask": 'mask = "causal"', "heads": "[[heads]]", "training": "[training]",
             "positions": "[positions]", "tiling": "[tiling]"}  # what a lesson file needs for the scene
