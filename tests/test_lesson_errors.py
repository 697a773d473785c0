"""Every kind of bad lesson file: one message naming file, line, key, expected and found, in English and
in Chinese (`FILE:LINE: message`, as compilers write it); CLI exit 2, one line, no traceback."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core import LessonError, load, loads
from attention_core.lesson import resolve
from attention_lesson.cli import main

GOOD = resolve("default").read_text(encoding="utf-8")


def variant(tmp_path, text, name="bad.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def swap(old, new, text=GOOD):
    assert old in text, old
    return text.replace(old, new, 1)


CASES = {
    # name: (lesson text, key named, words expected in the message)
    "toml syntax": (swap('focus = "bank"', 'focus = "bank'), "",
                    ["valid TOML", "column 70", 'focus = "bank']),
    "missing table": (swap("[contexts]", "[kontexts]"), "kontexts", ["unknown key"]),
    "misspelt key": (swap("w_v = [", "w_vv = ["), "projections.w_vv", ["one of w_k, w_q, w_v"]),
    "missing key": (re.sub(r"w_v = \[.*?\n\]\n", "", GOOD, flags=re.S), "projections.w_v",
                    ["a matrix", "nothing"]),
    "wrong shape": (swap("  [2.0, 0.0, 0.0, 0.0],\n  [0.0, 2.0, 0.0, 0.0],\n  [0.0, 0.0, 1.0, 0.0],\n",
                         "  [2.0, 0.0, 0.0, 0.0],\n  [0.0, 0.0, 1.0, 0.0],\n"),
                    "projections.w_k", ["4 rows", "3 rows"]),
    "d_k mismatch": (swap("[0.3, 0.3, 0.0, 1.0],", "[0.3, 0.3, 0.0, 1.0, 0.0],"),
                     "projections.w_k row 4", ["4 numbers like rows 1–3", "5 numbers"]),
    "short first row": (swap("  [1.0, 0.0, 0.0, 0.0],  # geography", "  [1.0, 0.0, 0.0],  # geography"),
                        "projections.w_q row 1", ["4 numbers like rows 2–4", "found 3 numbers"]),
    "ragged embedding": (swap("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [1.0, 0.0, 0.0]"),
                         "vocab.river", ["4 numbers", "3"]),
    "non-number": (swap("river   = [1.0, 0.0, 0.0, 0.0]", 'river   = [1.0, "x", 0.0, 0.0]'),
                   "vocab.river number 2", ["a number", "'x'"]),
    "quoted number": (swap("river   = [1.0, 0.0, 0.0, 0.0]", 'river   = [1.0, "0.5", 0.0, 0.0]'),
                      "vocab.river number 2", ["a number", "'0.5'", "without quotes"]),
    "nan": (swap("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [1.0, nan, 0.0, 0.0]"),
            "vocab.river number 2", ["finite", "nan"]),
    "infinity": (swap("[2.3, 2.3, 0.0, 0.0]", "[2.3, inf, 0.0, 0.0]"),
                 "projections.w_q row 4 number 2", ["finite", "inf"]),
    "unknown token": (swap('"river", "bank"]', '"rivers", "bank"]'), "contexts.river token 3",
                      ["a token of [vocab]", "'rivers'"]),
    "empty context": (swap('river   = ["by", "the", "river", "bank"]', "river   = []"),
                      "contexts.river", ["empty context"]),
    "label for no context": (GOOD + '\n[context_labels]\nlake = { zh = "湖", en = "lake" }\n',
                             "context_labels.lake", ["one of river, savings", "'lake'"]),
    "label in another language": (GOOD + '\n[context_labels]\nriver = { fr = "rivière" }\n',
                                  "context_labels.river.fr", ["one of zh, en", "'fr'"]),
    "author not a string": (swap('focus = "bank"', 'author = 3\nfocus = "bank"'), "author",
                            ["a string", "3"]),
    "focus not in context": (swap('focus = "bank"', 'focus = "river"'), "focus",
                             ["every context", "'river'"]),
    "too many tokens": (swap('river   = ["by", "the", "river", "bank"]',
                             "river   = [" + ", ".join(['"the"'] * 9) + ', "bank"]'),
                        "contexts.river", ["2 to 8 tokens", "10"]),
    "too many dimensions": (swap("by      = [0.2, 0.0, 1.0, 0.0]",
                                 "by      = [" + ", ".join(["0.0"] * 9) + "]"),
                            "vocab.by", ["2 to 8 numbers", "9"]),
    "too many d_k columns": (swap("[2.3, 2.3, 0.0, 0.0],", "[2.3, 2.3" + ", 0.0" * 7 + "],"),
                             "projections.w_q row 4", ["4 numbers like rows 1–3", "9 numbers"]),
}


# what the line each message names holds (its first line with this text)
LINES = {
    "toml syntax": 'focus = "bank', "missing table": "[kontexts]", "misspelt key": "w_vv = [",
    "missing key": "[projections]", "wrong shape": "w_k = [", "d_k mismatch": "[0.3, 0.3, 0.0, 1.0, 0.0],",
    "short first row": "[1.0, 0.0, 0.0],  # geography", "ragged embedding": "river   = [1.0, 0.0, 0.0]",
    "non-number": 'river   = [1.0, "x"', "quoted number": 'river   = [1.0, "0.5"',
    "nan": "river   = [1.0, nan", "infinity": "[2.3, inf", "unknown token": '"rivers", "bank"]',
    "empty context": "river   = []", "label for no context": "lake = {",
    "label in another language": "river = { fr", "author not a string": "author = 3",
    "focus not in context": 'focus = "river"', "too many tokens": 'river   = ["the"',
    "too many dimensions": "by      = [0.0, 0.0", "too many d_k columns": "[2.3, 2.3, 0.0, 0.0, 0.0",
}


def line_of(text: str, marker: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if marker in line)


@pytest.mark.parametrize("case", CASES)
def test_bad_lesson_message(tmp_path, case):
    text, key, words = CASES[case]
    path = variant(tmp_path, text)
    with pytest.raises(LessonError) as e:
        load(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:{line_of(text, LINES[case])}: "), msg
    assert e.value.key == key and e.value.line == line_of(text, LINES[case]), msg
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize("case", CASES)
def test_bad_lesson_cli_exit_2_no_traceback(tmp_path, case):
    path = variant(tmp_path, CASES[case][0])
    for args in (["check", str(path)], ["numbers", "--lesson", str(path)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, r.output
        assert str(path) in r.output and "Traceback" not in r.output
        assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_check_names_file_and_line_in_the_chosen_language(tmp_path, case, lang):
    text = CASES[case][0]
    path = variant(tmp_path, text)
    r = CliRunner().invoke(main, ["check", str(path), "--lang", lang])
    assert r.exit_code == 2, r.output
    with pytest.raises(LessonError) as e:
        load(path)
    assert r.output == e.value.message(lang) + "\n"  # one line, nothing before it ("Error: ")
    assert r.output.startswith(f"{path}:{line_of(text, LINES[case])}: "), r.output
    chinese = re.search(r"[\u4e00-\u9fff]", r.output.removeprefix(str(path)))
    assert ("expected" in r.output) == (lang == "en") and bool(chinese) == (lang == "zh"), r.output


def test_every_command_reading_a_lesson_says_file_and_line(tmp_path):
    text = swap("[0.3, 0.3, 0.0, 1.0],", "[0.3, 0.3, 0.0, 1.0, 0.0],")
    path = variant(tmp_path, text)
    at = f"{path}:{line_of(text, '[0.3, 0.3, 0.0, 1.0, 0.0],')}: "
    render = ["render", "scores", "--lesson", str(path), "--dry-run", "--lang"]
    for args, words, env in ((["numbers", "--lesson", str(path)], "应为 4 个数", {}),  # the one rule: zh
                             (["numbers", "--lesson", str(path)], "expected 4 numbers like rows 1–3",
                              {"ATTENTION_LESSON_LANG": "en"}),
                             ([*render, "zh"], "应为 4 个数", {}), ([*render, "en"], "found 5", {}),
                             (["explorer", "--lesson", str(path), "--lang", "zh"], "第 4 行", {})):
        r = CliRunner().invoke(main, args, env={"ATTENTION_LESSON_LANG": None, **env})
        assert r.exit_code == 2 and r.output.startswith(at) and words in r.output, (args, r.output)
        assert r.output.count("\n") == 1 and "Traceback" not in r.output


def test_one_number_two_numbers(tmp_path):
    tiny = (Path(__file__).parent / "lessons" / "tiny.toml").read_text(encoding="utf-8")
    for row, words in (("[0.2]", "expected 2 numbers like row 1, found 1 number"),
                       ("[0.2, 1.0, 3.0]", "expected 2 numbers like row 1, found 3 numbers")):
        path = variant(tmp_path, tiny.replace("[0.2, 1.0]]", row + "]"))
        with pytest.raises(LessonError) as e:
            load(path)
        assert words in str(e.value) and e.value.key == "projections.w_q row 2"
        assert "第 2 行：应为 2 个数（与第 1 行一样）" in e.value.message("zh")
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, GOOD.replace("[0.3, 0.3, 0.0, 1.0],", "[0.3],")))
    assert "expected 4 numbers like rows 1–3, found 1 number" in str(e.value)
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, GOOD.replace("[2.3, 2.3, 0.0, 0.0],", "[2.3, 2.3, 0.0, 0.0, 1],")
                     .replace("  [0.0, 0.0, 0.0, 1.0],  # function", "  [0.0, 0.0, 0.0, 1.0, 1],  #")))
    # rows 1, 2 have 4 numbers, rows 3, 4 have 5: a tie, the earlier length wins; row 4 is no model
    assert "w_q row 3: expected 4 numbers like rows 1 and 2, found 5 numbers" in str(e.value)


def test_a_missing_table_points_at_the_end_and_a_missing_key_at_its_table(tmp_path):
    text = GOOD[:GOOD.index("[contexts]")]
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, text))
    assert e.value.key == "contexts" and e.value.line == len(text.splitlines())
    assert "expected a table [contexts], found nothing" in str(e.value)
    assert "应为一个表 [contexts]，实际：没有" in e.value.message("zh")


def test_a_long_or_deep_value_is_cut_short_in_one_line(tmp_path):
    text = swap("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [1.0, " + "[" * 12 + "]" * 12 + ", 0.0, 0.0]")
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, text))
    assert e.value.key == "vocab.river number 2" and len(str(e.value)) < 200, str(e.value)
    text = swap('"rivers"', '"riv\\ners"', swap('"river", "bank"]', '"rivers", "bank"]'))
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, text, "nl.toml"))
    assert "\n" not in str(e.value) and "\\n" in str(e.value)


def test_every_truncation_and_every_deleted_line_is_a_lesson_or_a_located_error():
    lines = GOOD.splitlines(keepends=True)
    texts = ["".join(lines[:n]) for n in range(len(lines))]
    texts += ["".join(lines[:n] + lines[n + 1:]) for n in range(len(lines))]
    texts += [GOOD[:n] for n in range(0, len(GOOD), 97)]
    for text in texts:
        try:
            loads(text, "t.toml")
        except LessonError as e:
            for lang in ("en", "zh"):
                msg = e.message(lang)
                assert "\n" not in msg and msg.startswith("t.toml"), msg
            assert e.line is None or 1 <= e.line <= max(1, len(text.splitlines())), (e.line, str(e))


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.toml"
    r = CliRunner().invoke(main, ["check", str(missing), "--lang", "en"])
    assert r.exit_code == 2
    assert r.output.startswith(f"{missing}: expected a lesson file") and "no such file" in r.output
    r = CliRunner().invoke(main, ["check", str(missing), "--lang", "zh"])
    assert r.exit_code == 2 and "没有这个文件" in r.output


def test_unknown_context_is_usage_error():
    r = CliRunner().invoke(main, ["numbers", "--context", "lake"])
    assert r.exit_code == 2
    assert "river" in r.output and "savings" in r.output


def test_context_labels(tmp_path):
    lesson = load(variant(tmp_path, GOOD + '\n[context_labels]\nriver = { zh = "河边" }\n'))
    assert lesson.context_label("river", "zh") == "河边"
    assert lesson.context_label("river", "en") == "river"  # no label: the key
    assert lesson.context_label("savings", "zh") == "savings"


def test_good_lesson_still_loads(tmp_path):
    lesson = load(variant(tmp_path, GOOD))
    assert lesson.d_model == lesson.d_k == lesson.d_v == 4
    assert lesson.focus == "bank" and list(lesson.contexts) == ["river", "savings"]


def test_narration_story(tmp_path):
    lesson = load(variant(tmp_path, GOOD.replace('[narration.zh]', '[narration.zh]\n# x')))
    assert lesson.narration["en"]["story"].startswith("Next to river")
    bad = GOOD.replace('[narration.en]\nstory =', '[narration.en]\ntale =')
    with pytest.raises(LessonError) as e:
        load(variant(tmp_path, bad, "bad2.toml"))
    assert e.value.key == "narration.en.tale" and "one of story" in str(e.value)
