"""Lists in narration and on screen read as a person writes them (`scenes.common.i18n.listing`, its
connectors from the catalog): "a", "a and b", "a, b and c" in English, "a 和 b", "a、b 和 c" in Chinese;
the softmax scene's reading said "...and the rest to by, the." Every list a scene joins into text goes
through it: no scene joins one by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scenes.common.i18n import listing

SCENES = Path(__file__).resolve().parent.parent / "scenes"
TOKENS = ["by", "the", "river", "bank", "money"]
WRITTEN = {
    "en": ["by", "by and the", "by, the and river", "by, the, river and bank",
           "by, the, river, bank and money"],
    "zh": ["by", "by 和 the", "by、the 和 river", "by、the、river 和 bank", "by、the、river、bank 和 money"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_a_list_of_one_to_five_items(lang, n):
    assert listing(TOKENS[:n], lang) == WRITTEN[lang][n - 1]


def test_chinese_words_take_no_space_beside_he():
    assert listing(["苹果", "香蕉", "梨"], "zh") == "苹果、香蕉和梨"
    assert listing(["苹果", "by"], "zh") == "苹果和 by" and listing(["by", "苹果"], "zh") == "by 和苹果"
    assert listing(["苹果", "香蕉", "梨"], "en") == "苹果, 香蕉 and 梨"
    assert listing([], "en") == "" and listing(iter(["a", "b"]), "en") == "a and b"


def test_the_softmax_reading_lists_the_rest_as_written(tmp_path):
    """The issue's line, in both languages, for the default lesson (two tokens left: by and the,
    quoted as tokens in English)."""
    from manim import tempconfig

    from scenes.common.settings import Settings
    from scenes.softmax import Softmax

    for lang, said in (("en", "and the rest to “by” and “the”."), ("zh", "其余给 by 和 the。")):
        opts = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR"}
        with tempconfig(opts):
            scene = Softmax(settings=Settings(None, "river", "scaled", lang))
            scene.setup()
            assert scene.narration("reading").endswith(said), scene.narration("reading")


# a list joined by hand: a separator of prose (", ", "、", "，", "; ") joined outside a bracketed vector
BY_HAND = re.compile(r"""(?<!"\[" \+ )(?:self\.t\("list_sep"\)|["'](?:, |、|，|; )["'])\.join\(""")


def test_no_scene_joins_a_list_by_hand():
    found = [f"{p.relative_to(SCENES)}:{n}: {line.strip()}"
             for p in sorted(SCENES.rglob("*.py")) for n, line in enumerate(p.read_text().splitlines(), 1)
             if BY_HAND.search(line) and "LANGS" not in line and "THEMES" not in line]
    assert not found, "\n".join(found)


def test_the_check_can_fail():
    assert BY_HAND.search('"rest": ", ".join(a.tokens[j] for j in self.rest),')
    assert BY_HAND.search('"rest": self.t("list_sep").join(a.tokens[j] for j in self.rest),')
    assert not BY_HAND.search('"weights": "[" + ", ".join(shown) + "]"')
