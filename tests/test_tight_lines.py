"""Chinese and Japanese lines as their languages write them: no space between two of their characters.

The house style (scenes/common/i18n.py, `tightened`; messages.py's lines keep the same one): in zh and ja
a space never sits between two wide characters, kana, Chinese characters or full-width punctuation and
brackets (「川」におよそ, 多くの食事の値, 「苹果」的); a space next to a Latin word or a number stays
(bank 的, およそ 51%, 0 と「渡る」), and so do the spaces a field brings of its own (a context's sentence
written token by token: 「我 吃 一个 苹果」). The catalogs write a space around every {field}, so a line reads
right whichever kind the field is; these tests fill every line of every scene, without rendering, for the
default lesson and every lesson of tests/lessons/, and read what comes out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scenes.common.i18n import WIDE, catalog, listing, tightened
from scenes.registry import available

from .scene_harness import set_up

LESSONS = [None, *sorted(str(p) for p in (Path(__file__).parent / "lessons").glob("*.toml"))]
SPACED = re.compile(rf"[{WIDE}] +[{WIDE}]")


def spaced(text: str, fields: dict) -> list[str]:
    """The spaces between two wide characters in `text`, a field's own spaces (its value's) left out."""
    for value in fields.values():
        if isinstance(value, str) and " " in value:
            text = text.replace(str(value), "x")
    return SPACED.findall(text)


def filled_lines(lesson, lang, media) -> list[tuple[str, str, dict]]:
    """(key, line, fields) of every line of every scene whose fields the scene's data has, on screen and
    said, filled as the scene fills them (its setup() alone: nothing drawn)."""
    out = []
    for info, scene in zip(available(), set_up(available(), lesson, lang, media)):
        fields = scene.fields()
        for key in [k for k in scene.tr.entries if k.startswith(f"{info.module}.")]:
            try:
                out += [(key, line, fields) for line in scene.tr.lines(key, **fields)]
            except KeyError:  # a variant for other data (a field this lesson does not give)
                pass
    return out


@pytest.mark.parametrize("lang", ["ja", "zh"])
@pytest.mark.parametrize("lesson", LESSONS, ids=[Path(x).stem if x else "default" for x in LESSONS])
def test_no_space_between_two_wide_characters_in_a_filled_line(lesson, lang, tmp_path):
    lines = filled_lines(lesson, lang, tmp_path)
    assert len({k for k, _, _ in lines}) > 300  # every scene's lines, not a few
    found = [(key, line) for key, line, fields in lines if spaced(line, fields)]
    assert found == []


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_no_space_between_two_wide_characters_in_a_line_without_fields(lang):
    values = [(k, s) for k, v in catalog(lang).entries.items() for s in (v if isinstance(v, list) else [v])]
    found = [(k, s) for k, s in values if "{" not in s and SPACED.search(s)]
    assert found == []


def test_the_house_style():
    tr = catalog("ja")
    assert tr("softmax.reading", top=tr.token("川"), top_pct=0.51, self_pct=0.2, rest="x", focus="y") == \
        "「川」におよそ 51%、自分自身に 20%、残りはほかのトークン（x）に"
    assert tr("softmax.reading", top=tr.token("river"), top_pct=0.51, self_pct=0.2, rest="x", focus="y") \
        .startswith("「river」におよそ 51%")
    assert listing(["0", tr.token("渡る")], "ja") == "0 と「渡る」"
    assert listing([tr.token("川"), tr.token("岸")], "ja") == "「川」と「岸」"
    zh = catalog("zh")
    assert listing(["bank", "river"], "zh") == "bank 和 river"
    assert listing([zh.token("苹果"), zh.token("梨")], "zh") == "「苹果」和「梨」"
    assert tightened("多くの 食事 の値 51% を", "ja") == "多くの食事の値 51% を"
    assert tightened("多くの 食事 の値", "en") == "多くの 食事 の値"  # only a tight language
    assert tightened("많은 식사", "ko") == "많은 식사"  # Korean writes spaces between its words


def test_a_field_keeps_its_own_spaces():
    """A sentence written token by token keeps its spaces; the line's own around it go."""
    tr = catalog("ja")
    line = tr("contexts.say.difference", a="x", b="y", gain_dim="食事", gain="+1", loss_dim="睡眠",
              loss="-1", focus=tr.token("川"), b_sentence="川 の 岸", gain_from=tr.token("岸"))
    assert "「川 の 岸」でははるかに多くの食事の値を" in line
