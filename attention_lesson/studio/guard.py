"""The studio's door, as Jupyter keeps its own: a per-run token on every request, the Host header the
studio's own (DNS rebinding), and no state-changing request from another Origin (cross-site requests).

The token comes as `?token=`, as an `Authorization: token <t>` header, or as the cookie the page gets
when it is first opened with `?token=` (so the page's own scripts, images and event stream carry it
without putting it in every address). A refused request gets 403 and a JSON error, never a page.
"""

from __future__ import annotations

import hmac
import html
import json
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

SAFE = {"GET", "HEAD", "OPTIONS"}


def cookie_name(port: int) -> str:
    return f"attention_studio_{port}"


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def error_body(message: str, key: str | None = None, line: int | None = None) -> dict:
    """The studio's one error shape, for every refusal and every bad request."""
    return {"error": {"key": key, "line": line, "message": message}}


async def deny(send, status: int, message: str) -> None:
    body = json.dumps(error_body(message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


DOOR = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>attention-lesson studio</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font: 16px/1.5 sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em">
<h1>This studio needs its token</h1>
<p>Open the address the studio printed in its terminal when it started: it ends in
<code>/?token=…</code>. That address is the key to this lesson file; other pages cannot open it.</p>
<p lang="zh">请打开 studio 启动时在终端里打印的地址（以 <code>/?token=…</code> 结尾）。</p>
<p>{why}</p></body></html>"""


async def door(send, why: str) -> None:
    """The page a browser gets without the token: how to open the studio (403, HTML)."""
    body = DOOR.format(why=html.escape(why)).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: refuses (403) what does not carry the token, names another host, or changes
    state from another origin; lets the rest through to the app."""

    def __init__(self, app, token: str, hosts: set[str], port: int):
        self.app, self.token, self.port = app, token, port
        self.hosts = {f"{h}:{port}" for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}

    def problem(self, scope) -> str | None:
        h = _headers(scope)
        if h.get("host") not in self.hosts:
            return f"Host {h.get('host')!r} is not this studio's ({', '.join(sorted(self.hosts))})"
        origin = h.get("origin")
        if scope["method"] not in SAFE and origin is not None and origin not in self.origins:
            return ("requests that change something must come from the studio's own page, "
                    f"not from Origin {origin!r}")
        if not self.has_token(scope, h):
            return "this studio needs its token: open the address it printed (…/?token=…)"
        return None

    def has_token(self, scope, h: dict[str, str]) -> bool:
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [None])[0]
        auth = h.get("authorization", "")
        if given is None and auth.lower().startswith("token "):
            given = auth[6:].strip()
        if given is None and "cookie" in h:
            morsel = SimpleCookie(h["cookie"]).get(cookie_name(self.port))
            given = morsel.value if morsel else None
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if (why := self.problem(scope)) is not None:
            wants_page = scope["path"] == "/" and "text/html" in _headers(scope).get("accept", "")
            return await (door(send, why) if wants_page else deny(send, 403, why))
        return await self.app(scope, receive, send)

