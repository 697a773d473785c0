"""A contact sheet: one thumbnail per scene (its last frame), titled, in lesson order, on the scenes'
theme's background."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from scenes.common import style

from ..pipeline.manifest import write_atomically

THUMB_W = 480
PAD = 16
CAPTION_H = 40
CAPTION_SIZE = 22


def _rgb(color) -> tuple[int, int, int]:
    return tuple(round(c * 255) for c in color.to_rgb())


def _font(size: int):
    """The scenes' font (fontconfig finds its file), or Pillow's own if it is not installed."""
    try:
        path = subprocess.run(["fc-match", "-f", "%{file}", style.FONT], capture_output=True, text=True,
                              check=True).stdout.strip()
        return ImageFont.truetype(path, size)
    except (OSError, subprocess.CalledProcessError):
        return ImageFont.load_default()


def contact_sheet(items: list[tuple[str, Path]], dest: Path, cols: int = 4,
                  theme: str = style.DEFAULT_THEME) -> Path:
    """items: (caption, png) in order -> one PNG grid written atomically to dest, in the theme's colours."""
    colours = style.THEMES[theme]
    thumbs = []
    for caption, png in items:
        im = Image.open(png).convert("RGB")
        im.thumbnail((THUMB_W, THUMB_W))
        thumbs.append((caption, im))
    th = max(im.height for _, im in thumbs)
    rows = -(-len(thumbs) // cols)
    sheet = Image.new("RGB", (cols * (THUMB_W + PAD) + PAD, rows * (th + CAPTION_H + PAD) + PAD),
                      _rgb(colours.background))
    draw, font = ImageDraw.Draw(sheet), _font(CAPTION_SIZE)
    for n, (caption, im) in enumerate(thumbs):
        x = PAD + (n % cols) * (THUMB_W + PAD)
        y = PAD + (n // cols) * (th + CAPTION_H + PAD)
        sheet.paste(im, (x, y))
        draw.text((x, y + th + 6), caption, fill=_rgb(colours.text), font=font)
    png = io.BytesIO()
    sheet.quantize(colors=256).save(png, format="PNG", optimize=True)  # a palette keeps the README light
    write_atomically(dest, png.getvalue())
    return dest
