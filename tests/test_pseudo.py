"""The pseudo-locale (tests/pseudo.py): every English line 40 % longer, accented, with a wide character,
its placeholders kept; every step of every scene built in it passes the layout checks (in frame, no
overlap, minimum size), or is a layout failure listed in KNOWN (found by this test; a scene's fix
removes its entry). A few cases in every run (EVERY_RUN), all of them with --pseudo-all."""

from __future__ import annotations

import re

import pytest

from attention_core import load
from scenes.common import style
from scenes.common import words as W
from scenes.common.captions import pieces
from scenes.common.labels import wrapped
from scenes.registry import BY_ID, available

from . import pseudo
from .scene_harness import LESSONS, build

CASES = {"tiny.toml": 2, "default": 4, "deep.toml": 8}  # lesson -> its tokens
# built in every run (the suite's time): the layouts the pseudo-locale made give way, in the 2-token
# lesson (the projection's names and wrapped note, the heading's sentence, the geometry table's heads);
# every other case with --pseudo-all (some 45 builds of 3-15 s)
EVERY_RUN = {("projection", "tiny.toml"), ("softmax", "tiny.toml"), ("contexts", "tiny.toml"),
             ("geometry", "tiny.toml")}
# (scene, lesson) -> what the pseudo-locale still breaks there: layouts that do not yet give way to
# words 40 % longer than English's (each a scene's own fix); none left: every scene of the three
# lessons lays out (--pseudo-all builds them all; a failure it finds goes here until its scene's fix)
KNOWN: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return pseudo.write(tmp_path_factory.mktemp("pseudo"))


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("pseudo-media")


def test_the_pseudo_locale_is_longer_accented_and_keeps_its_placeholders(folder):
    assert W.problems(folder, pseudo.CODE) == []  # every key, every placeholder of every line
    own, en = W.overrides(folder, pseudo.CODE), W.builtin_entries("en")
    line = own["softmax.weights_of"].value
    assert line.startswith("{focus}'š wéîĝhţš föŕ éáçh ķéý Ｗ")
    for key, e in own.items():
        if not pseudo.KEPT.search(key) and isinstance(e.value, str):
            assert len(e.value) >= 1.4 * len(en[key].value) and pseudo.WIDE in e.value, key
            assert not re.search(r"[a-zA-Z]{4}", re.sub(r"\{[^{}]*\}|\$[^$]*\$", "", e.value)), key


def test_the_wide_letter_stays_with_its_word_when_a_line_wraps():
    """A full-width Latin letter inside a word (the pseudo-locale's Ｗŵíðé) is no place to break a line:
    no line may end with it alone, the rest of its word on the next line."""
    en = W.builtin_entries("en")
    for key, e in en.items():
        if not pseudo.KEPT.search(key) and isinstance(e.value, str):
            parts = pieces(pseudo.pseudo(e.value), pseudo.CODE)
            alone = [(p, q) for p, q in zip(parts, parts[1:]) if p.endswith(pseudo.WIDE) and q[:1].isalpha()]
            assert not alone, key
    line = pseudo.pseudo(en["mistakes.self_wrong"].value)  # (it broke as "… béšţＷ" / "ŵíðé ļöñĝ …")
    for width in (2.5, 3.0):
        lines = [m.text for m in wrapped(line, width, pseudo.CODE, style.LABEL_SIZE)]
        assert len(lines) == 4 and not [t for t in lines if t.endswith(pseudo.WIDE)], lines
        assert "Ｗŵíðé" in "".join(lines)


def cases():
    for lesson in CASES:
        for info in available(load(lesson if lesson == "default" else LESSONS / lesson)):
            known = KNOWN.get((info.id, lesson))
            # (not built: a known failure costs a build of 10-40 s to confirm; a scene's fix removes it)
            marks = [pytest.mark.xfail(reason=known, run=False)] if known else []
            yield pytest.param(info.id, lesson, marks=marks, id=f"{info.id}-{lesson}")


@pytest.mark.parametrize("scene_id,lesson", list(cases()))
def test_every_step_lays_out_in_the_pseudo_locale(scene_id, lesson, folder, media_dir, request):
    if (scene_id, lesson) not in EVERY_RUN and not request.config.getoption("--pseudo-all"):
        pytest.skip("every scene of the 2-, 4- and 8-token lessons lays out in the pseudo-locale with "
                    "--pseudo-all")
    path = None if lesson == "default" else str(LESSONS / lesson)
    scene, watch = build(BY_ID[scene_id], media_dir, lesson=path, lang=pseudo.CODE, words=str(folder))
    assert watch.problems == [], "\n".join(watch.problems)
    assert any(pseudo.WIDE in t for texts in watch.texts.values() for t in texts)  # its words were drawn
