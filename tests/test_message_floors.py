"""The words by floor: the core's tables (attention_core/messages.py, messages_ja.py) hold what the core
says; the words check's (scenes/common/words_messages.py) and attention_lesson's (attention_lesson/messages/:
the commands', the studio's, batch's) are joined on top of them, one way, when their floor is imported.
Joined, one look-up finds every key: each floor's table is there whole, the same words, no key in two
floors (a join refuses a key already said otherwise), and every phrase a floor says by its name is its
own or one of a floor below (the core says none of those above it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from attention_core.messages import CORE, MESSAGES, join
from attention_lesson.messages.answers import ANSWERS
from attention_lesson.messages.commands import COMMANDS
from attention_lesson.messages.tools import TOOLS
from scenes.common.words_messages import WORDS

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh", "ja")
FLOORS = {"words check": WORDS, "tools": TOOLS, "answers": ANSWERS, "commands": COMMANDS}
SAID = re.compile(r'\b(?:ph|text|PlaceholderError)\((?:\w+, )?"(\w+)"')  # a phrase said by its name


@pytest.mark.parametrize("name", FLOORS)
def test_every_table_is_joined_whole(name):
    tables = FLOORS[name]
    assert set(tables) == set(LANGS) and set(tables["en"]) == set(tables["zh"]) == set(tables["ja"])
    for lang in LANGS:
        assert all(MESSAGES[lang][k] is words for k, words in tables[lang].items()), (name, lang)


def test_no_key_is_in_two_floors_and_every_key_is_in_one():
    keys = [CORE, *(set(tables["en"]) for tables in FLOORS.values())]
    assert sum(map(len, keys)) == len(set().union(*keys)) == len(MESSAGES["en"])
    assert all(set(MESSAGES[lang]) == set(MESSAGES["en"]) for lang in LANGS)


def test_a_join_refuses_a_line_said_otherwise_and_a_language_with_no_table():
    ok = MESSAGES["en"]["ok"]
    join({"en": {"ok": ok}})  # the same words again: nothing changes
    with pytest.raises(ValueError, match="'ok'"):
        join({"en": {"ok": "fine"}})
    with pytest.raises(ValueError, match="fr"):
        join({"fr": {"ok": "bon"}})
    assert MESSAGES["en"]["ok"] is ok and "fr" not in MESSAGES


@pytest.mark.parametrize("floor", ["attention_core", "scenes", "attention_lesson"])
def test_a_floor_says_its_own_words_or_those_below(floor):
    known = {"attention_core": CORE, "scenes": CORE | set(WORDS["en"]),
             "attention_lesson": set(MESSAGES["en"])}
    said = {(str(path.relative_to(ROOT)), code) for path in sorted((ROOT / floor).rglob("*.py"))
            for code in SAID.findall(path.read_text(encoding="utf-8"))}
    assert len(said) > 10 and sorted(s for s in said if s[1] not in known[floor]) == []


def test_the_core_alone_holds_only_its_own_words():
    """A process that imports only the core: nothing above it is imported, its tables hold its keys."""
    code = ("import sys, attention_core.lesson, attention_core.errors\n"
            "from attention_core.messages import CORE, MESSAGES\n"
            "above = [m for m in sys.modules if m.split('.')[0] in ('scenes', 'attention_lesson')]\n"
            "print(above, all(set(MESSAGES[lang]) == CORE for lang in ('en', 'zh', 'ja')))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True).stdout
    assert out.split() == ["[]", "True"]
