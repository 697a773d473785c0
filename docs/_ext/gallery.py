"""The gallery: every scene of every built-in lesson, each with its poster (the last step's golden frame
the tests keep, tests/golden/), its titles, its steps (read from the scene's source, as the pipeline
counts them) and the command that renders it; and the explorer, written into the site as it is built
(the same files `attention-lesson explorer` writes: no manim, no render).

    ```{scene-gallery}
    ```
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from attention_core import lesson as lessons
from scenes import registry

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
STATIC = ROOT / "docs" / "_static" / "gallery"  # frames of scenes no golden test draws
EXPLORER = "explorer"  # the folder in the site


def steps(scene: registry.SceneInfo) -> list[str]:
    """The names of the scene's steps: those of the frames docs/_static/gallery holds, else its source's
    self.step("...") calls in order."""
    tree = ast.parse(scene.file.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "step" and n.args and isinstance(n.args[0], ast.Constant)]
    calls.sort(key=lambda n: (n.lineno, n.col_offset))
    # the frames rendered first: a scene whose steps depend on the lesson or the machine (the real scene's
    # one step without the [real] extra, its four with it) names them by what it drew
    return rendered_steps(scene) or [n.args[0].value for n in calls] or looped_steps(tree)


def rendered_steps(scene: registry.SceneInfo) -> list[str]:
    """The steps of the frames docs/_static/gallery holds for the scene (its steps depend on the lesson)."""
    frames = sorted(STATIC.glob(f"{scene.id}-[0-9][0-9]-*.png"))
    return [f.stem.split("-", 2)[2] for f in frames]


def looped_steps(tree: ast.AST) -> list[str]:
    """The steps of a scene that names them in one loop: `for name in ("a", "b"): self.step(name)`."""
    for loop in (n for n in ast.walk(tree) if isinstance(n, ast.For) and isinstance(n.iter, ast.Tuple)):
        stepping = any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "step"
                       for c in ast.walk(loop))
        if stepping and all(isinstance(e, ast.Constant) for e in loop.iter.elts):
            return [e.value for e in loop.iter.elts]
    return []


def frame_path(name: str) -> str:
    """A step's frame, relative to the gallery page: its golden frame, else the one docs/_static/gallery
    holds (the scenes of lessons no golden test draws, rendered once by the scene harness)."""
    return f"../tests/golden/{name}" if (GOLDEN / name).exists() else f"_static/gallery/{name}"


def poster(scene: registry.SceneInfo) -> Path:
    """The golden frame of the scene's last step (the default lesson, or the lesson the scene needs)."""
    names = steps(scene)
    return GOLDEN / registry.step_file(scene.id, len(names), names[-1], "png")


@cache
def built_in() -> dict[str, object]:
    return {name: lessons.load(name) for name in lessons.packaged_lessons()}


def lessons_with(scene: registry.SceneInfo) -> list[str]:
    return [name for name, lesson in built_in().items() if scene.fits(lesson)]


def command(scene: registry.SceneInfo) -> str:
    having = lessons_with(scene)
    lesson = "" if "default" in having else f" --lesson {having[0]}"
    return f"attention-lesson render {scene.id}{lesson}"


def step_frames(scene: registry.SceneInfo, names: list[str]) -> list[str]:
    """Each step's golden frame as a small picture with its number and name, in a grid."""
    lines = ["::::{container} gallery-steps", ""]
    for i, step in enumerate(names, 1):
        frame = registry.step_file(scene.id, i, step, "png")
        lines += [":::{container} gallery-step", f"![step {i} of {scene.id}, {step}]"
                  f"({frame_path(frame)})", "", f"{i:02d} `{step}`", ":::", ""]
    return lines + ["::::", ""]


def entry(n: int, scene: registry.SceneInfo) -> list[str]:
    names = steps(scene)
    return [
        f"({scene.id})=", "",
        f"**{n}. {scene.title('en')}** · {scene.title('zh')} · `{scene.id}`", "",
        f"![{scene.title('en')}: the last frame of the step {names[-1]}]"
        f"({frame_path(poster(scene).name)}){{.poster}}",
        "",
        f"- renders it: `{command(scene)}`",
        f"- in the built-in lessons: {', '.join(f'`{x}`' for x in lessons_with(scene))}",
        f"- its {len(names)} steps, each step's last frame:", "",
        *step_frames(scene, names),
    ]


class SceneGallery(SphinxDirective):
    def run(self):
        lines = []
        for n, scene in enumerate(registry.existing(), 1):
            self.env.note_dependency(str(scene.file))
            lines += entry(n, scene)
        container = nodes.container(classes=["gallery"])
        self.state.nested_parse(StringList(lines, source="scenes/registry.py"), self.content_offset,
                                container)
        return [container]


def write_explorer(app, exception) -> None:
    """The default lesson's explorer (zh, scaled, the river context) into the site's explorer/."""
    if exception is not None or app.builder.format != "html":
        return
    from attention_lesson.outputs.explorer import page_data, write_folder

    folder = Path(app.outdir) / EXPLORER
    folder.mkdir(parents=True, exist_ok=True)
    lesson = lessons.load("default")
    write_folder(folder, page_data(lesson, "zh", next(iter(lesson.contexts)), "scaled", "light"))


def setup(app):
    app.add_directive("scene-gallery", SceneGallery)
    app.connect("build-finished", write_explorer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
