"""The layers, read from the source: data flows one way, lesson file -> attention_core -> scenes ->
attention_lesson (pipeline -> outputs -> cli). No module imports from a layer above its own, the core
never imports manim, and no module of the pipeline, the outputs or the CLI brings in manim (or Dask)
when it is imported, directly or through the modules it imports: manim is imported only inside the
functions that draw, in worker processes (tests/test_no_manim.py runs the commands to prove it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# lowest first: a module may import from its own layer and the layers before it
LAYERS = ("attention_core", "scenes", "attention_lesson.pipeline", "attention_lesson.outputs",
          "attention_lesson.studio", "attention_lesson.cli")
# modules that must stay importable without manim (the CLI's light commands, planning)
NO_MANIM = ("attention_core", "scenes.registry", "scenes.common.i18n", "scenes.common.settings",
            "attention_lesson.pipeline.plan", "attention_lesson.cli")
# what only the processes that draw (or run a batch) may load
HEAVY = ("manim", "manim_slides", "dask", "distributed")
# every module of these must be importable without them, transitively (imports inside functions do not
# count: they run in the worker that draws)
LIGHT = ("attention_core", "attention_lesson", "scenes.registry", "scenes.common.i18n", "scenes.common.settings",
         "scenes.common.style", "scenes.common.formats", "scenes.common.speech", "scenes.common.captions")


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
    return found


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
    assert unknown == ["attention_lesson"]  # the package's docstring only
    assert len(all_files()) > 30


def test_no_import_from_a_layer_above():
    assert violations(all_files()) == []


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
    return found


def project_file(module: str) -> Path | None:
    """The file of a project module (a package's __init__.py), or None for a name that is not one."""
    base = ROOT.joinpath(*module.split("."))
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
