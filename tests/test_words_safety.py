"""A words file changes what is said and nothing else: a line's {fields} are bare names it is given,
written as the built-in lines write them ({top}, {top!s}, {top_pct:.0%}), filled by one formatter
(words.fill) that `words check`, every build and the studio's PUT /api/line hold a line to. A field that
reaches into the program (`{focus.__format__.__globals__...}`), another conversion, another spec or a
width that fills the memory is refused as `FILE:LINE: key: ...`, never filled. Fast: no rendering, no
browser, the studio's route driven in-process."""

from __future__ import annotations

import asyncio
import json
import os
import string
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.errors import Phrase, say, tidy
from attention_lesson.cli import main
from scenes.common import words as W
from scenes.common.i18n import Token, catalog

LEAK = "{focus.__format__.__globals__[W].Path.__new__.__globals__[os].environ}"
REFUSED = [LEAK, "{focus!z}", "{focus:%Q}", "{focus:>300000000}", "{focus!r}", "{focus[0]}", "{0}", "{}",
           "{focus:{top}}", "{focus:.0%}", "{top_pct!s:.0%}"]
SECRET = os.environ.setdefault("WORDS_SAFETY_SECRET", "s3cr3t-value")  # what a leak would print


@pytest.fixture(autouse=True)
def no_words_after():
    yield
    W.use_words(None)


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output, r.output
    return r.exit_code, r.output


def folder_with(tmp_path: Path, lang: str, key_line: str, table: str = "softmax") -> Path:
    (tmp_path / lang).mkdir(parents=True, exist_ok=True)
    (tmp_path / lang / f"{table}.toml").write_text(f"[{table}]\n{key_line}\n", encoding="utf-8")
    return tmp_path


def test_the_built_in_lines_write_only_the_allowed_forms():
    """The whitelist is what scenes/i18n/ uses, no more: a new form in a built-in line fails here first."""
    forms = set()
    for lang in W.BUILT_IN:
        for key, e in W.builtin_entries(lang).items():
            for s in e.value if isinstance(e.value, list) else [e.value]:
                for name, conv, spec in W.fields(s):
                    forms.add((conv, spec, name.endswith(W.SHARE) if spec else None))
    assert forms == {(None, "", None), ("s", "", None), (None, W.PERCENT, True)}


def test_a_built_in_line_fills_as_str_format_did():
    tr = catalog("en")
    fields = {"focus": tr.token("bank"), "top": tr.token("river"), "top_pct": 0.8251, "self_pct": 0.1}
    line = "{focus} on {top!s}: {top_pct:.0%} ({self_pct:.0%}) {{literal}}"
    assert W.fill(line, **fields) == line.format(**fields) == "“bank” on river: 83% (10%) {literal}"
    assert tr("softmax.weights_of", focus=tr.token("bank")) == \
        W.builtin_entries("en")["softmax.weights_of"].value.format(focus=tr.token("bank"))


@pytest.mark.parametrize("field", REFUSED)
def test_words_check_refuses_a_field_that_is_no_bare_name(tmp_path, field):
    folder = folder_with(tmp_path, "en", f'weights_of = "weights of {field}"')
    code, out = run("words", "check", str(folder), "--lang", "en")
    lines = out.splitlines()
    assert code == 2 and len(lines) == 1, out
    assert lines[0].startswith(f"{folder / 'en' / 'softmax.toml'}:2: softmax.weights_of: "), out
    assert SECRET not in out and "HOME=" not in out


def test_the_refusal_is_said_in_the_commands_language(tmp_path):
    for lang, said in (("ja", "使えないプレースホルダー {focus!z}"), ("zh", "不允许的占位符 {focus!z}"),
                       ("en", "placeholder {focus!z} not allowed")):
        folder = folder_with(tmp_path, lang, 'weights_of = "{focus!z}"')
        code, out = run("words", "check", str(folder), "--lang", lang)
        assert code == 2 and said in out and out.count("\n") == 1, out


def test_a_build_refuses_the_folder_before_any_work(tmp_path):
    folder = folder_with(tmp_path, "en", f'[softmax.say]\nreading = "{LEAK}"', table="x")
    code, out = run("voice", "script", "--words", str(folder), "--lang", "en", "softmax")
    assert code == 2 and out.count("\n") == 1 and ":3: softmax.say.reading: placeholder" in out, out
    assert SECRET not in out


def test_a_catalog_read_without_the_check_refuses_at_the_lines_place(tmp_path):
    """Defence in depth: a process that reads a folder no one checked still never fills such a field."""
    folder = folder_with(tmp_path, "en", f'weights_of = "{LEAK}"\n', table="softmax")
    W.use_words(folder)
    tr = catalog("en")
    with pytest.raises(W.WordsError) as e:
        tr("softmax.weights_of", focus=tr.token("bank"))
    assert str(e.value).startswith(f"{folder / 'en' / 'softmax.toml'}:2: softmax.weights_of: placeholder")
    assert SECRET not in str(e.value)
    folder_with(tmp_path, "en", 'token = "<{token.__class__}>"', table="common")
    with pytest.raises(W.WordsError, match=r"common\.toml:2: common\.token: placeholder"):
        catalog("en").token("bank")


class Hidden(str):
    """A value with something the line must never reach by its attributes."""

    secret = SECRET


GIVEN = {"focus": Token(Hidden("cat"), "“{token}”"), "top_pct": 0.25, "hidden": Hidden("dog")}
PIECES = ["{", "}", "focus", "top_pct", "hidden", "secret", ".", "[0]", "[W]", "!s", "!r", "!z", ":", ".0%",
          ">9", ">300000000", "%Q", "__class__", "x", " ", "0", "{{", "}}"]
LINES = st.one_of(st.lists(st.sampled_from(PIECES), max_size=12).map("".join),
                  st.text(alphabet="{}[]!:.%>0sz_ focusxtp", max_size=30))


def expected(line: str) -> str:
    """The line filled by hand, each field one of GIVEN's values as its form says."""
    out = []
    for literal, name, spec, conv in string.Formatter().parse(line):
        out.append(literal)
        if name is not None:
            value = GIVEN[name]
            out.append(format(str(value) if conv == "s" else value, spec))
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(LINES)
def test_a_line_is_filled_with_its_fields_alone_or_refused_cleanly(line):
    try:
        W.fields(line)
        checked = None
    except W.PlaceholderError as e:
        checked = e
    try:
        out = W.fill(line, **GIVEN)
    except W.PlaceholderError as e:  # the one clean refusal, said in every language
        for lang in ("zh", "en", "ja"):
            assert tidy(lang, say(lang, e.phrase("k.x"))).startswith("k.x")
        assert isinstance(e.phrase("k"), Phrase) and SECRET not in str(e)
        assert checked is not None or any(n not in GIVEN for n, _, _ in W.fields(line))
        return
    assert checked is None, line  # what the check refuses is never filled
    assert out == expected(line) and SECRET not in out


def test_the_studio_refuses_such_a_line_with_a_422_and_writes_nothing(tmp_path):
    from attention_lesson.studio.narration import LineProblem, check

    for field in REFUSED[:4]:
        with pytest.raises(LineProblem) as e:
            check("softmax.say.reading", f"{{focus}} and {field}", "en")
        assert e.value.status == 422 and e.value.key == "text" and "not allowed" in e.value.message
    status, body = put_line(tmp_path, {"key": "softmax.say.reading", "text": f"{{focus}} {LEAK}"})
    assert status == 422 and "placeholder {focus.__format__" in body["error"]["message"], body
    assert body["error"]["key"] == "text" and SECRET not in json.dumps(body)
    assert list(tmp_path.iterdir()) == []  # no words folder made, the lesson file not touched


def put_line(tmp_path: Path, payload: dict) -> tuple[int, dict]:
    """PUT /api/line on the studio's own route, called as an ASGI app in-process (no server, no page)."""
    from starlette.applications import Starlette

    from attention_lesson.studio.line_api import routes

    session = SimpleNamespace(lang="en", lesson=SimpleNamespace(words=None), path=tmp_path / "lesson.toml",
                              name_words=lambda *a: pytest.fail("the lesson file named a folder"))
    app = Starlette(routes=routes(SimpleNamespace(session=session, words_dir=None,
                                                  draw=lambda: pytest.fail("drawn"))))
    asked = _request(app, "PUT", "/api/line", json.dumps(payload).encode())
    with ThreadPoolExecutor(1) as pool:  # a loop of its own (a browser test's may be running here)
        return pool.submit(asyncio.run, asked).result()


async def _request(app, method: str, path: str, body: bytes) -> tuple[int, dict]:
    sent = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"content-type", b"application/json")], "http_version": "1.1", "scheme": "http",
             "server": ("test", 80), "client": ("test", 1), "root_path": "", "asgi": {"version": "3.0"}}
    await app(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_the_studios_render_button_refuses_a_built_in_languages_bad_folder(tmp_path):
    """A line edited by hand in the folder stops a studio render as it stops one from the command line."""
    from attention_lesson.studio.renders import _words_problem

    studio = SimpleNamespace(words=lambda: str(tmp_path), session=SimpleNamespace(lang="en"))
    assert _words_problem(studio, "en") is None  # no words for en in the folder: the built-in ones
    folder_with(tmp_path, "en", 'weights_of = "{focus!r}"')
    assert _words_problem(studio, "en") == \
        f"{tmp_path / 'en' / 'softmax.toml'}:2: softmax.weights_of: placeholder {{focus!r}} not allowed; " \
        "a line writes a name alone: {name}, {name!s} or {name_pct:.0%}"
    assert _words_problem(SimpleNamespace(words=lambda: None, session=studio.session), "ja") is None
