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

import importlib
import logging
import sys

from scenes.common import manim_gate
from scenes.common.manim_gate import (  # noqa: F401 - the gate's names, as the speed-ups' callers know them
    ENV,
    WRITTEN_FOR,
    installed_version,
    other_version,
    plain,
    resolves,
    wanted,
)

MODULES = ("frame_handover", "held_frames", "skipped_animations", "skip_jumps", "fast_copies")
# what else reaches into their private members (no speed-up: the slides themselves), checked with the
# patches by missing() and its test
ALSO_RELYING = ("attention_lesson.pipeline.drawing.slides", "scenes.common.manim_private")



class _Stderr(logging.Handler):
    """The warning as one plain line on the current stderr: manim's handler would wrap it over lines,
    and a quiet render hides manim's warnings."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"WARNING: {self.format(record)}", file=sys.stderr, flush=True)


log = logging.getLogger(__name__)
log.addHandler(_Stderr())
log.propagate = False
_applied: bool | None = None  # what install() decided in this process (it decides once)


def relied_on() -> tuple[str, ...]:
    """Every member some patch, the slides or the scenes rely on (the modules' RELIES_ON), in order."""
    return manim_gate.relied_on([f"{__name__}.{m}" for m in MODULES] + list(ALSO_RELYING))


def missing() -> list[str]:
    """The members some patch relies on that the installed manim does not have."""
    return manim_gate.missing([f"{__name__}.{m}" for m in MODULES] + list(ALSO_RELYING))


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
