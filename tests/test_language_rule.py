"""The one rule for a command's language (attention_core.language): --lang, else the lesson file's `lang`,
else ATTENTION_LESSON_LANG, else zh; every message of the command in it, click's own words too. The
cases are a Japanese teacher's first day: a 5-token lesson of her own saying lang = "ja", with its
words in en and zh only, and no variable set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core.language import LANG_ENV, LangError, message_lang, resolve, sniffed_lang
from attention_lesson.cli import main

LESSONS = Path(__file__).parent / "lessons"
KANA = re.compile(r"[\u3041-\u30ff]")


@pytest.mark.parametrize(("given", "declared", "env", "lang"), [
    ("en", "ja", {LANG_ENV: "zh"}, "en"), (None, "ja", {LANG_ENV: "zh"}, "ja"),
    (None, None, {LANG_ENV: "en"}, "en"), (None, None, {}, "zh"), (None, None, {LANG_ENV: ""}, "zh"),
    ("fr", "ja", {LANG_ENV: "xx"}, "fr"),  # the variable is not asked once a language is given
])
def test_the_rule(given, declared, env, lang):
    assert resolve(given, declared, env) == lang


def test_the_variable_is_refused_only_when_asked():
    with pytest.raises(LangError, match="ATTENTION_LESSON_LANG='xx'"):
        resolve(None, None, {LANG_ENV: "xx"})
    assert message_lang(None, None, {LANG_ENV: "xx"}) == "zh"  # its own error comes when it is asked


@pytest.mark.parametrize(("given", "env", "said"), [
    ("fr", {}, "en"), ("fr", {LANG_ENV: "ja"}, "ja"), ("ja", {LANG_ENV: "en"}, "ja"), (None, {}, "zh")])
def test_the_messages_of_a_folder_language_are_the_variables_else_english(given, env, said):
    assert message_lang(given, None, env) == said


def test_a_file_that_is_no_toml_still_says_its_language_above_its_first_table():
    assert sniffed_lang('title = "x\nlang = "ja"  # mine\nfocus = [\n') == "ja"
    assert sniffed_lang("lang = 'en'\n") == "en"
    assert sniffed_lang('[title]\nlang = "ja"\n') is None  # a key of a table, not the file's
    assert sniffed_lang('lang = "fr"\n') is None and sniffed_lang('language = "ja"\n') is None


@pytest.fixture
def mine(tmp_path) -> Path:
    """The 5-token lesson saying lang = "ja" (its words are in en and zh)."""
    path = tmp_path / "mine.toml"
    path.write_text('lang = "ja"\n' + (LESSONS / "bat.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def run(*args: str, env: dict | None = None) -> tuple[int, list[str]]:
    r = CliRunner().invoke(main, list(args), env={LANG_ENV: None, **(env or {})})
    assert "Traceback" not in r.output
    return r.exit_code, r.output.splitlines()


def japanese(line: str) -> bool:
    """Japanese, not Chinese or English: kana, and no word of click's or the core's English."""
    return bool(KANA.search(line)) and not re.search(r"\b(Error|Invalid|expected|found)\b", line)


def test_a_typo_in_her_file_is_said_in_japanese(mine):
    mine.write_text(mine.read_text(encoding="utf-8").replace('focus = "bat"', 'focus = "bat'),
                    encoding="utf-8")
    code, lines = run("check", str(mine))
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"{mine}:4: ") and japanese(lines[0])


@pytest.mark.parametrize("args", [("render", "nosuch", "--dry-run"),
                                  ("render", "softmax", "--context", "sea", "--dry-run"),
                                  ("render", "softmax", "--fsp", "3")])
def test_an_unknown_scene_context_or_option_is_said_in_japanese_click_words_too(mine, args):
    code, lines = run(*args, "--lesson", str(mine))
    assert code == 2 and lines[-1].startswith("エラー：") and japanese(lines[-1]), lines
    assert any(line.startswith("使い方: ") for line in lines), lines  # click's own words too


def test_the_words_she_lacks_name_every_language_the_file_has(mine):
    code, lines = run("check", str(mine))
    gap = next(line for line in lines if "ja の言葉がありません" in line)
    assert code == 0 and "（en、zh だけ）" in gap and gap.endswith("--lang en を選んでください"), gap
    # (its story is in en only: en is the language that has every word she lacks)


def test_the_variable_is_her_default_and_her_file_wins_over_it(mine, tmp_path):
    assert run("render", "nosuch", "--lesson", str(mine), "--dry-run", env={LANG_ENV: "en"})[1][-1] \
        .startswith("エラー：")
    plain = LESSONS / "bat.toml"  # says no language: the variable's, else zh
    assert run("render", "nosuch", "--lesson", str(plain), "--dry-run", env={LANG_ENV: "ja"})[1][-1] \
        .startswith("エラー：")
    assert run("render", "nosuch", "--lesson", str(plain), "--dry-run")[1][-1].startswith("错误：")
    assert run("render", "nosuch", "--lesson", str(mine), "--dry-run", "--lang", "en")[1][-1] \
        .startswith("Error: Invalid value for ID: unknown scene 'nosuch'")


def test_new_and_the_studio_answer_in_her_language(mine):
    code, lines = run("new", str(mine), "--lang", "ja")
    said = f"エラー：{mine} はすでにあります。上書きするには --force を付けてください"
    assert (code, lines[-1]) == (2, said)
    code, lines = run("studio", str(mine), "--ip", "no such host", "--no-browser")
    assert code == 2 and japanese(lines[-1]), lines


def test_plain_manim_reads_the_file_then_the_variable(mine, monkeypatch):
    from scenes.common.settings import Settings

    monkeypatch.setenv("ATTENTION_LESSON", str(mine))
    monkeypatch.setenv(LANG_ENV, "en")
    assert Settings.from_env().lang == "ja"
    monkeypatch.setenv("ATTENTION_LESSON", str(LESSONS / "bat.toml"))
    assert Settings.from_env().lang == "en"
    monkeypatch.delenv(LANG_ENV)
    assert Settings.from_env().lang == "zh"


def test_doctor_speaks_the_teachers_language():
    code, lines = run("doctor", env={LANG_ENV: "ja"})
    assert lines[-1] == "レンダリングに必要なものはすべてそろっています。", lines[-1]
    assert "使うコマンド：" in lines[2], lines[:3]
    assert code == 0 and run("doctor", env={LANG_ENV: "en"})[1][-1] == "Everything a render needs is here."
