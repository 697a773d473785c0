"""English by choice: the language a command shows a lesson in is its --lang, else the lesson file's own
`lang`, else ATTENTION_LESSON_LANG, else zh; a bad `lang` or a bad variable is one line and exit 2. A
lesson shown in a language some of its words lack says so once, naming the file, the line and the keys.
Every case on lessons other than the default (the 5-token lesson with phrases for labels, the 2-token
one, a lesson in English only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core import load, loads
from attention_core.checks import language_gaps
from attention_core.language import LANG_ENV
from attention_lesson.cli import main

LESSONS = Path(__file__).parent / "lessons"
BAT = (LESSONS / "bat.toml").read_text(encoding="utf-8")
EN_ONLY = """lang = "en"
focus = "bat"

[title]
en = "Bats"

[dimensions]
en = ["animal", "sport"]

[vocab]
the = [0.0, 1.0]
bat = [1.0, 0.5]

[projections]
w_q = [[1.0, 0.5], [0.2, 1.0]]
w_k = [[0.8, 0.0], [0.0, 1.2]]
w_v = [[1.5, 0.0], [0.0, 0.7]]

[contexts]
cave = ["the", "bat"]

[context_labels]
cave = { en = "in a cave" }
"""


def run(*args, env: dict | None = None, code: int = 0):
    """`attention-lesson ARGS` with ATTENTION_LESSON_LANG as `env` says (absent: unset): its result."""
    r = CliRunner().invoke(main, list(args), env={LANG_ENV: None, **(env or {})})
    assert r.exit_code == code, (r.output, r.exception)
    assert "Traceback" not in r.output
    return r


@pytest.fixture
def bat_en(tmp_path):
    """The 5-token lesson, saying lang = "en" (its words in both languages)."""
    path = tmp_path / "bat-en.toml"
    path.write_text('lang = "en"\n' + BAT, encoding="utf-8")
    return path


def folder(result) -> str:
    """The output folder a --dry-run names: <lesson>/<context>-<mode>-<lang>-<resolution>..."""
    return result.stdout.split(" -> ")[1].split("/")[2]


def test_the_lesson_files_lang_beats_the_variable_and_loses_to_lang(bat_en):
    assert folder(run("render", "softmax", "--lesson", str(bat_en), "--dry-run")) == "cave-scaled-en-480p15"
    assert folder(run("render", "softmax", "--lesson", str(bat_en), "--dry-run",
                      env={LANG_ENV: "zh"})) == "cave-scaled-en-480p15"
    assert folder(run("render", "softmax", "--lesson", str(bat_en), "--dry-run", "--lang", "zh",
                      env={LANG_ENV: "en"})) == "cave-scaled-zh-480p15"
    assert "matrix       The attention matrix" in run("list", "--lesson", str(bat_en)).stdout
    assert "matrix       注意力矩阵" in run("list", "--lesson", str(bat_en), "--lang", "zh").stdout
    handout = run("handout", "matrix", "--lesson", str(bat_en), "--dry-run").stdout
    assert "cave-scaled-en-720p30-light" in handout


def test_the_variable_is_every_commands_default(tmp_path):
    tiny = str(LESSONS / "tiny.toml")  # says no language
    assert folder(run("render", "softmax", "--lesson", tiny, "--dry-run")) == "short-scaled-zh-480p15"
    assert folder(run("render", "softmax", "--lesson", tiny, "--dry-run",
                      env={LANG_ENV: "en"})) == "short-scaled-en-480p15"
    assert "The attention mechanism" in run("lessons", env={LANG_ENV: "en"}).stdout
    assert "注意力机制" in run("lessons").stdout
    assert "OK" in run("check", tiny, env={LANG_ENV: "en"}).stdout
    run("explorer", "--lesson", tiny, "--out", str(tmp_path / "x"), env={LANG_ENV: "en"})
    assert "<html lang=\"en\">" in (tmp_path / "x" / "explorer" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("value", ["fr", "EN", "english"])
def test_a_bad_variable_is_one_line_and_exit_2(value):
    r = run("render", "softmax", "--lesson", str(LESSONS / "tiny.toml"), "--dry-run", env={LANG_ENV: value},
            code=2)
    assert f"{LANG_ENV}={value!r}" in r.output and "expected one of zh, en" in r.output
    assert len(r.output.strip().splitlines()) == 1
    run("lessons", "--lang", "en", env={LANG_ENV: value})  # --lang given: the variable is not asked
    run("new", "x.toml", "--force", code=2, env={LANG_ENV: value})


@pytest.mark.parametrize(("value", "shown"), [('"fr"', "'fr'"), ("3", "3"), ('["en"]', "['en']")])
def test_a_bad_lang_in_the_file_names_its_line(tmp_path, value, shown):
    path = tmp_path / "bad.toml"
    path.write_text(BAT.replace('focus = "bat"', f'focus = "bat"\nlang = {value}'), encoding="utf-8")
    line = BAT.splitlines().index('focus = "bat"') + 2
    r = run("check", str(path), "--lang", "en", code=2)
    assert r.output.strip() == (f"{path}:{line}: lang: expected the language the lesson is shown in, one "
                                f"of zh, en, found {shown}")


def test_new_writes_the_key_and_check_reads_it(tmp_path):
    run("new", str(tmp_path / "a.toml"), env={LANG_ENV: "en"})
    run("new", str(tmp_path / "b.toml"), "--lang", "zh", env={LANG_ENV: "en"})
    a, b = load(tmp_path / "a.toml"), load(tmp_path / "b.toml")
    assert (a.lang, b.lang) == ("en", "zh") and a.focus == "apple" and b.focus == "苹果"
    checked = run("check", str(tmp_path / "a.toml")).stdout
    assert "lang: en (every command shows the lesson in it" in checked and "OK" in checked


def test_a_batch_plan_without_langs_takes_each_lessons(tmp_path, bat_en):
    from attention_lesson.outputs.registry import PRODUCTS
    from attention_lesson.pipeline.batch import read_plan
    from scenes.registry import existing

    plan = tmp_path / "plan.toml"
    plan.write_text(f'lessons = ["{bat_en}", "{LESSONS / "tiny.toml"}"]\ncontexts = ["cave", "short"]\n',
                    encoding="utf-8")
    got = read_plan(plan, list(existing()), PRODUCTS)
    assert sorted((Path(v.options.lesson).stem, v.options.lang) for v in got.variants) == \
        [("bat-en", "en"), ("tiny", "zh")]


def test_the_studio_opens_in_the_files_language(tmp_path, bat_en, monkeypatch):
    from attention_lesson.studio import serve as studio_serve

    seen = []
    monkeypatch.setattr(studio_serve, "serve", lambda args, say: seen.append(args.lang))
    run("studio", str(bat_en), "--no-browser")
    run("studio", str(bat_en), "--no-browser", "--lang", "zh")
    run("studio", str(LESSONS / "tiny.toml"), "--no-browser", env={LANG_ENV: "en"})
    assert seen == ["en", "zh", "en"]


def test_the_explorers_download_keeps_lang(browser, tmp_path, bat_en):
    from .explorer_helpers import Page, build

    page = Page(browser, build(tmp_path, str(bat_en), "zh"))
    fresh = page.p.evaluate("AL.exporter.freshToml()")  # the file written anew
    kept = page.p.evaluate("Explorer.lessonToml()")  # the file's own text, its numbers edited
    assert page.close() == []
    assert loads(fresh).lang == loads(kept).lang == "en"


def test_missing_words_are_said_once(tmp_path):
    """An English-only lesson shown in Chinese: one warning, at the first key that lacks zh, naming them
    all (before: nothing said, v1 v2 and the context's key on screen)."""
    path = tmp_path / "bats.toml"
    path.write_text(EN_ONLY, encoding="utf-8")
    r = run("render", "softmax", "--lesson", str(path), "--lang", "zh", "--dry-run")
    warned, head = [line for line in r.stderr.splitlines() if "警告" in line], f"{path}:4: 警告："
    assert len(warned) == 1 and warned[0].startswith(head + "title、dimensions、context_labels.cave：")
    assert "没有 zh 的写法（只有 en）" in warned[0] and "--lang en" in warned[0]
    assert r.stderr.count(str(path)) == 1
    assert run("render", "softmax", "--lesson", str(path), "--dry-run").stderr == ""  # its own: en
    checked = run("check", str(path), "--lang", "zh").stderr
    assert checked.startswith(head + "title、dimensions、context_labels.cave：")
    r = run("check", str(path), "--lang", "en")
    assert "warning" not in r.output
    assert language_gaps(load(LESSONS / "bat.toml"), "zh")[0].key == "narration"  # its story: en only
    assert language_gaps(load(LESSONS / "tiny.toml"), "zh") == language_gaps(load("two_heads"), "en") == []


def test_a_file_that_does_not_load_says_its_error_in_its_own_lang(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(EN_ONLY.replace("w_k = [[0.8, 0.0], [0.0, 1.2]]", "w_k = [[0.8, 0.0], [0.0]]"),
                    encoding="utf-8")
    said = f"{path}:19: projections.w_k row 2: expected 2 numbers like row 1, found 1 number"
    assert run("check", str(path), env={LANG_ENV: "zh"}, code=2).output.strip() == said
    assert run("render", "softmax", "--lesson", str(path), "--dry-run", code=2).output.strip() == said
    assert "第 2 行" in run("check", str(path), "--lang", "zh", code=2).output
