"""Every voice and language, heard by the ear (devtools/ear.py): each line of the
whole lesson's narration spoken by the draft voice and by the neural voice, levelled as a render levels
it, transcribed by Whisper base; the error rate (CER for zh and ja, WER for en) over all the lines, over
the lines with English words inside (zh), and the synthesis's real-time factor (seconds spent over
seconds spoken, in this process: the wall time and the CPU time, the model's load excluded)."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path


def lesson_lines(lang: str) -> list[str]:
    """The narration of every step of the default lesson in `lang`, as `voice script` lists it (the
    scenes' steps built in dry-run mode, no voice made)."""
    from attention_core import load
    from attention_lesson.cli.options import make_options
    from attention_lesson.cli.report import run_build
    from attention_lesson.pipeline.plan import CACHE, Run, steps_folder
    from attention_lesson.pipeline.voice.lines import script_lines
    from scenes.registry import available

    lesson = load("default")
    scenes = available(lesson)
    options = make_options(lesson, "steps", {"context": None, "mode": "scaled", "lang": lang})
    report = run_build(lesson, scenes, options, Run(out=steps_folder(options), cache=CACHE, quiet=True))
    return [x.line for x in script_lines(report, lang)]


def _voice(source: str, lang: str, lines: list[str], work: Path) -> dict:
    """One voice's figures on these lines."""
    from attention_lesson.pipeline.voice.loudness import RATE, normalise, read_wav
    from attention_lesson.pipeline.voice.speakers import speaker_for
    from devtools import ear
    from scenes.common.speech import speakable

    speaker = speaker_for(source, lang)
    speaker.say("零" if lang == "zh" else "一" if lang == "ja" else "zero", work / "warm.wav")  # its load
    pairs, spoken, wall, cpu = [], 0.0, 0.0, 0.0
    for i, line in enumerate(lines):
        text = speakable(line, lang)  # as a render gives it to the voice (pipeline/voice/track.py)
        raw, wav = work / f"{i}-raw.wav", work / f"{i}.wav"
        t0, c0 = time.perf_counter(), time.process_time()
        speaker.say(text, raw)
        wall, cpu = wall + time.perf_counter() - t0, cpu + time.process_time() - c0
        normalise(raw, wav)
        seconds = len(read_wav(wav)) / RATE
        spoken += seconds
        pairs.append((text, ear.hear(wav, lang, seconds)))
    english = [p for p in pairs if lang == "zh" and re.search(r"[A-Za-z]{2}", p[0])]
    figures = {"voice": speaker.label, "lines": len(lines), "error_rate": round(ear.errors(pairs, lang), 3),
               "rtf_wall": round(wall / spoken, 2), "rtf_cpu": round(cpu / spoken, 2),
               "seconds_spoken": round(spoken, 1)}
    if english:
        rest = [p for p in pairs if p not in english]
        figures |= {"error_rate_lines_with_english": round(ear.errors(english, lang), 3),
                    "lines_with_english": len(english),
                    "error_rate_other_lines": round(ear.errors(rest, lang), 3) if rest else None,
                    "errors_by_script": by_script(pairs, lang)}
    figures["worst"] = sorted(pairs, key=lambda p: -ear.errors([p], lang))[:2]
    return figures


def aligned(a: list[str], b: list[str]) -> list[tuple[str, str]]:
    """A Levenshtein alignment of b to a: (op, unit of a) for each unit of a ("=" kept, "s" replaced,
    "d" lost) and ("i", unit of b) for each unit the ear added."""
    table = [[i + j if not i * j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1,
                              table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    i, j, ops = len(a), len(b), []
    while i or j:
        if i and j and table[i][j] == table[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            ops.append(("=" if a[i - 1] == b[j - 1] else "s", a[i - 1]))
            i, j = i - 1, j - 1
        elif i and table[i][j] == table[i - 1][j] + 1:
            ops, i = ops + [("d", a[i - 1])], i - 1
        else:
            ops, j = ops + [("i", b[j - 1])], j - 1
    return ops


def by_script(pairs: list[tuple[str, str]], lang: str) -> dict:
    """Where a Chinese line's errors are: its Latin letters (the English words) and its Chinese
    characters, each as (units, errors, error rate); the units the ear added, apart."""
    from devtools import ear

    count = {"latin": [0, 0], "chinese": [0, 0], "added": 0}
    for line, heard in pairs:
        for op, unit in aligned(ear.units(line, lang), ear.units(heard, lang)):
            if op == "i":
                count["added"] += 1
                continue
            kind = count["latin" if unit.isascii() and unit.isalpha() else "chinese"]
            kind[0], kind[1] = kind[0] + 1, kind[1] + (op != "=")
    return {k: (*v, round(v[1] / max(v[0], 1), 3)) if k != "added" else v for k, v in count.items()}


def voices_benchmark(work: Path, langs: list[str], every: int = 1) -> dict:
    """{"<lang> <voice>": figures}: every voice of every language on the lesson's lines (every: one
    line in `every`, for a quicker sample); "<lang> seconds": the wall time of a language's two voices."""
    from devtools import ear

    t0 = time.perf_counter()
    ear.whisper()
    results = {"ear_load_seconds": round(time.perf_counter() - t0, 1)}
    for lang in langs:
        lines = lesson_lines(lang)[::every]
        t1 = time.perf_counter()
        for source in ("neural", "draft"):
            with tempfile.TemporaryDirectory(dir=work) as tmp:
                results[f"{lang} {source}"] = _voice(source, lang, lines, Path(tmp))
            print(f"{lang} {source}: {results[f'{lang} {source}']}", flush=True)
        results[f"{lang} seconds"] = round(time.perf_counter() - t1)
    return results
