"""Speakable text for the offline draft voice (scenes/common/speech.py): every real narration line, in
both languages and for every lesson shape, comes out as words espeak-ng reads correctly: no digit, no
symbol, no math left; spot values spelled exactly; and (where espeak-ng is installed) the zh voice says
the decimal point it drops from "0.69"."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from manim import tempconfig

from scenes.common.settings import Settings
from scenes.common.speech import number, speakable
from scenes.registry import available

LESSONS = Path(__file__).parent / "lessons"
# (lesson, context): the default lesson in both contexts, a 2-token, an 8-token and a Chinese-token lesson
CASES = [(None, "river"), (None, "savings"), (str(LESSONS / "tiny.toml"), None),
         (str(LESSONS / "wide.toml"), None), (str(LESSONS / "apple-zh.toml"), "company")]
LANGS = ("zh", "en")

CJK = r"\u3000-\u303f\u3400-\u9fff\uff00-\uffef"  # ideographs, CJK and full-width punctuation (「」 too)
# what a speakable line may hold: letters, CJK, spaces and this punctuation
ALLOWED = re.compile(rf"[^\W\d_]|[\s{CJK}，。、：；！？,.:;!?'\"“”‘’（）()\-]")


def scene_lines(scene) -> list[tuple[str, str]]:
    """(key, line) of every narration entry of the scene that its data can fill: each step's line as
    narration() picks it (which must format), plus every other variant whose fields the data has (a
    variant for other data, e.g. the two-context lines of a one-context lesson, is skipped)."""
    own = f"{scene.scene_id.replace('-', '_')}.say."
    names = [k[len(own):] for k in scene.tr.entries if k.startswith(own)]
    steps = [n for n in names if not any(n.startswith(b + "_") for b in names if b != n)]
    fields = scene.fields()
    out = {}
    for step in steps:
        picked = next((f"{step}_{v}" for v in scene.variants() if f"{step}_{v}" in names), step)
        out[own + picked] = scene.narration(step)
    for name in names:
        if own + name not in out:
            try:
                out[own + name] = scene.tr(own + name, **fields)
            except KeyError:
                pass
    return list(out.items())


@pytest.fixture(scope="module")
def real_lines(tmp_path_factory) -> dict[tuple, list[tuple[str, str, str]]]:
    """(lesson, context, lang) -> [(scene id, key, line)], from each scene's setup() alone (no render)."""
    media = tmp_path_factory.mktemp("speech-media")
    opts = {"dry_run": True, "write_to_movie": False, "media_dir": str(media), "verbosity": "ERROR"}
    lines = {}
    for lesson, context in CASES:
        for lang in LANGS:
            got = lines[(lesson, context, lang)] = []
            with tempconfig(opts):
                for info in available():
                    scene = info.load()(settings=Settings(lesson, context, "scaled", lang))
                    scene.setup()
                    got += [(info.id, key, line) for key, line in scene_lines(scene)]
    return lines


def offending(text: str) -> list[str]:
    """Characters the voice should not meet: digits, symbols, math."""
    return sorted({ch for ch in text if not ALLOWED.fullmatch(ch) or ch in "$\\{}"})


# -- every real line ---------------------------------------------------------------------------------

def test_every_scene_has_lines_in_every_case(real_lines):
    for case, lines in real_lines.items():
        assert {s for s, _, _ in lines} == {i.id for i in available()}, case


def test_real_lines_are_speakable(real_lines):
    problems = []
    for (lesson, context, lang), lines in real_lines.items():
        for scene_id, key, line in lines:
            said = speakable(line, lang)
            if bad := offending(said):
                problems.append(f"{scene_id} {key} ({lesson or 'default'}, {context}, {lang}): {bad}\n"
                                f"  line:      {line}\n  speakable: {said}")
    assert not problems, f"{len(problems)} lines keep symbols:\n" + "\n".join(problems)


def test_every_number_of_a_line_is_spoken(real_lines):
    """As many decimal points said as the line has decimals (the zh voice drops unspelled ones)."""
    for (lesson, context, lang), lines in real_lines.items():
        word = {"zh": "点", "en": "point"}[lang]
        for scene_id, key, line in lines:
            said = speakable(line, lang)
            assert said.count(word) >= len(re.findall(r"\d\.\d", line)), (key, line, said)


# -- spot values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, said", [
    ("0.69", "零点六九"), ("2.3", "二点三"), ("12", "十二"), ("100", "一百"), ("105", "一百零五"),
    ("110", "一百一十"), ("10010", "一万零一十"), ("-0.5", "负零点五"), ("−1.41", "负一点四一"),
    ("+1.43", "正一点四三"), ("0.06", "零点零六"),
])
def test_zh_numbers(text, said):
    assert number(text, "zh") == said
    assert speakable(text, "zh") == said


@pytest.mark.parametrize("text, said", [
    ("0.69", "zero point six nine"), ("12", "twelve"), ("69", "sixty-nine"), ("100", "one hundred"),
    ("1234", "one thousand two hundred thirty-four"), ("-0.5", "minus zero point five"),
    ("−1.41", "minus one point four one"), ("+1.43", "plus one point four three"),
])
def test_en_numbers(text, said):
    assert number(text, "en") == said
    assert speakable(text, "en") == said


@pytest.mark.parametrize("line, said", [
    ("权重约 0.69", "权重约零点六九"),
    ("25%", "百分之二十五"),
    ("实际分布约 69% 给 river", "实际分布约百分之六十九给 river"),
    ("再除以 √dₖ = 2：", "再除以根号 d k 等于二："),
    ("d_k", "d k"),
    ("Q·K 与 QKᵀ", "Q 点乘 K 与 QK 转置"),
    ("bank→river 在第 bank 行", "bank 到 river 在第 bank 行"),
    ("得到 4×4 的注意力矩阵", "得到四乘四的注意力矩阵"),
    ("每个权重都是 1/4，即 0.25", "每个权重都是四分之一，即零点二五"),
    ("by 为 0.92/2 = 0.46", "by 为零点九二除以二等于零点四六"),
    ("约 [1.43, 0.06]。", "约向量一点四三，零点零六。"),
    ("[-0.4, 0]", "向量负零点四，零"),
    ("输入：2 个 token，第 2 行", "输入：两个 token，第二行"),
    ("有 n² 格，时间为 O(n²d)", "有 n 平方格，时间为大O n 平方 d"),
    ("≈ 0.5 ~ 1", "约零点五约一"),
    ("旋转 Q/K 等", "旋转 Q 和 K 等"),
    ('公式 $"softmax"(Q K^top slash sqrt(d_k)) V$', "公式 softmax (Q K 转置除以根号 d k) V"),
    ("$frac(1, 4)$", "四分之一"),
    ("每个分数除以 $sqrt(d_k) = 2$（$d_k = 4$）", "每个分数除以根号 d k 等于二（d k 等于四）"),
    ('$"Var"(frac(q dot k, sqrt(d_k))) = 1$', "Var ((q 点乘 k) 除以 (根号 d k)) 等于一"),
])
def test_zh_lines(line, said):
    assert speakable(line, "zh") == said


@pytest.mark.parametrize("line, said", [
    ("25%", "twenty-five percent"),
    ("about 69% goes to river", "about sixty-nine percent goes to river"),
    ("divide by √dₖ = 2:", "divide by root d k equals two:"),
    ("d_k", "d k"),
    ("Q·K and QKᵀ", "Q dot K and QK transpose"),
    ("bank→river is in row bank", "bank to river is in row bank"),
    ("the 4×4 attention matrix", "the four by four attention matrix"),
    ("every weight is 1/4, that is 0.25.", "every weight is one over four, that is zero point two five."),
    ("bank, 1.38/2 = 0.69.", "bank, one point three eight divided by two equals zero point six nine."),
    ("about [1.43, 0.06].", "about the vector one point four three, zero point zero six."),
    ("query, [2.3, -0.4], which", "query, the vector two point three, minus zero point four, which"),
    ("takes O(n²d) time", "takes big O of n squared d time"),
    ("finance +1.43, geography −1.41",
     "finance plus one point four three, geography minus one point four one"),
    ("best-scoring key — Self-attention", "best-scoring key, Self-attention"),
    ("$frac(Q K^T, sqrt(d_k))$", "(Q K transpose) divided by (root d k)"),
    ("$n^2 times 4 thick => thick n^2 times 16$", "n squared times four to n squared times sixteen"),
    ("$w_(h j) thin v_(h j)$ of $W_O$", "w h j v h j of W O"),
])
def test_en_lines(line, said):
    assert speakable(line, "en") == said


def test_a_word_said_otherwise_than_written(tmp_path):
    """speech.said: token said as written by default; a words folder's zh/speech.toml may say it 词元
    (the word alone, in any case, before the numbers' rules: 两个 still follows)."""
    from scenes.common import words as W

    line = "输入：2 个 token，每个 Token 一行，tokens 和 tokenizer 不变。"
    assert speakable(line, "zh") == "输入：两个 token，每个 Token 一行，tokens 和 tokenizer 不变。"
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "speech.toml").write_text('[speech.said]\ntoken = "词元"\n', encoding="utf-8")
    assert W.problems(tmp_path, "zh") == []
    W.use_words(tmp_path)
    try:
        assert speakable(line, "zh") == "输入：两个词元，每个词元一行，tokens 和 tokenizer 不变。"
    finally:
        W.use_words(None)


def test_the_catalogs_still_load_with_the_speech_tables():
    from scenes.common.i18n import catalog
    zh, en = catalog("zh"), catalog("en")
    assert zh("speech.point") == "点" and en("speech.point") == "point"
    assert set(zh.entries) == set(en.entries)


# -- what espeak-ng says ---------------------------------------------------------------------------

VOICE = {"zh": "cmn-latn-pinyin", "en": "en"}
POINT = {"zh": r"tiE\d+n", "en": r"pOInt"}  # 点 (any tone: 点 before a third tone is sandhied) / point
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def phonemes(text: str, lang: str) -> str:
    """espeak-ng's phonemes for text, with whitespace and stress marks removed (stderr: ALSA noise)."""
    out = subprocess.run(["espeak-ng", "-q", "-v", VOICE[lang], "-x", text], capture_output=True,
                         text=True, timeout=30).stdout
    return re.sub(r"[\s',]", "", out)


@needs_espeak
def test_espeak_says_the_spelled_numbers():
    assert phonemes("零点六九", "zh") in phonemes(speakable("权重约 0.69", "zh"), "zh")
    assert phonemes("zero point six nine", "en") in phonemes(speakable("a weight of about 0.69", "en"), "en")
    # 五 last in the line: before another third tone espeak would sandhi it (wu214 -> wu35)
    assert phonemes("百分之二十五", "zh") in phonemes(speakable("river 约占 25%。", "zh"), "zh")


@needs_espeak
def test_espeak_says_every_decimal_point_of_real_lines(real_lines):
    """Each 点 / point in a speakable line is spoken: at least one per decimal of the original line."""
    for lang in LANGS:
        for scene_id, key, line in real_lines[(None, "river", lang)]:
            if not re.search(r"\d\.\d", line):
                continue
            said = speakable(line, lang)
            points = len(re.findall(POINT[lang], phonemes(said, lang)))
            assert points >= len(re.findall(r"\d\.\d", line)), (key, line, said)
