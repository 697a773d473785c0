"""System dependencies a render needs, checked before any rendering starts."""

from __future__ import annotations

import shutil
import subprocess

from scenes.common.style import FONT

SETUP = "./scripts/setup.sh (or: sudo apt-get install {pkg})"


def _font_installed(family: str) -> bool:
    try:
        out = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return False
    return any(family in line for line in out.splitlines())


def _ffmpeg_has(encoder: str) -> bool:
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    return any(line.split()[1:2] == [encoder] for line in out.splitlines() if line.startswith(" "))


def missing(formats: set[str], transparent: bool = False, join: bool = False,
            voice: str | None = None) -> list[str]:
    """What is missing for these outputs, each with the command that installs it."""
    problems = []
    if voice is not None and shutil.which("espeak-ng") is None:
        problems.append(f"espeak-ng (the draft voice): {SETUP.format(pkg='espeak-ng')}")
    for tool, pkg in (("latex", "texlive-latex-base"), ("dvisvgm", "dvisvgm")):
        if shutil.which(tool) is None:
            problems.append(f"{tool} (for the formulas): {SETUP.format(pkg=pkg)}")
    if not _font_installed(FONT):
        problems.append(f"the font {FONT} (for Chinese text): {SETUP.format(pkg='fonts-noto-cjk')}")
    needs_ffmpeg = join or voice is not None or "gif" in formats or ("mov" in formats and transparent)
    if needs_ffmpeg:
        if shutil.which("ffmpeg") is None:
            problems.append(f"ffmpeg (to join clips and make GIFs): {SETUP.format(pkg='ffmpeg')}")
        elif "gif" in formats and not _ffmpeg_has("gif"):
            problems.append(f"ffmpeg's gif encoder: {SETUP.format(pkg='ffmpeg')}")
    return problems
