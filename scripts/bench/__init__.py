"""The timings scripts/benchmark.py takes (it reads the options and prints the figures), by what they
time: `runs` the commands and the naive way, `batch` Dask against render after render, `reruns` re-runs,
publishing, W_Q edits and held frames, `pages` the explorer and the studio in chromium, `neural` the
neural voice. Importing this package puts the checkout first on sys.path (its code, whichever copy
the environment installed)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))
