"""A contact sheet: one thumbnail per scene (its last frame), titled, in lesson order."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

THUMB_W = 480
PAD = 16
CAPTION_H = 40
BACKGROUND = (17, 19, 24)
INK = (237, 237, 237)
FONT_FILES = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",)


def _font(size: int):
    for f in FONT_FILES:
        if Path(f).exists():
            return ImageFont.truetype(f, size)
    return ImageFont.load_default()


def contact_sheet(items: list[tuple[str, Path]], dest: Path, cols: int = 4) -> Path:
    """items: (caption, png) in order -> one PNG grid written atomically to dest."""
    thumbs = []
    for caption, png in items:
        im = Image.open(png).convert("RGB")
        im.thumbnail((THUMB_W, THUMB_W))
        thumbs.append((caption, im))
    th = max(im.height for _, im in thumbs)
    rows = -(-len(thumbs) // cols)
    sheet = Image.new("RGB", (cols * (THUMB_W + PAD) + PAD, rows * (th + CAPTION_H + PAD) + PAD),
                      BACKGROUND)
    draw, font = ImageDraw.Draw(sheet), _font(22)
    for n, (caption, im) in enumerate(thumbs):
        x = PAD + (n % cols) * (THUMB_W + PAD)
        y = PAD + (n // cols) * (th + CAPTION_H + PAD)
        sheet.paste(im, (x, y))
        draw.text((x, y + th + 6), caption, fill=INK, font=font)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.tmp.png")
    sheet.quantize(colors=256).save(tmp, optimize=True)  # a palette keeps the README light
    tmp.replace(dest)
    return dest
