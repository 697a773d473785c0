"""Every voice and language, heard by the ear (attention_lesson/pipeline/voice/ear.py): each line of the
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
    from attention_lesson.pipeline.plan import Run, steps_folder
    from attention_lesson.pipeline.voice.lines import script_lines
    from scenes.registry import available

    lesson = load("default")
    scenes = available(lesson)
    options = make_options(lesson, "steps", {"context": None, "mode": "scaled", "lang": lang})
    report = run_build(lesson, scenes, options, Run(out=steps_folder(options), quiet=True))
    return [x.line for x in script_lines(report, lang)]


def _voice(source: str, lang: str, lines: list[str], work: Path) -> dict:
    """One voice's figures on these lines."""
    from attention_lesson.pipeline.voice import ear
    from attention_lesson.pipeline.voice.loudness import RATE, normalise, read_wav
    from attention_lesson.pipeline.voice.speakers import speaker_for
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
                    "error_rate_other_lines": round(ear.errors(rest, lang), 3) if rest else None}
    figures["worst"] = sorted(pairs, key=lambda p: -ear.errors([p], lang))[:2]
    return figures


def voices_benchmark(work: Path, langs: list[str], every: int = 1) -> dict:
    """{"<lang> <voice>": figures}: every voice of every language on the lesson's lines (every: one
    line in `every`, for a quicker sample); "<lang> seconds": the wall time of a language's two voices."""
    from attention_lesson.pipeline.voice import ear

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
