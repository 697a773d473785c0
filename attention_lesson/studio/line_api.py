"""The studio's narration line of the selected step, in the teacher's own words (studio/narration.py):

| request | answer |
|---|---|
| `GET /api/line?scene=&n=` | the drawn step's line: `{"key", "text", "builtin", "own", "current", |
| | "file", "drawn", ...}` (`key` null: a line that is no catalog line; `drawn` false: not drawn yet) |
| `PUT /api/line` `{"key", "text"}` | the line written to the words folder (the lesson file names it from |
| | the first edit): `{"run", "file", "lesson", "saved", "warning"}` (`warning`: a placeholder the line |
| | leaves out, in the page's language, else null); 422 `{"error"}` for a line the lesson cannot take; |
| | 403 for a words folder outside the lesson file's folder not named by `--words` |
| `POST /api/line/revert` `{"key"}` | the key taken out of the folder: `{"run", "file"}` |
| `POST /api/line/voice` `{"scene", "n"}` | the step's line in the draft voice: `{"audio"}` (a WAV, |
| | under media/) |

A bad request gets its status and a JSON error (`{"error": {"key", "line", "message"}}`), never a
traceback.
"""

from __future__ import annotations

import asyncio
import hashlib

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from attention_core.errors import shown
from attention_core.errors import text as said

from ..pipeline.plan import MEDIA
from . import narration as N
from .bodies import BodyProblem, json_object
from .guard import error_body
from .toml_edit import EditError

VOICES = MEDIA / "studio" / "voice"  # the draft voice of a line, by its text's hash


def refused(p: N.LineProblem) -> JSONResponse:
    return JSONResponse(error_body(p.message, p.key), status_code=p.status)


async def _body(request: Request, lang: str) -> dict:
    """The request's JSON object (at most bodies.MAX_BODY bytes); LineProblem (400, 413 too large) saying
    what is wrong, in the page's language."""
    try:
        return await json_object(request, lang)
    except BodyProblem as e:
        raise N.LineProblem(e.status, said(lang, "studio_not_json", reason=str(e))) from None


def routes(studio) -> list[Route]:
    line = LineApi(studio)
    return [Route("/api/line", line.get, methods=["GET"]), Route("/api/line", line.put, methods=["PUT"]),
            Route("/api/line/revert", line.revert, methods=["POST"]),
            Route("/api/line/voice", line.voice, methods=["POST"])]


def not_written(e: OSError, lang: str) -> JSONResponse:
    message = said(lang, "studio_cannot_write", what=said(lang, "studio_the_words"), reason=e.strerror or e)
    return JSONResponse(error_body(message, "file"), status_code=500)


class LineApi:
    def __init__(self, studio):
        self.studio = studio

    def _place(self) -> N.Place:
        s = self.studio.session
        if s.lesson is None:
            raise N.LineProblem(409, said(s.lang, "studio_no_text"))
        return N.place_of(s.lesson, s.path, s.lang, self.studio.words_dir)

    def _writable_place(self) -> N.Place:
        """The place, if the studio may write there (narration.elsewhere); LineProblem 403 if not."""
        place = self._place()
        s = self.studio.session
        if (problem := N.elsewhere(place, s.path, self.studio.words_dir, s.lang)) is not None:
            raise problem
        return place

    def line(self, scene: str, n: str) -> dict:
        """The drawn step's line; LineProblem for a scene the studio does not draw, a step it lacks, or
        a step not drawn yet."""
        from .drawing import frames_folder, steps_of

        place, drawer, lang = self._place(), self.studio.drawer, self.studio.session.lang
        if drawer is None or scene not in {s.id for s in drawer.scenes}:
            raise N.LineProblem(404, said(lang, "studio_no_scene", scene=shown(scene)), "scene")
        if not (n.isdigit() and int(n) >= 1):
            raise N.LineProblem(400, said(lang, "studio_step_number", found=shown(n)), "n")
        try:
            steps = steps_of(frames_folder(drawer.asked.options), scene)
        except (AttributeError, OSError, ValueError):
            raise N.LineProblem(409, said(lang, "studio_not_drawn", scene=scene), "scene") from None
        if int(n) > len(steps):  # a scene drawn again with more steps, not done yet
            raise N.LineProblem(409, said(lang, "studio_steps_drawn", scene=scene, count=len(steps), asked=n),
                                "n")
        return N.describe(place, scene, steps[int(n) - 1], int(n), self.studio.session.path)

    async def get(self, request: Request) -> Response:
        """The step's line; a step not drawn yet (or no text passed yet) is no error: `drawn` false."""
        q = request.query_params
        try:
            return JSONResponse(self.line(q.get("scene", ""), q.get("n", "")) | {"drawn": True})
        except N.LineProblem as p:
            if p.status == 409:
                return JSONResponse({"scene": q.get("scene"), "n": q.get("n"), "key": None, "drawn": False,
                                     "why": p.message})
            return refused(p)

    async def put(self, request: Request) -> Response:
        s = self.studio.session
        try:
            body = await _body(request, s.lang)
            place = self._writable_place()  # (the text stays in the page's field when refused)
            warning = N.check(body.get("key"), body.get("text"), s.lang)
            if not place.named:  # the first edit: the folder, and the lesson file's line naming it
                place.folder.mkdir(parents=True, exist_ok=True)
                s.name_words(N.FOLDER, N.NOTE)
            path = N.write(place, body["key"], body["text"])
        except N.LineProblem as p:
            return refused(p)
        except EditError as e:
            return JSONResponse(error_body(f"{s.path}: {e}", "words"), status_code=409)
        except OSError as e:
            return not_written(e, s.lang)
        return self._changed(path, lesson=not place.named, warning=warning)

    def _changed(self, path, lesson: bool, warning: str | None = None) -> Response:
        s = self.studio.session
        run = self.studio.draw()
        return JSONResponse({"run": run, "file": N.shown(path, s.path), "lesson": s.draft if lesson else None,
                             "saved": s.saved, "edit": s.edits, "warning": warning})

    async def revert(self, request: Request) -> Response:
        s = self.studio.session
        try:
            key = (await _body(request, s.lang)).get("key")
            place = self._writable_place()
            N.check(key, N.texts(None, s.lang).get(key) if isinstance(key, str) else None, s.lang)
            path = N.remove(place, key) if place.named else place.file(key)
        except N.LineProblem as p:
            return refused(p)
        except OSError as e:
            return not_written(e, s.lang)
        return self._changed(path, lesson=False)

    async def voice(self, request: Request) -> Response:
        """The step's line as it was drawn, in the draft voice (espeak-ng), made once per text."""
        from scenes.common.speech import speakable

        from ..pipeline.voice.speakers import VoiceError, draft

        s = self.studio.session
        try:
            body = await _body(request, s.lang)
            line = self.line(str(body.get("scene", "")), str(body.get("n", "")))
            if line["key"] is not None and not line["current"]:
                raise N.LineProblem(409, said(s.lang, "studio_redrawing"), "scene")
            text = speakable(line["said"], s.lang)
            out = VOICES / f"{hashlib.sha256(f'{s.lang}|{text}'.encode()).hexdigest()[:20]}.wav"
            if not out.is_file():
                out.parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(_speak, draft, text, s.lang, out)
        except N.LineProblem as p:
            return refused(p)
        except VoiceError as e:
            return JSONResponse(error_body(str(e), "voice"), status_code=503)
        return JSONResponse({"audio": str(out.relative_to(MEDIA)), "said": line["said"]})


def _speak(draft, text: str, lang: str, out) -> None:
    """draft() into a file beside `out`, then renamed: a page never gets half a WAV."""
    part = out.with_suffix(".part.wav")
    draft(text, lang, part)
    part.replace(out)
