"""The scenes a command is asked for: named on the command line (or --all), checked against the lesson."""

from __future__ import annotations

import click


def pick_scenes(ids: tuple[str, ...], all_: bool, lesson=None):
    """The scenes named (in the order named), or every scene of the lesson with all_; a usage error
    otherwise, and for a scene of a feature the lesson lacks (the mask scene, a lesson with no mask)."""
    from attention_core.errors import shown, text
    from attention_core.messages import MESSAGES
    from scenes.registry import NEEDS_KEY, available, existing

    from .options import message_lang

    by_id, lang = {s.id: s for s in available(lesson)}, message_lang(declared=getattr(lesson, "lang", None))
    every = MESSAGES[lang]["list_sep"].join(by_id)  # every one, however many (not cut as a message's list)
    if all_ or not ids:
        if not all_:
            raise click.UsageError(text(lang, "cli_name_scenes", scenes=every))
        return list(by_id.values())
    lacking = [s for s in existing() if s.id in ids and s.id not in by_id]
    if lacking:
        raise click.BadParameter(text(lang, "cli_scene_needs", scene=shown(lacking[0].id),
                                      needs=NEEDS_KEY[lacking[0].needs],
                                      lesson=getattr(lesson, "source", "this lesson")), param_hint="ID")
    if unknown := [i for i in ids if i not in by_id]:
        raise click.BadParameter(text(lang, "cli_unknown_scene", scenes=every,
                                      names=MESSAGES[lang]["list_sep"].join(map(repr, unknown))),
                                 param_hint="ID")
    return [by_id[i] for i in ids]


def in_lesson_order(scenes):
    """The scenes as the video orders them."""
    from scenes.registry import SCENES

    order = [s.id for s in SCENES]
    return sorted(scenes, key=lambda s: order.index(s.id) if s.id in order else len(order))
