"""The light CLI commands through click's CliRunner."""

import json
import re
import tomllib

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import LANGS, __version__, attend, load
from attention_lesson.cli import main


def run(*args):
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_numbers_json_default_is_river_scaled():
    data = json.loads(run("numbers", "--json"))
    for key in ("tokens", "d_k", "mode", "q", "k", "v", "scores", "scaled", "weights", "output"):
        assert key in data
    assert data["tokens"] == ["by", "the", "river", "bank"] and data["mode"] == "scaled"
    assert data["d_k"] == 4
    np.testing.assert_allclose(data["q"][3], [2.3, 2.3, 0, 0])
    np.testing.assert_allclose(data["scores"][3], [0.92, 0, 4.6, 1.38])
    np.testing.assert_allclose(data["scaled"][3], [0.46, 0, 2.3, 0.69])
    assert list(np.round(data["weights"][3], 2)) == [0.11, 0.07, 0.69, 0.14]
    assert list(np.round(data["output"][3], 2) + 0.0) == [1.43, 0.06, 0.14, 0.0]
    # full precision, not rounded
    assert data["weights"][3][2] != round(data["weights"][3][2], 4)


@pytest.mark.parametrize("mode", ["scaled", "unscaled", "uniform"])
def test_numbers_json_modes_and_context(mode):
    data = json.loads(run("numbers", "--json", "--context", "savings", "--mode", mode))
    assert data["tokens"] == ["at", "the", "savings", "bank"] and data["mode"] == mode
    np.testing.assert_allclose(np.sum(data["weights"], axis=1), 1.0)
    if mode == "uniform":
        np.testing.assert_allclose(data["weights"], 0.25)


def test_numbers_table():
    out = run("numbers")
    assert "by the river bank" in out and "geography" in out
    assert "2.3000" in out and "0.6854" in out
    assert "bank→river" in out


def test_check_default(tmp_path):
    from attention_core.lesson import resolve
    out = run("check", str(resolve("default")), "--lang", "en")
    assert "OK" in out and "context river: by the river bank" in out and "focus: bank" in out
    out = run("check", str(resolve("default")))  # Chinese, as every --lang is by default
    assert "可以使用" in out and "语境 river：by the river bank" in out and "焦点：bank" in out


def test_version_and_help(monkeypatch):
    assert __version__ in run("--version")
    for cmd in ([], ["numbers"], ["check"]):
        assert "用法" in run(*cmd, "--help")  # the one rule's default
    monkeypatch.setenv("ATTENTION_LESSON_LANG", "en")
    assert run("--help").startswith("Usage: ")


def test_bad_mode_is_usage_error():
    r = CliRunner().invoke(main, ["numbers", "--mode", "cubic"])
    assert r.exit_code == 2 and "cubic" in r.output


@pytest.mark.parametrize("lang", LANGS)
def test_new_writes_a_starter_that_passes_check(tmp_path, lang):
    path = tmp_path / "my-lesson.toml"
    out = run("new", str(path), "--lang", lang)
    assert str(path) in out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#") and "w_q" in text and "[contexts]" in text
    checked = run("check", str(path), "--lang", "en")
    assert "OK" in checked and "warning" not in checked
    lesson = load(path)
    assert len(lesson.contexts) == 2 and all(lesson.title[lang] for lang in LANGS)
    for name in lesson.contexts:  # the story it tells: the focus takes in a different meaning per context
        att = attend(lesson, name)
        f = att.index(lesson.focus)
        assert att.weights[f].max() > 0.5 and int(att.weights[f].argmax()) != f
    fruit, company = (attend(lesson, c) for c in lesson.contexts)
    assert fruit.output[fruit.index(lesson.focus), 0] > 1 > company.output[company.index(lesson.focus), 0]


def test_new_refuses_to_overwrite(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("# my own work\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["new", str(path)])
    assert r.exit_code == 2 and "--force" in r.output
    assert path.read_text(encoding="utf-8") == "# my own work\n"
    run("new", str(path), "--force")
    assert "[vocab]" in path.read_text(encoding="utf-8")


def test_check_warns_on_a_tie_for_the_focus(tmp_path):
    from attention_core.lesson import resolve

    text = resolve("default").read_text(encoding="utf-8")
    path = tmp_path / "tie.toml"  # "the" offers the same key as "river": bank's top weight is shared
    path.write_text(text.replace("the     = [0.0, 0.0, 1.0, 0.0]", "the     = [1.0, 0.0, 0.0, 0.0]"),
                    encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path), "--lang", "en"])
    assert r.exit_code == 0, r.output
    assert "warning: in context river" in r.output and "shared by the, river" in r.output
    assert "takes the first, the" in r.output
    assert r.output.count("warning:") == 2  # "the" is in both sentences
    focus = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("focus ="))
    assert r.output.count(f"{path}:{focus}: warning: ") == 2  # FILE:LINE: warning: ..., at the focus
    zh = CliRunner().invoke(main, ["check", str(path)]).output
    assert zh.count(f"{path}:{focus}: 警告：语境 ") == 2 and "并列" in zh
    assert "OK" in run("check", str(resolve("default")), "--lang", "en")  # no tie, no warning
    assert "warning" not in CliRunner().invoke(main, ["check", str(resolve("default"))]).output


def test_numbers_table_aligns_chinese_tokens_and_names_dimensions(tmp_path):
    from attention_lesson.cli.numbers import width

    path = tmp_path / "zh.toml"
    run("new", str(path), "--lang", "zh")
    out = run("numbers", "--lesson", str(path))
    blocks = [b.splitlines() for b in out.split("\n\n") if b.startswith(("X ", "weights"))]
    assert len(blocks) == 2
    for block in blocks:
        body = block[1:]  # header and rows
        assert len({width(line) for line in body}) == 1, body  # every line ends in the same column
        ends = {width(line[: line.index(".") + 5]) for line in body[1:]}  # the first number's end
        assert len(ends) == 1, body
    assert blocks[0][1].split() == ["fruit", "company", "function", "ambiguity"]
    assert blocks[1][1].split() == ["我", "吃", "一个", "苹果"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_starters_header_names_the_file_it_wrote(tmp_path, lang, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, shown in (("mine.toml", "mine.toml"), ("my lesson.toml", "'my lesson.toml'")):
        run("new", name, "--lang", lang)
        header = (tmp_path / name).read_text(encoding="utf-8").split("\n\n")[0]
        assert f"attention-lesson check {shown}\n" in header and "my-lesson.toml" not in header
        assert f"--lesson {shown}" in header
        assert "OK" in run("check", name, "--lang", "en")


def test_every_language_has_a_starter_with_its_words_in_every_language():
    """A language added to LANGS without attention_lesson/starters/<lang>.toml fails here (`new --lang`
    would offer it and break); each starter gives the lesson's words in every language."""
    from importlib import resources

    from attention_core.lesson import parse

    for lang in LANGS:
        starter = resources.files("attention_lesson") / "starters" / f"{lang}.toml"
        assert starter.is_file(), f"no starter for {lang}"
        lesson = parse(tomllib.loads(starter.read_text(encoding="utf-8")), str(starter))
        assert lesson.lang == lang
        for other in LANGS:
            assert lesson.title[other] and len(lesson.dimensions[other]) == lesson.d_v, (lang, other)
            assert all(other in labels for labels in lesson.context_labels.values()), (lang, other)
            assert lesson.narration[other]["story"], (lang, other)


KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30ff]")


@pytest.mark.parametrize("how", ["--lang", "ATTENTION_LESSON_LANG"])
def test_new_in_japanese_writes_japanese_comments_and_lang_ja(tmp_path, how):
    path = tmp_path / "mine.toml"
    args, env = (["--lang", "ja"], {}) if how == "--lang" else ([], {"ATTENTION_LESSON_LANG": "ja"})
    r = CliRunner().invoke(main, ["new", str(path), *args], env=env)
    assert r.exit_code == 0 and r.exception is None, r.output
    text = path.read_text(encoding="utf-8")
    prose = [line for line in text.splitlines()  # every comment but the header's commands and blank ones
             if line.startswith("#") and line.strip("# ") and "attention-lesson " not in line]
    assert len(prose) > 20 and [line for line in prose if not KANA.search(line)] == []
    assert load(path).lang == "ja" and 'lang = "ja"\n' in text
    checked = run("check", str(path))
    assert "使用できます" in checked and "言語：ja" in checked


def test_new_for_a_language_of_a_words_folder_copies_the_en_starter(tmp_path):
    words = tmp_path / "words"
    (words / "fr").mkdir(parents=True)
    (words / "fr" / "overview.toml").write_text('[overview]\ntitle = "Attention : une recherche douce"\n',
                                                encoding="utf-8")
    path = tmp_path / "mine.toml"
    r = CliRunner().invoke(main, ["new", str(path), "--lang", "fr", "--words", str(words)])
    assert r.exit_code == 0 and r.exception is None, r.output
    note = r.output.splitlines()[0]
    assert note == (f'{path}: fr has no starter of its own: copied the en one (comments in en, lang = "en", '
                    f'words = "words"); show it in fr with --lang fr')
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# A starter lesson") and 'lang = "en"\n' in text and 'words = "words"\n' in text
    assert load(path).words == str(words.resolve())
    assert "OK" in run("check", str(path), "--lang", "en")


@pytest.mark.parametrize("words", [None, "empty"])
def test_new_for_a_language_without_words_is_one_line(tmp_path, words):
    """`--lang fr` with no folder, or a folder holding no fr words: one line, exit 2, nothing written."""
    path = tmp_path / "mine.toml"
    args = ["--words", str(tmp_path)] if words else []
    r = CliRunner().invoke(main, ["new", str(path), "--lang", "fr", *args])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert ("words export --lang fr" in r.output) if words is None else ("no words for fr" in r.output)
    assert not path.exists()
