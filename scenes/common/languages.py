"""What a language needs besides its words: the font its text is drawn in, how its subtitles are
measured, paced and broken, the draft voice that reads it, and how its numbers are spelled out.

Chinese and English keep the values they always had (the golden frames); Japanese and every language
from a words folder get theirs from the tables here, keyed by the language code's first part ("pt" of
"pt-BR"). No manim import.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

CJK_SC = "Noto Sans CJK SC"  # Chinese, and English (it covers Latin, Greek and Cyrillic too)
LATIN = "Noto Sans"  # Latin, Cyrillic and Greek languages, where it is installed (else CJK_SC)
CJK = {"ja": "Noto Sans CJK JP", "ko": "Noto Sans CJK KR", "zh-TW": "Noto Sans CJK TC",
       "zh-Hant": "Noto Sans CJK TC", "zh-HK": "Noto Sans CJK HK"}  # each locale's glyph forms
# espeak-ng voices whose name is not the language code (its `--voices` list)
ESPEAK = {"zh": "cmn-latn-pinyin", "ja": "ja", "ko": "ko", "pt": "pt", "pt-BR": "pt-br", "no": "nb",
          "nb": "nb", "zh-TW": "cmn", "zh-Hant": "cmn", "zh-HK": "yue"}


@dataclass(frozen=True)
class Language:
    code: str
    font: str  # the family every label is drawn in
    wide: bool  # subtitle widths in full-width characters (a Latin letter or digit counts half)
    line_width: float  # per subtitle line
    cue_cps: float  # the fastest a cue is read, characters a second
    read_cps: float  # narration pacing: a step lasts at least its line's length at this rate
    breaker: str  # where a subtitle line may break: "jieba" (words), "budoux" (phrases), "spaces"
    espeak: str  # the draft voice
    numbers: str  # the rules numbers are spelled out by: "zh" (groups of four digits) or "en" (three)
    tight: bool = False  # no space between two of its characters (i18n.tightened): 「川」に, 地理的值


ZH = Language("zh", CJK_SC, True, 16.0, 9.0, 6.0, "jieba", "cmn-latn-pinyin", "zh", tight=True)
EN = Language("en", CJK_SC, False, 42.0, 20.0, 16.0, "spaces", "en", "en")
# Japanese: 16 full-width characters a line as Chinese (broadcast subtitles take 13 to 16), read a little
# slower than Chinese (kana take more characters for a word); phrases by BudouX's small model
JA = Language("ja", CJK["ja"], True, 16.0, 8.0, 5.5, "budoux", "ja", "zh", tight=True)
BUILT = {"zh": ZH, "en": EN, "ja": JA}


def tag(code: str) -> str:
    """The language's tag in a document (an HTML page's lang, a deck's language): zh-CN for zh (the
    simplified characters the catalogs write), any other code as it is (en, ja, fr, pt-BR)."""
    return {"zh": "zh-CN"}.get(code, code)


@lru_cache(maxsize=None)
def language(code: str) -> Language:
    """The profile of a language code: a built-in one's, else one made from the tables (a space-separated
    script; Korean and Chinese variants wide, in their own Noto CJK)."""
    if code in BUILT:
        return BUILT[code]
    base = code.split("-")[0]
    if code in CJK or base in ("ko", "zh", "ja"):
        like = {"ja": JA}.get(base, ZH)
        font = CJK.get(code) or CJK.get(base) or CJK_SC
        breaker = "spaces" if base == "ko" else like.breaker  # Korean writes spaces between words
        return Language(code, font, True, like.line_width, like.cue_cps, like.read_cps, breaker,
                        ESPEAK.get(code, ESPEAK.get(base, base)), like.numbers, tight=base != "ko")
    return Language(code, LATIN, False, EN.line_width, EN.cue_cps, EN.read_cps, "spaces",
                    ESPEAK.get(code, ESPEAK.get(base, base)), "en")


def font(code: str, installed=None) -> str:
    """The family a language's labels are drawn in: its own, or CJK_SC where the machine lacks it
    (`installed`: the families it has, read by manimpango when not given)."""
    wanted = language(code).font
    if wanted == CJK_SC:
        return wanted
    if installed is None:
        installed = _families()
    return wanted if wanted in installed else CJK_SC


@lru_cache(maxsize=1)
def _families() -> frozenset[str]:
    try:
        import manimpango
    except ImportError:  # no drawing here: whatever the profile says
        return frozenset({*CJK.values(), LATIN})
    return frozenset(manimpango.list_fonts())
