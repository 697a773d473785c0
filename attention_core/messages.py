"""The core's words: what `check` and every command that reads a lesson say of it, one table per language.

The core must not import `scenes` (its catalogs live there), so it keeps its own table, here, for the
few dozen phrases lesson messages are made of; a test requires every language (en, zh, ja) to have the
same entries and fields. An entry is a string, or {"one": ..., "other": ...} chosen by its field `n`
(1 number, 2 numbers; a language with no plural, zh or ja, gives a plain string: its "other"). Fields
are filled by `errors.say`: a phrase in a phrase, a list (joined with `list_sep`, the last with
`list_and` for `Ordinals`), a value as written.
In a language marked `tight` a space between two of its characters is dropped ("应为 一个数": "应为一个数",
"数値 が必要": "数値が必要"); a space next to a digit or a Latin word stays ("4 行", "文脈 river").
"""

from __future__ import annotations

from collections.abc import Mapping

from .messages_ja import JA, TOML_REASONS_JA

EN: dict[str, str | dict[str, str]] = {
    "at_line": "{file}:{line}: {text}",
    "at_file": "{file}: {text}",
    "problem": "{where}: expected {expected}, found {found}",
    "problem_no_found": "{where}: expected {expected}",
    "file_problem": "expected {expected}, found {found}",
    "file_problem_no_found": "expected {expected}",
    "warning": "warning: {text}",
    "list_sep": ", ",
    "list_and": " and ",
    # the parts of a key after its path: "projections.w_q row 4 number 2", "contexts.river token 3"
    "key_row": "row {n}",
    "key_number": "number {n}",
    "key_token": "token {n}",
    # what was expected
    "one_of": "one of {items}",
    "list_of_numbers": "a list of numbers",
    "a_number": "a number",
    "finite_number": "a finite number",
    "matrix_of_rows": {"one": "a matrix (a list of {n} row)", "other": "a matrix (a list of {n} rows)"},
    "rows_per_dimension": {"one": "{n} row (one per embedding dimension, d_model)",
                           "other": "{n} rows (one per embedding dimension, d_model)"},
    "numbers_like": "{numbers} like {rows}",
    "numbers": {"one": "{n} number", "other": "{n} numbers"},
    "rows": {"one": "row {list}", "other": "rows {list}"},
    "n_rows": {"one": "{n} row", "other": "{n} rows"},
    "n_columns": {"one": "{n} column", "other": "{n} columns"},
    "n_tokens": {"one": "{n} token", "other": "{n} tokens"},
    "n_names": {"one": "{n} name", "other": "{n} names"},
    "columns_bound": "{lo} to {hi} columns (the scenes' layout bound)",
    "a_table": "a table [{name}]",
    "at_least_token": "at least one token",
    "d_model_bound": "{lo} to {hi} numbers (d_model, the layout bound)",
    "d_model_as": {"one": "{n} number (d_model, as vocab.{first})",
                   "other": "{n} numbers (d_model, as vocab.{first})"},
    "at_least_context": "at least one context",
    "token_list": "a list of token strings",
    "tokens_range": "{lo} to {hi} tokens",
    "tokens_bound": "{lo} to {hi} tokens (the scenes' layout bound)",
    "vocab_token": "a token of [vocab] ({tokens})",
    "table_like": "a table like {example}",
    "a_label": "a label (a non-empty string)",
    "a_language": "the language the lesson is shown in, one of {items}",
    "narration_line": "a line of narration (a non-empty string)",
    "quoted_string": "a string (in quotes)",
    "words_folder": "a folder of the teacher's words, relative to the lesson file (words = \"words\")",
    "a_string": "a string",
    "name_list": "a list of names",
    "names_dv": {"one": "{n} name (d_v)", "other": "{n} names (d_v)"},
    "a_matrix": "a matrix",
    "two_axes": "two different axes, like [1, 2]",
    "heads_first": "a [heads] table first (focus_head names one of its heads)",
    "heads_bound": "1 to {hi} heads",
    "n_heads": {"one": "{n} head", "other": "{n} heads"},
    "columns_d_model": {"one": "{n} column (d_model)", "other": "{n} columns (d_model)"},
    "rows_per_head_value": {"one": "{n} row (the heads' d_v, added up)",
                            "other": "{n} rows (the heads' d_v, added up)"},
    "own_projections": "only w_o (in a lesson with [heads], each head has its own w_q, w_k and w_v)",
    "axis_number": "an axis number from 1 to {d}",
    "axis_name_or_number": "a name of [dimensions] or an axis number from 1 to {d}",
    "columns_as_wq": {"one": "{n} column (d_k, as w_q)", "other": "{n} columns (d_k, as w_q)"},
    "token_string": "a token string",
    "focus_everywhere": "a token of every context (contexts.{name} is {tokens})",
    "valid_toml": "valid TOML",
    "shallow_toml": "arrays and tables nested at most {limit} deep",
    "lesson_file": "a lesson file (or a packaged lesson: {names})",
    "readable_file": "a readable file",
    "utf8": "UTF-8 text",
    "regular_file": "a regular file",
    "bytes_at_most": "a file of at most {n} bytes",
    "finite_result": "numbers that keep {what} finite",
    # what was found
    "quoted_number": "the text {text} (write numbers without quotes)",
    "nothing": "nothing",
    "unknown_key": "an unknown key",
    "did_you_mean": "{found} (did you mean {near}?)",
    "empty_table": "an empty table",
    "empty_context": "an empty context",
    "no_such_file": "no such file",
    "undecodable": "an undecodable byte at {n}",
    "a_folder": "a folder",
    "special_file": "a device, pipe or socket",
    "n_bytes": "{n} bytes",
    "link_loop": "a loop of symbolic links",
    "dangling_link": "a symbolic link to nothing",
    "os_error": "{text}",
    "toml_at": "{reason} (column {column}): {text}",
    "toml_at_end": "{reason} at the end of the file",
    "nested": "arrays or tables nested {n} deep",
    "overflow": "{value} in context {context} (past ±1.8e308, the largest float)",
    # the names of the intermediates
    "x": "X (the embeddings)",
    "q": "Q = X W_Q",
    "k": "K = X W_K",
    "v": "V = X W_V",
    "scores": "the scores Q Kᵀ",
    "output": "the output (weights V)",
    # warnings
    "descent_rises": "in context {context}, the [training] loss rises, from {first} to {last}: the "
                     "learning scene then shows a descent that fails; with a smaller learning_rate it falls",
    "descent_flat": "in context {context}, the [training] loss barely moves, from {first} to {last}: the "
                    "learning scene then shows almost nothing learned; a larger learning_rate or more steps "
                    "move it",
    "tie": "in context {context}, {focus}'s largest weight is shared by {tied}; the hard lookup takes the "
           "first, {first}",
    "large": "in context {context}, an entry of {what} is {value}: {why}",
    "large_matrix": "an entry of {what} is {value}: {why}",
    "large_why": "every table and scene writes numbers from {bound} on in scientific notation, hard to "
                 "follow in a lesson",
    "no_words": "{keys}: no {language} words (only {other}); shown in {language}, generic ones stand "
                "in (v1, v2… for dimensions, the key for a context's label or a head's name, a generic "
                "title; a story is left out): add {language} entries, or choose --lang {choose}",
    "ok": "{file}: OK",
    "sizes": "d_model {d_model}, d_k {d_k}, d_v {d_v}",
    "vocab": "vocab ({n}): {tokens}",
    "context": "context {name}: {tokens}",
    "context_labelled": "context {name} ({labels}): {tokens}",
    "focus": "focus: {focus}",
    "language": "lang: {language} (every command shows the lesson in it unless --lang says otherwise)",
    "dimensions": "dimensions ({language}): {names}",
    "mask_causal": "mask: causal (query i looks at keys 1 to i only)",
    "heads": {"one": "{n} head: {heads}; W_O {rows} × {cols}; the scenes expand {focus}",
              "other": "{n} heads: {heads}; W_O {rows} × {cols}; the scenes expand {focus}"},
    "head_sizes": "{name} (d_k {d_k}, d_v {d_v})",
    "holds_mask": "a causal mask",
    "holds_heads": {"one": "{n} head: {heads}", "other": "{n} heads: {heads}"},
    "whole_number": "a whole number from {lo} to {hi}",
    "positive_number": "a number above 0",
    "base_above_one": "a number above 1",
    "target_visible": "a token the causal mask lets the query see (at or before it in contexts.{name})",
    "rope_even": "an even d_k for rope (it turns pairs of columns)",
    "holds_training": "learning: {query} -> {target}, {steps} steps",
    "holds_positions": "positions: {kind}",
    "holds_tiling": "tiles of {block} keys",
    "holds_real": "a real model: {model} reads “{sentence}”, following {focus}",
    "a_real_sentence": "a sentence: a string of 1 to {hi} characters",
    "a_real_part": "a part of real.sentence ({sentence})",
    "a_real_model": "one of {items} (the models the real scene draws)",
    "a_real_token": "a part of the sentence the model keeps within one token ({tokens})",
    "a_real_earlier": "a part of real.sentence before {focus} (a causal model sees only earlier tokens)",
    "a_real_after_first": "a part of the sentence after its first token ({tokens})",
    "descent": "the gradient descent of [training]",
    "diverged": "numbers past the largest float in context {context} (a smaller learning_rate keeps them)",
}

ZH: dict[str, str | dict[str, str]] = {
    "at_line": "{file}:{line}: {text}",
    "at_file": "{file}: {text}",
    "problem": "{where}：应为 {expected}，实际：{found}",
    "problem_no_found": "{where}：应为 {expected}",
    "file_problem": "应为 {expected}，实际：{found}",
    "file_problem_no_found": "应为 {expected}",
    "warning": "警告：{text}",
    "list_sep": "、",
    "list_and": " 和 ",
    "key_row": "第 {n} 行",
    "key_number": "第 {n} 个数",
    "key_token": "第 {n} 个词元",
    "one_of": "{items} 之一",
    "list_of_numbers": "一列数",
    "a_number": "一个数",
    "finite_number": "一个有限的数",
    "matrix_of_rows": "一个矩阵（{n} 行的列表）",
    "rows_per_dimension": "{n} 行（每个嵌入维度一行，d_model）",
    "numbers_like": "{numbers}（与{rows}一样）",
    "numbers": "{n} 个数",
    "rows": "第 {list} 行",
    "n_rows": "{n} 行",
    "n_columns": "{n} 列",
    "n_tokens": "{n} 个词元",
    "n_names": "{n} 个名称",
    "columns_bound": "{lo} 到 {hi} 列（画面排版的上限）",
    "a_table": "一个表 [{name}]",
    "at_least_token": "至少一个词元",
    "d_model_bound": "{lo} 到 {hi} 个数（d_model，画面排版的上限）",
    "d_model_as": "{n} 个数（d_model，与 vocab.{first} 相同）",
    "at_least_context": "至少一个语境",
    "token_list": "一列词元字符串",
    "tokens_range": "{lo} 到 {hi} 个词元",
    "tokens_bound": "{lo} 到 {hi} 个词元（画面排版的上限）",
    "vocab_token": "[vocab] 中的一个词元（{tokens}）",
    "table_like": "形如 {example} 的表",
    "a_label": "一个标签（非空字符串）",
    "a_language": "课件显示所用的语言，{items} 之一",
    "narration_line": "一句旁白（非空字符串）",
    "quoted_string": "一个字符串（加引号）",
    "words_folder": "教师自己的文字所在的文件夹，相对于课件文件（words = \"words\"）",
    "a_string": "一个字符串",
    "name_list": "一列名称",
    "names_dv": "{n} 个名称（d_v）",
    "a_matrix": "一个矩阵",
    "two_axes": "两个不同的轴，如 [1, 2]",
    "heads_first": "先有 [heads] 表（focus_head 指其中一个头）",
    "heads_bound": "1 到 {hi} 个头",
    "n_heads": "{n} 个头",
    "columns_d_model": "{n} 列（d_model）",
    "rows_per_head_value": "{n} 行（各头 d_v 之和）",
    "own_projections": "只有 w_o（有 [heads] 的课，每个头有自己的 w_q、w_k 和 w_v）",
    "axis_number": "1 到 {d} 的轴序号",
    "axis_name_or_number": "[dimensions] 中的名称或 1 到 {d} 的轴序号",
    "columns_as_wq": "{n} 列（d_k，与 w_q 相同）",
    "token_string": "一个词元字符串",
    "focus_everywhere": "每个语境都有的词元（contexts.{name} 是 {tokens}）",
    "valid_toml": "合法的 TOML",
    "shallow_toml": "数组和表最多嵌套 {limit} 层",
    "lesson_file": "一个课件文件（或内置课件：{names}）",
    "readable_file": "一个可读的文件",
    "utf8": "UTF-8 文本",
    "regular_file": "一个普通文件",
    "bytes_at_most": "最多 {n} 字节的文件",
    "finite_result": "使 {what} 保持有限的数",
    "quoted_number": "文本 {text}（数不要加引号）",
    "nothing": "没有",
    "unknown_key": "未知的键",
    "did_you_mean": "{found}（是想写 {near} 吗？）",
    "empty_table": "空表",
    "empty_context": "空语境",
    "no_such_file": "没有这个文件",
    "undecodable": "第 {n} 个字节无法按 UTF-8 解码",
    "a_folder": "一个文件夹",
    "special_file": "设备、管道或套接字",
    "n_bytes": "{n} 字节",
    "link_loop": "循环的符号链接",
    "dangling_link": "指向不存在之处的符号链接",
    "os_error": "{text}",
    "toml_at": "{reason}（第 {column} 列）：{text}",
    "toml_at_end": "{reason}（在文件末尾）",
    "nested": "嵌套了 {n} 层的数组或表",
    "overflow": "语境 {context} 中出现 {value}（超出了浮点数的最大值 ±1.8e308）",
    "x": "X（嵌入）",
    "q": "Q = X W_Q",
    "k": "K = X W_K",
    "v": "V = X W_V",
    "scores": "分数 Q Kᵀ",
    "output": "输出（权重 V）",
    "descent_rises": "语境 {context} 中，[training] 的损失不降反升，从 {first} 到 {last}："
                     "学习场景展示的会是失败的下降；"
                     "调小 learning_rate 才会下降",
    "descent_flat": "语境 {context} 中，[training] 的损失几乎不动，从 {first} 到 {last}："
                    "学习场景几乎看不到学习；"
                    "调大 learning_rate 或增加 steps",
    "tie": "语境 {context} 中，{focus} 的最大权重由 {tied} 并列；硬查找取第一个：{first}",
    "large": "语境 {context} 中，{what} 有一项是 {value}：{why}",
    "large_matrix": "{what} 有一项是 {value}：{why}",
    "large_why": "所有表格和画面都把绝对值不小于 {bound} 的数写成科学记数法，课堂上难以看懂",
    "no_words": "{keys}：没有 {language} 的写法（只有 {other}）；用 {language} 显示时"
                "改用通用的写法（维度写作 v1、v2…，语境的标签和头的名字用其键名，标题用通用标题；"
                "故事不讲）：请补上 {language} 条目，或用 --lang {choose}",
    "ok": "{file}：可以使用",
    "sizes": "d_model {d_model}，d_k {d_k}，d_v {d_v}",
    "vocab": "词表（{n}）：{tokens}",
    "context": "语境 {name}：{tokens}",
    "context_labelled": "语境 {name}（{labels}）：{tokens}",
    "focus": "焦点：{focus}",
    "language": "语言：{language}（除非 --lang 另行指定，各命令都用它显示课件）",
    "dimensions": "维度（{language}）：{names}",
    "mask_causal": "掩码：因果（第 i 个查询只看第 1 到 i 个键）",
    "heads": "{n} 个头：{heads}；W_O {rows} × {cols}；逐步讲解的场景展开 {focus}",
    "head_sizes": "{name}（d_k {d_k}，d_v {d_v}）",
    "holds_mask": "因果掩码",
    "holds_heads": "{n} 个头：{heads}",
    "whole_number": "{lo} 到 {hi} 的整数",
    "positive_number": "大于 0 的数",
    "base_above_one": "大于 1 的数",
    "target_visible": "因果掩码让查询看得见的词元（在 contexts.{name} 中不晚于查询）",
    "rope_even": "偶数的 d_k（rope 成对旋转列）",
    "holds_training": "学习：{query} → {target}，{steps} 步",
    "holds_positions": "位置：{kind}",
    "holds_tiling": "每块 {block} 个键",
    "holds_real": "真实模型：{model} 读“{sentence}”，跟随 {focus}",
    "a_real_sentence": "一个句子：1 到 {hi} 个字符的字符串",
    "a_real_part": "real.sentence 中的一段（{sentence}）",
    "a_real_model": "{items} 之一（真实模型场景能画的模型）",
    "a_real_token": "句子中被模型切在同一个词元里的一段（{tokens}）",
    "a_real_earlier": "real.sentence 中位于 {focus} 之前的一段（因果模型只看得见前面的词元）",
    "a_real_after_first": "句子中第一个词元之后的一段（{tokens}）",
    "descent": "[training] 的梯度下降",
    "diverged": "语境 {context} 中出现超出最大浮点数的数（减小 learning_rate 可避免）",
}


class _ByLanguage(dict):
    """The tables by language; a language with no table of its own (one from a words folder) is told in
    English."""

    def __missing__(self, lang: str) -> dict:
        return self["en"]


MESSAGES = _ByLanguage({"en": EN, "zh": ZH, "ja": JA})
TIGHT = {"zh", "ja"}  # languages written without spaces between their characters (kana and kanji alike)
CORE = frozenset(EN)  # the keys the core itself says, before another floor joins its own

# tomllib's reasons (Python 3.11-3.13), in Chinese (and Japanese, from messages_ja.py); a reason not
# listed is shown as tomllib wrote it.
# Matched whole, in order (the specific "Expected ..." ones before the general one).
TOML_REASONS = {"zh": [
    (r"Invalid statement", "无效的语句"),
    (r"Expected newline or end of document after a statement", "一条语句之后应换行"),
    (r"Expected ']' at the end of a table declaration", "表头末尾应为 ']'"),
    (r"Expected ']]' at the end of an array declaration", "数组表头末尾应为 ']]'"),
    (r"Expected '=' after a key in a key/value pair", "键后面应为 '='"),
    (r"Expected (.+)", "这里应为 {0}"),
    (r"Found invalid character (.+)", "无效的字符 {0}"),
    (r"Cannot declare (.+) twice", "{0} 声明了两次"),
    (r"Cannot overwrite a value", "不能覆盖已有的值"),
    (r"Cannot mutate immutable namespace (.+)", "不能修改不可变的命名空间 {0}"),
    (r"Cannot redefine namespace (.+)", "不能重新定义命名空间 {0}"),
    (r"Invalid initial character for a key part", "键的开头字符无效"),
    (r"Unclosed array", "数组没有闭合"),
    (r"Duplicate inline table key (.+)", "内联表中的键 {0} 重复"),
    (r"Unclosed inline table", "内联表没有闭合"),
    (r"Unescaped '\\' in a string", "字符串中的 '\\' 没有转义"),
    (r"Invalid hex value", "无效的十六进制值"),
    (r"Escaped character is not a Unicode scalar value", "转义字符不是 Unicode 标量值"),
    (r"Unterminated string", "字符串没有结束"),
    (r"Illegal character (.+)", "非法字符 {0}"),
    (r"Invalid date or datetime", "无效的日期或时间"),
    (r"Invalid value", "无效的值"),
], "ja": TOML_REASONS_JA}


def join(tables: Mapping[str, Mapping[str, str | dict[str, str]]]) -> None:
    """Another floor's words joined into these tables, one way (the core never imports them): the words
    check's (scenes/common/words_messages.py), the commands', the studio's and batch's
    (attention_lesson/messages/), each when it is imported. A key already said otherwise is refused."""
    for lang, table in tables.items():
        said = MESSAGES.get(lang)
        if said is None:
            raise ValueError(f"no table of {lang} to join")
        if clash := sorted(k for k in table if k in said and said[k] != table[k]):
            raise ValueError(f"{lang} already says {clash} otherwise")
        said.update(table)
