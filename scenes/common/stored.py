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

`Recent` is the memory in front of it: the labels used last, as many as fit in a number of bytes of
their pickles: bounded by bytes, not by count, because a studio worker that kept a fixed number of
labels kept every number of every edit of W_Q, up to a gigabyte (the sizes: docs/performance.md, "The
figures behind the code").
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections import OrderedDict
from pathlib import Path

VERSION = 2  # raise when what a stored label holds changes (labels._light, _solid_bars, the font's handling)
_folder: Path | None = None  # where they are kept when whoever renders says (keep_in), else manim's text_dir
before_make = None  # called before a label is made (a warm worker's: stop when its job is no longer wanted)


def keep_in(folder: Path) -> None:
    """Keep them in `folder` (the pipeline's: one for every worker, whose manim folders are their own)."""
    global _folder
    _folder = Path(folder)


class Recent:
    """The entries used last, at most `max_bytes` of them by the sizes they were put with (the oldest go
    first; one entry stays however large)."""

    def __init__(self, max_bytes: int):
        self.max_bytes, self.nbytes = max_bytes, 0
        self.entries: OrderedDict = OrderedDict()  # key -> (value, size), least recent first

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key) -> bool:
        return key in self.entries

    def get(self, key):
        """The value kept for key (now the most recent), or None."""
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return self.entries[key][0]

    def put(self, key, value, size: int) -> None:
        if key in self.entries:
            self.nbytes -= self.entries.pop(key)[1]
        self.entries[key] = (value, size)
        self.nbytes += size
        while self.nbytes > self.max_bytes and len(self.entries) > 1:
            self.nbytes -= self.entries.popitem(last=False)[1][1]

    def clear(self) -> None:
        self.entries.clear()
        self.nbytes = 0


def load_or_make(key, make):
    """The mobject stored for key, else make()'s, stored."""
    return load_or_make_sized(key, make)[0]


def load_or_make_sized(key, make):
    """(the mobject stored for key, else make()'s, stored; the size of its pickle)."""
    path = _path(key)
    if path is not None:
        try:
            data = path.read_bytes()
            return pickle.loads(data), len(data)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError,
                ValueError):
            pass
    if before_make is not None:  # making one takes 20-80 ms, and a cold scene makes dozens in a row
        before_make()
    made = make()
    data = pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL)
    if path is not None:
        _keep(path, data)
    return made, len(data)


def _keep(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:  # a read-only cache: the label is made, not kept
        pass


def _path(key) -> Path | None:
    from manim import __version__, config

    try:
        folder = _folder or Path(config.get_dir("text_dir")) / "mobjects"
    except (KeyError, ValueError, TypeError):  # no media folder configured: nothing kept
        return None
    name = hashlib.sha256(repr((VERSION, __version__, key)).encode("utf-8")).hexdigest()[:32]
    return folder / f"{name}.pickle"
