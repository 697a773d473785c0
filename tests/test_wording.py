"""What the lines say of a teacher's own lesson (issue: every lesson told true), checked on every line a
scene's data can fill, in zh and en, without rendering:
- a context label stands alone (as a heading, in quotes or in brackets), so a label that is a phrase
  ("in a cave") reads right where a bare noun ("river") did: never "in the in a cave sentence";
- a token named in a line is marked as a token (“the” in English), never a bare word of the sentence;
- comparatives follow the size of the difference (attention_core.change_size), and a dimension the
  lesson does not name is not called "the dimension the lesson calls v1"."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from attention_core import LARGE_CHANGE, SLIGHT_CHANGE, change_size, gain_source, load
from scenes.common.i18n import Token, catalog, listing
from scenes.registry import available

from .scene_harness import set_up

LESSONS = Path(__file__).parent / "lessons"
BAT = LESSONS / "bat.toml"  # labels that are phrases: "in a cave", "at a ball game"; English names only
LANGS = ("zh", "en")
LABEL_FIELDS = {"context", "a", "b"}  # a context label, which may be a token too ("river")
OPEN, CLOSE = "“「(（\"", "”」)）\""


def scenes_of(lesson, lang: str, media: Path, only=None):
    """Each scene of the lesson (or of `only`), set up (no render)."""
    infos = [i for i in available(load(lesson)) if only is None or i.id in only]
    yield from set_up(infos, lesson, lang, media)


def every_line(scene) -> list[tuple[str, str]]:
    """(key, text) of every entry of the scene's own table its fields can fill: the narration and the
    words on screen, every variant."""
    own, fields = f"{scene.scene_id.replace('-', '_')}.", scene.fields()
    out = []
    for key, value in scene.tr.entries.items():
        if key.startswith(own) and isinstance(value, str):
            try:
                out.append((key, scene.tr(key, **fields)))
            except (KeyError, IndexError):
                pass  # a variant for data this lesson does not have
    return out


@pytest.fixture(scope="module")
def bat_lines(tmp_path_factory):
    media = tmp_path_factory.mktemp("wording")
    return {lang: [(s.scene_id, k, t) for s in scenes_of(str(BAT), lang, media) for k, t in every_line(s)]
            for lang in LANGS}


def loose(text: str, label: str) -> list[str]:
    """Where `label` sits inside a sentence rather than standing alone, with its surroundings."""
    bad = []
    for m in re.finditer(re.escape(label), text):
        before, after = text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
        if (before and before not in OPEN) or (after and after not in CLOSE and text != label):
            bad.append(text[max(0, m.start() - 20):m.end() + 20])
    return bad


@pytest.mark.parametrize("lang", LANGS)
def test_phrase_labels_stand_alone(bat_lines, lang):
    labels = {"zh": ["在洞穴里", "在球赛上"], "en": ["in a cave", "at a ball game"]}[lang]
    stories = [text for lines in load(str(BAT)).narration.values() for text in lines.values()]
    said = [(s, k, t) for s, k, t in bat_lines[lang]]
    for story in stories:  # the teacher's own words may use a label as they like
        said = [(s, k, t.replace(story, "")) for s, k, t in said]
    said = [(s, k, t) for s, k, t in said if any(label in t for label in labels)]
    assert {k for _, k, _ in said} >= {"contexts.diff_label", "geometry.say.contexts"}  # the check sees them
    problems = [f"{k}: …{piece}…" for _, k, t in said for label in labels for piece in loose(t, label)]
    assert not problems, "labels inside a sentence:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_contexts_are_named_by_their_sentences(bat_lines, lang):
    lines = dict((k, t) for _, k, t in bat_lines[lang])
    for key in ("contexts.say.weights", "contexts.say.outputs"):
        assert "the bat slept in caves" in lines[key] and "he swung the bat swiftly" in lines[key], lines[key]


def test_tokens_are_marked_in_english(tmp_path):
    """Every field that names a token is a Token, so that English lines quote it ("most on “the”")."""
    unmarked = []
    for lesson in (None, str(BAT), str(LESSONS / "apple-zh.toml"), "two_heads", "causal", "learning",
                   "positions", "tiled"):
        for scene in scenes_of(lesson, "en", tmp_path):
            tokens = set(scene.att.tokens)
            for name, value in scene.fields().items():
                if name not in LABEL_FIELDS and value in tokens and not isinstance(value, Token):
                    unmarked.append(f"{lesson} {scene.scene_id}.{name} = {value!r}")
    assert not unmarked, "\n".join(unmarked)


def test_token_marks():
    en, zh = catalog("en"), catalog("zh")
    assert f"most on {en.token('the')}" == "most on “the”"
    assert listing([en.token("the"), en.token("by")], "en") == "“the” and “by”"
    assert f"{zh.token('bank')} 的输出" == "bank 的输出"  # Latin: bare, as the text
    assert listing([zh.token("苹果"), zh.token("梨")], "zh") == "「苹果」和「梨」"
    assert f"{zh.token('。')}" == "「。」"  # Chinese punctuation too: a bare 。 runs into the list around it
    assert "{t!s}→{t!s}".format(t=en.token("bank")) == "bank→bank"  # notation stays bare
    assert en.token("the") == "the" and " ".join([en.token("a"), "b"]) == "a b"  # a plain string otherwise


def test_looks_at_quotes_tokens(tmp_path):
    (scene,) = scenes_of("two_heads", "en", tmp_path, only={"heads"})
    text = scene.t("looks_at", tokens=scene.top_names(0))
    assert re.fullmatch(r"most on “[^”]+”( and “[^”]+”)*", text) or "”, “" in text, text


# -- the size of a difference -----------------------------------------------------------------------

@pytest.mark.parametrize("change, scale, size", [
    (0.05, 1.0, "slight"), (-0.05, 1.0, "slight"), (SLIGHT_CHANGE, 1.0, "clear"), (0.24, 1.0, "clear"),
    (LARGE_CHANGE, 1.0, "large"), (1.43, 1.49, "large"), (0.03, 0.1, "clear"), (0.0, 0.0, "slight"),
])
def test_change_size(change, scale, size):
    assert change_size(change, scale) == size


def test_gain_source_is_the_largest_contribution():
    w, v = np.array([0.6, 0.4]), np.array([[0.1, 0.0], [1.0, 0.0]])  # top weight: 0.06; other: 0.4
    assert gain_source(w, v, 0) == 1


def write(folder: Path, text: str) -> str:
    path = folder / f"lesson{len(list(folder.glob('*.toml')))}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def two_contexts(other: str) -> str:
    """A lesson whose second sentence differs from the first by one token, `other` its embedding."""
    return f"""focus = "cat"
[dimensions]
zh = ["动物", "动作"]
en = ["animal", "action"]
[vocab]
the = [0.0, 1.0]
a = {other}
cat = [1.0, 0.5]
[projections]
w_q = [[1.0, 0.5], [0.2, 1.0]]
w_k = [[0.8, 0.0], [0.0, 1.2]]
w_v = [[1.5, 0.0], [0.0, 0.7]]
[contexts]
first = ["the", "cat"]
second = ["a", "cat"]
"""


@pytest.mark.parametrize("other, words", [
    ("[0.0, 1.05]", {"en": "only slightly more", "zh": "只多混入了一点"}),
    ("[3.0, 0.0]", {"en": "far more", "zh": "更多混入了"}),
])
@pytest.mark.parametrize("lang", LANGS)
def test_difference_says_how_much(tmp_path, other, words, lang):
    (scene,) = scenes_of(write(tmp_path, two_contexts(other)), lang, tmp_path, only={"contexts"})
    line = scene.narration("difference")
    assert words[lang] in line, line
    assert ("far more" not in line) if lang == "en" and "slightly" in words["en"] else True


@pytest.mark.parametrize("lang", LANGS)
def test_unnamed_dimension_is_not_the_lessons_name(tmp_path, lang):
    text = two_contexts("[3.0, 0.0]").replace('zh = ["动物", "动作"]\nen = ["animal", "action"]\n', "")
    (scene,) = scenes_of(write(tmp_path, text), lang, tmp_path, only={"mixing"})
    line = scene.narration("strengthened")
    assert re.search(r"v\d", line) and "lesson calls" not in line and "教材定义" not in line, line
    (named,) = scenes_of(write(tmp_path, two_contexts("[3.0, 0.0]")), lang, tmp_path, only={"mixing"})
    assert "lesson calls" in named.narration("strengthened") or "教材定义" in named.narration("strengthened")
