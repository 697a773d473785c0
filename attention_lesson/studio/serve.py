"""Starting the studio: check what it needs, bind its port, print its address, serve until Ctrl-C.

Why Starlette on uvicorn: an ASGI app whose routes, static files and server-sent events (sse-starlette)
are each a few lines, on a server that handles Ctrl-C by shutting the app down (its lifespan stops the
drawing workers and interrupts renders), with no framework bigger than the job. aiohttp would do as
well; Starlette's ASGI middleware made the token, Host and Origin checks one small class.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import secrets
import signal
import socket
import threading
import webbrowser
from dataclasses import dataclass
from pathlib import Path

from attention_core import LessonError
from attention_core.errors import ph
from attention_core.errors import text as said

from ..pipeline.deps import FFMPEG, extra_missing

LOOPBACK = "127.0.0.1"


class StudioError(Exception):
    """Something the user must fix before the studio can start: one line."""


@dataclass(frozen=True, kw_only=True)
class StudioArgs:
    """The studio's command line."""

    path: Path  # the lesson file edited (created from the starter if missing)
    context: str | None = None  # where the page starts; None: the lesson's first
    mode: str = "scaled"
    lang: str = "zh"
    quality: str = "low"  # the frames redrawn after each edit
    port: int = 8765  # 0: any free one
    ip: str = LOOPBACK  # another address lets other machines in (with the token)
    browser: bool = True  # open the page
    workers: int = 2  # processes drawing frames
    theme: str | None = None  # the frames' and the page's (default: the scenes' default theme)
    words: Path | None = None  # --words DIR: the teacher's words folder (default: the lesson file's)


def missing(lang: str = "en") -> list[str]:
    """What this machine lacks for the studio, each with its install command (checked before anything
    of the server is imported: without its extra, a traceback would be the only message)."""
    from attention_core.errors import Choices

    if packages := extra_missing("studio"):
        return [said(lang, "studio_needs_extra", packages=Choices(packages))]
    return [] if FFMPEG.found() else [FFMPEG.hint()]


def check_file(path: Path, lang: str = "en") -> None:
    if not path.is_file():
        raise StudioError(said(lang, "cli_no_lesson_file", path=path))
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise StudioError(said(lang, "at_file", file=path, text=ph("studio_not_writable")))


def address(ip: str, lang: str = "en") -> str:
    """--ip as the address to listen on: an IPv4 or IPv6 address as it is, a name (localhost, the
    machine's) resolved, an IPv4 address first; StudioError, one line in `lang`, for what is neither (a
    dotted number such as 999.1.1.1 is never looked up as a name)."""
    try:
        return str(ipaddress.ip_address(ip))
    except ValueError:
        pass
    if ip and not re.fullmatch(r"[\d.]+|.*:.*", ip):
        try:
            found = socket.getaddrinfo(ip, None, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            found = []
        if found:
            return min(found, key=lambda a: a[0] != socket.AF_INET)[4][0]
    raise StudioError(said(lang, "cli_bad_ip", ip=ip))


def bind(ip: str, port: int, lang: str = "en") -> socket.socket:
    family = socket.AF_INET6 if ipaddress.ip_address(ip).version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((ip, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise StudioError(said(lang, "studio_port_in_use", port=port, ip=ip)) from None
        raise StudioError(said(lang, "studio_port_closed", port=port, ip=ip, reason=e.strerror)) from None
    sock.listen(128)  # listening before the address is printed: an early request waits, never refused
    return sock


def hosts_for(ip: str) -> set[str]:
    """The Host names a request may use: the loopback names, and the address the studio was bound to."""
    return {"127.0.0.1", "localhost",
            "[::1]"} | ({f"[{ip}]" if ":" in ip else ip} if ip != "0.0.0.0" else set())


def prepare(args: StudioArgs):
    """The session and the app, checked; StudioError on anything the user must fix."""
    from scenes.common.style import DEFAULT_THEME

    from ..pipeline.plan import RenderOptions
    from .session import Session, TextProblem

    check_file(args.path, args.lang)
    try:
        session = Session.open(args.path, args.context, args.mode, args.lang)
    except (LessonError, TextProblem) as e:  # a context the lesson lacks (a broken file opens as it is)
        raise StudioError(str(e)) from None
    except UnicodeDecodeError as e:
        undecodable = ph("file_problem", expected=ph("utf8"), found=ph("undecodable", n=e.start))
        raise StudioError(said(args.lang, "at_file", file=args.path, text=undecodable)) from None
    theme = args.theme or DEFAULT_THEME
    session.theme = theme
    options = RenderOptions(lesson=str(args.path.resolve()), context=session.context or "", mode=args.mode,
                            lang=args.lang, quality=args.quality, format="png", theme=theme)
    return session, options


def notes(session) -> list[str]:
    """What the terminal is told as the studio starts, in the studio's language: a file that does not
    pass, edits kept last time."""
    from attention_core.errors import Said

    found, lang = [], session.lang
    if session.error is not None:
        line = f":{session.error['line']}" if session.error.get("line") else ""
        problem = Said(f"{session.path}{line}: {session.error['message']}")
        found.append(said(lang, "studio_fix_in_page", problem=problem))
    if session.recovered() is not None:
        found.append(said(lang, "studio_recovered", file=session.recovery))
    return found


def serve(args: StudioArgs, say) -> None:
    """Run the studio until Ctrl-C; say(line) prints (the address first)."""
    if problems := missing(args.lang):
        raise StudioError("; ".join(problems))
    import uvicorn

    from .app import Studio, make_app

    session, options = prepare(args)
    sock = bind(args.ip, args.port, args.lang)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    studio = Studio(session, options, token, port, words_dir=args.words)
    app = make_app(studio, hosts_for(args.ip), args.workers)
    url = f"http://{LOOPBACK if args.ip in (LOOPBACK, '0.0.0.0') else args.ip}:{port}/?token={token}"
    say(url)
    for note in notes(session):
        say(note)
    if args.browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, lifespan="on")
    signal.signal(signal.SIGTERM, _interrupt)  # uvicorn shuts down on it, then raises it again: ours
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C (or SIGTERM) it shut down on
        pass
    if (kept := session.keep_unsaved()) is not None:
        say(said(args.lang, "studio_kept", file=kept, path=args.path))
    say(said(args.lang, "studio_stopped"))


def _interrupt(signum, frame):
    raise KeyboardInterrupt
