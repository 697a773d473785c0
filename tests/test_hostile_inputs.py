"""Hostile input beyond a lesson's values (issue 57 §2): files that are no text a teacher wrote (not
UTF-8, nested 5,000 deep, a folder, a dangling or looping symlink, a device, a pipe, a file too large),
folders that cannot be written in, an address that is none, and requests the studio cannot read. Each
is one line naming what is wrong, exit status 2 and no traceback, or for the studio a 4xx with its JSON
error: never a traceback or a 500, never a read that blocks or has no end. No rendering, no server."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core.files import MAX_LESSON_BYTES
from attention_core.language import declared_lang
from attention_core.lesson import resolve
from attention_lesson.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD = resolve("default").read_text(encoding="utf-8")


def one_line(*args: str, code: int = 2) -> str:
    """`attention-lesson ARGS` refused as the house rule says: exit `code`, one line, no traceback."""
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == code, (r.output, r.exception)
    assert r.output.count("\n") == 1 and "Traceback" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.output.strip()


# -- words check ---------------------------------------------------------------------------------------

def _not_utf8(f: Path) -> None:
    f.write_bytes(b'[softmax]\nweights_of = "\xff\xfe"\n')


def _nested(f: Path) -> None:
    f.write_text("[softmax]\nweights_of = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")


def _folder(f: Path) -> None:
    f.mkdir()


def _dangling(f: Path) -> None:
    f.symlink_to(f.parent / "nowhere.toml")


def _loop(f: Path) -> None:
    f.symlink_to(f.parent / "other.toml")
    (f.parent / "other.toml").symlink_to(f)


@pytest.mark.parametrize("make, said", [
    (_not_utf8, "expected UTF-8 text, found an undecodable byte at 24"),
    (_nested, "expected arrays and tables nested at most 16 deep, found arrays or tables nested 5000 deep"),
    (_folder, "expected a regular file, found a folder"),
    (_dangling, "expected a readable file, found a symbolic link to nothing"),
    (_loop, "expected a readable file, found a loop of symbolic links"),
], ids=["not-utf8", "nested-5000", "folder", "dangling-symlink", "symlink-loop"])
def test_words_check_says_a_file_it_cannot_read_in_one_line(tmp_path, make, said):
    (tmp_path / "en").mkdir()
    make(tmp_path / "en" / "softmax.toml")
    out = one_line("words", "check", str(tmp_path), "--lang", "en")
    line = 1 if make in (_folder, _dangling, _loop) else 2
    assert out.endswith(f".toml:{line}: {said}"), out
    assert out.startswith(str(tmp_path / "en")), out


def test_words_check_says_it_in_the_folders_language(tmp_path):
    for lang in ("zh", "ja"):
        (tmp_path / lang / "softmax.toml").mkdir(parents=True)
    said = {"zh": "应为一个普通文件，实际：一个文件夹", "ja": "通常のファイルが必要ですが、実際はフォルダー"}
    for lang, words in said.items():
        assert one_line("words", "check", str(tmp_path), "--lang", lang).endswith(f"softmax.toml:1: {words}")


# -- check: nesting without --lang, what is no regular file, a file too large ---------------------------

@pytest.mark.parametrize("depth", [500, 5000])
def test_check_without_lang_says_deep_nesting_in_one_line(tmp_path, monkeypatch, depth):
    """The error's language is the file's own `lang` line (a file that is not TOML it can be read as says
    it too), not from reading it again with no nesting guard (a RecursionError's traceback)."""
    monkeypatch.delenv("ATTENTION_LESSON_LANG", raising=False)
    path = tmp_path / "deep.toml"
    path.write_text('lang = "en"\nfocus = ' + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    assert one_line("check", str(path)) == (f"{path}:2: expected arrays and tables nested at most 16 deep, "
                                            f"found arrays or tables nested {depth} deep")
    assert declared_lang(path) == "en"  # read from its `lang` line, not a RecursionError


def test_check_says_an_error_in_the_files_own_language(tmp_path, monkeypatch):
    monkeypatch.delenv("ATTENTION_LESSON_LANG", raising=False)
    path = tmp_path / "en.toml"
    path.write_text('lang = "en"\n' + GOOD.replace('focus = "bank"', 'focus = "nosuch"'), encoding="utf-8")
    assert "focus: expected" in one_line("check", str(path))


def test_check_refuses_a_folder_and_a_file_too_large(tmp_path, monkeypatch):
    monkeypatch.delenv("ATTENTION_LESSON_LANG", raising=False)
    (tmp_path / "folder.toml").mkdir()
    assert one_line("check", str(tmp_path / "folder.toml"), "--lang", "en") == \
        f"{tmp_path / 'folder.toml'}: expected a regular file, found a folder"
    big = tmp_path / "big.toml"
    big.write_text(GOOD + "#" * MAX_LESSON_BYTES, encoding="utf-8")
    size = big.stat().st_size
    assert one_line("check", str(big)) == f"{big}: 应为最多 {MAX_LESSON_BYTES} 字节的文件，实际：{size} 字节"
    assert one_line("check", str(big), "--lang", "ja") == \
        f"{big}: {MAX_LESSON_BYTES} バイトまでのファイルが必要ですが、実際は {size} バイト"


ENDLESS = textwrap.dedent("""
    import json, os, resource, signal, sys
    from click.testing import CliRunner
    from attention_lesson.cli import main
    signal.alarm(20)  # a read that blocks (a pipe with no writer) ends the process, not the test run
    size = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (size + 400_000_000, resource.RLIM_INFINITY))  # /dev/zero
    out = []
    for args in json.loads(sys.argv[1]):
        r = CliRunner().invoke(main, args)
        out.append([r.exit_code, r.output, repr(r.exception)])
    print(json.dumps(out))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero, mkfifo and /proc")
def test_check_never_reads_without_end_or_waits_on_a_pipe(tmp_path):
    """/dev/zero would be read forever, a FIFO would wait for a writer: each is one line at once (run in
    a process of its own, its memory and time bounded, so that a regression fails instead of hanging)."""
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    words = tmp_path / "words"
    (words / "en").mkdir(parents=True)
    os.mkfifo(words / "en" / "softmax.toml")
    asked = [["check", "/dev/zero"], ["check", str(fifo), "--lang", "en"],
             ["words", "check", str(words), "--lang", "en"]]
    env = os.environ | {"PYTHONPATH": str(ROOT), "ATTENTION_LESSON_LANG": "en"}
    done = subprocess.run([sys.executable, "-c", ENDLESS, json.dumps(asked)], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    said = ["/dev/zero: expected a regular file, found a device, pipe or socket",
            f"{fifo}: expected a regular file, found a device, pipe or socket",
            f"{words / 'en' / 'softmax.toml'}:1: expected a regular file, found a device, pipe or socket"]
    for (code, output, exception), line in zip(json.loads(done.stdout), said, strict=True):
        assert code == 2 and output == line + "\n", (output, exception)


# -- folders that cannot be written in -------------------------------------------------------------------

@pytest.fixture
def read_only(monkeypatch):
    """Make a folder read-only (and, for root, whom the mode does not stop, say so through os.access as it
    would for anyone else); the mode restored after the test."""
    made = []

    def make(folder: Path) -> Path:
        folder.mkdir(exist_ok=True)
        folder.chmod(0o555)
        made.append(folder)
        real = os.access

        def access(path, mode, *args, **kwargs):
            if mode & os.W_OK and Path(path).absolute() == folder.absolute():
                return False
            return real(path, mode, *args, **kwargs)

        monkeypatch.setattr(os, "access", access)
        return folder

    yield make
    for folder in made:
        folder.chmod(0o755)


def test_new_into_a_read_only_folder_is_one_line_and_writes_nothing(tmp_path, read_only):
    folder = read_only(tmp_path / "ro")
    out = one_line("new", str(folder / "mine.toml"), "--lang", "en")
    assert out == f"Error: {folder / 'mine.toml'}: {folder} cannot be written in", out
    assert list(folder.iterdir()) == []


def test_new_that_fails_as_it_writes_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    def refuse(self, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refuse)
    out = one_line("new", str(tmp_path / "mine.toml"), "--lang", "en")
    assert out == f"Error: cannot write {tmp_path / 'mine.toml'}: Permission denied", out
    assert list(tmp_path.iterdir()) == []


def test_render_in_a_read_only_folder_is_one_line_before_any_work(tmp_path, monkeypatch, read_only):
    """The default output folder and the workers' cache (media/.cache) are where the command runs (with
    --out, both are in it: tests/test_written_where_asked.py)."""
    from attention_lesson.cli import render

    monkeypatch.setattr(render, "execute", lambda *a, **k: pytest.fail("the build started"))
    monkeypatch.chdir(read_only(tmp_path / "ro"))
    said = one_line("render", "softmax", "--lang", "en")
    folder = "media/default/river-scaled-en-480p15"
    assert said == f"Error: {folder}: {tmp_path / 'ro'} cannot be written in", said
    assert list((tmp_path / "ro").iterdir()) == []


# -- studio --ip ---------------------------------------------------------------------------------------

def test_studio_ip_takes_a_name_and_refuses_what_is_no_address(tmp_path, monkeypatch):
    from attention_lesson.studio import serve

    started = []
    monkeypatch.setattr(serve, "serve", lambda args, say: started.append(args))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lesson.toml").write_text(GOOD, encoding="utf-8")
    r = CliRunner().invoke(main, ["studio", "--ip", "localhost", "--no-browser", "--lang", "en"])
    assert r.exit_code == 0 and "warning" not in r.output, (r.output, r.exception)
    assert [a.ip for a in started] == ["127.0.0.1"]
    assert one_line("studio", "--ip", "999.1.1.1", "--no-browser", "--lang", "en") == \
        "Error: --ip 999.1.1.1: expected an IP address (127.0.0.1, ::1) or a name this machine resolves " \
        "(localhost)"
    zh = one_line("studio", "--ip", "999.1.1.1", "--no-browser", "--lang", "zh")
    assert zh.startswith("错误：--ip 999.1.1.1：应为 IP 地址"), zh
    assert len(started) == 1


# -- the studio's API ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def studio_app(tmp_path_factory):
    """The studio's routes over a session of the default lesson, with no drawer, renders or server."""
    pytest.importorskip("starlette")
    from starlette.applications import Starlette

    from attention_lesson.pipeline.plan import RenderOptions
    from attention_lesson.studio.app import Studio, routes
    from attention_lesson.studio.session import Session

    path = tmp_path_factory.mktemp("studio") / "lesson.toml"
    shutil.copy(resolve("default"), path)
    session = Session.open(path, None, "scaled", "en")
    options = RenderOptions(lesson=str(path), context=session.context, lang="en", format="png")
    studio = Studio(session, options, "token", 1)
    return Starlette(routes=routes(studio)), session


def ask(app, method: str, path: str, body: bytes = b"") -> tuple[int, dict | None]:
    """One request to the ASGI app in-process (a loop of its own): its status and JSON body; 500 when the
    app raised instead of answering."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _ask(app, method, path, body)).result()


async def _ask(app, method: str, path: str, body: bytes) -> tuple[int, dict | None]:
    sent = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": headers,
             "http_version": "1.1", "scheme": "http", "server": ("test", 80), "client": ("test", 1),
             "root_path": "", "asgi": {"version": "3.0"}}
    try:
        await app(scope, receive, send)
    except Exception:  # what a server would answer with a 500
        return 500, None
    data = b"".join(m.get("body", b"") for m in sent[1:])
    return sent[0]["status"], json.loads(data) if data else None


NESTED_JSON = b"[" * 100_000


@pytest.mark.parametrize("method, path, body, status", [
    ("PUT", "/api/lesson", b"focus = \"\xff\"\n", 422),
    ("POST", "/api/save", b"\xfe\xff", 422),
    ("POST", "/api/view", NESTED_JSON, 400),
    ("PUT", "/api/line", NESTED_JSON, 400),
    ("POST", "/api/render", NESTED_JSON, 400),
    ("POST", "/api/focus", NESTED_JSON, 400),
    ("POST", "/api/view", b'{"context": {}}', 422),
    ("POST", "/api/view", b'{"lang": ["en"], "theme": 3}', 422),
    ("GET", "/files/x\x00.mp4", b"", 404),
    ("POST", "/api/view", b'{"a": "' + b"x" * MAX_LESSON_BYTES + b'"}', 413),
    ("PUT", "/api/lesson", b"#" * (MAX_LESSON_BYTES + 1), 422),
], ids=["lesson-not-utf8", "save-not-utf8", "view-nested", "line-nested", "render-nested", "focus-nested",
        "view-context-object", "view-lang-list", "files-nul", "json-too-big", "lesson-too-big"])
def test_the_studio_answers_a_bad_request_with_a_4xx_and_its_json_error(studio_app, method, path, body,
                                                                         status):
    app, session = studio_app
    before = session.path.read_text(encoding="utf-8")
    got, answer = ask(app, method, path, body)
    assert got == status, (got, answer)
    assert set(answer["error"]) == {"key", "line", "message"} and answer["error"]["message"], answer
    assert "Traceback" not in answer["error"]["message"]
    assert session.path.read_text(encoding="utf-8") == before  # nothing saved
    assert session.context == "river" and session.lang == "en"  # nothing taken from a refused view


def test_the_studio_says_why_in_the_pages_language(studio_app):
    app, session = studio_app
    assert ask(app, "POST", "/api/save", b"\xfe\xff")[1]["error"]["message"] == \
        "UTF-8 text (undecodable byte at 0)"
    assert ask(app, "POST", "/api/focus", NESTED_JSON)[1]["error"]["message"] == \
        "expected a JSON object: arrays or objects nested too deep"
    session.lang = "ja"
    try:
        message = ask(app, "POST", "/api/render", NESTED_JSON)[1]["error"]["message"]
    finally:
        session.lang = "en"
    assert message == "JSON オブジェクトが必要です：配列またはオブジェクトの入れ子が深すぎます"
