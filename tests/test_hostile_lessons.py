"""Hostile or absurd lesson files: nested 5,000 arrays deep, numbers that overflow, numbers too large to
follow. Each is one line naming file and line (exit 2) or a warning (exit 0), never a traceback; through
`check`, `numbers` and the studio's session and API. And the one rule for writing large numbers
(scientific notation from 1e5 on), the same in the CLI, the scenes' formats and the pages' `fmt`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core import SCIENTIFIC_FROM, attend, load, loads, scientific
from attention_core.lesson import MAX_NESTING, resolve
from attention_core.messages import MESSAGES
from attention_lesson.cli import main
from scenes.common import words_messages  # noqa: F401  (the words check's, joined: checked with the rest)
from scenes.common.formats import fixed_text, number_text, shared_format

GOOD = resolve("default").read_text(encoding="utf-8")
FOCUS_LINE = next(n for n, line in enumerate(GOOD.splitlines(), 1) if line.startswith("focus ="))
BANK_ROW = "[2.3, 2.3, 0.0, 0.0]"  # W_Q's last row: bank's query
NESTED = GOOD.replace('focus = "bank"', "focus = " + "[" * 5000 + "]" * 5000, 1)
NESTED_TABLES = GOOD + "\n[extra]\nx = " + "{ a = " * 5000 + "1" + " }" * 5000 + "\n"
OVERFLOW = GOOD.replace(BANK_ROW, "[1e308, 1e308, 0.0, 0.0]")
HUGE = GOOD.replace(BANK_ROW, "[1e300, 2.3, 0.0, 0.0]")  # Q up to 1e300, the scores 2e300: still finite


def lesson_file(tmp_path, text: str) -> Path:
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, marker: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if marker in line)


def refused(tmp_path, text: str, *args: str):
    """The CLI's answer to a file it must refuse: exit 2, one line, no traceback."""
    path = lesson_file(tmp_path, text)
    r = CliRunner().invoke(main, [a.replace("FILE", str(path)) for a in args])
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return path, r.output


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nesting_5000_deep_is_one_line_with_its_line(tmp_path, lang):
    path, out = refused(tmp_path, NESTED, "check", "FILE", "--lang", lang)
    assert out.startswith(f"{path}:{FOCUS_LINE}: ")
    words = {"en": [f"nested at most {MAX_NESTING} deep", "5000 deep"],
             "zh": [f"最多嵌套 {MAX_NESTING} 层", "5000 层"]}
    assert all(w in out for w in words[lang]), out
    path, out = refused(tmp_path, NESTED_TABLES, "numbers", "--lesson", "FILE")
    assert out.startswith(f"{path}:{len(NESTED_TABLES.splitlines())}: ") and "5000 层" in out, out  # zh


def test_nesting_in_strings_and_comments_does_not_count():
    text = GOOD.replace('focus = "bank"', 'focus = "bank"  # ' + "[" * 50)
    text = text.replace('story = "Next to river', 'story = "' + "[{'" * 50 + ' Next to river')
    assert loads(text, "t.toml").narration["en"]["story"].startswith("[{'[{'")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_overflow_to_inf_is_an_error_at_the_number_to_blame(tmp_path, lang):
    """The scores overflow because W_Q's last row holds 1e308: the error is at that row's line (it was at
    W_K's, which multiplied it), and at a vocabulary entry's line when the entry is the huge number."""
    path, out = refused(tmp_path, OVERFLOW, "check", "FILE", "--lang", lang)
    row = "projections.w_q row 4" if lang == "en" else "projections.w_q 第 4 行"
    assert out.startswith(f"{path}:{line_of(OVERFLOW, '[1e308, 1e308')}: {row}"), out
    assert ("the scores Q Kᵀ" if lang == "en" else "分数 Q Kᵀ") in out and "inf" in out
    refused(tmp_path, OVERFLOW, "numbers", "--lesson", "FILE", "--json")
    in_vocab = GOOD.replace("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [1e200, 0.0, 0.0, 0.0]")
    path, out = refused(tmp_path, in_vocab, "check", "FILE", "--lang", lang)
    assert out.startswith(f"{path}:{line_of(in_vocab, '[1e200')}: vocab.river"), out


def test_a_large_vocabulary_entry_is_warned_at_its_own_line(tmp_path):
    text = GOOD.replace("river   = [1.0, 0.0, 0.0, 0.0]", "river   = [150000, 0.0, 0.0, 0.0]")
    path = lesson_file(tmp_path, text)
    r = CliRunner().invoke(main, ["check", str(path), "--lang", "en"])
    assert r.exit_code == 0, r.output
    row = line_of(text, "[150000")
    warnings = [line for line in r.output.splitlines() if ": warning: " in line]
    assert f"{path}:{row}: warning: an entry of vocab.river is 1.50e5" in warnings[0], warnings
    assert all(w.startswith(f"{path}:{row}: ") for w in warnings), warnings  # the context's too


def test_numbers_too_large_to_follow_pass_check_with_warnings(tmp_path):
    path = lesson_file(tmp_path, HUGE)
    r = CliRunner().invoke(main, ["check", str(path), "--lang", "en"])
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.output.splitlines() if ": warning: " in line]
    row = line_of(HUGE, "[1e300, 2.3")
    assert f"{path}:{row}: warning: an entry of projections.w_q is 1.00e300" in warnings[0]
    river = r"in context river, an entry of the scores Q Kᵀ is \d\.\d\de300"
    assert any(re.search(river, w) for w in warnings), warnings
    assert all("from 1e5 on in scientific notation" in w for w in warnings)
    zh = CliRunner().invoke(main, ["check", str(path)]).output
    assert f"{path}:{row}: 警告：projections.w_q 有一项是 1.00e300" in zh
    assert "warning" not in CliRunner().invoke(main, ["check", str(resolve("default"))]).output


def test_numbers_writes_large_numbers_in_scientific_notation(tmp_path):
    path = lesson_file(tmp_path, HUGE)
    r = CliRunner().invoke(main, ["numbers", "--lesson", str(path)])
    assert r.exit_code == 0, r.output
    assert "1.0000e300" in r.output and max(len(line) for line in r.output.splitlines()[1:]) < 110
    cells = [c for line in r.output.splitlines() for c in line.split() if re.fullmatch(r"-?[\d.]+(e\d+)?", c)]
    assert cells and max(len(c) for c in cells) <= len("-1.0000e300"), max(cells, key=len)
    as_json = CliRunner().invoke(main, ["numbers", "--lesson", str(path), "--json"]).output
    assert json.loads(as_json)["q"][3][0] == 1e300  # JSON keeps the value


def test_the_studio_session_refuses_what_check_refuses(tmp_path):
    from attention_lesson.studio.session import Session, TextProblem

    path = lesson_file(tmp_path, GOOD)
    s = Session.open(path, None, "scaled", "en")
    overflow_line = line_of(OVERFLOW, "[1e308, 1e308")
    for text, line, words in ((NESTED, FOCUS_LINE, "16 deep"), (OVERFLOW, overflow_line, "inf")):
        with pytest.raises(TextProblem) as p:
            s.accept(text)
        assert p.value.error["line"] == line and words in p.value.error["message"], p.value.error
        assert s.text == GOOD and s.draft == text  # the last good text's numbers stay
    assert s.accept(HUGE)["q"][3][0] == 1e300


@pytest.mark.xdist_group("studio")
def test_the_studio_api_answers_422_to_a_nested_file(tmp_path):
    pytest.importorskip("starlette")
    from .studio_helpers import Client, start, stop

    shutil.copy(resolve("default"), tmp_path / "lesson.toml")
    proc, url = start(tmp_path, "--lang", "en")  # the messages as the test reads them
    try:
        client = Client(url)
        status, body = client.request("PUT", "/api/lesson", NESTED)
        assert status == 422 and body["error"]["line"] == FOCUS_LINE, body
        assert "nested at most" in body["error"]["message"]
        assert client.request("PUT", "/api/lesson", GOOD)[0] == 200
    finally:
        code, _, err, _ = stop(proc)
    assert "Traceback" not in err, err


def test_one_rule_for_large_numbers():
    assert SCIENTIFIC_FROM == 1e5 and scientific(99999.99, 2) is None and scientific(1e5, 2) == "1.00e5"
    assert [number_text(x) for x in (1e5, -2.5e7, 1e308, 99999.99, 0.25)] == \
        ["1e5", "-2.5e7", "1e308", "99999.99", "0.25"]
    assert [fixed_text(x, 4) for x in (123456.0, -1e-9, float("inf"))] == ["1.2346e5", "0.0000", "inf"]
    assert [shared_format([0.2, 3e6, 0.25])(x) for x in (0.2, 3e6, 0.25)] == ["0.20", "3.00e6", "0.25"]
    att = attend(load(resolve("default")))
    assert all(len(number_text(x)) <= 5 for x in att.scores.ravel())  # the lesson's own: unchanged


VALUES = [0.0, -0.001, 0.25, 1.5, -2.3, 12345.67, 99999.99, 1e5, -1e5, 123456.0, 2.5e17, -7.25e300]


def test_the_pages_fmt_writes_numbers_as_python_does():
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    state = Path(__file__).resolve().parent.parent / "attention_lesson" / "web" / "explorer-state.js"
    script = ("const window = { AL: { catalog: () => () => '' } };\n" + state.read_text(encoding="utf-8")
              + f"\nwindow.AL.state.data.places = 2;\nconsole.log(JSON.stringify({json.dumps(VALUES)}"
              ".map(window.AL.state.fmt)));\n")
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True).stdout
    assert json.loads(out) == [fixed_text(x, 2) for x in VALUES]


def test_the_message_tables_agree():
    """The joined tables: the core's, the words check's and attention_lesson's (imported above)."""
    en, others = MESSAGES["en"], [MESSAGES[lang] for lang in ("zh", "ja")]
    assert len(MESSAGES) == 3 and all(set(en) == set(table) for table in others)

    def fields(entry):
        texts = entry.values() if isinstance(entry, dict) else [entry]
        return {f for t in texts for f in re.findall(r"{(\w+)}", t)}

    for code in en:
        assert all(fields(en[code]) == fields(table[code]) for table in others), code
        for entry in (en[code], *(table[code] for table in others)):
            assert not isinstance(entry, dict) or "other" in entry and set(entry) <= {"one", "other"}, code
