"""Golden frames: the last frame of every step of every scene (low quality, zh, the default lesson's
river context), kept as PNGs in tests/golden/ (the dark theme) and tests/golden/light/ (the light
theme), and compared within a small tolerance.

On a difference the test writes, beside each other in tests/golden-diff/ (ignored by git),
`<frame>.expected.png`, `<frame>.actual.png` and `<frame>.diff.png` (changed pixels in magenta over a
dimmed copy of the expected frame; the light theme's in tests/golden-diff/light/) and names them in its
message.

After an intended visual change, regenerate them (and look at what changed before committing):

    .venv/bin/python -m pytest tests/test_scenes.py -k golden --update-goldens
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

GOLDEN = Path(__file__).parent / "golden"
DIFFS = Path(__file__).parent / "golden-diff"

# Tolerance: a pixel counts as changed when a channel moves by more than PIXEL_TOLERANCE (of 255);
# a frame matches while at most CHANGED_SHARE of its pixels changed. Text rendered by the same fonts
# and cairo is identical to the pixel; this leaves room for antialiasing noise only (a moved or
# re-coloured label changes far more: a 5-character number is about 0.1 % of a 480p frame).
PIXEL_TOLERANCE = 24
CHANGED_SHARE = 0.0005


@dataclass
class Mismatch:
    name: str
    why: str
    files: tuple[Path, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}: {self.why}" + "".join(f"\n    {f}" for f in self.files)


def _load(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)  # [h, w, 3]


def _write_diff(name: str, expected: np.ndarray, actual: np.ndarray, changed: np.ndarray,
                theme: str = "dark"):
    diffs = DIFFS if theme == "dark" else DIFFS / theme
    diffs.mkdir(parents=True, exist_ok=True)
    stem = diffs / Path(name).stem
    paths = (stem.with_suffix(".expected.png"), stem.with_suffix(".actual.png"),
             stem.with_suffix(".diff.png"))
    Image.fromarray(expected.astype(np.uint8)).save(paths[0])
    Image.fromarray(actual.astype(np.uint8)).save(paths[1])
    diff = (expected // 3).astype(np.uint8)
    diff[changed] = (255, 0, 255)
    Image.fromarray(diff).save(paths[2])
    return paths


def folder(theme: str = "dark") -> Path:
    """Where a theme's golden frames are: the dark theme's (the default's) at the top."""
    return GOLDEN if theme == "dark" else GOLDEN / theme


def compare(name: str, actual_png: Path, theme: str = "dark") -> Mismatch | None:
    """Compare one rendered frame with its golden; None when it matches."""
    golden = folder(theme) / name
    if not golden.exists():
        return Mismatch(name, f"no golden frame {golden} (regenerate the goldens: see tests/goldens.py)")
    expected, actual = _load(golden), _load(actual_png)
    if expected.shape != actual.shape:
        return Mismatch(name, f"size {actual.shape[1]}x{actual.shape[0]}, golden "
                              f"{expected.shape[1]}x{expected.shape[0]}")
    changed = (np.abs(expected - actual) > PIXEL_TOLERANCE).any(axis=2)  # [h, w]
    share = float(changed.mean())
    if share <= CHANGED_SHARE:
        return None
    files = _write_diff(name, expected, actual, changed, theme)
    return Mismatch(name, f"{share:.3%} of the pixels differ (tolerance {CHANGED_SHARE:.3%})", files)


def compare_all(scene_id: str, frames_dir: Path, update: bool = False, theme: str = "dark") -> list[Mismatch]:
    """Compare every key frame a build of `scene_id` wrote into frames_dir with the theme's goldens (or,
    with update, replace that scene's goldens by them). Missing and extra frames are mismatches too."""
    actual = {p.name: p for p in frames_dir.glob(f"{scene_id}-*.png")}
    gold = folder(theme)
    if update:
        gold.mkdir(exist_ok=True)
        for old in gold.glob(f"{scene_id}-[0-9]*.png"):
            old.unlink()
        for name, p in actual.items():
            Image.open(p).save(gold / name, optimize=True)
        return []
    expected = {p.name for p in gold.glob(f"{scene_id}-[0-9]*.png")}
    problems = [Mismatch(n, "a golden frame with no rendered step") for n in sorted(expected - set(actual))]
    for name in sorted(actual):
        m = compare(name, actual[name], theme)
        if m is not None:
            problems.append(m)
    return problems
