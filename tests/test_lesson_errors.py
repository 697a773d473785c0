"""Every kind of bad lesson file: one message naming file, key, expected and found; CLI exit 2."""

import re

import pytest
from click.testing import CliRunner

from attention_core import LessonError, load
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
    "toml syntax": (swap('focus = "bank"', 'focus = "bank'), "", ["valid TOML", 'line 11', 'focus = "bank']),
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
    "too many dimensions": (swap("by      = [0.2, 0.0, 1.0, 0.0]", "by      = [" + ", ".join(["0.0"] * 9) + "]"),
                            "vocab.by", ["2 to 8 numbers", "9"]),
    "too many d_k columns": (swap("[2.3, 2.3, 0.0, 0.0],", "[2.3, 2.3" + ", 0.0" * 7 + "],"),
                             "projections.w_q row 4", ["4 numbers like rows 1–3", "9 numbers"]),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_lesson_message(tmp_path, case):
    text, key, words = CASES[case]
    path = variant(tmp_path, text)
    with pytest.raises(LessonError) as e:
        load(path)
    msg = str(e.value)
    assert msg.startswith(str(path)), msg
    assert e.value.key == key, msg
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


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.toml"
    r = CliRunner().invoke(main, ["check", str(missing)])
    assert r.exit_code == 2
    assert str(missing) in r.output and "no such file" in r.output


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
