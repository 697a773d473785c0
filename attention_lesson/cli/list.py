"""`attention-lesson list`: the scenes in lesson order, with titles."""

from __future__ import annotations

import json

import click

from scenes.registry import available

from .options import json_option, lang_option


@click.command("list")
@lang_option
@json_option
def list_scenes(lang, as_json):
    """List the lesson's scenes in order (id and title)."""
    items = [{"id": s.id, "title": s.title(lang), "class": s.cls, "file": f"scenes/{s.file.name}"}
             for s in available()]
    if as_json:
        click.echo(json.dumps(items, ensure_ascii=False))
        return
    width = max(len(i["id"]) for i in items)
    for n, i in enumerate(items, start=1):
        click.echo(f"{n:2d}. {i['id']:<{width}}  {i['title']}")
