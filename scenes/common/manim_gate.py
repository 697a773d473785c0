"""The gate every use of a private manim or manim-slides member passes: the pipeline's speed-ups
(attention_lesson/pipeline/drawing/manim_speedups), its slides (pipeline/drawing/slides.py) and the
scenes' own (manim_private.py). Each such module names the members it relies on in its RELIES_ON and
has a plain path, taken when the gate is shut: another release than the one they were read against
(WRITTEN_FOR), a member that no longer resolves, or (for the speed-ups) ATTENTION_LESSON_PLAIN_MANIM=1.
tests/test_manim_private.py fails when a module outside these names a private member of manim's.

Nothing here imports manim until `resolves` is asked; the versions come from the distributions'
metadata (the main process plans without loading manim).
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version

ENV = "ATTENTION_LESSON_PLAIN_MANIM"
# the releases the private members were read against: another release may have moved any of them
WRITTEN_FOR = {"manim": "0.22.0", "manim-slides": "5.7.0"}


def plain() -> bool:
    """Whether the environment asks for plain manim (no speed-up)."""
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
    """'manim 0.23.0 (written for 0.22.0)' when an installed release is not the one the private members
    were read against; None when each is."""
    for dist, written in WRITTEN_FOR.items():
        if (found := installed_version(dist)) != written:
            return f"{dist} {found} (written for {written})"
    return None


def wanted() -> bool:
    """Whether the speed-ups are to be applied: not turned off, and the manim they were written for
    (without importing manim; a member gone under the same release is found by `missing`)."""
    return not plain() and other_version() is None


def relied_on(modules: Iterable[str]) -> tuple[str, ...]:
    """Every member the modules (dotted names) rely on (their RELIES_ON), in order, once each."""
    names: dict[str, None] = {}
    for m in modules:
        names.update(dict.fromkeys(importlib.import_module(m).RELIES_ON))
    return tuple(names)


def missing(modules: Iterable[str]) -> list[str]:
    """The members the modules rely on that the installed manim does not have."""
    return [name for name in relied_on(modules) if not resolves(name)]


@functools.lru_cache(maxsize=None)
def open_for(module: str) -> bool:
    """Whether `module` may use the private members it names: the release they were read against, and
    each of them still there (asked once a process)."""
    return other_version() is None and not missing([module])


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
