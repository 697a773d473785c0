"""The studio's JSON and text endpoints under bodies hypothesis writes (issue 57, Tests): bytes that are
no UTF-8, JSON that is no object or nested deep, objects whose values are of any kind, lesson texts cut
or edited anywhere, and narration lines full of placeholders a line may not take (`{HOME}`,
`{focus.__class__}`, `${VAR}`). Whatever the body, the app answers (never a 500, never an exception
out of it), a refused body is a 4xx with the studio's JSON error, and no answer holds a value the body
did not bring: not an environment variable's (a marker set for the test), not the studio's token.

Driven in-process through the ASGI interface (no server, no browser; the body arrives in chunks, as a
server hands it over), with no drawer and a stand-in for the renders (a render request that passes is
recorded, not started)."""

from __future__ import annotations

import asyncio
import json
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core import LANGS, MODES
from attention_core.lesson import resolve

pytest.importorskip("starlette")

MARKER_VAR = "ATTENTION_FUZZ_MARKER"
MARKER = "zq7-env-marker-5b1e"  # an environment variable's value no answer may hold
TOKEN = "zq7-token-marker-9c4d"  # nor the studio's token
LINE_KEY = "overview.say.idea"  # a line that takes {focus}

JSON_PATHS = {  # endpoint -> the keys its handler reads
    ("POST", "/api/view"): ("lang", "context", "mode", "theme"),
    ("POST", "/api/focus"): ("scene", "n"),
    ("POST", "/api/render"): ("product", "quality", "lang", "voice", "theme", "context", "mode"),
    ("PUT", "/api/line"): ("key", "text"),
    ("POST", "/api/line/revert"): ("key",),
    ("POST", "/api/line/voice"): ("scene", "n"),
}
TEXT_PATHS = (("PUT", "/api/lesson"), ("POST", "/api/save"))

PLACEHOLDERS = ["{focus}", "{focus.__class__}", "{focus.__init__.__globals__}", f"{{{MARKER_VAR}}}",
                f"${MARKER_VAR}", f"${{{MARKER_VAR}}}", f"%({MARKER_VAR})s", "{0}", "{}", "{", "}", "{{}}",
                "{HOME}", "{focus!r:>{width}}", "{tip}", "~", "$HOME", "\x00", "\ud7ff"]
CHOICES = ["river", "savings", "overview", "softmax", "blink", LINE_KEY, "overview.title", "low", "medium",
           "none", "draft", "lesson", "html", "handout", "sheet", "dark", "light", *LANGS, *MODES]


class Renders:
    """The renders, stood in for: a request that passes the checks is recorded."""

    def __init__(self):
        self.started = []

    def start(self, req) -> str:
        self.started.append(req)
        return f"job{len(self.started)}"


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    """The studio's routes over a session of the default lesson (in a folder of its own, where a saved
    text and a line's words may be written), the marker in the environment."""
    from starlette.applications import Starlette

    from attention_lesson.pipeline.plan import RenderOptions
    from attention_lesson.studio.app import Studio, routes
    from attention_lesson.studio.session import Session

    path = tmp_path_factory.mktemp("fuzz") / "lesson.toml"
    shutil.copy(resolve("default"), path)
    session = Session.open(path, None, "scaled", "en")
    options = RenderOptions(lesson=str(path), context=session.context, lang="en", format="png")
    state = Studio(session, options, TOKEN, 1, renders=Renders())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(MARKER_VAR, MARKER)
        yield Starlette(routes=routes(state)), state


def ask(app, method: str, path: str, body: bytes, cut: int) -> tuple[int, bytes, str]:
    """One request to the ASGI app in a loop of its own, its body in chunks of `cut` bytes: its status,
    body and content type (an exception out of the app fails the test, as a server's 500 would)."""
    with ThreadPoolExecutor(1) as pool:  # a loop of its own: a browser test's may be running in this worker
        return pool.submit(asyncio.run, _ask(app, method, path, body, cut)).result()


async def _ask(app, method: str, path: str, body: bytes, cut: int) -> tuple[int, bytes, str]:
    chunks = [body[i:i + cut] for i in range(0, len(body), cut)] or [b""]
    sent = []

    async def receive():
        chunk = chunks.pop(0) if chunks else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message):
        sent.append(message)

    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": headers, "http_version": "1.1", "scheme": "http", "server": ("test", 80),
             "client": ("test", 1), "root_path": "", "asgi": {"version": "3.0"}}
    await app(scope, receive, send)
    start = sent[0]
    ctype = dict(start.get("headers", [])).get(b"content-type", b"").decode()
    return start["status"], b"".join(m.get("body", b"") for m in sent[1:]), ctype


# -- the bodies --------------------------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**70), st.floats(allow_nan=True),
                    st.sampled_from(CHOICES), st.sampled_from(PLACEHOLDERS), st.text(max_size=12))


def nested(inner):
    return st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)


values = st.recursive(scalars, nested, max_leaves=6)
line_texts = st.lists(st.sampled_from(PLACEHOLDERS) | st.sampled_from(["In my own words: ", " listens."]),
                      min_size=1, max_size=4).map("".join)


@st.composite
def json_bodies(draw, keys: tuple[str, ...]) -> bytes:
    """An object of the handler's keys (and others), any values; or JSON that is no object; or bytes."""
    kind = draw(st.sampled_from(["object", "line", "other", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=40) | st.sampled_from([b"[" * 3000, b"{" * 50, b"\xff{}", b'{"a":']))
    if kind == "other":
        return json.dumps(draw(scalars | st.lists(values, max_size=3))).encode()
    body = draw(st.dictionaries(st.sampled_from(keys) | st.text(max_size=4), values, max_size=len(keys) + 1))
    if kind == "line":
        body |= {"key": draw(st.sampled_from([LINE_KEY, "overview.say.nope", "x"])), "text": draw(line_texts)}
    return json.dumps(body).encode()


@st.composite
def lesson_texts(draw) -> bytes:
    """The default lesson cut short, a line of it replaced, a placeholder put in; or bytes."""
    lines = resolve("default").read_text(encoding="utf-8").splitlines(keepends=True)
    kind = draw(st.sampled_from(["cut", "line", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=40) | st.just(b'title = "\xe4\xb8"\n'))
    if kind == "cut":
        return "".join(lines)[:draw(st.integers(0, sum(map(len, lines))))].encode()
    i = draw(st.integers(0, len(lines) - 1))
    said = draw(st.sampled_from(PLACEHOLDERS) | st.text(max_size=8))
    new = draw(st.sampled_from([f'title = "{said}"\n', f'words = "{said}"\n', f"{said}\n",
                                f'focus = "{said}"\n']))
    return "".join([*lines[:i], new, *lines[i + 1:]]).encode()


requests = st.one_of(
    *(st.tuples(st.just(where), json_bodies(keys)) for where, keys in JSON_PATHS.items()),
    *(st.tuples(st.just(where), lesson_texts()) for where in TEXT_PATHS))


def refused(body: bytes, json_api: bool) -> bool:
    """Whether the body is one no handler can take: not UTF-8, and for the JSON API no JSON object."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if not json_api:
        return False
    try:
        return not isinstance(json.loads(text or "{}"), dict)
    except (ValueError, RecursionError):
        return True


@settings(derandomize=True, max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(request=requests, cut=st.sampled_from([1, 7, 4096]))
def test_no_body_gets_a_500_or_an_answer_with_what_it_did_not_bring(studio, request, cut):
    app, state = studio
    (method, path), body = request
    status, answer, ctype = ask(app, method, path, body, cut)
    assert status < 500, (status, answer)
    assert MARKER.encode() not in answer and TOKEN.encode() not in answer, answer
    assert b"Traceback" not in answer, answer
    if status >= 400:
        error = json.loads(answer)["error"]
        assert "json" in ctype and set(error) == {"key", "line", "message"} and error["message"], answer
    if refused(body, (method, path) not in TEXT_PATHS):
        assert 400 <= status < 500, (status, answer)
    assert state.session.lang in LANGS and state.session.mode in MODES  # what a refused view leaves
