"""The lesson's scenes in order. No manim import: the CLI lists and plans without starting manim."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from .common.i18n import catalog

HERE = Path(__file__).parent


@dataclass(frozen=True)
class SceneInfo:
    id: str  # CLI id and catalog table
    cls: str  # class name in scenes/<module>.py
    contexts: str = "current"  # "all" when the scene shows every context of the lesson
    package: str = "scenes"  # tests register fixture scenes from their own package
    titles: dict[str, str] = field(default_factory=dict)  # only for fixtures: lang -> title

    @property
    def module(self) -> str:
        return self.id.replace("-", "_")

    @property
    def file(self) -> Path:
        if self.package == "scenes":
            return HERE / f"{self.module}.py"
        return Path(importlib.util.find_spec(f"{self.package}.{self.module}").origin)

    def title(self, lang: str = "zh") -> str:
        return self.titles.get(lang) or catalog(lang)(f"{self.module}.title")

    def load(self):
        """Import the scene class (this imports manim)."""
        return getattr(importlib.import_module(f"{self.package}.{self.module}"), self.cls)


SCENES: tuple[SceneInfo, ...] = (
    SceneInfo("overview", "Overview", contexts="all"),
    SceneInfo("projection", "Projection"),
    SceneInfo("scores", "Scores"),
    SceneInfo("softmax", "Softmax"),
    SceneInfo("mixing", "Mixing"),
    SceneInfo("matrix", "AttentionMatrix"),
    SceneInfo("contexts", "Contexts", contexts="all"),
    SceneInfo("lookup", "Lookup"),
    SceneInfo("normalizers", "Normalizers"),
    SceneInfo("edge-cases", "EdgeCases"),
    SceneInfo("mistakes", "Mistakes"),
    SceneInfo("cost", "Cost"),
)
BY_ID = {s.id: s for s in SCENES}


def available() -> tuple[SceneInfo, ...]:
    """The scenes whose file exists (all of them once the lesson is complete)."""
    return tuple(s for s in SCENES if s.file.exists())
