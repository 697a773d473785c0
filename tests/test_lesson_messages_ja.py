"""What `check` says of a lesson in Japanese: the core's JA table (the same entries and fields as EN and
ZH), real broken lessons through the CLI (`FILE:LINE: message` in Japanese, exit 2, one line, no
traceback), and the English and Chinese lines byte for byte as they were before Japanese had a table
(tests/golden/lesson_messages.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core.errors import TomlReason, ph, text, tidy
from attention_core.lesson import packaged_lessons
from attention_core.messages import EN, JA, MESSAGES, TOML_REASONS, ZH
from attention_lesson.cli import main
from tests.test_hostile_lessons import HUGE, NESTED
from tests.test_lesson_errors import CASES, GOOD, swap

GOLDEN = Path(__file__).resolve().parent / "golden" / "lesson_messages.json"
PACKAGED = Path(__file__).resolve().parent.parent / "attention_core" / "lessons"
LEARNING = (PACKAGED / "learning.toml").read_text(encoding="utf-8")
ZH_ONLY_DIMENSIONS = re.sub(r'\n(en|ja) = \["[^\n]*\]', "", GOOD, count=2)

BROKEN = {
    **{name: case[0] for name, case in CASES.items()},
    "list for a number": swap("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [1.0, [0.5], 0.0, 0.0]"),
    "toml missing =": swap('focus = "bank"', 'focus "bank"'),
    "toml twice": swap('focus = "bank"', 'focus = "bank"\nfocus = "bank"'),
    "toml unclosed at the end": GOOD + "\nx = [1, 2",
    "nested": NESTED,
    "huge numbers": HUGE,
    "words only in zh": ZH_ONLY_DIMENSIONS,
    "heads with w_q": swap("[projections]", "[projections]\nw_q = [[1.0, 0.0]]",
                           (PACKAGED / "two_heads.toml").read_text(encoding="utf-8")),
    "tie": swap("the     = [0.0, 0.0, 1.0, 0.0]", "the     = [1.0, 0.0, 0.0, 0.0]"),
    "too many steps": swap("steps = 8", "steps = 100000", LEARNING),
    "learning rate 0": swap("learning_rate = 0.5", "learning_rate = 0", LEARNING),
    "rope base 1": swap("base = 10000", "base = 1",
                        (PACKAGED / "positions.toml").read_text(encoding="utf-8")),
}


def check(tmp_path: Path, lang: str, lesson: str) -> tuple[int, str]:
    """`check FILE --lang LANG`: its exit status and output, the file's path written FILE."""
    path = tmp_path / "lesson.toml"
    if lesson in packaged_lessons():
        path = Path(lesson)
    else:
        path.write_text(BROKEN[lesson], encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path), "--lang", lang])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output, r.output
    return r.exit_code, re.sub(r"\S*(/lesson\.toml|/lessons/\w+\.toml)", "FILE", r.output)


def all_outputs(tmp_path: Path, lang: str) -> dict[str, list]:
    return {name: list(check(tmp_path, lang, name)) for name in [*BROKEN, *packaged_lessons()]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_english_and_chinese_say_what_they_said_before(tmp_path, lang):
    assert all_outputs(tmp_path, lang) == json.loads(GOLDEN.read_text(encoding="utf-8"))[lang]


# the whole line `check FILE --lang ja` prints for a few real mistakes (FILE is the file's path)
COMMENT = "  # the token whose query the step-by-step scenes expand"
JAPANESE = {
    "wrong shape": "FILE:43: projections.w_k："
                   "4 行（埋め込みの次元ごとに 1 行、d_model）が必要ですが、実際は 3 行",
    "missing table": "FILE:67: kontexts：author、context_labels、contexts、dimensions、focus、"
                     "focus_head、geometry、heads、lang、mask、narration、… "
                     "のいずれかが必要ですが、実際は不明なキー（contexts のことですか？）",
    "toml syntax": "FILE:11: 有効な TOML が必要ですが、"
                   "実際は不正な文字 '\\n'（70 列目）：focus = \"bank" + COMMENT,
    "toml missing =": "FILE:11: 有効な TOML が必要ですが、"
                      "実際はキーの後に '=' がない（7 列目）：focus \"bank\"" + COMMENT,
    "list for a number": "FILE:30: vocab.river 2 番目の数値：数値が必要ですが、実際は [0.5]",
    "d_k mismatch": "FILE:47: projections.w_k 4 行目："
                    "数値 4 個（1–3 行目と同じ）が必要ですが、実際は数値 5 個",
    "missing key": "FILE:34: projections.w_v：行列が必要ですが、実際は何もありません",
}


@pytest.mark.parametrize("case", JAPANESE)
def test_check_says_a_real_mistake_in_japanese(tmp_path, case):
    status, out = check(tmp_path, "ja", case)
    assert (status, out) == (2, JAPANESE[case] + "\n")


def test_every_command_refusing_a_lesson_says_it_in_japanese(tmp_path):
    """render and explorer with --lang ja, and check with no --lang on a lesson whose own lang is ja."""
    path = tmp_path / "lesson.toml"
    path.write_text(BROKEN["d_k mismatch"], encoding="utf-8")
    line = JAPANESE["d_k mismatch"].replace("FILE", str(path)) + "\n"
    for args in (["render", "scores", "--lesson", str(path), "--dry-run", "--lang", "ja"],
                 ["explorer", "--lesson", str(path), "--lang", "ja"]):
        r = CliRunner().invoke(main, args)
        assert (r.exit_code, r.output) == (2, line), args
    path.write_text('lang = "ja"\n' + BROKEN["d_k mismatch"], encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path)])
    assert (r.exit_code, r.output) == (2, line.replace(":47:", ":48:"))


def test_the_japanese_examples_of_the_lesson_file_reference_are_what_check_prints(tmp_path, monkeypatch):
    page = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "lesson-file.md").read_text(
        encoding="utf-8")
    shown = re.findall(r"^my\.toml:.*$", page.split("### In Japanese")[1], flags=re.M)
    monkeypatch.chdir(tmp_path)
    said = []
    for lesson in (BROKEN["d_k mismatch"], re.sub(r'(?m)^focus = "bank".*$', 'focus "bank"', GOOD)):
        Path("my.toml").write_text(lesson, encoding="utf-8")
        said.append(CliRunner().invoke(main, ["check", "my.toml", "--lang", "ja"]).output.strip())
    assert shown == said


def test_every_line_of_check_is_japanese(tmp_path):
    """Every broken lesson and every packaged one: the same lines (FILE:LINE) as in English, none of its
    words, kana in each; a usable lesson is 使用できます and its warnings 警告."""
    for name in [*BROKEN, *packaged_lessons()]:
        status, out = check(tmp_path, "ja", name)
        en_status, en = check(tmp_path, "en", name)
        assert status == en_status and len(out.splitlines()) == len(en.splitlines()), (name, out)
        at = re.compile(r"^FILE(:\d+)?")
        assert [at.match(x) and at.match(x).group() for x in out.splitlines()] == \
               [at.match(x) and at.match(x).group() for x in en.splitlines()], (name, out)
        said = re.sub(r"'[^']*'|列目）：[^\n]*|[\w.]*_\w+|\[\w+\]", "", out)  # the file's own text left out
        english = (r"\b(expected|found|warning|OK|nothing|unknown|numbers?|rows?|tokens|deep|column|above"
                   r"|whole|every|table|string|matrix|shared|lookup|head|dimensions \()\b")
        assert not re.search(english, said), out
        assert all(re.search(r"[\u3040-\u30ff]", x) for x in out.splitlines() if x.startswith("FILE")), out
        assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", x) for x in out.splitlines()[1:]
                   if x.startswith("  ") and not x.startswith("  d_")), out
        assert out.startswith("FILE：使用できます\n") == (status == 0), out
        assert out.count("警告：") == en.count("warning: "), out


def test_the_japanese_table_has_every_entry_and_field_and_no_plural():
    fields = re.compile(r"{(\w+)}")
    assert set(JA) == set(EN) == set(ZH)
    for code, entry in JA.items():
        assert isinstance(entry, str), code  # Japanese has no plural: one form, EN's "other"
        other = EN[code]["other"] if isinstance(EN[code], dict) else EN[code]
        assert set(fields.findall(entry)) == set(fields.findall(other)), code
    assert MESSAGES["ja"] is JA and MESSAGES["fr"] is EN  # a language with no table at all: English


def test_tomllib_reasons_in_japanese():
    assert [p for p, _ in TOML_REASONS["ja"]] == [p for p, _ in TOML_REASONS["zh"]]
    for (pattern, ja), (_, zh) in zip(TOML_REASONS["ja"], TOML_REASONS["zh"]):
        assert ja.count("{0}") == zh.count("{0}") == re.compile(pattern).groups, pattern
    assert TomlReason("Cannot declare ('projections',) twice").said("ja") == "('projections',) の二重宣言"
    assert TomlReason("Unterminated string").said("ja") == "閉じていない文字列"
    assert TomlReason("Some reason of a newer tomllib").said("ja") == "Some reason of a newer tomllib"


def test_japanese_is_tight_between_its_characters_and_spaced_around_numbers_and_latin():
    """ja is written without spaces between kana and kanji ("数値 が必要" is "数値が必要"), but "3 行",
    "文脈 river" and "river が後ろ" keep theirs, as the ja catalogs write them; zh is as it was."""
    assert text("ja", "problem_no_found", where="x", expected=ph("a_number")) == "x：数値が必要です"
    assert text("ja", "n_rows", n=3) == "3 行" and text("ja", "context", name="river", tokens="by") == \
        "文脈 river：by"
    assert tidy("ja", "トークン が 後ろ river が 後ろ ー ー") == "トークンが後ろ river が後ろーー"
    assert tidy("zh", "语境 中 トークン が") == "语境中トークンが" and tidy("en", "が 後ろ") == "が 後ろ"


if __name__ == "__main__":  # write the golden (only when a change to EN or ZH is meant)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        GOLDEN.write_text(json.dumps({lang: all_outputs(Path(tmp), lang) for lang in ("en", "zh")},
                                     ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
