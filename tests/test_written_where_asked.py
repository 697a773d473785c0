"""Nothing written where it was not asked, nothing lost (issue 57 §4): the studio writes words only in the
lesson's folder or the one its command line names; a render with --out keeps its workers' cache there;
the explorer and the deck keep the teacher's files in their folders; an output changed outside the tool
is made again; a Kokoro voice has a folder of its own. No scene is drawn: the runner is stood in for."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from attention_core.lesson import resolve
from attention_lesson.pipeline import manifest
from attention_lesson.pipeline.plan import RenderOptions, Result

from .cli_helpers import cli
from .test_hostile_inputs import ask, read_only  # noqa: F401 - read_only is a fixture

# -- 1. the studio writes words in the lesson's folder, or the one its command line names -----------------


def studio_on(folder: Path, words: str | None, words_dir: Path | None = None):
    """The studio's routes over the default lesson in `folder`, its unsaved text naming `words` (no
    drawer, no server); the app and the session."""
    pytest.importorskip("starlette")
    from starlette.applications import Starlette

    from attention_lesson.studio.app import Studio, routes
    from attention_lesson.studio.session import Session

    path = folder / "lesson.toml"
    shutil.copy(resolve("default"), path)
    session = Session.open(path, None, "scaled", "en")
    if words is not None:  # typed in the editor, not saved
        session.accept(f'words = "{words}"\n' + path.read_text(encoding="utf-8"))
    options = RenderOptions(lesson=str(path), context=session.context, lang="en", format="png")
    chosen = {"words_dir": words_dir} if words_dir is not None else {}  # (studio --words DIR)
    return Starlette(routes=routes(Studio(session, options, "token", 1, **chosen))), session


def a_line() -> bytes:
    from scenes.common.words import builtin_entries

    key, entry = next((k, e) for k, e in builtin_entries("en").items() if ".say." in k)
    return json.dumps({"key": key, "text": entry.value}).encode()


def test_the_studio_refuses_a_words_folder_far_from_the_lesson_and_keeps_the_text(tmp_path):
    far = tmp_path / "far"
    (tmp_path / "lesson").mkdir()
    app, session = studio_on(tmp_path / "lesson", str(far))
    draft = session.draft
    status, body = ask(app, "PUT", "/api/line", a_line())
    assert status == 403 and str(far) in body["error"]["message"], body
    assert not far.exists()  # nothing written there
    assert session.draft == draft and not session.saved  # the teacher's text is not lost
    status, body = ask(app, "POST", "/api/line/revert", a_line())
    assert status == 403 and not far.exists()


@pytest.mark.parametrize("where", ["below", "chosen"])
def test_the_studio_writes_in_the_lessons_folder_or_the_one_the_command_line_names(tmp_path, where):
    (tmp_path / "lesson").mkdir()
    folder = tmp_path / "lesson" / "mine" if where == "below" else tmp_path / "shared"
    app, _ = studio_on(tmp_path / "lesson", str(folder), words_dir=folder if where == "chosen" else None)
    status, body = ask(app, "PUT", "/api/line", a_line())
    assert status == 200, body
    assert list(folder.glob("en/*.toml"))


# -- 2. a render with --out keeps its cache in it ---------------------------------------------------------


def stand_in_runner(monkeypatch) -> list:
    """The runner stood in for: each job's main file written (b"made") and recorded as the runner does;
    the caches it was handed, one list per run."""
    from attention_lesson.pipeline import build
    from attention_lesson.pipeline.drawing import runner

    runs = []

    def run(jobs, workers, cache_root, **kwargs):
        runs.append([Path(cache_root), [j.id for j in jobs]])
        results = []
        for j in jobs:
            j.out_dir.mkdir(parents=True, exist_ok=True)
            (j.out_dir / j.main_file()).write_bytes(b"made" * 100)
            results.append(Result(j.id, True, [j.main_file()]))
            runner.record(j, results[-1])
        return results

    monkeypatch.setattr(runner, "run", run)
    def workers(jobs, *rest):  # (jobs, cache, quiet); no workers forked
        runs.append([Path(rest[0]) if len(rest) == 2 else None, "forked"])

    monkeypatch.setattr(build, "_workers", workers)
    return runs


def test_a_render_with_out_keeps_its_cache_there_and_writes_nothing_where_it_runs(
        fixtures, monkeypatch, read_only):  # noqa: F811
    runs = stand_in_runner(monkeypatch)
    monkeypatch.chdir(read_only(fixtures / "ro"))
    out = fixtures / "out"
    cli("render", "blink", "--out", str(out), "-q", "-j", "1")
    assert runs == [[out / ".cache", "forked"], [out / ".cache", ["blink"]]]
    assert list((fixtures / "ro").iterdir()) == []  # no ./media/.cache
    assert "渲染 0 个，1 个已是最新" in cli("render", "blink", "--out", str(out), "-j", "1")
    assert len(runs) == 2  # the re-run drew nothing
    from attention_lesson.pipeline.plan import cache_folder

    assert cache_folder(None) == Path("media/.cache") and cache_folder(out) == out / ".cache"


# -- 3. the explorer and the deck keep the teacher's files in their folders ------------------------------


def test_the_explorer_keeps_the_teachers_files_in_its_folder(fixtures):
    cli("explorer", "--out", "o", "-q", "--lang", "en")
    page = fixtures / "o" / "explorer"
    (page / "notes.txt").write_text("mine", encoding="utf-8")
    (page / "pictures").mkdir()
    (page / "pictures" / "board.png").write_bytes(b"png")
    (page / "data.js").write_text("stale", encoding="utf-8")
    cli("explorer", "--out", "o", "-q", "--lang", "en", "--force")
    assert (page / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (page / "pictures" / "board.png").read_bytes() == b"png"
    assert (page / "data.js").read_text(encoding="utf-8") != "stale"  # what the tool writes is new
    files = json.loads((fixtures / "o" / "manifest.json").read_text(encoding="utf-8"))["@explorer"]["files"]
    assert "explorer/index.html" in files and not [f for f in files if "notes" in f or "pictures" in f]


def test_the_deck_keeps_the_teachers_files_and_drops_its_own_old_clips(tmp_path):
    from attention_lesson.outputs.files import deck_owns

    deck, new = tmp_path / "deck", tmp_path / "new"
    for rel in ("index.html", "clips/old.mp4", "reveal.js/dist/reveal.js", "notes.md", "extra/board.png"):
        (deck / rel).parent.mkdir(parents=True, exist_ok=True)
        (deck / rel).write_text(f"old {rel}", encoding="utf-8")
    for rel in ("index.html", "clips/new.mp4", "reveal.js/dist/reveal.js"):
        (new / rel).parent.mkdir(parents=True, exist_ok=True)
        (new / rel).write_text(f"new {rel}", encoding="utf-8")
    manifest.swap_folder(new, deck, deck_owns)
    found = sorted(p.relative_to(deck).as_posix() for p in deck.rglob("*") if p.is_file())
    assert found == ["clips/new.mp4", "extra/board.png", "index.html", "notes.md", "reveal.js/dist/reveal.js"]
    assert (deck / "notes.md").read_text(encoding="utf-8") == "old notes.md"
    assert (deck / "index.html").read_text(encoding="utf-8") == "new index.html"
    assert not new.exists() and not (tmp_path / "new.old").exists()


# -- 4. an output changed outside the tool is made again --------------------------------------------------


def test_an_output_truncated_or_rewritten_outside_the_tool_is_made_again(fixtures, monkeypatch):
    runs = stand_in_runner(monkeypatch)
    cli("render", "blink", "--out", "v", "-q", "-j", "1")
    video = fixtures / "v" / "blink.mp4"
    with open(video, "r+b") as f:  # truncated by another program
        f.truncate(10)
    assert "渲染 1 个" in cli("render", "blink", "--out", "v", "-j", "1")
    assert video.read_bytes() == b"made" * 100
    video.write_bytes(b"MADE" * 100)  # the same size, other bytes
    os.utime(video, ns=(1, 1))
    assert "渲染 1 个" in cli("render", "blink", "--out", "v", "-j", "1")
    shutil.copy(video, fixtures / "copy")  # a copy of the same bytes, another mtime: up to date
    os.replace(fixtures / "copy", video)
    assert "渲染 0 个，1 个已是最新" in cli("render", "blink", "--out", "v", "-j", "1")
    assert [r[1] for r in runs if r[1] != "forked"] == [["blink"]] * 3


# -- 5. a Kokoro voice has a folder of its own -----------------------------------------------------------


def test_a_kokoro_voice_has_its_own_folder_and_the_others_keep_theirs():
    def folder(voice):
        return RenderOptions(lesson="/x/default.toml", context="river", lang="en", voice=voice).folder_name()

    assert folder(None) == "default/river-scaled-en-480p15"
    assert folder("draft") == "default/river-scaled-en-480p15-voice"
    assert folder("neural") == folder("piper:/v/en.onnx") == "default/river-scaled-en-480p15-neural"
    assert folder("kokoro:/v/my voice.npy") == "default/river-scaled-en-480p15-voice-kokoro-my_voice"
    assert folder("kokoro:jf_alpha").endswith("-voice-kokoro-jf_alpha")
    assert folder("kokoro:/v/voices.npz#af_bella").endswith("-voice-kokoro-voices-af_bella")
    assert len({folder(v) for v in ("draft", "kokoro:/v/a.npy", "kokoro:/v/b.npy")}) == 3
