"""Subtitle cues: a narration line cut into cues of at most two lines, each line about as long as a
subtitle line may be (42 characters in English, 16 in Chinese, where a Latin letter or digit counts
half), and timed so that a viewer can read them. No manim import.

Where a line may break: never inside a bracketed vector, a number with its sign and decimals (−∞
too), a Latin word or formula (O(n²d), √dₖ); never before punctuation nor after an opening bracket,
never beside an `=`, an arrow or a `×`; in Chinese only between words as jieba (dictionary-based)
cuts them, never inside one of `TERMS`; in English never inside a run of Chinese characters (a token's
name). Of the places left, the fewest cues that fit are chosen (or up to two more where that spares
awkward breaks), then the breaks that cost least: after a sentence, a clause, a comma, then anywhere
else; dearer before a Chinese particle (的, 了...) or beside a one-character word, or after an English
article or preposition; cues and their lines of about even length.

Timing (`timed`): the cues share their spoken span (the voice's, or the whole step's) in proportion to
their length, as a voice reads at an even pace; no cue is shown for less than `MIN_CUE` or read
faster than `CUE_CHARS_PER_SECOND` (the Netflix timed-text guidelines' figures): where the span is too
short for that, the cues run on past its end, then start before its start, within the step.
`least_step` is how long a step must last for that (the scene waits for it). See docs/subtitles.md.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from functools import lru_cache

from . import style
from .languages import EN, ZH, language

LINE_WIDTH = {"zh": ZH.line_width, "en": EN.line_width}  # per subtitle line, full-width characters for zh
# (every language's: languages.language(code).line_width)
LINES_PER_CUE = 2
MIN_CUE = 5 / 6  # seconds: the shortest a cue is shown
MAX_CUE = 7.0  # seconds: the longest; a cue that would stay longer is split into shorter ones
CUE_CHARS_PER_SECOND = {"zh": ZH.cue_cps, "en": EN.cue_cps}  # the fastest a cue is read (every character
# but line breaks; every language's: languages.language(code).cue_cps)
_SLACK = 0.002  # cue times are whole milliseconds: each cue is planned this much longer than it needs

# a piece never split: a bracketed vector; a word (Latin with its accents, Greek, Cyrillic: café, größe,
# слово; full-width Latin letters too, Ｗide: never one alone at a line's end), number or formula with its
# sign, decimals and percent; a run of spaces; any other character
_LETTERS = ("A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff\u1e00-\u1eff"
            "\uff21-\uff3a\uff41-\uff5a")
_UNIT = re.compile(r"\[[^\[\]]{0,40}\][,.;:!?，。；：]?|</?[^<>\s]{1,10}>[,.;:!?，。；：]?"
                   rf"|[\[(]?[+\-−]?[{_LETTERS}0-9_.%·√ₖᵢⱼᵀ²ⁿ'’/=×→()∞-]+[\]),.;:!?]?|\s+|.")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_SENTENCE, _CLAUSE, _COMMA = set("。！？.!?"), set("；：;:"), set("，、,")
_NO_START = set("，。；：！？、,.;:!?)]）」』”’'…%")  # never begins a line
_NO_END = set("([（「『“‘")  # never ends one
_INFIX = set("=→←×")  # never at a line's end or start
_NO_BREAK = set("\u00a0\u202f\u2060")  # no-break spaces and the word joiner: glue what they stand between
_PARTICLES = set("的了着地得吗呢吧")  # a Chinese line should not begin with one
_EN_BEFORE = {"and", "or", "but", "so", "while", "because", "of", "to", "in", "on", "at", "by", "for", "with",
              "from", "into", "over", "than", "that", "which", "where", "when"}  # good to break before
_EN_GLUE = {"a", "an", "the", "its", "their", "each", "every", "no", "not", "is", "are"} | _EN_BEFORE - {
    "so", "while", "because", "that", "which", "where", "when"}  # bad to break after
# the lesson's words that jieba's dictionary lacks or cuts wrong (雅|可比, 两|两, 等|变, 原点|积): kept whole
TERMS = ("雅可比", "两两", "等变", "点积")
_BALANCE = 4.0  # the weight of cues of uneven length against a break's cost
_LINE_BALANCE = 1.5  # of a cue's two lines of uneven length; and a line under a quarter of the width:
_SHORT_LINE = 1.5
_PER_CUE = 1.0  # what one more cue costs


# -- where a line may break ------------------------------------------------------------------------

_LOCK = threading.Lock()
_TOKENIZER = None


def segmenter():
    """jieba's tokenizer with its default dictionary, read once per process on first use (about half a
    second) from the file in the package. jieba's own `initialize` would log to stderr and read or
    write a cache file in the temp folder, which it trusts without checking for the default
    dictionary; this neither logs nor touches a file but the package's."""
    global _TOKENIZER
    with _LOCK:
        if _TOKENIZER is None:
            import jieba

            logging.getLogger("jieba").setLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(tokenizer.get_dict_file())
            tokenizer.initialized = True
            _TOKENIZER = tokenizer
    return _TOKENIZER


def words(text: str) -> list[str]:
    """The text as jieba's words (spaces and punctuation are words of their own)."""
    return list(segmenter().cut(text))


def _word_cuts(text: str) -> set[int]:
    """Offsets between two of jieba's words, none inside one of TERMS."""
    cuts, at = set(), 0
    for w in words(text):
        at += len(w)
        cuts.add(at)
    for term in TERMS:
        for m in re.finditer(re.escape(term), text):
            cuts -= set(range(m.start() + 1, m.end()))
    return cuts


_PARSER = []


def _phrase_cuts(text: str) -> set[int]:
    """Offsets between two of BudouX's phrases (Japanese: a content word with the particles after it; a
    small model, no dictionary, read once per process)."""
    with _LOCK:
        if not _PARSER:
            import budoux

            _PARSER.append(budoux.load_default_japanese_parser())
    cuts, at = set(), 0
    for phrase in _PARSER[0].parse(text):
        at += len(phrase)
        cuts.add(at)
    # and after punctuation or a space, which the model may keep inside a phrase (“割ります：{scores} は”)
    return cuts | {m.end() for m in re.finditer(r"[、。，：；！？]|\s+", text)}


def _may_break(text: str, at: int) -> bool:
    before, after = text[:at].rstrip(), text[at:]
    if not before or after[:1].isspace() or text[at - 1] in _NO_BREAK:  # spaces stay with the piece
        return False  # before them; a no-break space with the one after it too
    nxt = after.lstrip()[:1]
    return not (before[-1] in _NO_END or before[-1] in _INFIX or nxt in _NO_START or nxt in _INFIX)


def pieces(text: str, lang: str) -> list[str]:
    """The text cut where a line may break (each piece keeps the spaces after it)."""
    cuts = {m.start() for m in _UNIT.finditer(text)}
    breaker = language(lang).breaker
    if breaker == "jieba" and _CJK.search(text):
        cuts &= _word_cuts(text)
    elif breaker == "budoux" and _CJK.search(text):
        cuts &= _phrase_cuts(text)
    elif _CJK.search(text):  # Chinese in another language's line is a name (a token): kept whole
        cuts = {c for c in cuts if not (_CJK.match(text[c - 1]) and _CJK.match(text[c]))}
    bounds = [0, *sorted(c for c in cuts if 0 < c < len(text) and _may_break(text, c)), len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


def _width(s: str, lang: str) -> float:
    if not language(lang).wide:
        return float(len(s))
    return sum(1.0 if _CJK.match(c) else 0.5 for c in s)


def _cost(ps: list[str], k: int, lang: str) -> float:
    """What breaking a line between ps[k - 1] and ps[k] costs."""
    last, first = ps[k - 1].rstrip()[-1], ps[k].lstrip()[:1]
    if last in _SENTENCE:
        return 0.0
    if last in _CLAUSE | _COMMA:
        return 0.3 if last in _CLAUSE else 0.5
    if language(lang).breaker == "budoux":  # every phrase boundary alike
        return 1.0
    if language(lang).wide:  # dearer before a particle, or beside a one-character word (维 of 金融维, 中
        # of 句中)
        single = any(len(p.strip()) == 1 and _CJK.match(p.strip()) for p in ps[k - 1:k + 1])
        return 2.5 if first in _PARTICLES else 1.8 if single else 1.0
    before, after = ps[k - 1].strip().lower(), ps[k].strip().lower().rstrip(",.;:")
    return 2.5 if before in _EN_GLUE else 0.7 if after in _EN_BEFORE else 1.0


# -- lines and cues ---------------------------------------------------------------------------------

class _Layout:
    """The pieces of one line of narration laid out as cues of lines (a dynamic programme)."""

    def __init__(self, ps: list[str], lang: str, widest: float = math.inf):
        self.ps, self.lang, self.n, self.widest = ps, lang, len(ps), widest
        self.limit = language(lang).line_width
        self._lines, self.breaks = {}, [0.0] + [_cost(ps, k, lang) for k in range(1, len(ps))]
        self._sums, self._trail = [0.0], [_width(p, lang) - _width(p.rstrip(), lang) for p in ps]
        for p in ps:
            self._sums.append(self._sums[-1] + _width(p, lang))

    def width(self, i: int, j: int) -> float:
        """Of pieces i..j on a line (without the spaces after the last)."""
        return self._sums[j] - self._sums[i] - self._trail[j - 1] if j > i else 0.0

    def fits(self, i: int, j: int) -> bool:  # one line: within the limit, or one piece that cannot break
        return j - i == 1 or self.width(i, j) <= self.limit

    def lines(self, i: int, j: int) -> tuple[float, int | None]:
        """(cost, where its second line starts or None) of pieces i..j as one cue; cost inf: no fit."""
        if (i, j) not in self._lines and j - i > 1 and self.width(i, j) > self.widest:
            self._lines[i, j] = (math.inf, None)  # too long a cue for its time
        if (i, j) not in self._lines:
            best = (0.0, None) if self.fits(i, j) else (math.inf, None)
            for k in range(i + 1, j) if best[0] else ():
                if self.fits(i, k) and self.fits(k, j):
                    a, b = self.width(i, k), self.width(k, j)
                    uneven = _LINE_BALANCE * ((a - b) / self.limit) ** 2
                    short = _SHORT_LINE if min(a, b) < self.limit / 4 else 0.0
                    best = min(best, (uneven + short + self.breaks[k], k))
            self._lines[i, j] = best
        return self._lines[i, j]

    def layers(self, extra: int = 2) -> list[dict[int, tuple[float, int]]]:
        """best[m][j] = (cost, where the last cue starts) of pieces 0..j in m + 1 cues, up to `extra`
        more cues than the fewest that fit. A cue's cost: its lines', the break before it and its width
        squared (for a given count of cues, the least sum of squares is the most even)."""
        best: list[dict[int, tuple[float, int]]] = [{}]
        for j in range(1, self.n + 1):
            if self.lines(0, j)[0] < math.inf:
                best[0][j] = (self._cue_cost(0, j), 0)
        while len(best) <= self.n and (self.n not in best[-1] or len(best) < self._fewest(best) + extra):
            prev, layer = best[-1], {}
            for j in range(1, self.n + 1):
                options = []
                for i in range(j - 1, 0, -1):  # the last cue: pieces i..j, as long as two lines hold
                    if j - i > 2 and self.width(i, j) > LINES_PER_CUE * self.limit:
                        break
                    if i in prev and self.lines(i, j)[0] < math.inf:
                        options.append((prev[i][0] + self._cue_cost(i, j), i))
                if options:
                    layer[j] = min(options)
            best.append(layer)
        return best

    def _fewest(self, best) -> int:
        return next((m + 1 for m, layer in enumerate(best) if self.n in layer), self.n + 1)

    def _cue_cost(self, i: int, j: int) -> float:
        square = (self.width(i, j) / (LINES_PER_CUE * self.limit)) ** 2
        return self.lines(i, j)[0] + _BALANCE * square + 2 * self.breaks[i]

    def text(self, i: int, j: int) -> str:
        return "".join(self.ps[i:j]).strip()


@lru_cache(maxsize=4096)
def _laid_out(text: str, lang: str, widest: float = math.inf) -> tuple[tuple[str, ...], ...]:
    """The text as cues, each a tuple of its lines (and no wider than `widest`, where it can be cut):
    the fewest cues that fit, then the least cost."""
    layout = _Layout(pieces(text.strip(), lang), lang, widest)
    n = len(layout.ps)
    if not n:
        return ((text,),)
    best = layout.layers()
    total = (layout.width(0, n) / (LINES_PER_CUE * layout.limit)) ** 2
    # the fewest cues that fit, or up to two more where that spares enough awkward breaks
    _, m = min((layer[n][0] - _BALANCE * total / (m + 1) + _PER_CUE * m, m)
               for m, layer in enumerate(best) if n in layer)
    starts = []
    for layer in reversed(best[:m + 1]):
        starts.insert(0, layer[starts[0] if starts else n][1])
    out = []
    for i, j in zip(starts, starts[1:] + [n]):
        k = layout.lines(i, j)[1]
        out.append((layout.text(i, j),) if k is None else (layout.text(i, k), layout.text(k, j)))
    return tuple(out)


def lines(text: str, lang: str) -> list[str]:
    """The text's subtitle lines, cue after cue."""
    return [line for cue in _laid_out(text, lang) for line in cue]


def cues(text: str, lang: str, widest: float = math.inf) -> list[str]:
    """The text as subtitle cues of at most LINES_PER_CUE lines each (lines joined by a newline), each
    at most `widest` wide (characters; full-width ones in Chinese) where the text can break."""
    return ["\n".join(cue) for cue in _laid_out(text, lang, widest)]


# -- timing -----------------------------------------------------------------------------------------

def reading_time(cue: str, lang: str) -> float:
    """The least a cue may be shown: MIN_CUE, or its characters at CUE_CHARS_PER_SECOND."""
    cps = language(lang).cue_cps
    return max(MIN_CUE, len(cue.replace("\n", "")) / cps)


def least_time(text: str, lang: str) -> float:
    """The least time the text's cues need together, as `timed` plans them."""
    return sum(reading_time(c, lang) + _SLACK for c in cues(text, lang))


def least_step(text: str, lang: str, voice: float | None = None, frame: float = 0.0) -> float:
    """How long a step with this line (and a voice this long) lasts at the least: MIN_BEAT, its
    narration pace, its cues' reading time (plus `frame`, as the scene waits whole frames), and
    VOICE_LEAD + its voice + VOICE_TAIL."""
    need = max(style.MIN_BEAT, len(text) / language(lang).read_cps, least_time(text, lang) + frame)
    return max(need, style.VOICE_LEAD + voice + style.VOICE_TAIL) if voice is not None else need


def spoken(start: float, end: float, voice: float | None) -> tuple[float, float]:
    """The span of a step [start, end] its cues follow: its voice's, from VOICE_LEAD in, or all of it."""
    return (start + style.VOICE_LEAD, start + style.VOICE_LEAD + voice) if voice else (start, end)


def timed(text: str, lang: str, start: float, end: float,
          within: tuple[float, float] | None = None) -> list[tuple[str, float, float]]:
    """The cues over [start, end] in proportion to their length (a voice reads at an even pace), one
    after the other, in whole milliseconds; each given at least its `reading_time`, the span run on past
    its end and then before its start as far as `within` (the step; default: the span itself) allows.
    Where even that is too short, the cues share what there is in proportion to their reading times.
    Where a cue would stay longer than MAX_CUE (a slow voice, a long step), the line is cut into more
    cues, at the breaks that cost least; a cue that cannot be cut further stays MAX_CUE, the others
    share the rest (where all of them would stay longer, each starts where its share does)."""
    lo, hi = within or (start, end)
    lo, hi = math.ceil(lo * 1000 - 1e-6) / 1000, math.floor(hi * 1000 + 1e-6) / 1000
    cs, share = cues(text, lang), 1.0
    a, b = _window(cs, lang, start, end, lo, hi)
    while max(_spread(*_weights(cs, lang), b - a)) > MAX_CUE and share > 0.1:
        # narrower cues, where one would stay too long: as wide as MAX_CUE of the span reads
        share *= 0.9
        cs = cues(text, lang, share * MAX_CUE * sum(_weights(cs, lang)[0]) / (b - a) / 0.9)
        a, b = _window(cs, lang, start, end, lo, hi)
    shown = _spread(*_weights(cs, lang), b - a, most=MAX_CUE)
    gaps = sum(shown) < b - a - 1e-9  # every cue at its longest: each starts where its share does
    slots = _spread(*_weights(cs, lang), b - a) if gaps else shown
    starts = [round(a + sum(slots[:i]), 3) for i in range(len(cs))]
    ends = starts[1:] + [round(b, 3)]
    if gaps:
        ends = [min(e, round(s + d, 3)) for s, d, e in zip(starts, shown, ends)]
    return list(zip(cs, starts, ends))


def _weights(cs: list[str], lang: str) -> tuple[list[float], list[float]]:
    """The cues' shares of their span (their widths) and the least each may be shown (reading time)."""
    widths = [max(_width(c.replace("\n", ""), lang), 1.0) for c in cs]
    return widths, [reading_time(c, lang) + _SLACK for c in cs]


def _window(cs: list[str], lang: str, start: float, end: float, lo: float, hi: float) -> tuple[float, float]:
    """Where the cues cs are shown: [start, end], run on within [lo, hi] where they need more time."""
    need = sum(_weights(cs, lang)[1])
    a, b = max(lo, start), min(hi, end)
    if b - a < need:
        b = min(hi, a + need)
        a = max(lo, b - need)
    return a, b


def _spread(weights: list[float], least: list[float], span: float, most: float | None = None) -> list[float]:
    """Durations summing to `span` in proportion to `weights`, none shorter than its `least` (nor longer
    than `most`, or its least if that is longer): those that would be get their bound, the others
    share the rest in proportion. Where the least do not fit, in proportion to them; where even the
    longest all may be do not fill the span, each its longest."""
    if sum(least) >= span:
        return [span * x / sum(least) for x in least]
    upper = [max(x, most) for x in least] if most is not None else [math.inf] * len(least)
    if sum(upper) <= span:
        return upper
    fixed: dict[int, float] = {}
    while True:
        free = [i for i in range(len(weights)) if i not in fixed]
        scale = (span - sum(fixed.values())) / sum(weights[i] for i in free)
        short = {i: least[i] for i in free if weights[i] * scale < least[i]}
        long = {i: upper[i] for i in free if weights[i] * scale > upper[i]}
        if not short and not long:
            return [fixed.get(i, weights[i] * scale) for i in range(len(weights))]
        fixed |= short or long
