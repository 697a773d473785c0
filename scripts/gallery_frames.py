#!/usr/bin/env python3
"""The guide's gallery frames of the scenes no golden test draws (learning, positions, tiles, real): each
step's last frame, rendered by the CLI at full quality from the scene's built-in lesson in Chinese and
scaled down to the goldens' size (854 × 480), palette-optimised, into docs/_static/gallery/.

    .venv/bin/python scripts/gallery_frames.py                 # all three, high quality (1080p)
    .venv/bin/python scripts/gallery_frames.py tiles --quality low

A dev tool, not a test: run it after changing one of these scenes (docs/_ext/gallery.py reads the
frames it finds there).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "_static" / "gallery"
LESSONS = {"learning": "learning", "positions": "positions", "tiles": "tiled",  # scene -> its lesson
           "real": "real"}
SIZE = (854, 480)  # the goldens' frame (low quality)
COLOURS = 128  # a palette this large keeps the heat colours and the text's antialiasing


def render(scene: str, quality: str, folder: Path) -> list[Path]:
    """The scene's step frames (the pipeline's keyframes: ATTENTION_KEYFRAMES) at `quality`."""
    env = {**os.environ, "ATTENTION_KEYFRAMES": str(folder), "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "attention_lesson", "render", scene, "--lesson", LESSONS[scene],
                    "--lang", "zh", "--quality", quality, "--format", "png", "--out", str(folder / "video"),
                    "--force"],
                   check=True, env=env, cwd=ROOT)
    return sorted(folder.glob(f"{scene}-[0-9][0-9]-*.png"))


def small(frame: Path, to: Path) -> None:
    """The frame at the goldens' size, as a palette PNG (a third of the RGBA file's bytes)."""
    image = Image.open(frame).convert("RGB")
    if image.size != SIZE:
        image = image.resize(SIZE, Image.Resampling.LANCZOS)
    image.quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        to, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="*", help=f"of {', '.join(LESSONS)} (default: all)")
    parser.add_argument("--quality", default="high", choices=["low", "medium", "high", "4k"])
    args = parser.parse_args()
    if set(args.scenes) - set(LESSONS):
        parser.error(f"no gallery frames for {', '.join(sorted(set(args.scenes) - set(LESSONS)))}")
    for scene in args.scenes or LESSONS:
        with tempfile.TemporaryDirectory() as tmp:
            frames = render(scene, args.quality, Path(tmp))
            for old in OUT.glob(f"{scene}-[0-9][0-9]-*.png"):  # a step renamed or gone: its frame too
                old.unlink()
            for frame in frames:
                small(frame, OUT / frame.name)
                print(OUT / frame.name, (OUT / frame.name).stat().st_size // 1024, "KB")


if __name__ == "__main__":
    main()
