"""Where the pipeline puts its own version of a manim method, in the process that renders (the worker);
manim's files stay as they are. Each replacement is made once per process, and manim's own method
stays reachable for the replacement to call."""

from __future__ import annotations

import contextlib

_originals: dict[tuple[type, str], object] = {}


def replace(cls: type, name: str, new) -> object:
    """cls.<name> becomes `new` (the first call in this process; later ones change nothing); returns
    manim's original."""
    if (cls, name) not in _originals:
        _originals[cls, name] = getattr(cls, name)
        setattr(cls, name, new)
    return _originals[cls, name]


@contextlib.contextmanager
def swapped(owner, name: str, new):
    """owner.<name> is `new` for the duration (one command's use, such as a converter's frame reader),
    then manim's or manim-slides' own again, however the block ends."""
    old = getattr(owner, name)
    setattr(owner, name, new)
    try:
        yield old
    finally:
        setattr(owner, name, old)
