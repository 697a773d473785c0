"""The studio's web app (Starlette): the page, its assets, the lesson's files and the JSON API.

| request | answer |
|---|---|
| `GET /` | the page (the first time with `?token=`: sets the token's cookie) |
| `GET /api/lesson` | `{"path", "text", "saved", "valid", "error"}`: the editor's latest text |
| `PUT /api/lesson` (TOML) | 200 `{"numbers", "page", "run"}` or 422 `{"error": {"key", "line", "message"}}` |
| `POST /api/save` (TOML, or empty: the working text) | `{"path", "saved"}` |
| `GET /api/numbers?context=&mode=` | `numbers --json` of the working text |
| `GET /api/page` | `{"page", "edit"}`: the views' data, `render_langs` the render form's languages |
| `POST /api/render` `{"product", "quality", "lang", "voice", "theme"}` | 202 `{"job"}` (lang: one of |
| | `render_langs`, the built-in ones and the lesson's words folder's) |
| `GET /api/events` | server-sent events: numbers, problem, plan, progress, step, frames, idle, fault, clip, |
| | render, file, saved |
| `POST /api/view` `{"lang", "context", "mode", "theme"}` | the page's choice for numbers and frames: |
| | `{"run", ...}` |
| `POST /api/focus` `{"scene", "n"}` | the step on the page's screen: its scene is drawn before the others |
| `POST /api/clip?scene=&n=` | `{"ready", "clips"}`: the scene's step clips (with n: that step alone, |
| | first), or a `clip` event once drawn |
| `POST /api/recovery/discard` | forgets the edits the last session kept (`.<name>.unsaved.toml`) |
| `GET /api/preview/<run>/<scene>/<n>.png` | a step's frame as soon as it is drawn (the newest run's only) |
| `GET /files/<path>` | a file of the output folder (media/), never one outside it |
| `/api/line...` | the selected step's narration line in the teacher's own words: line_api.py |

Every request passes guard.Guard first (token, Host, Origin). Handlers only parse, call the session,
the drawer or the renders, and answer; nothing here renders.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from attention_core.errors import shown
from attention_core.errors import text as said

from ..pipeline.plan import MEDIA, RenderOptions
from . import assets, line_api
from .bodies import MAX_BODY, BodyProblem, capped, json_object, text_of
from .guard import Guard, cookie_name, error_body
from .renders import render_langs, render_request
from .session import Session, TextProblem

MAX_TEXT = MAX_BODY  # bytes: a lesson file is a few kB (attention_core.files.MAX_LESSON_BYTES)


def error(status: int, message: str, key: str | None = None, line: int | None = None) -> JSONResponse:
    return JSONResponse(error_body(message, key, line), status_code=status)


class Bus:
    """Server-sent events to every open page: one queue per subscriber, in the event loop. The newest
    frames run's plan and frames are kept and replayed to a page that connects later."""

    def __init__(self):
        self.queues: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.replay: dict[str, tuple[str, dict]] = {}

    def publish(self, event: str, data: dict) -> None:
        if event == "plan":
            self.replay = {"plan": (event, data)}
        elif event in ("frames", "idle") and data.get("run") == self._run():
            self.replay[f"{event}:{data.get('scene')}"] = (event, data)
        for q in self.queues:
            q.put_nowait((event, data))

    def _run(self) -> int | None:
        return self.replay["plan"][1]["run"] if "plan" in self.replay else None

    def subscribe(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue()
        for item in self.replay.values():
            q.put_nowait(item)
        self.queues.add(q)
        return q

    def emit(self, event: str, data: dict) -> None:
        """publish, from any thread (the drawer's, a render's relay)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.publish, event, data)


@dataclass
class Studio:
    session: Session
    options: RenderOptions  # the studio's frames: context, mode, language, quality
    token: str
    port: int
    bus: Bus = field(default_factory=Bus)
    drawer: object = None  # drawing.Drawer, started with the app
    renders: object = None  # renders.Renders

    focus: str | None = None  # the scene of the step on the page's screen: drawn first after an edit
    step: int | None = None  # and that step (its clip drawn ahead after an edit)

    words_dir: Path | None = None  # `studio --words DIR`: the words folder, whatever the lesson names

    def words(self) -> str | None:  # the lesson's words folder, if it is there: the frames and renders'
        folder = self.session.lesson.words if self.session.lesson is not None else None
        folder = str(self.words_dir) if self.words_dir is not None else folder
        return folder if folder and Path(folder).is_dir() else None

    def draw(self) -> int | None:
        """Ask for the frames of the working text in the page's language, context, normalizer and theme
        (its context may have been renamed); None before any text has passed."""
        s = self.session
        if self.drawer is None or s.lesson is None:
            return None
        from dataclasses import replace

        options = replace(self.options, context=s.lesson.context_name(s.context), mode=s.mode, theme=s.theme,
                          lang=s.lang, words=self.words())
        run = self.drawer.request(s.lesson, options, first=self.focus, step=self.step)
        loop = self.bus.loop
        if loop is not None:  # which scenes are stale, told as soon as it is known (after the answer)
            loop.call_soon(lambda: asyncio.ensure_future(asyncio.to_thread(self.drawer.announce, run)))
        return run


async def body_text(request: Request, lang: str) -> str:
    """The request's body as text; TextProblem, in the page's language, for one too long (read no
    further than MAX_TEXT) or not UTF-8."""
    try:
        return text_of(await capped(request, lang, MAX_TEXT, "studio_too_big"), lang)
    except BodyProblem as p:
        raise TextProblem({"key": None, "line": None, "message": str(p)}) from None


def focus_of(body: dict, lang: str) -> tuple[str, int]:
    """A focus request's scene and step, checked; ValueError naming what is wrong (in `lang`)."""
    scene, n = body.get("scene"), body.get("n", 1)
    if not isinstance(scene, str) or not scene:
        raise ValueError(said(lang, "studio_scene_id", found=shown(scene)))
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(said(lang, "studio_step_from_1", found=shown(n)))
    return scene, n


class Api:
    """The routes' handlers, each a few lines: parse, ask the session (or drawer, renders), answer."""

    def __init__(self, studio: Studio):
        self.studio, self.s = studio, studio.session

    def refuse(self, status: int, code: str, key: str | None = None, **fields) -> JSONResponse:
        """A bad request's answer, in the page's language: the core's entry `code`, filled."""
        return error(status, said(self.s.lang, code, **fields), key)

    async def page(self, request: Request) -> Response:
        response = HTMLResponse(assets.page(self.s.lang))
        if "token" in request.query_params:  # the guard checked it: the page's own requests carry it now
            response.set_cookie(cookie_name(self.studio.port), self.studio.token, httponly=True,
                                samesite="strict")
        return response

    async def get_lesson(self, request: Request) -> Response:
        s = self.s
        return JSONResponse({"path": str(s.path), "text": s.draft, "saved": s.saved, "valid": s.error is None,
                             "error": s.error, "disk": s.disk, "recovery": s.recovered(),
                             "recovery_path": str(s.recovery)})

    async def clip(self, request: Request) -> Response:
        """A scene's step clips to play (with `n`, the step to play first): at once if drawn, else a
        `clip` event when they are."""
        scene, n = request.query_params.get("scene", ""), request.query_params.get("n")
        if self.studio.drawer is None or self.s.lesson is None:
            return self.refuse(409, "studio_no_text", "scene")
        if n is not None and not (n.isdigit() and int(n) >= 1):
            return self.refuse(400, "studio_step_number", "n", found=shown(n))
        try:
            return JSONResponse(await asyncio.to_thread(self.studio.drawer.clip, scene,
                                                        None if n is None else int(n)))
        except LookupError as e:
            return error(404, str(e), "scene")

    async def discard_recovery(self, request: Request) -> Response:
        self.s.forget_recovery()
        return JSONResponse({"recovery": None})

    async def view(self, request: Request) -> Response:
        """The page's language, context, normalizer and theme: the numbers' and the frames' from now on."""
        try:
            body = await json_object(request, self.s.lang)
            self.s.view(body.get("context"), body.get("mode"), body.get("theme"), body.get("lang"))
        except ValueError as e:
            return self.refuse(getattr(e, "status", 400), "studio_not_json", reason=str(e))
        except TextProblem as p:
            return JSONResponse({"error": p.error}, status_code=422)
        run = self.studio.draw()
        return JSONResponse({"run": run, "context": self.s.context, "mode": self.s.mode,
                             "theme": self.s.theme, "lang": self.s.lang})

    async def focus(self, request: Request) -> Response:
        """The step on the page's screen (a new selection): its scene's frames go before the others'."""
        try:
            scene, n = focus_of(await json_object(request, self.s.lang), self.s.lang)
        except ValueError as e:
            return self.refuse(getattr(e, "status", 400), "studio_not_json", "scene", reason=str(e))
        drawer = self.studio.drawer
        if drawer is not None and scene not in {s.id for s in drawer.scenes}:
            return self.refuse(404, "studio_no_scene", "scene", scene=scene)
        if drawer is not None:
            drawer.look(scene, n)
        self.studio.focus, self.studio.step = scene, n
        return JSONResponse({"scene": scene, "n": n})

    async def put_lesson(self, request: Request) -> Response:
        s, bus, q = self.s, self.studio.bus, request.query_params
        if q.get("focus"):  # the step on the page's screen: drawn first, its clip ahead
            self.studio.focus = q["focus"]
            self.studio.step = int(q["n"]) if q.get("n", "").isdigit() and int(q["n"]) >= 1 else None
        try:
            numbers = s.accept(await body_text(request, s.lang))
        except TextProblem as p:
            bus.publish("problem", {"error": p.error})
            return JSONResponse({"error": p.error, "saved": s.saved}, status_code=422)
        run = self.studio.draw()
        bus.publish("numbers", {"numbers": numbers, "edit": s.edits, "run": run})
        return JSONResponse({"numbers": numbers, "page": self.page_json(), "run": run, "edit": s.edits,
                             "saved": s.saved})

    async def save(self, request: Request) -> Response:
        s = self.s
        try:
            text = await body_text(request, s.lang)
            s.save(text or None)
        except TextProblem as p:
            return JSONResponse({"error": p.error}, status_code=422)
        except OSError as e:
            return self.refuse(500, "studio_cannot_write", "path", what=s.path, reason=e.strerror or e)
        self.studio.bus.publish("saved", {"path": str(s.path), "saved": s.saved})
        return JSONResponse({"path": str(s.path), "saved": s.saved})

    async def numbers(self, request: Request) -> Response:
        q = request.query_params
        try:
            return JSONResponse(self.s.numbers(q.get("context") or None, q.get("mode") or None))
        except TextProblem as p:
            return JSONResponse({"error": p.error}, status_code=422)

    def page_json(self) -> dict:
        """What the page's views draw (Session.page), with the languages its render form offers."""
        return self.s.page() | {"render_langs": render_langs(self.studio)}

    async def page_data(self, request: Request) -> Response:
        return JSONResponse({"page": self.page_json(), "edit": self.s.edits})

    async def render(self, request: Request) -> Response:
        try:
            req = render_request(self.studio, await json_object(request, self.s.lang))
        except ValueError as e:
            return self.refuse(getattr(e, "status", 400), "studio_not_json", reason=str(e))
        except TextProblem as p:
            return JSONResponse({"error": p.error}, status_code=422)
        job = await asyncio.to_thread(self.studio.renders.start, req)  # starting a process takes a moment
        return JSONResponse({"job": job}, status_code=202)

    async def events(self, request: Request) -> Response:
        from sse_starlette.sse import EventSourceResponse

        bus = self.studio.bus
        q = bus.subscribe()

        async def stream():
            try:
                yield {"event": "hello", "data": json.dumps({"edit": self.s.edits})}
                while True:
                    event, data = await q.get()
                    yield {"event": event, "data": json.dumps(data, ensure_ascii=False)}
            finally:
                bus.queues.discard(q)

        return EventSourceResponse(stream(), ping=15)

    async def preview(self, request: Request) -> Response:
        p = request.path_params
        png = self.studio.drawer.preview(p["run"], p["scene"], p["n"]) if self.studio.drawer else None
        if png is None:
            return error(404, "no such frame (a newer edit replaced it)")
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def files(self, request: Request) -> Response:
        root = MEDIA.resolve()
        rel = request.path_params["path"]
        try:
            path = (root / rel).resolve()
            found = path.is_relative_to(root) and path.is_file()
        except (OSError, ValueError):  # a NUL byte (x%00.mp4), a name too long, a symlink loop
            found = False
        if not found:
            return error(404, f"no such file in the output folder: {rel}")
        return FileResponse(path)


def routes(studio: Studio) -> list[Route]:
    api = Api(studio)
    return [*line_api.routes(studio), Route("/", api.page),
            Route("/api/lesson", api.get_lesson, methods=["GET"]),
            Route("/api/lesson", api.put_lesson, methods=["PUT"]), Route("/api/save", api.save,
                                                                         methods=["POST"]),
            Route("/api/numbers", api.numbers), Route("/api/page", api.page_data),
            Route("/api/render", api.render, methods=["POST"]), Route("/api/events", api.events),
            Route("/api/view", api.view, methods=["POST"]), Route("/api/clip", api.clip, methods=["POST"]),
            Route("/api/focus", api.focus, methods=["POST"]),
            Route("/api/recovery/discard", api.discard_recovery, methods=["POST"]),
            Route("/files/{path:path}", api.files), Route("/static/{path:path}", assets.static),
            Route("/api/preview/{run:int}/{scene}/{n:int}.png", api.preview)]


async def settled_text(path: Path, pause: float = 0.05) -> str:
    """The file's text once it has stopped changing for `pause` seconds. A program that writes in place
    truncates the file and then writes it; read in between (the watcher woken by an earlier change), the
    lesson would be empty, and the pages would be sent that."""
    def mark(st):
        return st.st_ino, st.st_size, st.st_mtime_ns

    before = mark(path.stat())
    while True:
        await asyncio.sleep(pause)
        text = path.read_text(encoding="utf-8")
        after = mark(path.stat())
        if after == before:
            return text
        before = after


async def watch(studio: Studio, stop: asyncio.Event) -> None:
    """The lesson file edited elsewhere: its text reaches the pages within a second."""
    from watchfiles import awatch

    s = studio.session
    name = s.path.name
    async for _ in awatch(s.path.parent, watch_filter=lambda _c, p: Path(p).name == name, debounce=400,
                          step=50, stop_event=stop, recursive=False):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            text = await settled_text(s.path)
            state = s.on_disk(text)
            if state == "same":
                continue
            if state == "replaced":  # no unsaved edits: the file's text is the working text now
                with contextlib.suppress(TextProblem):
                    s.accept(text)
                    studio.draw()
            studio.bus.publish("file", {"text": text, "state": state, "edit": s.edits, "error": s.error})


def make_app(studio: Studio, hosts: set[str], workers: int) -> Guard:
    from scenes.registry import existing

    from .drawing import Drawer
    from .renders import Renders

    @contextlib.asynccontextmanager
    async def lifespan(app):
        studio.bus.loop = asyncio.get_running_loop()
        studio.drawer = Drawer(workers, studio.bus.emit, existing())
        studio.renders = Renders(studio.bus.emit, MEDIA / ".cache" / f"studio-{studio.port}")
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch(studio, stop))
        studio.draw()
        try:
            yield
        finally:
            stop.set()
            studio.bus.loop = None
            await asyncio.to_thread(studio.renders.close)
            await asyncio.to_thread(studio.drawer.close)
            watcher.cancel()

    app = Starlette(routes=routes(studio), lifespan=lifespan)
    return Guard(app, studio.token, hosts, studio.port)
