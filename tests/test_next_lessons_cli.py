"""The next lessons through the CLI: `lessons` lists the built-ins, `check` says what a file holds (its
mask, its heads and their d_k), `new --heads N --mask causal` writes a starter that passes, `numbers
--head` and `--json` carry the mask and every head, with the core's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attention_core import load
from attention_core.multihead import attend_heads

from .cli_helpers import cli


def test_lessons_lists_the_built_ins_by_name_with_their_titles():
    zh, en = cli("lessons").splitlines(), cli("lessons", "--lang", "en").splitlines()
    assert [line.split()[0] for line in en] == ["causal", "default", "learning", "positions", "real",
                                                "real_causal", "tiled", "two_heads"]
    assert en[0].startswith("causal") and "Masked attention" in en[0] and "(a causal mask)" in en[0]
    assert "(2 heads: meaning, grammar)" in en[7] and "多头注意力" in zh[7] and "因果掩码" in zh[0]
    assert "(learning: bank -> river, 8 steps)" in en[2] and "(学习：bank → river，8 步)" in zh[2]
    assert "(positions: rope)" in en[3] and "(tiles of 2 keys)" in en[6] and "每块 2 个键" in zh[6]
    assert "(a real model: e5 reads “河岸边的银行旁有一条河。”, following 银行)" in en[4]
    assert "(a real model: smollm2 reads “The capital of France is”, following is)" in en[5]
    assert "causal" in cli("numbers", "--lesson", "causal").splitlines()[1]  # --lesson takes the name


def test_check_says_what_the_file_holds():
    out = cli("check", "two_heads", "--lang", "en")
    assert ("2 heads: meaning (d_k 2, d_v 2), grammar (d_k 2, d_v 2); W_O 4 × 4; the scenes expand meaning"
            in out)
    assert "掩码：因果（第 i 个查询只看第 1 到 i 个键）" in cli("check", "causal")
    assert "mask" not in cli("check", "default", "--lang", "en")


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
@pytest.mark.parametrize("heads, mask", [(2, "causal"), (4, "none"), (1, "causal")])
def test_new_writes_a_next_lesson_starter_that_passes(tmp_path, lang, heads, mask):
    path = tmp_path / "mine.toml"
    cli("new", str(path), "--heads", str(heads), "--mask", mask, "--lang", lang)
    lesson = load(path)
    assert len(lesson.heads) == (heads if heads > 1 else 0)
    assert lesson.mask == (None if mask == "none" else mask)
    if heads > 1:
        assert lesson.w_o.shape == (sum(h.d_v for h in lesson.heads), lesson.d_model)
        text = path.read_text(encoding="utf-8")
        assert text.count("[heads.") == heads and ("# w_o:" if lang == "en" else "w_o：") in text
        assert "w_q = [" not in text.split("\n[projections]\n")[1]  # only w_o there
        assert all(set(h.names) == {"zh", "en", "ja"} for h in lesson.heads)  # named in every language
    for shown in ("zh", "en", "ja"):  # its words in every language: no warning in any
        checked = cli("check", str(path), "--lang", shown)
        assert not any(w in checked for w in ("warning", "警告")), checked


def test_numbers_json_carries_the_mask_and_every_head():
    data = json.loads(cli("numbers", "--lesson", "two_heads", "--json", "--context", "savings"))
    mh = attend_heads(load("two_heads"), "savings")
    assert data["mask"] is None and data["head"] == "meaning"
    assert list(data["heads"]) == ["meaning", "grammar"]
    np.testing.assert_array_equal(data["heads"]["grammar"]["weights"], mh.head("grammar").weights)
    np.testing.assert_array_equal(data["multi_head_output"], mh.output)
    grammar = json.loads(cli("numbers", "--lesson", "two_heads", "--head", "grammar", "--json"))
    assert grammar["head"] == "grammar" and grammar["weights"] == grammar["heads"]["grammar"]["weights"]
    causal = json.loads(cli("numbers", "--lesson", "causal", "--json"))
    assert causal["mask"] == "causal" and causal["scaled"][0][1:] == [None, None, None]
    assert causal["weights"][0] == [1.0, 0.0, 0.0, 0.0]


def test_numbers_table_shows_minus_infinity_and_a_wrong_head_is_a_usage_error():
    out = cli("numbers", "--lesson", "causal")
    assert "mask causal" in out and out.split("scaled =")[1].splitlines()[2].split()[1:] == ["0.0000", "-inf",
                                                                                            "-inf", "-inf"]
    assert "'x' is not a head" in cli("numbers", "--lesson", "two_heads", "--head", "x", code=2)
    assert "one head" in cli("numbers", "--head", "x", code=2)
    assert "multi-head output = concat W_O" in cli("numbers", "--lesson", "two_heads")


def test_the_lessons_the_lesson_points_to_through_the_cli(tmp_path):
    """check says what [training], [positions] and [tiling] hold; numbers --json carries their sections;
    a bad value is one line FILE:LINE, exit status 2."""
    assert "learning: bank -> river, 8 steps" in cli("check", "learning", "--lang", "en")
    assert "位置：rope" in cli("check", "positions")
    assert "tiles of 2 keys" in cli("check", "tiled", "--lang", "en")
    data = json.loads(cli("numbers", "--lesson", "tiled", "--json"))
    assert data["tiles"]["memory"] == {"tiled": 12, "full": 36}
    np.testing.assert_allclose(data["tiles"]["output"], data["output"], atol=1e-12)
    bad = tmp_path / "bad.toml"
    source = Path(load("tiled").source).read_text(encoding="utf-8")
    bad.write_text(source.replace("block = 2", "block = 0"), encoding="utf-8")
    out = cli("check", str(bad), "--lang", "en", code=2).strip()
    line = next(n for n, t in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1) if t == "block = 0")
    assert out == f"{bad}:{line}: tiling.block: expected a whole number from 1 to 8, found 0", out
