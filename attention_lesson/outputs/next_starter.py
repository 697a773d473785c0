"""The starters' parts for the next lessons (`new --heads N --mask causal`): a causal mask and several
heads, with their comments in the starter's language, put into the one-head starter's text; and the
line naming a words folder (`new --words DIR`)."""

from __future__ import annotations

import json

MASK = {
    "en": "# A causal mask (a decoder's attention): query i looks at keys 1..i only, never ahead. The later\n"
          "# keys' scores are -inf before the softmax, their weights exactly 0. Delete this line for none.\n"
          'mask = "causal"\n',
    "zh": "# 因果掩码（解码器的注意力）：第 i 个查询只看第 1 到 i 个键，从不往后看。后面的键的分数在\n"
          "# softmax 之前是 -∞，权重恰好为 0。删掉这一行就没有掩码。\n"
          'mask = "causal"\n',
    "ja": "# 因果マスク（デコーダーのアテンション）：i 番目のクエリが見るのは\n"
          "# キー 1 から i までで、先は見ません。後ろのキーのスコアはソフトマックスの前に\n"
          "# -∞ になり、重みはちょうど 0 です。マスクなしにするには、この行を消してください。\n"
          'mask = "causal"\n',
}
FOCUS_HEAD = {
    "en": "# The head the step-by-step scenes expand (one of [heads] below; default: the first).\n",
    "zh": "# 分步场景展开的那个头（下面 [heads] 中的一个；默认第一个）。\n",
    "ja": "# ステップごとの場面が詳しく見せるヘッド（下の [heads] のどれか一つ。既定は最初のもの）。\n",
}
HEADS = {
    "en": "# Several heads: each its own w_q and w_k (d_k columns) and w_v (d_v columns), one row per\n"
          "# embedding dimension, and its name in each language. Each head looks for something else; their\n"
          "# outputs are laid side by side and w_o maps them back to the embedding's d_model dimensions.\n"
          "# With [heads], [dimensions] names those d_model dimensions and [projections] holds only w_o.\n",
    "zh": "# 多个头：每个头有自己的 w_q、w_k（d_k 列）和 w_v（d_v 列），每个嵌入维度一行，\n"
          "# 以及它在每种语言里的名字。每个头找的东西不同；它们的输出并排放在一起，\n"
          "# 再由 w_o 映射回嵌入的 d_model 个维度。有 [heads] 时，[dimensions] 给这 d_model 个维度命名，\n"
          "# [projections] 里只有 w_o。\n",
    "ja": "# 複数のヘッド：ヘッドごとに自分の w_q と w_k（d_k 列）、w_v（d_v 列）を持ち、\n"
          "# 埋め込みの次元ごとに一行です。各言語での名前もつけます。ヘッドはそれぞれ\n"
          "# 別のものを探します。それらの出力を横に並べ、w_o が埋め込みの d_model 個の次元に\n"
          "# 戻します。[heads] があるとき、[dimensions] はこの d_model 個の次元の名前になり、\n"
          "# [projections] には w_o だけを書きます。\n",
}
W_O = {
    "en": "# w_o: one row per number of the heads' outputs side by side (each head's d_v, in order), one\n"
          "# column per embedding dimension.\n",
    "zh": "# w_o：各头输出并排后的每个数一行（按顺序，每个头 d_v 个），每个嵌入维度一列。\n",
    "ja": "# w_o：ヘッドの出力を横に並べた数ごとに一行（順番に、ヘッドごとに d_v 個）、\n"
          "# 埋め込みの次元ごとに一列。\n",
}
WORDS = {
    "en": "# The teacher's own words: {folder}/<lang>/*.toml (as `words export` writes them),\n"
          "# relative to this file. They win over the built-in lines key by key; a command's --words\n"
          "# wins over this line.\n",
    "zh": "# 教师自己的文字：{folder}/<语言>/*.toml（`words export` 写出的文件），路径相对于本文件。\n"
          "# 它们逐键取代内置的文字；命令行的 --words 优先于这一行。\n",
    "ja": "# 先生自身の言葉：{folder}/<言語>/*.toml（`words export` が書き出すファイル）。\n"
          "# このファイルからの相対パスです。組み込みの言葉をキーごとに置き換えます。\n"
          "# コマンドの --words はこの行より優先されます。\n",
}
# name (zh, en, ja) and (w_q, w_k, w_v) of each head, on the starter's 4 dimensions (fruit, company,
# function, ambiguity): the first resolves the meaning, the second tracks the function words
NAMES = [("词义", "meaning", "意味"), ("语法", "grammar", "文法"), ("自身", "self", "自分"),
         ("公司", "company", "会社")]
W = [
    ([[1, 0], [0, 1], [0, 0], [2.3, 2.3]], [[2, 0], [0, 2], [0, 0], [0.3, 0.3]],
     [[2, 0], [0, 2], [0, 0], [0.1, 0.1]]),
    ([[0, 0], [0, 0], [0, 0], [0, 2]], [[0, 0], [0, 0], [0, 2], [0, 0]], [[0, 0], [0, 0], [1, 0], [0, 0]]),
    ([[0, 0], [0, 0], [0, 0], [2, 0]], [[0, 0], [0, 0], [0, 0], [2, 0]], [[0, 0], [0, 0], [0, 0], [1, 0]]),
    ([[0, 0], [1, 0], [0, 0], [0, 1]], [[0, 0], [2, 0], [0, 0], [0, 0]], [[0, 0], [0, 1], [0, 0], [0, 0]]),
]


def _matrix(rows) -> str:
    return "[\n" + "".join(f"  [{', '.join(f'{float(x):.1f}' for x in r)}],\n" for r in rows) + "]"


def _head(i: int) -> str:
    zh, en, ja = NAMES[i]
    w_q, w_k, w_v = W[i]
    return (f'[heads.{en}]\nzh = "{zh}"\nen = "{en}"\nja = "{ja}"\n'
            f"w_q = {_matrix(w_q)}\nw_k = {_matrix(w_k)}\nw_v = {_matrix(w_v)}\n\n")


def _w_o(n: int, d_model: int = 4) -> str:
    """Each head's value dimension j written back to embedding dimension (its index) mod d_model."""
    rows = [[1.0 if c == r % d_model else 0.0 for c in range(d_model)] for r in range(2 * n)]
    return f"w_o = {_matrix(rows)}\n"


def with_next(text: str, lang: str, heads: int = 1, mask: str | None = None) -> str:
    """The one-head starter `text` with a causal mask and/or `heads` heads (2..4) instead of its
    [projections] block."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("focus ="))
    top = [MASK[lang]] if mask == "causal" else []
    if heads > 1:
        top += ["\n"] * bool(top) + [FOCUS_HEAD[lang], f'focus_head = "{NAMES[0][1]}"\n']
    out = lines[:at + 1] + (["\n", *top] if top else [])
    rest = lines[at + 1:]
    if heads <= 1:
        return "".join(out + rest)
    start = next(i for i, line in enumerate(rest) if line.startswith("[projections]"))
    while start > 0 and rest[start - 1].startswith("#"):  # the block's comment goes with it
        start -= 1
    stop = next(i for i, line in enumerate(rest) if line.startswith("[narration"))
    while rest[stop - 1].startswith("#"):  # the story's comment stays with it
        stop -= 1
    block = (HEADS[lang] + "".join(_head(i) for i in range(heads))
             + "[projections]\n" + W_O[lang] + _w_o(heads))
    return "".join(out + rest[:start] + [block, "\n"] + rest[stop:])


def with_words(text: str, lang: str, folder: str) -> str:
    """The starter `text` with `words = "folder"` (relative to the lesson file) after its `lang` line,
    under a comment in `lang`."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("lang ="))
    line = WORDS[lang].replace("{folder}", folder) + f"words = {json.dumps(folder, ensure_ascii=False)}\n"
    return "".join(lines[:at + 1] + ["\n", line] + lines[at + 1:])
