"""Every scene builds for every language, context and lesson shape, inside the frame, labels apart."""

import ast
import itertools

import pytest

from attention_core import load
from scenes.common.i18n import catalog
from scenes.registry import SCENES, available

from .scene_harness import LESSONS, build, math_with_cjk

SCENE_IDS = [s.id for s in available()]
DEFAULT_CASES = list(itertools.product(["zh", "en"], ["river", "savings"]))
SHAPES = [("tiny.toml", None, "zh"), ("wide.toml", None, "en"), ("wide.toml", "money", "zh")]


def check(scene):
    assert scene.layout_problems == [], "\n".join(scene.layout_problems)
    assert math_with_cjk(scene) == []
    assert len(scene.beats) >= 2
    assert len(scene.renderer.file_writer.subcaptions) == len(scene.beats)
    for sub in scene.renderer.file_writer.subcaptions:
        assert sub.content.strip() and sub.end > sub.start


@pytest.mark.parametrize("lang,context", DEFAULT_CASES)
@pytest.mark.parametrize("scene_id", SCENE_IDS)
def test_scene_builds_default_lesson(tmp_path, scene_id, lang, context):
    from scenes.registry import BY_ID
    check(build(BY_ID[scene_id], tmp_path, context=context, lang=lang))


@pytest.mark.parametrize("lesson,context,lang", SHAPES)
@pytest.mark.parametrize("scene_id", SCENE_IDS)
def test_scene_builds_other_shapes(tmp_path, scene_id, lesson, context, lang):
    from scenes.registry import BY_ID
    check(build(BY_ID[scene_id], tmp_path, lesson=str(LESSONS / lesson), context=context, lang=lang))


def test_wide_lesson_is_at_the_bound():
    wide = load(LESSONS / "wide.toml")
    assert max(len(c) for c in wide.contexts.values()) == 8 and wide.d_v >= 6
    assert min(len(c) for c in load(LESSONS / "tiny.toml").contexts.values()) == 2


# -- no lesson number typed into a scene ---------------------------------------------------------

ALLOWED_INTS = {0, 1, 2, 3}  # indices, halves, grid columns; anything else comes from the core or style


def numeric_literals(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex):
            if isinstance(node.value, float) or node.value not in ALLOWED_INTS:
                yield node.lineno, node.value


@pytest.mark.parametrize("info", SCENES, ids=[s.id for s in SCENES])
def test_no_numeric_literal_in_scene(info):
    if not info.file.exists():
        pytest.skip("scene not written yet")
    found = list(numeric_literals(info.file))
    assert found == [], f"{info.file.name}: numbers belong in attention_core or style: {found}"


def test_literal_check_can_fail(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text("x = 0.46\ny = [2.3, 2, 4]\n")
    assert [v for _, v in numeric_literals(p)] == [0.46, 2.3, 4]


# -- catalogs ------------------------------------------------------------------------------------

def test_catalogs_have_the_same_keys():
    zh, en = catalog("zh").entries, catalog("en").entries
    assert set(zh) == set(en), set(zh) ^ set(en)


def test_every_scene_has_a_title_in_both_languages():
    for info in available():
        assert info.title("zh") and info.title("en")
        assert info.title("zh") != info.title("en")
