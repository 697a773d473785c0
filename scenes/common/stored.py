"""Labels and formulas kept on disk, beside manim's own cache of their SVG files, for every process.

A `Text` or a formula (MathTypst) parses its SVG into mobjects (about 21 ms a label; manim caches the
SVG file, not the parse): a render's worker, which starts with nothing, makes each of a scene's labels
again, and the studio's two workers each make the labels of the scenes the other drew last. Pickled, a
made label loads in about 1 ms. `load_or_make(key, make)` is what `labels._made` asks on a miss in its memory:
the file named by the key's hash in the folder the pipeline gives (`keep_in`: one for all its workers,
whose manim folders are their own) or else `<text_dir>/mobjects/`, else make() written there atomically
(two workers may make the same label at once; the last rename wins, both files whole).

The key holds everything the mobject depends on that can change between runs (the text, size, colour,
options; a formula's Typst source holds its colours); VERSION names what else does (manim's version, this
format). A file that cannot be read is made again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

VERSION = 1  # raise when what a stored label holds changes (labels._light, _solid_bars, the font's handling)
_folder: Path | None = None  # where they are kept when whoever renders says (keep_in), else manim's text_dir
before_make = None  # called before a label is made (a warm worker's: stop when its job is no longer wanted)


def keep_in(folder: Path) -> None:
    """Keep them in `folder` (the pipeline's: one for every worker, whose manim folders are their own)."""
    global _folder
    _folder = Path(folder)


def load_or_make(key, make):
    """The mobject stored for key, else make()'s, stored."""
    path = _path(key)
    if path is None:
        return make()
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        pass
    if before_make is not None:  # making one takes 20-80 ms, and a cold scene makes dozens in a row
        before_make()
    made = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}")
        part.write_bytes(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(part, path)
    except OSError:  # a read-only cache: the label is made, not kept
        pass
    return made


def _path(key) -> Path | None:
    from manim import __version__, config

    try:
        folder = _folder or Path(config.get_dir("text_dir")) / "mobjects"
    except (KeyError, ValueError, TypeError):  # no media folder configured: nothing kept
        return None
    name = hashlib.sha256(repr((VERSION, __version__, key)).encode("utf-8")).hexdigest()[:32]
    return folder / f"{name}.pickle"
