"""What a Japanese (or any not-English) teacher gets has no English left in its frame: the deck's page
and file say their language, Python's reasons for a refused placeholder are said in the language."""

from __future__ import annotations

import itertools
import re
import string

import pytest

from attention_lesson.outputs.deck import _template
from scenes.common.languages import tag
from scenes.common.words_messages import FormatReason


@pytest.mark.parametrize("lang,expected", [("ja", "ja"), ("zh", "zh-CN"), ("en", "en")])
def test_the_deck_page_says_its_language(lang, expected, tmp_path):
    page = _template(tmp_path, lang, None).read_text(encoding="utf-8")
    assert f'{{% set page_lang = "{expected}" %}}' in page and '<html lang="{{ page_lang }}">' in page
    assert tag(lang) == expected and tag("pt-BR") == "pt-BR"  # a words folder's language: its code


def _python_reasons() -> set[str]:
    """Every reason string.Formatter gives for a line that is no format string (every line of up to 5 of
    the characters that make one)."""
    found = set()
    for n in range(1, 6):
        for chars in itertools.product("{}!:a0[].", repeat=n):
            try:
                list(string.Formatter().parse("".join(chars)))
            except ValueError as e:
                found.add(str(e))
    return found


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_every_reason_python_gives_for_a_broken_placeholder_is_said_in_the_language(lang):
    reasons = _python_reasons()
    assert len(reasons) >= 7
    untold = [r for r in reasons if re.search(r"[a-z]{3}", FormatReason(r).said(lang))]
    assert untold == []


def _step_ids(info) -> set[str]:
    """The ids of a scene's steps, from its source (as the pipeline and the gallery read them)."""
    source = info.file.read_text(encoding="utf-8")
    ids = set(re.findall(r'self\.step\("([a-z_]+)"', source))
    if loop := re.search(r"for name in \(([^)]*)\):\s*\n\s*self\.step\(name\)", source):
        ids |= set(re.findall(r'"([a-z_]+)"', loop.group(1)))
    for steps in re.findall(r"^[A-Z_]*STEPS = \(([^)]*)\)", source, re.M):  # a scene's steps as data
        ids |= set(re.findall(r'"([a-z_]+)"', steps))
    return ids


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_every_step_has_a_name_for_people_in_every_language(lang):
    """The studio names a step by its catalog name (`scores · 段階 4／5：√dₖ で割る`), never by its id."""
    from scenes.registry import SCENES

    for info in SCENES:
        ids, names = _step_ids(info), info.step_titles(lang)
        assert ids and set(names) == ids, info.id
        assert all(name and name != step for step, name in names.items()), info.id
    assert SCENES[2].step_titles("ja")["scale_step"] == "√dₖ で割る"
