"""GPT-2's byte-level BPE, as a GGUF file keeps it (`tokenizer.ggml.tokens`, `.merges`): the text cut
into words (a space goes with the word after it), each word's UTF-8 bytes written as printable
characters (a space as Ġ), then the merges applied, the earliest-learned pair first, until none applies.
The cutting here is GPT-2's rule written for Python's `re` (letters, digits one by one as SmolLM2's
tokenizer has them, other marks, spaces): right for English, which is what SmolLM2 reads."""

from __future__ import annotations

import re
from dataclasses import dataclass

WORDS = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d| ?[^\s\w]+|\s+(?!\S)|\s+""")


def byte_chars() -> dict[int, str]:
    """GPT-2's map of the 256 bytes to printable characters (a byte that prints stays itself)."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    moved = [b for b in range(256) if b not in kept]
    return {**{b: chr(b) for b in kept}, **{b: chr(256 + i) for i, b in enumerate(moved)}}


@dataclass(frozen=True)
class BPE:
    ids: dict[str, int]  # token text -> id
    ranks: dict[tuple[str, str], int]  # a merge -> its rank (lower merges first)
    chars: dict[int, str]  # byte -> its printable character


def bpe(tokens: list[str], merges: list[str]) -> BPE:
    return BPE({t: i for i, t in enumerate(tokens)},
               {tuple(m.split(" ", 1)): r for r, m in enumerate(merges)}, byte_chars())


def merge_word(tok: BPE, word: str) -> list[str]:
    parts = list(word)
    while len(parts) > 1:
        pairs = [(tok.ranks.get(pair, len(tok.ranks)), i) for i, pair in enumerate(zip(parts, parts[1:]))]
        rank, i = min(pairs)
        if rank == len(tok.ranks):
            break
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    return parts


def encode_bpe(tok: BPE, text: str) -> list[int]:
    ids = []
    for word in WORDS.findall(text):
        ids += [tok.ids[p] for p in merge_word(tok, "".join(tok.chars[b] for b in word.encode("utf-8")))]
    return ids


def decode_bpe(tok: BPE, ids: list[int]) -> str:
    back = {c: b for b, c in tok.chars.items()}
    texts = {i: t for t, i in tok.ids.items()}
    return bytes(back[c] for i in ids for c in texts[i] if c in back).decode("utf-8", errors="replace")
