"""The lesson-file reference, made from the core's own table (attention_core/keys.py): every key with
its type, shape, default and meaning, and the error a wrong value of it gets, said by the parser itself
in English and in Chinese (the value is put into a built-in lesson and the lesson parsed).

    ```{lesson-keys}
    ```
"""

from __future__ import annotations

import json
import tomllib

from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from attention_core import keys, lesson
from attention_core.errors import LessonError


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    return f"``{text}``" if "`" in text else f"`{text}`"


def wrong_value(key: keys.Key) -> str:
    if key.wrong is keys.DELETE:
        return "(left out)"
    return code(json.dumps(key.wrong, ensure_ascii=False))


def errors(key: keys.Key) -> tuple[str, str]:
    """What the parser says of the key's wrong value, in en and zh (without FILE:LINE:)."""
    data = tomllib.loads(lesson.resolve(key.lesson).read_text(encoding="utf-8"))
    try:
        lesson.parse(keys.broken(data, key), "my.toml")
    except LessonError as e:
        return e.message("en", file=False), e.message("zh", file=False)
    raise ValueError(f"{key.name}: the wrong value {key.wrong!r} was accepted")


def table() -> list[str]:
    lines = ["| key | type, shape | default | meaning |", "|---|---|---|---|"]
    for k in keys.KEYS:
        shape = f"{cell(k.type)}: {cell(k.shape)}" if k.shape else cell(k.type)
        lines.append(f"| {code(k.name)} | {shape} | {cell(k.default)} | {cell(k.meaning)} |")
    return lines


def error_table() -> list[str]:
    lines = ["| key | a wrong value | the error (en) | 错误提示 (zh) |", "|---|---|---|---|"]
    for k in keys.KEYS:
        en, zh = errors(k)
        lines.append(f"| {code(k.name)} | {cell(wrong_value(k))} | {cell(en)} | {cell(zh)} |")
    return lines


class LessonKeys(SphinxDirective):
    """The two tables: the keys (`:table: keys`) or the errors (`:table: errors`)."""

    option_spec = {"table": str}

    def run(self):
        self.env.note_dependency(keys.__file__)
        lines = error_table() if self.options.get("table") == "errors" else table()
        node_lines = StringList(lines, source="attention_core/keys.py")
        from docutils import nodes

        container = nodes.container(classes=["lesson-keys"])
        self.state.nested_parse(node_lines, self.content_offset, container)
        return [container]


def setup(app):
    app.add_directive("lesson-keys", LessonKeys)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
