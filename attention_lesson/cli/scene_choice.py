"""The scenes a command is asked for: named on the command line (or --all), checked against the lesson."""

from __future__ import annotations

import click


def pick_scenes(ids: tuple[str, ...], all_: bool, lesson=None):
    """The scenes named (in the order named), or every scene of the lesson with all_; a usage error
    otherwise, and for a scene of a feature the lesson lacks (the mask scene, a lesson with no mask)."""
    from scenes.registry import NEEDS_KEY, available, existing

    by_id = {s.id: s for s in available(lesson)}
    if all_ or not ids:
        if not all_:
            raise click.UsageError("name one or more scenes, or --all. Scenes: " + ", ".join(by_id))
        return list(by_id.values())
    lacking = [s for s in existing() if s.id in ids and s.id not in by_id]
    if lacking:
        raise click.BadParameter(f"scene {lacking[0].id!r} needs a lesson with {NEEDS_KEY[lacking[0].needs]}"
                                 f" ({getattr(lesson, 'source', 'this lesson')} has none)", param_hint="ID")
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        raise click.BadParameter(f"unknown scene {', '.join(map(repr, unknown))}; "
                                 f"valid ids: {', '.join(by_id)}", param_hint="ID")
    return [by_id[i] for i in ids]


def in_lesson_order(scenes):
    """The scenes as the video orders them."""
    from scenes.registry import SCENES

    order = [s.id for s in SCENES]
    return sorted(scenes, key=lambda s: order.index(s.id) if s.id in order else len(order))
