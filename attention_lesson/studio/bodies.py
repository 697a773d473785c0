"""A request's body as the studio's handlers take it: at most MAX_BODY bytes (read no further), UTF-8,
and for the JSON API an object nested no deeper than the parser can follow. Each refusal is a
`BodyProblem`, a ValueError whose text is said in the page's language: the handler answers it with a
4xx and the studio's JSON error, never a traceback or a 500."""

from __future__ import annotations

import json

from attention_core.errors import text as said
from attention_core.files import MAX_LESSON_BYTES

MAX_BODY = MAX_LESSON_BYTES  # bytes: a lesson file's limit, for the lesson's text and a JSON request alike


class BodyProblem(ValueError):
    """A body the studio refuses: its message, in the page's language, and the status to answer with (413:
    too large, else 400)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


async def capped(request, lang: str, limit: int = MAX_BODY, code: str = "studio_body_too_big") -> bytes:
    """The body's bytes; BodyProblem (413, the catalog's `code`) as soon as it is longer than `limit` (the
    rest is never read into memory)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise BodyProblem(said(lang, code, n=limit), 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyProblem(said(lang, code, n=limit), 413)
        chunks.append(chunk)
    return b"".join(chunks)


def text_of(raw: bytes, lang: str) -> str:
    """The body as text; BodyProblem naming the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BodyProblem(said(lang, "studio_not_utf8", at=e.start)) from None


def object_of(raw: bytes, lang: str) -> dict:
    """The body as a JSON object (empty: {}); BodyProblem saying what is wrong: not UTF-8, not JSON
    (json's own reason), nested deeper than the parser follows, not an object."""
    text = text_of(raw, lang) or "{}"
    try:
        body = json.loads(text)
    except RecursionError:  # [[[[... 100,000 deep: json recurses once per level
        raise BodyProblem(said(lang, "studio_too_deep")) from None
    except ValueError as e:
        raise BodyProblem(str(e)) from None
    if not isinstance(body, dict):
        raise BodyProblem(said(lang, "studio_not_object"))
    return body


async def json_object(request, lang: str) -> dict:
    """The request's body as a JSON object, capped at MAX_BODY bytes; BodyProblem (a ValueError) saying,
    in `lang`, what is wrong."""
    return object_of(await capped(request, lang), lang)
