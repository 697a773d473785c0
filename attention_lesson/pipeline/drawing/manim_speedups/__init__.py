"""The pipeline's speed-ups of manim, behind one gate: each module puts its own version of a manim
method in place of manim's in the rendering process (patches.replace), drawing the same pixels and
writing the same frames, only sooner.

- frame_handover: a drawn frame goes to the encoder as drawn, not copied (CairoRenderer.render);
- held_frames: a held frame converted once, a whole-segment hold coded once (VideoSegmentEncoder.write_frame);
- skipped_animations: a piece's skipped animations move the clock frame-exactly, and the last piece
  borrows the others' segments (CairoRenderer.play; pipeline/drawing/pieces.py needs it);
- skip_jumps: a skipped play jumps to its end without manim's copies (Mobject.add_updater, a skip branch);
- fast_copies: mobjects copied without copy.deepcopy's general machinery (Mobject.__deepcopy__).

They copy and reach into manim's private members, which any release may change without a word: a patch
on another manim would draw something else, or fail half-way through a render. So `install()` applies
them only on the manim they were written for (WRITTEN_FOR, against the installed distribution) and when
every member a module names in its RELIES_ON still resolves; otherwise it logs one warning and leaves
plain manim, which renders the same videos, more slowly (and every scene whole: no pieces).
ATTENTION_LESSON_PLAIN_MANIM=1 in the environment turns them all off (to try a manim upgrade, or to
rule them out: docs/manim_speedups.md).

Nothing here imports manim until `install()` or `missing()` is called; `wanted()` reads the versions
from the distributions' metadata only (the main process plans pieces without loading manim).
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

ENV = "ATTENTION_LESSON_PLAIN_MANIM"
# the releases the patches were read against: another release may have moved any private member
WRITTEN_FOR = {"manim": "0.22.0", "manim-slides": "5.7.0"}
MODULES = ("frame_handover", "held_frames", "skipped_animations", "skip_jumps", "fast_copies")
# what else reaches into their private members (no speed-up: the slides themselves), checked with the
# patches by missing() and its test
ALSO_RELYING = ("attention_lesson.pipeline.drawing.slides",)



class _Stderr(logging.Handler):
    """The warning as one plain line on the current stderr: manim's handler would wrap it over lines,
    and a quiet render hides manim's warnings."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"WARNING: {self.format(record)}", file=sys.stderr, flush=True)


log = logging.getLogger(__name__)
log.addHandler(_Stderr())
log.propagate = False
_applied: bool | None = None  # what install() decided in this process (it decides once)


def plain() -> bool:
    """Whether the environment asks for plain manim."""
    return os.environ.get(ENV, "") not in ("", "0")


@functools.lru_cache(maxsize=None)
def installed_version(dist: str) -> str:
    """A distribution's installed version ("missing"), read once a process: importlib.metadata parses
    its METADATA with the email parser (1 ms), and a batch's dry run asks for every scene task it plans
    (pieces.most: 17 of a 720-variant plan's 32 s before it was kept)."""
    try:
        return version(dist)
    except PackageNotFoundError:
        return "missing"


def other_version() -> str | None:
    """'manim 0.23.0 (written for 0.22.0)' when an installed release is not the one the patches were
    written for; None when each is."""
    for dist, written in WRITTEN_FOR.items():
        if (found := installed_version(dist)) != written:
            return f"{dist} {found} (written for {written})"
    return None


def wanted() -> bool:
    """Whether install() is to apply the speed-ups: not turned off, and the manim they were written for
    (without importing manim; a member gone under the same release is found by install itself)."""
    return not plain() and other_version() is None


def relied_on() -> tuple[str, ...]:
    """Every member some patch or the slides rely on (the modules' RELIES_ON), in order, once each."""
    names: dict[str, None] = {}
    modules = [f"{__name__}.{m}" for m in MODULES] + list(ALSO_RELYING)
    for m in modules:
        names.update(dict.fromkeys(importlib.import_module(m).RELIES_ON))
    return tuple(names)


def missing() -> list[str]:
    """The members some patch relies on that the installed manim does not have."""
    return [name for name in relied_on() if not resolves(name)]


def resolves(dotted: str) -> bool:
    """Whether a dotted name is there: a module, then attributes of it. The last may be an attribute
    that instances get (a class's annotation, or a name its constructor uses), which the class itself
    lacks until one is made."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            break
        except ImportError:
            continue
    else:
        return False
    for n, name in enumerate(parts[i:], start=i):
        if hasattr(obj, name):
            obj = getattr(obj, name)
        else:
            return n == len(parts) - 1 and isinstance(obj, type) and _instance_attribute(obj, name)
    return True


def _instance_attribute(cls: type, name: str) -> bool:
    for klass in cls.__mro__:
        init = getattr(vars(klass).get("__init__"), "__code__", None)
        if name in vars(klass).get("__annotations__", {}) or (init is not None and name in init.co_names):
            return True
    return False


def install() -> bool:
    """Apply every speed-up in this process when the gate lets them (once; later calls change nothing):
    True if applied. Otherwise one warning line naming why, and manim as it is."""
    global _applied
    if _applied is None:
        _applied = _install()
    return _applied


def installed() -> bool:
    """Whether this process draws with the speed-ups."""
    return bool(_applied)


def _install() -> bool:
    if plain():
        return False
    reason = other_version()
    if reason is None:
        gone = missing()
        reason = f"no {', '.join(gone)}" if gone else None
    if reason is not None:
        log.warning("manim's speed-ups are off, plain manim draws (slower, no scene in pieces): %s; "
                    "see docs/manim_speedups.md", reason)
        return False
    for m in MODULES:
        importlib.import_module(f"{__name__}.{m}").install()
    return True
