"""A pseudo-locale, the industry's way to catch layout bugs of translations before there are any:
every English line made about 40 % longer, its letters accented, with a wide character in each, its
placeholders ({focus}, {top_pct:.0%}) and formulas ($sqrt(d_k)$) kept as they are. Written as a words
folder for the language code en-XA (Android's code for accented pseudo-English)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from scenes.common.words import builtin_entries

CODE = "en-XA"
ACCENTS = str.maketrans("aceinousyACEINOUSYdDgGkKlLrRtTzZ",
                        "áçéîñöüšýÅÇÉÎÑÖÜŠÝďĎĝĜķĶļĻŕŔţŢžŽ")
PAD = "ŵíðé ļöñĝ ţéхţ "  # what each line grows by, cut to 40 % of its length
WIDE = "Ｗ"  # a full-width letter: a line also takes the width of a CJK font's wide glyphs
GROWTH = 0.4
# lines kept as English has them: the draft voice's words (no drawing), separators and marks that code
# joins or parses (a list's separator, a token's quotes, a column's number)
KEPT = re.compile(r"^speech\.|^common\.(list_sep|tag_sep|token|token_cjk|d_k_column)$|\.(exact|approx|"
                  r"ok_mark|broken_mark|head_name|head_out|w_o_row|mix_row|dims_line|for_key|clause_sep)$")
_KEEP = re.compile(r"\{\{|\}\}|\{[^{}]*\}|\$[^$]*\$")  # placeholders, escaped braces, formulas


def pseudo(text: str) -> str:
    """A line of the pseudo-locale: accented outside its placeholders and formulas, 40 % longer."""
    parts, at = [], 0
    for m in _KEEP.finditer(text):
        parts += [text[at:m.start()].translate(ACCENTS), m.group()]
        at = m.end()
    parts.append(text[at:].translate(ACCENTS))
    grow = max(1, math.ceil(GROWTH * len(text)))
    pad = (PAD * (grow // len(PAD) + 1))[:grow - 1].rstrip()
    return "".join(parts) + (f" {WIDE}{pad}" if pad else WIDE)


def write(folder: Path) -> Path:
    """The pseudo-locale as a words folder (folder/en-XA/<name>.toml, one file per English catalog);
    returns the folder to hand to --words."""
    by_file: dict[str, dict[str, dict]] = {}
    for key, entry in builtin_entries("en").items():
        table, name = key.rsplit(".", 1)
        value = entry.value
        if not KEPT.search(key):
            value = [pseudo(s) for s in value] if isinstance(value, list) else pseudo(value)
        by_file.setdefault(entry.file, {}).setdefault(table, {})[name] = value
    out = folder / CODE
    out.mkdir(parents=True, exist_ok=True)
    for file, tables in by_file.items():
        lines = []
        for table, entries in tables.items():
            lines.append(f"[{table}]")
            lines += [f"{json.dumps(k, ensure_ascii=False)} = {json.dumps(v, ensure_ascii=False)}"
                      for k, v in entries.items()]
        (out / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
