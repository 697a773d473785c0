"""A causal decoder in numpy, Llama's shape (SmolLM2-135M from its GGUF file, read with the pure-Python
`gguf` package): RMSNorm, rotary positions (RoPE) on the queries and keys, grouped-query attention (9
query heads sharing 3 key/value heads), the causal mask (a token sees itself and the tokens before it),
a SwiGLU feed-forward, and the token embeddings reused for the next token's logits.

Shapes: n tokens, d = 576, h = 9 query heads and g = 3 key/value heads of d_h = 64, d_ff = 1536,
V = 49152. GGUF keeps Q and K's rows in llama.cpp's order, so the rotation turns adjacent pairs
(x[2i], x[2i+1])."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bert import softmax


@dataclass(frozen=True)
class Block:
    norm1: np.ndarray  # [d]
    wq: np.ndarray  # [h * d_h, d]
    wk: np.ndarray  # [g * d_h, d]
    wv: np.ndarray  # [g * d_h, d]
    wo: np.ndarray  # [d, h * d_h]
    norm2: np.ndarray  # [d]
    gate: np.ndarray  # [d_ff, d]
    up: np.ndarray  # [d_ff, d]
    down: np.ndarray  # [d, d_ff]


@dataclass(frozen=True)
class Shape:
    heads: int  # 9
    kv_heads: int  # 3
    rope_base: float  # 100,000
    eps: float  # RMSNorm's epsilon


def rms_norm(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * gain  # [n, d]


def rope(x: np.ndarray, base: float) -> np.ndarray:
    """x [heads, n, d_h] turned by position: pair i of token p by the angle p / base^(2i / d_h)."""
    _, n, d_h = x.shape
    angle = np.arange(n)[:, None] / base ** (np.arange(0, d_h, 2) / d_h)  # [n, d_h / 2]
    cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    even, odd = x[..., 0::2], x[..., 1::2]  # [heads, n, d_h / 2]
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = even * cos - odd * sin, even * sin + odd * cos
    return out


def causal_attention(x: np.ndarray, b: Block, s: Shape) -> tuple[np.ndarray, np.ndarray]:
    """x [n, d] -> (output [n, d], weights [h, n, n], zero above the diagonal)."""
    n = x.shape[0]
    d_h = b.wq.shape[0] // s.heads
    split = lambda t, k: t.reshape(n, k, d_h).transpose(1, 0, 2)  # noqa: E731  [n, k * d_h] -> [k, n, d_h]
    q = rope(split(x @ b.wq.T, s.heads), s.rope_base)  # [h, n, d_h]
    k = rope(split(x @ b.wk.T, s.kv_heads), s.rope_base)  # [g, n, d_h]
    v = split(x @ b.wv.T, s.kv_heads)  # [g, n, d_h]
    share = s.heads // s.kv_heads  # query heads per key/value head: heads 0-2 read k/v 0, ...
    k, v = np.repeat(k, share, axis=0), np.repeat(v, share, axis=0)  # [h, n, d_h]
    scores = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(d_h))  # [h, n, n]
    scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)  # the causal mask
    weights = softmax(scores)
    return (weights @ v).transpose(1, 0, 2).reshape(n, -1) @ b.wo.T, weights


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def decoder(x: np.ndarray, blocks: list[Block], s: Shape) -> tuple[np.ndarray, np.ndarray]:
    """x [n, d] (the token embeddings) -> (last hidden states [n, d], weights [L, h, n, n])."""
    kept = []
    for b in blocks:
        attended, weights = causal_attention(rms_norm(x, b.norm1, s.eps), b, s)
        x = x + attended
        y = rms_norm(x, b.norm2, s.eps)
        x = x + (silu(y @ b.gate.T) * (y @ b.up.T)) @ b.down.T
        kept.append(weights)
    return x, np.stack(kept)
