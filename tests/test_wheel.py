"""The wheel is the product: built from this tree, installed into a fresh virtual environment (its
dependencies seen from the project's own venv, none of this repository on the path), and every command
run from an empty folder with no node_modules anywhere, at the smallest quality, as a teacher who ran
`pip install attention-lesson` would. The deck's reveal.js and the studio's editor load in chromium.

One module-scoped install; the commands share one folder and its renders (the tiny lesson, one frame a
second)."""

import json
import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from .studio_helpers import watch_console

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "lessons" / "tiny.toml"
# one scene a command: one worker
SMALL = ("--lesson", "lesson.toml", "--quality", "low", "--fps", "1", "-q", "-j", "1")
pytestmark = [pytest.mark.render, pytest.mark.xdist_group("wheel")]


class Installed:
    """The wheel in a venv of its own, and an empty folder to run its commands in."""

    def __init__(self, base: Path):
        dist, self.venv, self.work = base / "dist", base / "venv", base / "work"
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
                        str(ROOT)], check=True, capture_output=True, cwd=base)
        self.wheel = next(dist.glob("attention_lesson-*.whl"))
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(self.venv)], check=True)
        site = next(self.venv.glob("lib/python*/site-packages"))
        # the dependencies: the project's venv, added as a plain path (its .pth files, the editable
        # install of this tree among them, are not read)
        (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        # pip without PYTHONPATH: a tree on it (with the egg-info the build leaves) would count as the
        # package installed already, and pip would install nothing
        subprocess.run([sys.executable, "-m", "pip", "--python", str(self.venv / "bin" / "python"), "install",
                        "--no-deps", "--no-index", "--quiet", "--disable-pip-version-check", str(self.wheel)],
                       check=True, env=self.env)
        self.site = site
        self.work.mkdir()
        self.env["PATH"] = f"{self.venv / 'bin'}:{os.environ['PATH']}"

    def run(self, *args: str, ok: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
        """`attention-lesson ARGS` as the wheel installed it, in the empty folder."""
        r = subprocess.run([str(self.venv / "bin" / "attention-lesson"), *args], cwd=self.work,
                           env=env or self.env, capture_output=True, text=True, timeout=600)
        assert (r.returncode == 0) == ok, (args, r.returncode, r.stdout[-2000:], r.stderr[-3000:])
        assert "Traceback" not in r.stderr, (args, r.stderr[-3000:])
        return r


def unreadable(folder: Path) -> list[str]:
    """What in folder others could not read (the umask here is 022: files 0644, folders 0755)."""
    return [p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.stat().st_mode & 0o004]


def test_the_wheel_s_tests_share_one_worker(request):
    """They share one install (a module fixture) and build in this tree: on two workers at once the two
    builds collided. xdist's loadgroup marks a grouped test's id with its group."""
    import os

    if os.environ.get("PYTEST_XDIST_WORKER"):
        assert request.node.nodeid.endswith("@wheel"), request.node.nodeid


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return Installed(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_carries_what_it_serves_and_is_small(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    for needed in ("attention_lesson/web/vendor/codemirror.js",
                   "attention_lesson/web/vendor/reveal.js/dist/reveal.js",
                   "attention_lesson/web/explorer.js", "attention_core/lessons/default.toml",
                   "attention_lesson/starters/zh.toml", "attention_lesson/starters/en.toml",
                   "attention_lesson/starters/ja.toml", "scenes/i18n/zh/common.toml",
                   "attention_lesson/pipeline/drawing/estimates.json",
                   "attention_lesson/web/vendor/kokoro-js/voices/zm_yunjian.bin",
                   "attention_lesson/web/vendor/kokoro-js/LICENSE",
                   "attention_lesson/web/vendor/kokoro-js/NOTICE"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("tests/", "scripts/", "devtools/", "node_modules/"))]
    assert not [n for n in names if n.endswith("/ear.py")]  # the ear (devtools/) is for tests and benchmarks
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert installed.wheel.stat().st_size < 5e6


def test_it_runs_from_the_wheel_not_the_repository(installed):
    r = installed.run("--version")
    assert r.stdout.strip() == "attention-lesson, version 0.1.0"
    python = [str(installed.venv / "bin" / "python"), "-m", "attention_lesson", "--version"]
    assert subprocess.run(python, env=installed.env, capture_output=True, text=True).stdout == r.stdout
    code = "import attention_lesson, scenes; print(attention_lesson.__file__, scenes.__file__)"
    where = subprocess.run([str(installed.venv / "bin" / "python"), "-c", code], cwd=installed.work,
                           env=installed.env, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(w).is_relative_to(installed.site) for w in where), where


def test_every_code_file_a_digest_lists_is_in_the_installed_package(installed):
    """No digest names a file of the repository (package-lock.json, node_modules) or an absolute path:
    every product's and every scene's files resolve inside the installed package."""
    code = ("import json; from attention_lesson.outputs.registry import PRODUCTS;"
            "from attention_lesson.pipeline.plan import ROOT, code_files; from scenes.registry import SCENES;"
            "print(json.dumps([str(ROOT)] + [c for p in PRODUCTS.values() for c in p.code]"
            " + [str(f) for s in SCENES for f in code_files(s, 'zh', 'draft')]))")
    out = subprocess.run([str(installed.venv / "bin" / "python"), "-c", code], cwd=installed.work,
                         env=installed.env, capture_output=True, text=True, check=True).stdout
    root, *files = json.loads(out)
    assert Path(root) == installed.site
    for f in files:
        path = Path(root) / f  # a relative name is the package's; an absolute one must be inside it
        assert path.resolve().is_relative_to(installed.site) and path.is_file(), f


def test_the_light_commands(installed):
    installed.run("new", "lesson.toml", "--lang", "en")
    assert "d_model 4" in installed.run("check", "lesson.toml", "--lang", "en").stdout
    assert "default" in installed.run("lessons").stdout
    numbers = json.loads(installed.run("numbers", "--lesson", "default", "--json").stdout)
    assert numbers["weights"]
    listing = installed.run("list").stdout
    assert "overview" in listing and "softmax" in listing
    doctor = installed.run("doctor")  # (in the one rule's zh: no lesson, no variable)
    assert doctor.returncode == 0 and doctor.stdout.splitlines()[-1] == "渲染所需的一切都已齐备。"


def test_renders_decks_handout_and_explorer(installed, browser):
    (installed.work / "lesson.toml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    # the videos and decks in English (no Chinese word segmenter to load: 0.7 s of CPU a worker), the
    # handout in Chinese
    installed.run("render", "softmax", *SMALL, "--lang", "en", "--out", "out")
    assert (installed.work / "out" / "softmax.mp4").stat().st_size > 1000
    installed.run("slides", "softmax", *SMALL, "--lang", "en", "--to", "html", "--out", "out")
    installed.run("slides", "softmax", *SMALL, "--lang", "en", "--to", "pptx", "--out", "out")
    assert (installed.work / "out" / "deck.pptx").stat().st_size > 1000
    installed.run("handout", "softmax", "--lesson", "lesson.toml", "-q", "-j", "1", "--out", "out")
    assert (installed.work / "out" / "handout.pdf").read_bytes().startswith(b"%PDF")
    installed.run("explorer", "--lesson", "lesson.toml", "--out", "out")
    page = browser.new_page()
    errors = watch_console(page)
    page.goto((installed.work / "out" / "deck" / "index.html").as_uri())
    page.wait_for_function("window.Reveal && Reveal.isReady()")
    assert page.evaluate("Reveal.getTotalSlides()") >= 2
    page.goto((installed.work / "out" / "explorer" / "index.html").as_uri())
    page.wait_for_selector("#matrix td")
    page.close()
    assert errors == []
    assert unreadable(installed.work / "out") == []


def test_the_whole_lesson_and_its_sheet(installed, tmp_path):
    """`lesson` and `sheet` draw every scene of a lesson (90 s of CPU for the real thirteen): here the
    installed package's CLI with only the fixture scene registered (tests/fixtures/cli_probe.py, copied
    into the venv beside the package: a scene's file is named in digests relative to where the packages
    are installed), which also says that the command loaded manim only in its workers."""
    for name in ("__init__.py", "fixtures/__init__.py", "fixtures/cli_probe.py", "fixtures/blink.py"):
        (installed.site / "tests" / name).parent.mkdir(parents=True, exist_ok=True)
        (installed.site / "tests" / name).write_bytes((ROOT / "tests" / name).read_bytes())
    env = installed.env | {"ATTENTION_PROBE": str(tmp_path / "loaded.json")}
    for args in (("lesson", "--out", "whole", "--fps", "1"), ("sheet", "--dest", "sheet.png")):
        r = subprocess.run([str(installed.venv / "bin" / "python"), "-m", "tests.fixtures.cli_probe", *args,
                            "-q", "-j", "1"], cwd=installed.work, env=env, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr[-3000:])
        assert "manim" not in json.loads((tmp_path / "loaded.json").read_text(encoding="utf-8"))
    assert (installed.work / "whole" / "lesson.mp4").stat().st_size > 1000
    assert (installed.work / "whole" / "lesson.srt").read_text(encoding="utf-8")
    assert (installed.work / "sheet.png").read_bytes().startswith(b"\x89PNG")
    assert unreadable(installed.work / "whole") == [] and unreadable(installed.work / "media") == []


def test_voice_script_and_status(installed):
    (installed.work / "lesson.toml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    script = installed.run("voice", "script", "softmax", "--lesson", "lesson.toml", "--lang", "en",
                           "--format", "csv").stdout  # its guide: the neural English voice (Kokoro af_heart)
    assert script.startswith("file,scene,step,line,seconds") and "en/softmax/01-" in script
    assert all(float(row.split(",")[-1]) > 1 for row in script.splitlines()[1:])
    (installed.work / "takes").mkdir(exist_ok=True)
    status = installed.run("voice", "status", "softmax", "--lesson", "lesson.toml", "--lang", "en", "--voice",
                           "takes").stdout  # the steps `voice script` built
    assert "softmax" in status
    if "neural" in status:  # the [voice] extra is there: its voices are the wheel's files
        assert "--voice neural: the neural voice (Kokoro af_heart)" in status, status


def test_batch_on_a_local_cluster(installed):
    (installed.work / "lesson.toml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    (installed.work / "plan.toml").write_text('lessons = ["lesson.toml"]\nscenes = ["softmax"]\n'
                                              'products = ["scenes"]\nout = "batch"\n', encoding="utf-8")
    installed.run("batch", "plan.toml", "--workers", "1", "-q")
    assert list((installed.work / "batch").rglob("softmax.mp4"))
    assert unreadable(installed.work / "batch") == []


def test_doctor_names_a_missing_tool_and_how_to_install_it(installed, tmp_path):
    """ffmpeg hidden from PATH (a folder with every other program of /usr/bin): doctor names it, with its
    install command for each system, and exits 1; a render that needs it says the same in one line."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for exe in Path("/usr/bin").iterdir():
        if exe.name not in ("ffmpeg", "ffprobe"):
            (bin_dir / exe.name).symlink_to(exe)
    env = installed.env | {"PATH": f"{installed.venv / 'bin'}:{bin_dir}"}
    r = installed.run("doctor", ok=False, env=env)
    assert r.returncode == 1 and "MISSING ffmpeg" in r.stdout and "winget install Gyan.FFmpeg" in r.stdout
    assert "brew install ffmpeg" in r.stdout and "ok      espeak-ng" in r.stdout
    r = installed.run("lesson", "--out", "none", ok=False, env=env)
    assert r.returncode == 2 and "ffmpeg" in r.stderr and "sudo apt-get install ffmpeg" in r.stderr
    assert not (installed.work / "none").exists()
    (installed.work / "lesson.toml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    r = installed.run("studio", "lesson.toml", "--no-browser", ok=False, env=env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "ffmpeg (joins the scenes" in r.stderr and "is missing: sudo apt-get install ffmpeg" in r.stderr


def test_the_studio_serves_its_page_editor_and_frames(installed, browser):
    (installed.work / "studio").mkdir(exist_ok=True)
    (installed.work / "studio" / "lesson.toml").write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    # in English, as the videos above: the Chinese handout has drawn from the wheel already
    proc = subprocess.Popen([str(installed.venv / "bin" / "attention-lesson"), "studio", "lesson.toml",
                             "--no-browser", "--port", "0", "-j", "1", "--lang", "en"],
                            cwd=installed.work / "studio", env=installed.env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        url = proc.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{20,}", url), url
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors = watch_console(page)
        page.goto(url)
        page.wait_for_selector(".cm-editor .cm-content")
        assert "tokens" in page.text_content(".cm-content")
        page.wait_for_function("document.querySelector('#preview-img').naturalWidth > 0", timeout=180000)
        page.close()
        assert errors == []
    finally:
        from .studio_helpers import stop

        code, out, err, left = stop(proc)
    assert code == 0 and "Traceback" not in err and not left, (code, out, err, left)


def test_every_package_the_code_imports_is_declared():
    """Each third-party module the three packages import (at the top or inside a function) belongs to a
    distribution pyproject.toml names, in its dependencies or an extra: none arrives only through
    another package (scipy and PyAV came only through manim)."""
    import ast
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"].values()
    wanted = [*project["dependencies"], *(r for reqs in extras for r in reqs)]
    declared = {re.split(r"[\s\[<>=!~;]", r, 1)[0].lower().replace("_", "-") for r in wanted}
    ours = {"attention_core", "scenes", "attention_lesson"}
    found = {}
    for folder in ours:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
                for name in names:
                    found.setdefault(name.split(".")[0], path.relative_to(ROOT).as_posix())
    dists = packages_distributions()
    third = {m: w for m, w in found.items() if m not in ours and m not in sys.stdlib_module_names}
    undeclared = {m: (w, dists.get(m)) for m, w in third.items()
                  if not {d.lower().replace("_", "-") for d in dists.get(m, [])} & declared}
    assert "scipy" in third and "av" in third and "typst" in declared
    # bokeh: Dask's dashboard, used when installed
    assert undeclared == {"bokeh": ("attention_lesson/pipeline/batch/client.py", None)}
