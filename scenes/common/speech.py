"""Speakable text: a narration line with its symbols and numbers turned into words, for the offline
draft voice (espeak-ng 1.51: voice `cmn-latn-pinyin` for zh, `en` for en).

The zh voice reads Chinese characters and switches to English for Latin words, but it reads "1.43" as
"yi si san", dropping the point; so every number is spelled out, in both languages alike:
0.69 -> 零点六九 / "zero point six nine", 25% -> 百分之二十五 / "twenty-five percent",
[1.43, 0.06] -> 向量一点四三，零点零六 / "the vector one point four three, zero point zero six",
√dₖ -> 根号 d k / "root d k".

The words live beside the catalogs, in scenes/i18n/<lang>/speech.toml (table [speech]); how numbers
are built from them (groups of four digits in Chinese, of three in English) is the code below.
Pure functions, no manim import.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import lru_cache
from importlib import resources

from . import words as W
from .languages import language

NUM = r"(?:(?<![A-Za-z0-9_.])[+\-−])?\d+(?:\.\d+)?"  # a sign unless it is a hyphen (top-3) or x−1
_NUMBER = re.compile(NUM)
_VECTOR = re.compile(rf"\[\s*{NUM}(?:\s*,\s*{NUM})*\s*\]")
_PERCENT = re.compile(rf"({NUM})\s*%")
_SLASH = re.compile(rf"({NUM})\s*/\s*({NUM})")
_BY = re.compile(r"(?<![\d.])(\d+)\s*×\s*(\d+)(?![\d.])")  # dimensions: a 4×4 matrix
_BIG_O = re.compile(r"\bO\(([^()]*)\)")
_MATH = re.compile(r"\$([^$]*)\$")
_CJK = r"\u3000-\u303f\u3400-\u9fff\uff00-\uffef"

# Typst math in a line becomes the symbols the tables speak (then words, like the symbols written
# directly); a name not listed is said as the word it is ("sum"), spacing is dropped
MATH_SYMBOLS = {"sqrt": "√", "dot": "·", "times": "×", "div": "÷", "slash": "÷", "approx": "≈", "tilde": "~",
                "arrow.r": "→", "->": "→", "=>": "→", "top": "ᵀ"}
MATH_DROPPED = ("thin", "thick", "med", "quad", "wide", "lr", "op", "upright", "italic", "bold")
_MATH_TOKEN = re.compile(r'"([^"]*)"|\\(.)|=>|->|([A-Za-z][A-Za-z.]*[A-Za-z])')


def words(lang: str) -> dict:
    """The [speech] table of scenes/i18n/<lang>/speech.toml, with the words folder's speech.* lines in
    use winning key by key (scenes/common/words.py)."""
    own = {k: e.value for k, e in W.overrides(W.active(), lang).items() if k.startswith("speech.")}
    if not own:
        return _builtin_words(lang)
    table = {k: (dict(v) if isinstance(v, dict) else v) for k, v in _builtin_words(lang).items()}
    for key, value in own.items():
        *inner, name = key.split(".")[1:]
        at = table
        for part in inner:
            at = at.setdefault(part, {})
        at[name] = value
    return table


@lru_cache(maxsize=None)
def _builtin_words(lang: str) -> dict:
    if not W.built_in(lang):
        return {}
    f = resources.files("scenes") / "i18n" / lang / "speech.toml"
    return tomllib.loads(f.read_text(encoding="utf-8"))["speech"]


# -- numbers -------------------------------------------------------------------------------------

def _zh_group(g: int, w: dict, start: bool) -> str:
    """1..9999 in Chinese: 一千零五, 一百一十; a number's first group reads 10..19 as 十..十九."""
    if start and 10 <= g < 20:
        return w["teens"][g - 10]
    out, gap = "", False
    for place, unit in ((1000, w["units"][1]), (100, w["units"][0])):
        d = g // place % 10
        if d:
            out += (w["digits"][0] if gap else "") + w["digits"][d] + unit
            gap = False
        elif out:
            gap = True
    r = g % 100
    if r:
        if out and (gap or r < 10):
            out += w["digits"][0]
        out += (w["tens"][r // 10] if r >= 10 else "") + (w["digits"][r % 10] if r % 10 else "")
    return out


def _zh_int(n: int, w: dict) -> str:
    """A whole number in Chinese, in groups of four digits (万, 亿): 12 -> 十二, 100 -> 一百,
    10010 -> 一万零一十."""
    if n == 0:
        return w["digits"][0]
    groups = []
    while n:
        n, g = divmod(n, 10000)
        groups.append(g)
    out, gap = "", False
    for i in reversed(range(len(groups))):
        g = groups[i]
        if g == 0:
            gap = bool(out)
            continue
        if out and (gap or g < 1000):
            out += w["digits"][0]
        out += _zh_group(g, w, start=not out) + (w["groups"][i - 1] if i else "")
        gap = False
    return out


def _en_int(n: int, w: dict) -> str:
    """A whole number in English, in groups of three digits: 69 -> sixty-nine, 105 -> one hundred five."""
    if n == 0:
        return w["digits"][0]
    parts, i = [], 0
    while n:
        n, g = divmod(n, 1000)
        if g:
            h, r = divmod(g, 100)
            said = [f"{w['digits'][h]} {w['units'][0]}"] if h else []
            if r >= 20:
                said.append(w["tens"][r // 10] + (f"-{w['digits'][r % 10]}" if r % 10 else ""))
            elif r >= 10:
                said.append(w["teens"][r - 10])
            elif r:
                said.append(w["digits"][r])
            parts.append(" ".join(said + ([w["groups"][i - 1]] if i else [])))
        i += 1
    return " ".join(reversed(parts))


SPELL_INT = {"zh": _zh_int, "en": _en_int}


def number(text: str, lang: str) -> str:
    """One number (optional sign, optional decimals) in words: "-0.5" -> 负零点五 / "minus zero point five".
    Decimals are read digit by digit."""
    w = words(lang)
    sign, whole, frac = re.fullmatch(r"([+\-−]?)(\d+)(?:\.(\d+))?", text).groups()
    said = [SPELL_INT[language(lang).numbers](int(whole), w)]
    if frac:
        said += [w["point"], w["word_sep"].join(w["digits"][int(c)] for c in frac)]
    if sign:
        said.insert(0, w["plus"] if sign == "+" else w["minus"])
    return w["word_sep"].join(said)


# -- the passes ----------------------------------------------------------------------------------

def _call(s: str, name: str) -> tuple[int, list[str], int] | None:
    """The innermost call `name(...)` in s: (its start, its arguments split at top-level commas, the
    index after its closing bracket); None: no such call."""
    starts = [m.start() for m in re.finditer(rf"(?<![A-Za-z.]){name}\(", s)]
    for i in reversed(starts):  # the last one opened holds no other
        depth, args, begin = 0, [], i + len(name) + 1
        for j in range(begin - 1, len(s)):
            depth += {"(": 1, ")": -1}.get(s[j], 0)
            if depth == 1 and s[j] == ",":
                args.append(s[begin:j])
                begin = j + 1
            elif depth == 0:
                return i, [*args, s[begin:j]], j + 1
    return None


def _fractions(s: str) -> str:
    """frac(1, 4) -> 1/4 (whole numbers), any other frac(a, b) -> (a)÷(b); sqrt(d_k) -> √d_k, sqrt(a + b)
    -> √(a + b); nested ones too, the innermost first."""
    while (call := _call(s, "frac")) is not None:
        i, (a, b), k = call
        a, b = a.strip(), b.strip()
        s = s[:i] + (f"{a}/{b}" if a.isdigit() and b.isdigit() else f"({a})÷({b})") + s[k:]
    while (call := _call(s, "sqrt")) is not None:
        i, (a,), k = call
        a = a.strip()
        s = s[:i] + ("√" + a if re.fullmatch(r"\w+", a) else f"√({a})") + s[k:]
    return s


def _math_token(m: re.Match) -> str:
    """A quoted text as itself, an escaped character as the character, a symbol's name as the symbol."""
    text, escaped, name = m.groups()
    if text is not None:
        return f" {text} "
    if escaped is not None:
        return escaped
    said = name or m.group()
    return "" if said in MATH_DROPPED else MATH_SYMBOLS.get(said, f" {said} ")


def unmath(source: str) -> str:
    """The inside of a `$...$` (Typst math) as plain symbols: sqrt(d_k) -> √d_k, K^top -> Kᵀ,
    frac(1, 4) -> 1/4, frac(a, b) and a/b -> (a)÷(b), "softmax" -> softmax, q dot k -> q · k."""
    s = _fractions(source.replace("/", "÷"))  # a slash in a formula divides
    s = re.sub(r"\^\s*(?:\(\s*(?:top|T)\s*\)|(?:top|T)(?![A-Za-z]))", "ᵀ", s)
    s = re.sub(r"\^\s*(?:\(\s*2\s*\)|2(?![\d.]))", "²", s)
    s = re.sub(r"([_^])\(([^()]*)\)", r"\1\2 ", s)  # w_(h j) -> w_h j
    s = _MATH_TOKEN.sub(_math_token, s)
    return re.sub(r"[\^&]", " ", s)


def _scripts(line: str, w: dict) -> str:
    """Sub- and superscript letters the symbol table does not name, as the letter: dₖ -> d k."""
    def plain(ch: str) -> str:
        if ch in w["symbols"] or not unicodedata.decomposition(ch).startswith(("<sub>", "<super>")):
            return ch
        return " " + unicodedata.normalize("NFKC", ch) + " "
    return "".join(plain(ch) for ch in line)


def _numbers(line: str, lang: str) -> str:
    """Every number in words, with the patterns around numbers first: vectors, O(...), percentages,
    a/b (divided when "=" follows, else a fraction of whole numbers), a×b dimensions, 两 before a
    measure word."""
    w = words(lang)
    say = lambda m, i=0: number(m.group(i), lang)  # noqa: E731

    def vector(m):
        items = w["list_sep"].join(number(x, lang) for x in _NUMBER.findall(m.group()))
        return W.fill(w["vector"], items=items)

    def slash(m):
        a, b = m.group(1), m.group(2)
        if not m.string[m.end():].lstrip().startswith("=") and a.isdigit() and b.isdigit():
            return W.fill(w["fraction"], a=number(a, lang), b=number(b, lang))
        return W.fill(w["divided"], a=number(a, lang), b=number(b, lang))

    line = _VECTOR.sub(vector, line)
    line = _BIG_O.sub(lambda m: W.fill(w["big_o"], x=m.group(1)), line)
    line = _PERCENT.sub(lambda m: W.fill(w["percent"], n=say(m, 1)), line)
    line = _SLASH.sub(slash, line)
    line = _BY.sub(lambda m: W.fill(w["by"], a=say(m, 1), b=say(m, 2)), line)
    if w["measure_words"]:
        measure = "|".join(map(re.escape, w["measure_words"]))
        line = re.sub(rf"(?<![\d.第])(?<!第 )2(?![\d.])(?=\s*(?:{measure}))", w["two_counted"], line)
    return _NUMBER.sub(say, line)


def _symbols(line: str, w: dict) -> str:
    """Every symbol of the table (speech.symbols) as its words: √ -> 根号 / root, → -> 到 / to."""
    table = w["symbols"]
    if not table:
        return line
    pattern = "|".join(map(re.escape, sorted(table, key=len, reverse=True)))
    return re.sub(pattern, lambda m: table[m.group()], line)


def _said(line: str, w: dict) -> str:
    """The words written one way and said another (speech.said): zh's token -> 词元; the screen keeps
    the written word."""
    for written, said in w.get("said", {}).items():
        if said != written:
            line = re.sub(rf"(?<![A-Za-z]){re.escape(written)}(?![A-Za-z])", f" {said} ", line, flags=re.I)
    return line


def _tidy(line: str, lang: str) -> str:
    """One space between words; none before punctuation, after an opening bracket or quote, or (zh)
    between two Chinese characters."""
    line = re.sub(r"\s+", " ", line)
    line = re.sub(r" (?=[,.:;!?)”’，。、：；！？）」])", "", line)
    line = re.sub(r"(?<=[(“‘（「]) ", "", line)
    if language(lang).wide:
        line = re.sub(rf"(?<=[{_CJK}]) (?=[{_CJK}])", "", line)
    return line.strip()


def speakable(line: str, lang: str) -> str:
    """`line` as the draft voice of `lang` should read it: math, sub/superscripts, the words said
    otherwise than written, numbers (and the patterns around them), then single symbols, turned into
    words of the language."""
    w = words(lang)
    line = _said(_MATH.sub(lambda m: unmath(m.group(1)), line), w)
    line = _scripts(line, w)
    line = _numbers(line, lang)
    line = _symbols(line, w)
    return _tidy(line, lang)
