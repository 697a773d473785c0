"""Every scene, built once per lesson shape and language and checked on that build: every step ends
inside the frame with no two labels overlapping and filling the screen (its body spanning 75 % of the
safe area's width or height, centred, its tables' numbers 30 px tall at 1080p: layout.fill, for 2, 4, 6
and 8 tokens), every step has its narration, the numbers drawn are the core's, and (default lesson, zh,
river, in both themes) every step's last frame matches its golden frame."""

from __future__ import annotations

import ast
import os
import re

import numpy as np
import pytest

from attention_core import attend, hard_lookup, load, wrong_axis_weights
from attention_core.geometry import given_plane, picture, planes, terms
from scenes.common.i18n import catalog
from scenes.common.mobjects import number_text
from scenes.registry import BY_ID, SCENES, available

from .cue_rules import step_problems
from .goldens import compare_all
from .random_lessons import random_lesson
from .scene_harness import LESSONS, build

SCENE_IDS = [s.id for s in available()]
GOLDEN_CASES = [("default", "river", "zh", "dark"), ("default", "river", "zh", "light")]
# (lesson, context, language): every lesson shape once: the 4-token default in zh (river, the goldens),
# a 2-token lesson in zh, an 8-token one of 8 dimensions everywhere (deep.toml: the widest tables, the
# widest labels, the English catalog's longest lines in the most crowded layouts) in en, a 6-token context
# of 6 dimensions (wide.toml) in zh, a lesson of Chinese tokens with context labels in zh. A build costs
# 3-15 s: each case is one build per scene.
# (The default lesson in English was a case of its own until the suite neared 10 minutes: the wide
# case lays out the same English words with less room; test_speech still formats every English line.)
# The light theme's build of the default case: the light goldens, with the layout and numbers checked
# anyway, for the scenes whose colours follow the numbers (bars, heat, the values' and normalizers'
# colours, the planes' arrows); the others' colours are the theme's roles only, which test_palette reads
# from every scene file (and their layout is the dark build's: the same positions and sizes).
LIGHT = GOLDEN_CASES[1]
LIGHT_SCENES = ("softmax", "mixing", "matrix", "normalizers", "geometry")
CASES = [*GOLDEN_CASES, ("tiny.toml", None, "zh", "dark"), ("deep.toml", None, "en", "dark"),
         ("wide.toml", "money", "zh", "dark"), ("apple-zh.toml", "company", "zh", "dark")]


def case_id(case) -> str:
    lesson, context, lang, theme = case
    return "-".join(map(str, (lesson, context, lang))) + ("" if theme == "dark" else f"-{theme}") + \
        ("-golden" if case in GOLDEN_CASES else "")


@pytest.fixture(scope="session")
def media_dir(tmp_path_factory):
    """manim's formula and text caches, one folder per test process: Typst compiles each formula once."""
    return tmp_path_factory.mktemp(f"media-{os.getpid()}")


def lesson_path(name):
    return None if name == "default" else str(LESSONS / name)


# -- the numbers a scene shows, from the core ------------------------------------------------------

def shown_numbers(scene_id: str, lesson, context: str | None, mode: str = "scaled") -> list[np.ndarray]:
    """Arrays whose every entry the scene draws (as the scenes format numbers) at some step's end."""
    att = attend(lesson, context, mode)
    f = att.index(lesson.focus)
    per_context = [attend(lesson, c, mode) for c in lesson.contexts]
    modes = {m: attend(lesson, context, m) for m in ("scaled", "unscaled", "uniform")}
    return {
        "overview": [a.output[a.index(lesson.focus)] for a in per_context] + [lesson.vocab[lesson.focus]],
        "projection": [att.x, att.q, att.k, att.v, lesson.w_q],
        "scores": [att.q[f], att.k, att.scores[f], att.scaled[f]],
        "geometry": geometry_numbers(lesson, context, mode),
        "softmax": [att.scaled[f], att.weights[f]],
        "mixing": [att.weights[f], att.v, att.weights[f][:, None] * att.v, att.output[f]],
        "matrix": [att.weights, att.scores[f]],
        "contexts": [a.output[a.index(lesson.focus)] for a in per_context],
        "lookup": [hard_lookup(att).output[f], att.output[f], att.scores[f], att.weights[f]],
        "normalizers": [att.scores[f], att.v, att.v.mean(axis=0)]
                       + [modes[m].weights[f] for m in modes] + [modes[m].output[f] for m in modes],
        "edge-cases": [att.weights, att.weights.sum(axis=1), att.output],
        "mistakes": [att.x[f], att.q[f], att.k[f], att.v[f], att.scores[f], wrong_axis_weights(att.scaled),
                     att.weights],
        "cost": [att.x, att.output[f]],
    }[scene_id]


def geometry_numbers(lesson, context: str | None, mode: str) -> list[np.ndarray]:
    """The geometry scene's: the plane's part of each score and the whole, the scaled scores, the weights
    of every mode, the weighted values on the V plane and their sum, every context's output there."""
    p = picture(lesson, context, mode)
    att = attend(lesson, context, mode)
    weights = [picture(lesson, context, m).weights for m in ("scaled", "unscaled", "uniform")]
    outputs = [picture(lesson, c, mode).output for c in lesson.contexts]
    return [p.shown, p.scores, att.scaled[att.index(lesson.focus)], *weights, p.weighted, p.output, *outputs]


# -- the narration states only what is true of the lesson rendered -----------------------------------

# names of the test lessons that are plain words of the narration too ("softmax along the key axis")
GENERIC = {"function", "action", "time", "along", "功能", "动作", "时间", "一个"}


def lesson_words(lesson) -> set[str]:
    """What a lesson names: tokens, context keys and labels, dimension names in every language."""
    words = set(lesson.vocab) | set(lesson.contexts)
    words |= {v for labels in lesson.context_labels.values() for v in labels.values()}
    words |= {d for names in lesson.dimensions.values() for d in names}
    return words


def distinctive(word: str) -> bool:
    cjk = CJK_CHAR.findall(word)
    return word not in GENERIC and (len(cjk) >= 2 if cjk else len(word) >= 4)


CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
OTHER_LESSONS = [load(None), *(load(p) for p in sorted(LESSONS.glob("*.toml")))]


def narration_problems(lines: list[str], lesson, context: str | None) -> list[str]:
    """Names another lesson's tokens, contexts or dimensions that this one lacks; a percentage that
    is not one of the focus's weights (any context, any mode) nor the share of its terms a geometry
    plane holds."""
    own = lesson_words(lesson)
    foreign = {w for other in OTHER_LESSONS for w in lesson_words(other)} - own
    foreign = {w for w in foreign if distinctive(w) and not any(w in o for o in own)}
    qk, v = planes(lesson)
    shares = {100, round(100 * qk.share)} | {round(100 * given_plane(terms(lesson, m)[1], v.axes).share)
                                             for m in ("scaled", "unscaled", "uniform")}
    for c in lesson.contexts:
        for mode in ("scaled", "unscaled", "uniform"):
            att = attend(lesson, c, mode)
            shares |= {round(100 * w) for w in att.weights[att.index(lesson.focus)]}
    stories = [text for lines_ in lesson.narration.values() for text in lines_.values()]
    problems = []
    for line in lines:
        for story in stories:  # the lesson's own words, which may name anything
            line = line.replace(story, "")
        for w in foreign:
            pattern = re.escape(w) if CJK_CHAR.search(w) else rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])"
            if re.search(pattern, line):
                problems.append(f"names {w!r}, which this lesson does not have: {line}")
        for pct in re.findall(r"(\d+)%", line):
            if int(pct) not in shares:
                problems.append(f"{pct}% is none of {lesson.focus}'s weights: {line}")
    return problems


NUMBER = re.compile(r"^[+\-−]?\d+(\.\d+)?$")


def missing_numbers(scene_id, lesson, context, texts) -> list[str]:
    """The core's numbers for the scene (to the 2 decimals shown) that no label on screen reads as."""
    on_screen = {round(float(t.replace("−", "-")), 6) for t in texts if NUMBER.match(t)}
    expected = {round(float(x), 2) for a in shown_numbers(scene_id, lesson, context) for x in np.ravel(a)}
    return [number_text(x) for x in sorted(expected) if round(x, 6) not in on_screen]


# -- one build per scene and case, everything checked on it ------------------------------------------

BUILDS = [(scene_id, *case) for case in CASES for scene_id in SCENE_IDS
          if case != LIGHT or scene_id in LIGHT_SCENES]


@pytest.mark.parametrize("scene_id,lesson,context,lang,theme", BUILDS,
                         ids=[f"{b[0]}-{case_id(b[1:])}" for b in BUILDS])
def test_scene(scene_id, lesson, context, lang, theme, media_dir, tmp_path, request):
    golden = (lesson, context, lang, theme) in GOLDEN_CASES
    scene, watch = build(BY_ID[scene_id], media_dir, lesson=lesson_path(lesson), context=context,
                         lang=lang, theme=theme, keyframes=tmp_path if golden else None)
    assert watch.problems == [], "\n".join(watch.problems)
    assert watch.cjk_in_math == []
    assert len(scene.step_keys) >= 2 and list(watch.texts) == scene.step_keys
    assert [s.step for s in scene.steps] == scene.step_keys
    subs = scene.renderer.file_writer.subcaptions
    for sub in subs:
        assert sub.content.strip() and sub.end > sub.start
    # the cues say each line once, in order, in cues of at most two lines
    assert [c for sub in subs for c in sub.content if not c.isspace()] == \
        [c for s in scene.steps for c in s.narration if not c.isspace()]
    assert max(sub.content.count("\n") for sub in subs) <= 1
    # each long enough and slow enough to read, inside its step, no word split (tests/cue_rules.py)
    cues = [(sub.content, sub.start.total_seconds(), sub.end.total_seconds()) for sub in subs]
    assert step_problems(scene.steps, cues, lang) == []
    les = load(lesson_path(lesson))
    assert missing_numbers(scene_id, les, context, watch.all_texts()) == []
    assert narration_problems([s.narration for s in scene.steps] + watch.all_texts(), les, context) == []
    if lesson == "apple-zh.toml" and BY_ID[scene_id].contexts == "all":  # one build for both checks
        contexts_named(scene_id, scene, watch, lang, "en")
    if golden:
        problems = compare_all(scene_id, tmp_path, update=request.config.getoption("--update-goldens"),
                               theme=theme)
        assert not problems, "golden frames differ:\n" + "\n".join(map(str, problems))


@pytest.mark.parametrize("lang,other", [("en", "zh")])  # zh: test_scene's apple-zh.toml case checks it
@pytest.mark.parametrize("scene_id", [s.id for s in SCENES if s.contexts == "all"])
def test_contexts_named_in_the_video_language(scene_id, lang, other, media_dir):
    """A lesson whose contexts have labels: the frames and the narration use the label of the video's
    language, never the file's key or the other language's label."""
    scene, watch = build(BY_ID[scene_id], media_dir, lesson=str(LESSONS / "apple-zh.toml"), lang=lang)
    contexts_named(scene_id, scene, watch, lang, other)


def contexts_named(scene_id, scene, watch, lang, other):
    """The apple-zh lesson's contexts named in the video's language, never by the file's key or the
    other language's label (the contexts scene names every one)."""
    les = load(LESSONS / "apple-zh.toml")
    words = watch.all_texts() + [s.narration for s in scene.steps]
    shown = {les.context_label(c, lang) for c in les.contexts}
    hidden = {les.context_label(c, other) for c in les.contexts} | set(les.contexts)
    if scene_id == "contexts":
        assert all(any(label in w for w in words) for label in shown), (shown, words)
    assert not [w for w in words for h in hidden - shown if h in w], words


@pytest.mark.parametrize("seed,lang", [(1, "zh"), (2, "en")])
@pytest.mark.parametrize("scene_id", ["softmax", "mixing", "lookup", "geometry"])  # lines rank and share
def test_words_true_for_a_random_lesson(scene_id, seed, lang, media_dir, tmp_path):
    """A lesson nobody wrote (other words, shapes, signs): the words on screen and in the narration
    still name only what it has, every percentage is one of its weights, every number is the core's."""
    path = tmp_path / f"random-{seed}.toml"
    path.write_text(random_lesson(seed), encoding="utf-8")
    les = load(path)
    scene, watch = build(BY_ID[scene_id], media_dir, lesson=str(path), lang=lang)
    assert watch.problems == [], "\n".join(watch.problems)
    lines = [s.narration for s in scene.steps]
    assert narration_problems(lines + watch.all_texts(), les, None) == []
    assert missing_numbers(scene_id, les, None, watch.all_texts()) == []


def test_narration_check_can_fail():
    tiny = load(LESSONS / "tiny.toml")
    assert narration_problems(["cat gives about 45% to the, 55% to itself"], tiny, None) == []
    found = narration_problems(["Next to river, bank can mean a riverbank.", "about 69% to cat"], tiny, None)
    assert any("'river'" in p for p in found) and any("'bank'" in p for p in found)
    assert any(p.startswith("69%") for p in found)
    assert narration_problems(["Next to river, bank can mean a riverbank."], load(None), None) == []


def test_numbers_check_can_fail(lesson):
    """The bank row of the lesson text on screen passes, in any number format; a transposed one does
    not."""
    att = attend(lesson, "river")
    good = [number_text(x) for x in [*att.q[3], *att.k.ravel(), *att.scores[3], *att.scaled[3]]]
    assert missing_numbers("scores", lesson, "river", good) == []
    assert "4.6" in good and "0.46" in good and "2.3" in good
    padded = [f"{x:.2f}" for x in [*att.q[3], *att.k.ravel(), *att.scores[3], *att.scaled[3]]]
    assert "4.60" in padded and missing_numbers("scores", lesson, "river", padded) == []
    transposed = [number_text(x) for x in [*att.q[3], *att.k.ravel(), *att.scores[:, 3], *att.scaled[:, 3]]]
    assert "0.92" in missing_numbers("scores", lesson, "river", transposed)


def test_wide_lesson_is_at_the_bound():
    deep = load(LESSONS / "deep.toml")
    assert max(len(c) for c in deep.contexts.values()) == 8 and deep.d_model == deep.d_k == deep.d_v == 8
    assert min(len(c) for c in load(LESSONS / "tiny.toml").contexts.values()) == 2


def test_the_cases_cover_2_4_6_and_8_tokens():
    """The fill check (in every case's layout check) sees every lesson size the frames are held to."""
    sizes = set()
    for lesson, context, _, _ in CASES:
        les = load(lesson_path(lesson))
        sizes.add(len(les.contexts[les.context_name(context)]))
    assert {2, 4, 6, 8} <= sizes, sizes


# -- no lesson number typed into a scene ---------------------------------------------------------

ALLOWED_INTS = {0, 1, 2, 3}  # indices, halves, grid columns; anything else comes from the core or style


def named_constants(tree) -> set[int]:
    """ids of the value nodes of module-level UPPER_CASE assignments: a scene's named constants."""
    ok = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) and t.id.isupper()
                                                 for t in stmt.targets):
            ok |= {id(n) for n in ast.walk(stmt.value)}
        elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Tuple) for t in stmt.targets) and all(
                isinstance(e, ast.Name) and e.id.isupper() for t in stmt.targets for e in t.elts):
            ok |= {id(n) for n in ast.walk(stmt.value)}
    return ok


def numeric_literals(path):
    """Numbers in a scene file outside its named constants (and the small ints of indexing)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = named_constants(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and type(node.value) in (int, float, complex)
                and id(node) not in named):
            if isinstance(node.value, float) or node.value not in ALLOWED_INTS:
                yield node.lineno, node.value


@pytest.mark.parametrize("info", SCENES, ids=[s.id for s in SCENES])
def test_no_numeric_literal_in_scene(info):
    found = list(numeric_literals(info.file))
    assert found == [], (f"{info.file.name}: numbers come from attention_core; sizes and timings are named "
                         f"constants (the scene's own at its top, shared ones in style.py): {found}")


def test_literal_check_can_fail(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text("BAR_H = 1.8\nCELL_W, CELL_H = 1.2, 0.7\nx = 0.46\ny = [2.3, 2, 4]\n"
                 "def f():\n    Z = 5\n")
    assert [v for _, v in numeric_literals(p)] == [0.46, 2.3, 4, 5]


# -- catalogs ------------------------------------------------------------------------------------

def test_catalogs_have_the_same_keys():
    zh, en, ja = catalog("zh").entries, catalog("en").entries, catalog("ja").entries
    assert set(zh) == set(en) == set(ja), (set(zh) ^ set(en)) | (set(en) ^ set(ja))


def test_every_scene_has_a_title_in_every_language():
    for info in available():
        assert info.title("zh") and info.title("en") and info.title("ja")
        assert len({info.title("zh"), info.title("en"), info.title("ja")}) == 3


def test_registry_reads_which_scenes_show_every_context():
    assert [s.id for s in SCENES if s.contexts == "all"] == ["overview", "geometry", "contexts"]
    for s in SCENES:
        assert s.load().contexts == s.contexts
