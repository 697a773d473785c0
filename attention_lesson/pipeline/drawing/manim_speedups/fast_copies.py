"""Mobject copies without `copy.deepcopy`'s general machinery: the same copy, a few times faster.

A scene build copies mobjects all the time (every FadeIn and Transform copies what it animates, every
label is a copy of the one made first, layouts copy whole groups to try them), and `copy.deepcopy`
makes about forty calls for each of a mobject's attributes, each asking the memo, the type's table and
`__reduce_ex__` (its share of a studio redraw: docs/performance.md). manim's `Mobject.__deepcopy__`
deep-copies every attribute; this one does the same, taking the common kinds of value itself:
- immutable values (numbers, strings, None, enums, numpy scalars) are shared, as deepcopy shares them;
- numeric numpy arrays are copied in their memory order (what `ndarray.__deepcopy__` does);
- lists, dicts and ManimColor (a plain object holding one array), are rebuilt element by element;
- anything else goes to `copy.deepcopy` with the same memo,
and every copy goes into the memo under the original's id, so what was shared inside the original
(one array in two places, a mobject in two groups) is shared in the copy, and cycles end.

`install()` replaces `Mobject.__deepcopy__` in this process (patches.py, through the gate:
manim_speedups.install); `tests/test_drawing_shortcuts.py` compares its copies with manim's, attribute by
attribute, on the lesson's mobjects.
"""

from __future__ import annotations

import copy
import enum

import numpy as np

_SHARED = {int, float, bool, str, bytes, complex, type(None), range, np.float64, np.float32, np.int64,
           np.int32, np.bool_}  # deepcopy gives these back as they are (or an equal immutable one)

# `mobject_deepcopy` is manim's Mobject.__deepcopy__ (a new object, every attribute copied, original_id);
# ManimColor is copied as a plain object holding its array
RELIES_ON = (
    "manim.mobject.mobject.Mobject.__deepcopy__",
    "manim.mobject.mobject.Mobject.original_id",
    "manim.utils.color.core.ManimColor._internal_value",
)


def install() -> None:
    from manim import ManimColor, Mobject

    from . import patches

    _COPIERS[ManimColor] = _plain_object
    patches.replace(Mobject, "__deepcopy__", mobject_deepcopy)


def mobject_deepcopy(self, memo: dict):
    """manim's Mobject.__deepcopy__: a new object of the class, every attribute deep-copied (the
    commonest kinds inline: a mobject has about thirty attributes, most of them numbers or arrays)."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    attrs = result.__dict__
    for k, v in self.__dict__.items():
        t = type(v)
        if t in _SHARED:
            attrs[k] = v
        elif t is np.ndarray and not v.dtype.hasobject and id(v) not in memo:
            attrs[k] = memo[id(v)] = v.copy(order="K")
        else:
            attrs[k] = value_copy(v, memo)
    result.original_id = str(id(self))
    return result


def value_copy(v, memo: dict):
    """copy.deepcopy(v, memo), quicker for the kinds of value a mobject holds."""
    t = type(v)
    if t in _SHARED:
        return v
    done = memo.get(id(v))
    if done is not None:
        return done
    copier = _COPIERS.get(t)
    if copier is not None:
        return copier(v, memo)
    if issubclass(t, enum.Enum):  # deepcopy gives an enum's member back as it is
        return v
    return copy.deepcopy(v, memo)


def _array(a: np.ndarray, memo: dict) -> np.ndarray:
    if a.dtype.hasobject:
        return copy.deepcopy(a, memo)
    c = memo[id(a)] = a.copy(order="K")
    return c


def _list(items: list, memo: dict) -> list:
    c: list = []
    memo[id(items)] = c  # before the elements: a list that holds itself ends
    _keep(items, memo)
    c.extend(value_copy(x, memo) for x in items)
    return c


def _dict(d: dict, memo: dict) -> dict:
    c: dict = {}
    memo[id(d)] = c
    _keep(d, memo)
    for k, v in d.items():
        c[value_copy(k, memo)] = value_copy(v, memo)
    return c


def _plain_object(o, memo: dict):
    """An object deepcopy would rebuild from its __dict__ (no __slots__, no state methods of its own)."""
    cls = type(o)
    c = cls.__new__(cls)
    memo[id(o)] = c
    _keep(o, memo)
    c.__dict__.update({k: value_copy(v, memo) for k, v in o.__dict__.items()})
    return c


def _keep(o, memo: dict) -> None:
    """What deepcopy's _keep_alive does: the original lives as long as the memo (its id is not reused
    by another object while the memo may still be asked about it)."""
    memo.setdefault(id(memo), []).append(o)


_COPIERS = {np.ndarray: _array, list: _list, dict: _dict}
