"""`attention-lesson list`: the scenes of a lesson in order, with titles (the mask scene and the heads
scene are in the lessons that have a mask or several heads)."""

from __future__ import annotations

import json

import click

from scenes.registry import available

from .options import json_option, lang_option, lesson_lang, lesson_option, load_lesson


@click.command("list")
@lesson_option
@lang_option
@json_option
def list_scenes(lesson, lang, as_json):
    """List the lesson's scenes in order (id and title)."""
    les = load_lesson(lesson)
    lang = lesson_lang(lang, les)
    items = [{"id": s.id, "title": s.title(lang), "class": s.cls, "file": f"scenes/{s.file.name}"}
             for s in available(les)]
    if as_json:
        click.echo(json.dumps(items, ensure_ascii=False))
        return
    width = max(len(i["id"]) for i in items)
    for n, i in enumerate(items, start=1):
        click.echo(f"{n:2d}. {i['id']:<{width}}  {i['title']}")
