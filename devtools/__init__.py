"""What the tests and the benchmarks share, outside the installed package (pyproject.toml's packages
are attention_core, scenes and attention_lesson only): the ear (`ear.py`, an offline recogniser),
chromium (`browser.py`), a studio seen from outside (`studio.py`) and lessons made for them
(`lessons.py`). Nothing in the product imports it."""
