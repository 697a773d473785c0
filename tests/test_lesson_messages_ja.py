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

from attention_core.errors import TomlReason, text
from attention_core.lesson import packaged_lessons
from attention_core.messages import EN, MESSAGES
from attention_lesson.cli import main
from tests.test_hostile_lessons import HUGE, NESTED
from tests.test_lesson_errors import CASES, GOOD, swap

GOLDEN = Path(__file__).resolve().parent / "golden" / "lesson_messages.json"
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
                           (Path(__file__).parent.parent / "attention_core" / "lessons" / "two_heads.toml")
                           .read_text(encoding="utf-8")),
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


if __name__ == "__main__":  # write the golden (only when a change to EN or ZH is meant)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        GOLDEN.write_text(json.dumps({lang: all_outputs(Path(tmp), lang) for lang in ("en", "zh")},
                                     ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
