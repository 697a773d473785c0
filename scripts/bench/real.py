"""The real models' cost: each in a fresh process (the import, loading the weights, the first and a
second sentence through every layer and head), e5 and SmolLM2, best of `repeats` processes; and the
`real` command end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time

from . import BIN, ROOT

E5 = """
import json, time
t0 = time.perf_counter()
from attention_core.real import e5_attention, load_e5
t1 = time.perf_counter(); load_e5(); t2 = time.perf_counter()
e5_attention("河岸边的银行旁有一条河。"); t3 = time.perf_counter()
e5_attention("The bank by the river was closed on Sunday."); t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "first_sentence_s": t3 - t2,
                  "second_sentence_s": t4 - t3}))
"""
SMOLLM2 = """
import json, time
t0 = time.perf_counter()
from attention_core.real.smollm2 import load_smollm2, next_token
t1 = time.perf_counter(); load_smollm2(); t2 = time.perf_counter()
next_token("The capital of France is"); t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "first_prompt_s": t3 - t2}))
"""


def _best(code: str, repeats: int) -> dict:
    """Each figure's best over `repeats` fresh processes."""
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True,
                                      text=True).stdout.splitlines()[-1]) for _ in range(repeats)]
    return {k: round(min(r[k] for r in runs), 2) for k in runs[0]}


def _timed(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([str(BIN / "attention-lesson"), *args], cwd=ROOT, check=True, capture_output=True)
    return round(time.perf_counter() - start, 2)


def real_benchmark(repeats: int = 3) -> dict:
    """e5 and SmolLM2 step by step, `attention-lesson real SENTENCE --focus 银行` whole, and the real
    scene of the built-in lesson `real` rendered from nothing at 480p15 and at 1080p60, in zh."""
    command = _timed("real", "河岸边的银行旁有一条河。", "--focus", "银行", "--lang", "en")
    with tempfile.TemporaryDirectory(prefix="attention-bench-") as tmp:
        scene = {q: _timed("render", "real", "--lesson", "real", "--lang", "zh", "--quality", q, "-q",
                           "--out", f"{tmp}/{q}") for q in ("low", "high")}
    return {"e5": _best(E5, repeats), "smollm2": _best(SMOLLM2, min(repeats, 2)), "real_command_s": command,
            "real_scene_s": scene}
