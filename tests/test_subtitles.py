"""Subtitles a viewer can read (scenes/common/captions.py), on every real narration line of every test
lesson, zh and en, without rendering: each line laid out as cues and timed over a step as short as the
scene makes it, silent and with voices faster and slower than a viewer reads; every cue at least 5/6 s,
at most 9 (zh) or 20 (en) characters a second, inside its step, no word split (tests/cue_rules.py).
The scenes' own cues are checked on their builds in test_scenes, a joined lesson's .srt in test_render.
Also: jieba loads lazily, once, quietly, without touching the temp folder, in parallel processes."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from scenes.common import captions, style
from scenes.common.captions import cues, least_step, least_time, spoken, timed
from scenes.common.i18n import catalog
from scenes.common.labels import wrapped
from scenes.registry import available

from .cue_rules import split_words, step_problems, timing_problems
from .random_lessons import random_lesson
from .scene_harness import set_up
from .test_speech import scene_lines

LESSONS = Path(__file__).parent / "lessons"
ROOT = Path(__file__).resolve().parent.parent
FPS = 15
# (lesson, context): the default lesson in both contexts, a 2-token, an 8-token and a Chinese-token lesson,
# two random lessons (seeded)
CASES = [(None, "river"), (None, "savings"), ("tiny.toml", None), ("wide.toml", None),
         ("apple-zh.toml", "company"), ("random-1", None), ("random-2", None)]
# a voice of (characters a second): none, one faster than anyone reads, the draft voice's pace, a slow one
VOICES = {"zh": (None, 14.0, 4.5, 2.0), "en": (None, 32.0, 14.0, 6.0)}


@dataclass
class Step:
    narration: str
    start: float
    end: float


def lesson_file(name: str | None, tmp_path: Path) -> str | None:
    if name is None or not name.startswith("random-"):
        return None if name is None else str(LESSONS / name)
    path = tmp_path / f"{name}.toml"
    path.write_text(random_lesson(int(name.split("-")[1])), encoding="utf-8")
    return str(path)


def real_lines(lesson: str | None, context: str | None, lang: str, media: Path) -> list[tuple[str, str]]:
    """(key, line) of every narration entry every scene can say for this lesson (setup() alone)."""
    scenes = set_up(available(), lesson, lang, media, context)
    return [line for scene in scenes for line in scene_lines(scene)]


def step_of(line: str, lang: str, start: float, voice: float | None) -> Step:
    """A step as the scene makes it when it has no animation to outlast: its least length, in whole
    frames (rounded, as LessonScene waits)."""
    return Step(line, start, start + round(least_step(line, lang, voice, 1 / FPS) * FPS) / FPS)


def timed_problems(line: str, lang: str, voice_cps: float | None) -> list[str]:
    voice = None if voice_cps is None else max(0.5, len(line) / voice_cps)
    step = step_of(line, lang, 12.3456, voice)  # a start in no whole millisecond
    span = spoken(step.start, step.end, voice)
    got = timed(line, lang, *span, within=(step.start, step.end))
    found = step_problems([step], got, lang)
    if voice is not None and got[0][1] != round(span[0], 3) and span[1] - span[0] >= least_time(line, lang):
        found.append(f"a voice long enough to read by, but the cues start at {got[0][1]}, not {span[0]:.3f}")
    if voice is not None and span[1] - span[0] >= least_time(line, lang) and got[-1][2] != round(span[1], 3):
        found.append(f"the cues end at {got[-1][2]}, not with the voice at {span[1]:.3f}")
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("lesson,context", CASES, ids=[c[0] or f"default-{c[1]}" for c in CASES])
def test_every_real_line_reads_in_every_voice(lesson, context, lang, tmp_path):
    lines = real_lines(lesson_file(lesson, tmp_path), context, lang, tmp_path / "media")
    assert len(lines) > 50
    problems = []
    for key, line in lines:
        assert all(c.count("\n") <= 1 for c in cues(line, lang)), (key, cues(line, lang))
        for voice_cps in VOICES[lang]:
            problems += [f"{key} (voice {voice_cps} chars/s): {p}"
                         for p in timed_problems(line, lang, voice_cps)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


# -- the rules, on examples --------------------------------------------------------------------------

NAMED_DIMS = "但本课命名的语义维度，不代表所有真实嵌入坐标都有这种含义。"


def test_the_default_lessons_last_cue_is_no_word_tail():
    """The issue's example: the lesson's last line ended on a cue "义。" alone for 0.35 s."""
    step = step_of(NAMED_DIMS, "zh", 36.867, None)
    got = timed(NAMED_DIMS, "zh", step.start, step.end)
    assert [c for c, _, _ in got] == ["但本课命名的语义维度，不代表\n所有真实嵌入坐标都有这种含义。"]
    assert got[-1][2] - got[-1][1] == pytest.approx(step.end - step.start, abs=0.002)


def test_the_checks_can_fail():
    old = [("不代表所有真实嵌入坐标都有这种含", 46.0, 46.98), ("义。", 46.982, 47.333)]  # before: 0.35 s
    assert split_words("不代表所有真实嵌入坐标都有这种含义。", [c for c, _, _ in old]) == \
        ["'含义' split after '标都有这种含'"]
    assert timing_problems(old, "zh")[0].startswith("46.000-46.980 16.3 characters a second")
    assert "shown 0.351 s < 5/6 s" in timing_problems(old, "zh")[1]
    late = step_problems([Step("义。", 0.0, 1.0)], [("义。", 0.1, 1.2)], "zh")
    assert late == ["step 0.000-1.000 says '', not its line '义。'"]  # a cue running into the next step
    assert step_problems([Step("one two", 0, 2)], [("one t\nwo", 0, 2)], "en") == \
        ["lines not broken at spaces: ['one t', 'wo']"]


def test_a_voice_too_fast_to_read_by_keeps_its_start_and_runs_on():
    line = ("softmax 对每个分数取指数，再除以这一行的总和："
            "[0.46, 0, 2.3, 0.69] 变为约 [0.11, 0.07, 0.69, 0.14]。")
    got = timed(line, "zh", 0.3, 3.3, within=(0.0, 10.0))  # 3 s of voice; 71 characters need 8 s
    assert got[0][1] == 0.3 and got[-1][2] == pytest.approx(0.3 + least_time(line, "zh"), abs=0.002)
    assert timing_problems(got, "zh") == []
    squeezed = timed(line, "zh", 0.3, 3.3, within=(0.0, 5.0))  # and where the step is short, before it too
    assert (squeezed[0][1], squeezed[-1][2]) == (0.0, 5.0)


def test_a_slow_voice_is_followed_in_proportion():
    """20 s of voice for a line of two cues (which were shown 11.1 and 8.9 s): cut into cues of at most
    7 s, at word boundaries, each shown in proportion to its length."""
    line = "权重的总和为一。显示值经舍入，不必恰好加为一：这里屏幕上加起来是 1.01，精确和是 1。"
    assert len(cues(line, "zh")) == 2
    got = timed(line, "zh", 0.3, 20.3, within=(0.0, 21.0))
    assert len(got) >= 3 and (got[0][1], got[-1][2]) == (0.3, 20.3)
    assert timing_problems(got, "zh") == [] and split_words(line, [c for c, _, _ in got]) == []
    widths = [captions._width(c.replace("\n", ""), "zh") for c, _, _ in got]
    for (_, start, end), w in zip(got, widths):
        assert end - start == pytest.approx(20 * w / sum(widths), abs=0.002) and end - start <= 7.0


def test_no_cue_stays_longer_than_seven_seconds():
    """The step of contexts' outputs (14.8 s, no voice, two cues: one stayed 8.4 s) gets cues of at most
    7 s; a line that cannot be cut shows for 7 s, not for its whole long step."""
    line = ("各自按权重混合 Value：river 句中 bank 的输出约 [1.43, 0.06, 0.14, 0]，"
            "savings 句中约 [0.01, 1.49, 0.11, 0]。")
    got = timed(line, "zh", 10.0, 24.833)
    assert max(e - s for _, s, e in got) <= 7.0 and (got[0][1], got[-1][2]) == (10.0, 24.833)
    assert step_problems([Step(line, 10.0, 24.833)], got, "zh") == []
    assert timed("Softmax.", "en", 1.0, 21.0) == [("Softmax.", 1.0, 8.0)]
    assert timing_problems([("Softmax.", 1.0, 9.4)], "en") == ["1.000-9.400 shown 8.400 s > 7 s: 'Softmax.'"]


def test_cues_never_cut_a_vector_formula_or_before_punctuation():
    got = cues("n 个 token、每头维数 d 时，显式计算分数矩阵的时间为 O(n²d)，"
               "矩阵存储 O(n²)；Value 混合还需相应乘法。", "zh")
    assert "计算分数矩阵的时间为 O(n²d)，" in [line for c in got for line in c.split("\n")]
    assert not [line for c in got for line in c.split("\n") if line[0] in "，。；："]
    vector_cue = cues("逐维求和，得到 bank 的输出，约 [1.43, 0.06, 0.14, 0]。", "zh")[0]
    assert "约 [1.43, 0.06, 0.14, 0]。" in vector_cue


# -- jieba: lazily, once, quietly, no temp file, in parallel -----------------------------------------

SNIPPET = ("import sys; from scenes.common import captions; assert 'jieba' not in sys.modules; "
           "captions.cues('nothing Chinese here', 'en'); assert 'jieba' not in sys.modules; "
           f"print(captions.cues({NAMED_DIMS!r}, 'zh')); assert captions.segmenter() is captions.segmenter()")


def test_jieba_loads_once_quietly_and_leaves_the_temp_folder_alone(tmp_path):
    """Two processes segment at once from a fresh temp folder that holds a planted jieba.cache (jieba
    would load it unchecked): each prints the same cues, says nothing on stderr, and the folder is as
    it was."""
    planted = tmp_path / "jieba.cache"
    planted.write_bytes(b"\xe3\x00\x00")  # marshal of nothing jieba could use
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", SNIPPET], env=env, cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert [o for o, _ in outs] == [repr(cues(NAMED_DIMS, "zh")) + "\n"] * 2
    assert [e for _, e in outs] == ["", ""]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jieba.cache"]
    assert planted.read_bytes() == b"\xe3\x00\x00"
    assert captions.segmenter() is captions.segmenter()


def test_a_no_break_space_keeps_a_formula_on_one_line():
    """Japanese's update rule is written with no-break spaces: a wrapped note breaks around it, never in
    it (it broke as 'W ← W −' / '0.5 × ∂損失/∂W'); a plain space there may break."""
    note = catalog("ja")("learning.update_note", rate=0.5)
    rule = "W\u00a0←\u00a0W\u00a0−\u00a00.5\u00a0×\u00a0∂損失/∂W "
    assert rule in captions.pieces(note, "ja")
    assert rule.replace("\u00a0", " ") not in captions.pieces(note.replace("\u00a0", " "), "ja")
    for width, count in ((4.0, 3), (style.NOTE_MIN_W, 2)):  # the rule whole on the first line
        lines = wrapped(note, width, "ja", style.LABEL_SIZE)
        assert len(lines) == count and lines[0].text.startswith(rule.strip()), lines


def test_a_models_mark_is_never_cut():
    """<s> and </s> are a piece each: a wrapped title broke as 'on <s> and <' / '/s>: each layer's'."""
    got = captions.pieces("the share of a row's weight on <s> and </s>: each layer's mean", "en")
    assert "<s> " in got and "</s>: " in got
    assert "</s>：" in captions.pieces("<s> 和 </s>：模型自己加的标记", "zh")
