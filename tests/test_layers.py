"""The layers, read from the source: data flows one way, lesson file -> attention_core -> scenes ->
attention_lesson (pipeline -> outputs -> cli). No module imports from a layer above its own, the core
never imports manim, and no module of the pipeline, the outputs or the CLI brings in manim (or Dask)
when it is imported, directly or through the modules it imports: manim is imported only inside the
functions that draw, in worker processes (tests/test_no_manim.py runs the commands to prove it)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# lowest first: a module may import from its own layer and the layers before it
LAYERS = ("attention_core", "scenes", "attention_lesson.messages", "attention_lesson.pipeline",
          "attention_lesson.outputs", "attention_lesson.studio", "attention_lesson.cli")
# modules that must stay importable without manim (the CLI's light commands, planning)
NO_MANIM = ("attention_core", "scenes.registry", "scenes.common.i18n", "scenes.common.settings",
            "attention_lesson.pipeline.plan", "attention_lesson.cli")
# what only the processes that draw (or run a batch) may load
HEAVY = ("manim", "manim_slides", "dask", "distributed")
# every module of these must be importable without them, transitively (imports inside functions do not
# count: they run in the worker that draws)
LIGHT = ("attention_core", "attention_lesson", "scenes.registry", "scenes.common.i18n",
         "scenes.common.settings", "scenes.common.style", "scenes.common.formats", "scenes.common.speech",
         "scenes.common.captions")


def layer_of(module: str) -> int | None:
    """Index of the layer a dotted module name belongs to (the longest matching prefix)."""
    best = None
    for i, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            if best is None or len(name) > len(LAYERS[best]):
                best = i
    return best


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in a file, relative imports resolved."""
    return list(_imports(path, ROOT))


@functools.cache  # three checks read every file: each parsed once (per ROOT: the checks' tests move it)
def _imports(path: Path, root: Path) -> tuple[tuple[int, str], ...]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.append((node.lineno, mod))
            found += [(node.lineno, f"{mod}.{a.name}") for a in node.names]  # `from pkg import mod`
    return tuple(found)


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def violations(files: list[Path]) -> list[str]:
    """One line per offending import statement: file, line, the module and why."""
    found = {}
    for path in files:
        name = module_name(path)
        own = layer_of(name)
        light = any(name == m or name.startswith(m + ".") for m in NO_MANIM)
        for line, mod in imports(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            other = layer_of(mod)
            if own is not None and other is not None and other > own:
                found.setdefault(where, f"{where} imports {mod} ({LAYERS[other]} is above {LAYERS[own]})")
            if light and mod.split(".")[0] in ("manim", "manim_slides"):
                found.setdefault(where, f"{where} imports {mod} (must not import manim)")
    return list(found.values())


def all_files() -> list[Path]:
    return [p for pkg in ("attention_core", "scenes", "attention_lesson") for p in sources(pkg)]


def test_every_package_is_a_known_layer():
    unknown = [module_name(p) for p in all_files() if layer_of(module_name(p)) is None]
    assert unknown == ["attention_lesson", "attention_lesson.__main__"]  # the docstring; `python -m`: the CLI
    assert len(all_files()) > 30


def test_no_import_from_a_layer_above():
    assert violations(all_files()) == []


def test_the_product_holds_the_product_only():
    """The three packages never import the tests or devtools/ (the ear, the browser: outside the wheel),
    and the benchmarks (scripts/) never import the tests: what they share is in devtools/."""
    outside = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in all_files() for line, mod in imports(p)
               if mod.split(".")[0] in ("tests", "devtools")]
    outside += [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in sources("scripts")
                for line, mod in imports(p) if mod.split(".")[0] == "tests"]
    assert outside == []


@pytest.mark.parametrize("module,text,expected", [
    ("attention_core/bad.py", "from scenes.common import style\n", "imports scenes.common"),
    ("attention_core/bad.py", "import manim\n", "must not import manim"),
    ("scenes/bad.py", "from attention_lesson.pipeline.plan import Job\n",
     "attention_lesson.pipeline is above scenes"),
    ("attention_lesson/pipeline/bad.py", "from ..cli.options import render_options\n",
     "imports attention_lesson.cli.options"),
    ("scenes/common/bad.py", "from ...attention_lesson import cli\n", "imports attention_lesson"),
])
def test_the_check_names_the_offending_import(tmp_path, monkeypatch, module, text, expected):
    """The check fails, naming file, line and import, on a planted upward import."""
    fake_root = tmp_path / "root"
    path = fake_root / module
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    found = violations([path])
    assert len(found) == 1 and expected in found[0] and f"{module}:1" in found[0], found


def module_imports(path: Path) -> list[tuple[int, str]]:
    """The imports a module runs when it is imported: at module level and in class bodies, in ifs and
    trys, but not inside functions."""
    return list(_module_imports(path, ROOT))


@functools.cache  # every chain walks the same files: each parsed once (per ROOT: the checks' tests move it)
def _module_imports(path: Path, root: Path) -> tuple[tuple[int, str], ...]:
    found, package = [], module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]

    def visit(nodes):
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Import):
                found.extend((node.lineno, a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                found.append((node.lineno, mod))
                found.extend((node.lineno, f"{mod}.{a.name}") for a in node.names)
            else:
                visit(ast.iter_child_nodes(node))

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return tuple(found)


def project_file(module: str) -> Path | None:
    """The file of a project module (a package's __init__.py), or None for a name that is not one."""
    return _project_file(module, ROOT)


@functools.cache  # asked tens of thousands of times by the chains' walks, of a tree that does not change
def _project_file(module: str, root: Path) -> Path | None:
    base = root.joinpath(*module.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def heavy_chain(start: str) -> list[str] | None:
    """The chain of module-level imports from `start` to manim or Dask, or None: breadth first, so the
    shortest (parent packages are imported too, as Python does)."""
    parents, todo = {start: None}, [start]
    while todo:
        mod = todo.pop(0)
        path = project_file(mod)
        for _, name in module_imports(path) if path else []:
            if name.split(".")[0] in HEAVY:
                chain = [name, mod]
                while parents[chain[-1]] is not None:
                    chain.append(parents[chain[-1]])
                return chain[::-1]
            parts = name.split(".")
            for k in range(1, len(parts) + 1):
                sub = ".".join(parts[:k])
                if sub not in parents and project_file(sub):
                    parents[sub] = mod
                    todo.append(sub)
    return None


def light_modules() -> list[str]:
    mods = []
    for name in LIGHT:
        path = project_file(name)
        files = sorted(path.parent.rglob("*.py")) if path and path.name == "__init__.py" else [path]
        mods += [module_name(p) for p in files]
    return mods


def test_nothing_light_brings_in_manim_or_dask():
    chains = [" -> ".join(c) for m in light_modules() if (c := heavy_chain(m))]
    assert chains == []
    assert len(light_modules()) > 40


def test_the_chain_check_names_the_chain(tmp_path, monkeypatch):
    """A module that imports manim through two others is named with the whole chain."""
    fake = tmp_path / "root"
    for rel, text in (("attention_lesson/__init__.py", ""), ("attention_lesson/cli.py", "from . import a\n"),
                      ("attention_lesson/a.py", "import attention_lesson.b\n"),
                      ("attention_lesson/b.py", "def f():\n    import dask\nfrom manim import Scene\n")):
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text(text, encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake)
    assert heavy_chain("attention_lesson.cli") == ["attention_lesson.cli", "attention_lesson.a",
                                                   "attention_lesson.b", "manim"]


# the pipeline's rooms, lowest first, and what each may import of the others (every import counts, those
# inside functions too): the voice is below planning (a digest names its speaker, the join lays its
# codecs), drawing uses planning and the voice and nothing of planning uses drawing; build, the front
# door, plans, draws and makes; batch runs build's plans on Dask
PIPELINE = "attention_lesson.pipeline"
ROOMS = {  # a module -> its room: the longest matching name
    f"{PIPELINE}.ffmpeg": "tools", f"{PIPELINE}.manifest": "tools", f"{PIPELINE}.deps": "tools",
    f"{PIPELINE}.voice": "voice", PIPELINE: "planning", f"{PIPELINE}.drawing": "drawing",
    f"{PIPELINE}.build": "build", f"{PIPELINE}.batch": "batch",
}
MAY_USE = {
    "tools": {"tools"},
    "voice": {"voice", "tools"},
    "planning": {"planning", "voice", "tools"},
    "drawing": {"drawing", "planning", "voice", "tools"},
    "build": {"build", "drawing", "planning", "voice", "tools"},
    "batch": {"batch", "build", "drawing", "planning", "voice", "tools"},
}


def room_of(module: str) -> str | None:
    names = [n for n in ROOMS if module == n or module.startswith(n + ".")]
    return ROOMS[max(names, key=len)] if names else None


def named_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, `from pkg import mod` as the module it names, not as
    the package it comes from (`from .. import ffmpeg` imports pipeline.ffmpeg, not the pipeline)."""
    found = imports(path)
    by_line = {}
    for line, mod in found:
        by_line.setdefault(line, set()).add(mod)
    return [(line, mod) for line, mod in found
            if not any(o.startswith(mod + ".") and project_file(o) for o in by_line[line])
            and (project_file(mod) or mod.rsplit(".", 1)[0] not in by_line[line])]


def room_violations(files: list[Path]) -> list[str]:
    """One line per import that goes from a room of the pipeline to one it may not use."""
    found = {}
    for path in files:
        own = room_of(module_name(path))
        for line, mod in named_imports(path) if own else []:
            other = room_of(mod)
            if other is not None and other not in MAY_USE[own]:
                where = f"{path.relative_to(ROOT)}:{line}"
                found.setdefault(where, f"{where} imports {mod} (the {own} room may not use {other})")
    return list(found.values())


def test_the_pipeline_rooms_import_only_downward():
    files = sources("attention_lesson/pipeline")
    assert {room_of(module_name(p)) for p in files} == set(MAY_USE)  # every room has modules, none is unknown
    assert room_violations(files) == []


def test_the_room_check_names_the_import(tmp_path, monkeypatch):
    """A planning module that imports the runner fails, named with its file and line."""
    fake = tmp_path / "root"
    path = fake / "attention_lesson" / "pipeline" / "plan.py"
    path.parent.mkdir(parents=True)
    path.write_text("import os\nfrom .drawing.runner import run\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake)
    assert room_violations([path]) == ["attention_lesson/pipeline/plan.py:2 imports attention_lesson.pipeline"
                                       ".drawing.runner (the planning room may not use drawing)"]


def import_graph(files: list[Path]) -> dict[str, set[str]]:
    """module -> the project modules it imports by name (anywhere in it: inside functions too, so an
    import moved into a function to dodge a circle still counts); `from pkg import mod` is the module."""
    names = {module_name(p) for p in files}
    return {module_name(p): {m for _, m in named_imports(p) if m in names and m != module_name(p)}
            for p in files}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports, each once, as a closed chain [a, b, ..., a] from its smallest module."""
    found, seen = [], set()

    def walk(node, chain):
        for nxt in sorted(graph.get(node, ())):
            if nxt == chain[0]:
                key = frozenset(chain)
                if key not in seen:
                    seen.add(key)
                    found.append([*chain, nxt])
            elif nxt not in chain and nxt > chain[0]:
                walk(nxt, [*chain, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def test_no_import_circle_anywhere():
    files = all_files()
    circles = [" -> ".join(c) for c in cycles(import_graph(files))]
    assert circles == []


def test_the_circle_check_names_the_circle(tmp_path, monkeypatch):
    fake = tmp_path / "root"
    for rel, text in (("attention_lesson/__init__.py", ""), ("attention_lesson/a.py", "from . import b\n"),
                      ("attention_lesson/b.py", "def f():\n    from .c import x\n"),
                      ("attention_lesson/c.py", "import attention_lesson.a\n")):
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text(text, encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake)
    files = sorted((fake / "attention_lesson").glob("*.py"))
    assert cycles(import_graph(files)) == [["attention_lesson.a", "attention_lesson.b", "attention_lesson.c",
                                           "attention_lesson.a"]]
