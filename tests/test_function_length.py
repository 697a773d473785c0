"""No function or method in the core, the scenes, the pipeline, the outputs or the CLI is longer than
MAX_LINES: a long one is split into helpers
that each do one thing (build the mobjects from the core's arrays, place them, animate them). A
function's length runs from its `def` line to its last line, decorators excluded. No module there, in
the scripts or in the tests is longer than MAX_MODULE_LINES: a long one is split along its concerns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# folders (relative to the repository) whose every .py file is checked
FOLDERS = ("attention_core", "scenes", "attention_lesson")
MAX_LINES = 40
# whose every .py file is at most MAX_MODULE_LINES long
MODULE_FOLDERS = (*FOLDERS, "devtools", "scripts", "tests")
MAX_MODULE_LINES = 400


def sources(folders: tuple[str, ...] | None = None) -> list[Path]:
    """Every .py file under the folders (FOLDERS by default)."""
    return sorted(p for folder in folders or FOLDERS for p in (ROOT / folder).rglob("*.py"))


def too_long(files: list[Path], limit: int = MAX_LINES) -> list[str]:
    """`file:line name (N lines)` for every function or method (nested ones too) over `limit` lines."""
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((path, node.lineno,
                                  f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)"))
    return [line for *_, line in sorted(found)]


def test_the_check_reads_the_scene_code():
    files = sources()
    assert len(files) > 50 and ROOT / "scenes" / "common" / "mobjects.py" in files
    assert ROOT / "attention_lesson" / "pipeline" / "batch" / "client.py" in files


def test_no_function_is_too_long():
    found = too_long(sources())
    assert found == [], (f"functions over {MAX_LINES} lines (split them into helpers that build, place "
                         "and animate):\n" + "\n".join(found))


def function(name: str, body_lines: int, indent: str = "") -> str:
    """A function whose def line plus body is 1 + body_lines lines long."""
    return f"{indent}def {name}():\n" + "".join(f"{indent}    x{i} = {i}\n" for i in range(body_lines))


@pytest.mark.parametrize("module,text,expected", [
    ("scenes/bad.py", function("build", MAX_LINES), ["scenes/bad.py:1 build (41 lines)"]),
    ("scenes/common/bad.py", "class Scene:\n    @property\n" + function("step", MAX_LINES + 4, "    "),
     ["scenes/common/bad.py:3 step (45 lines)"]),
    ("scenes/bad.py", "def outer():\n" + function("inner", MAX_LINES, "    "),
     ["scenes/bad.py:1 outer (42 lines)", "scenes/bad.py:2 inner (41 lines)"]),
    ("scenes/bad.py", "async def play():\n" + "".join(f"    y{i} = {i}\n" for i in range(MAX_LINES)),
     ["scenes/bad.py:1 play (41 lines)"]),
], ids=["function", "decorated-method", "nested", "async"])
def test_the_check_names_the_long_function(tmp_path, monkeypatch, module, text, expected):
    """The check fails, naming file, line, function and length, on a planted long function; a function
    of exactly MAX_LINES lines (decorators not counted) passes."""
    fake_root = tmp_path / "root"
    path = fake_root / module
    path.parent.mkdir(parents=True)
    path.write_text(text + "@decorated\n" + function("at_the_bound", MAX_LINES - 1), encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    assert too_long(sources()) == expected


def test_every_layer_is_checked(tmp_path, monkeypatch):
    """A long function in the core, the pipeline or the CLI is found as one in a scene is; a folder
    outside FOLDERS is not read."""
    fake_root = tmp_path / "root"
    for module in ("attention_core/bad.py", "attention_lesson/pipeline/bad.py", "elsewhere/bad.py"):
        path = fake_root / module
        path.parent.mkdir(parents=True)
        path.write_text(function("render", MAX_LINES), encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    assert too_long(sources()) == ["attention_core/bad.py:1 render (41 lines)",
                                   "attention_lesson/pipeline/bad.py:1 render (41 lines)"]


def long_modules(files: list[Path], limit: int = MAX_MODULE_LINES) -> list[str]:
    """`file (N lines)` for every file over `limit` lines."""
    found = []
    for path in files:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(ROOT)} ({lines} lines)")
    return found


def test_no_module_is_too_long():
    files = sources(MODULE_FOLDERS)
    assert ROOT / "scripts" / "benchmark.py" in files and ROOT / "tests" / "conftest.py" in files
    found = long_modules(files)
    assert found == [], (f"modules over {MAX_MODULE_LINES} lines (split them along their concerns):\n"
                         + "\n".join(found))


def test_the_check_names_the_long_module(tmp_path, monkeypatch):
    """A module one line over the bound is named with its length, in any of the folders; one at the
    bound passes, and a folder outside MODULE_FOLDERS is not read."""
    fake_root = tmp_path / "root"
    texts = {"scripts/bench/big.py": MAX_MODULE_LINES + 1, "tests/test_big.py": MAX_MODULE_LINES + 1,
             "scenes/at_the_bound.py": MAX_MODULE_LINES, "elsewhere/big.py": MAX_MODULE_LINES + 1}
    for module, lines in texts.items():
        path = fake_root / module
        path.parent.mkdir(parents=True)
        path.write_text("".join(f"x{i} = {i}\n" for i in range(lines)), encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    assert long_modules(sources(MODULE_FOLDERS)) == [f"scripts/bench/big.py ({MAX_MODULE_LINES + 1} lines)",
                                                     f"tests/test_big.py ({MAX_MODULE_LINES + 1} lines)"]


# the pipeline, the outputs, the CLI and the core take their options as objects (RenderOptions, Run,
# ProductArgs, StudioArgs), not as long parameter lists; the scenes' mobjects (NumberGrid, WeightBars)
# take documented keyword parameters, as manim's Matrix and BarChart do
PARAMETER_FOLDERS = ("attention_core", "attention_lesson")
MAX_PARAMETERS = 7


def too_many_parameters(files: list[Path], limit: int = MAX_PARAMETERS) -> list[str]:
    """`file name:line name (N parameters)` for every function over `limit` parameters (self and cls not
    counted, nor *args and **kwargs)."""
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                n = len(names) - (names[:1] in (["self"], ["cls"]))
                if n > limit:
                    found.append(f"{path.name}:{node.lineno} {node.name} ({n} parameters)")
    return found


def test_no_function_takes_more_than_seven_parameters(tmp_path):
    assert too_many_parameters(sources(PARAMETER_FOLDERS)) == []
    planted = tmp_path / "bad.py"
    planted.write_text("class C:\n    def f(self, a, b, c, d, e, f, g, *, h=1, **kw):\n        pass\n"
                       "def g(a, b, c, d, e, f, g):\n    pass\n")
    assert too_many_parameters([planted]) == ["bad.py:2 f (8 parameters)"]
