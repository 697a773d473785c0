"""What the words check says of a teacher's words folder (words.py, words_warnings.py), in en, zh and ja:
FILE:LINE: one of WORDS's phrases, said through `errors.located` as a lesson's errors are (the same
entries and fields in every language: tests/test_tool_messages.py). Importing this module joins WORDS
into the core's tables (attention_core.messages.join); words.py imports it, so whatever checks a folder
finds them joined. The command's summary and the rest of `words`' lines are attention_lesson's
(attention_lesson/messages/tools.py).

FORMAT_REASONS: Python's reasons for refusing a {placeholder} (string.Formatter: words check, a line the
studio saves, a words folder's line read at render), said where a language has them (`FormatReason`);
matched whole, a reason not listed shown as Python wrote it (tests/test_japanese_output.py finds every
one Python gives).
"""

from __future__ import annotations

from attention_core.errors import TomlReason
from attention_core.messages import join

WORDS: dict[str, dict[str, str | dict[str, str]]] = {"en": {
    "words_not_toml": "not valid TOML: {reason}",
    "words_unknown_key": "unknown key {key}: no line of the lesson has this name",
    "words_kind": "{key}: expected {kind}, as the built-in line is",
    "words_too_long": "{key}: expected a line of at most {limit} characters, found {n} characters",
    "string_list": "a list of strings",
    "words_broken": "{key}: a broken placeholder ({reason}); write a brace as {{{{ or }}}}",
    "words_unknown_placeholder": "{key}: unknown placeholder {names}; this line takes {takes}",
    "words_bad_placeholder": "{key}: placeholder {field} not allowed; a line writes a name alone: {{name}}, "
                             "{{name!s}} or {{name_pct:.0%}}",
    "no_placeholders": "none",
    "words_lost_placeholder": "{key}: placeholder {names} left out: the line does not say it (fine if meant)",
    "words_none_here": "no words for {lang} here (expected {folder}/<name>.toml, as "
                       "`attention-lesson words export --lang {lang}` writes them)",
    "words_missing_key": "missing key {key} (every key is needed for a language with no built-in words; "
                         "the {reference} line: {line})",
    "lang_not_code": "{lang} is not a language code (two or three letters: fr, de, es, ko, pt-BR)",
    "lang_rtl": "{lang}: right-to-left scripts are not supported yet (the scenes lay every line out from "
                "the left); choose a left-to-right language",
}, "zh": {
    "words_not_toml": "不是合法的 TOML：{reason}",
    "words_unknown_key": "未知的键 {key}：课里没有哪一句叫这个名字",
    "words_kind": "{key}：应为 {kind}，与内置的这一句相同",
    "words_too_long": "{key}：应为最多 {limit} 个字符的一句，实际：{n} 个字符",
    "string_list": "一列字符串",
    "words_broken": "{key}：占位符写坏了（{reason}）；花括号本身请写成 {{{{ 或 }}}}",
    "words_unknown_placeholder": "{key}：未知的占位符 {names}；这一句可用的是 {takes}",
    "words_bad_placeholder": "{key}：不允许的占位符 {field}；一句话里只能写名字本身：{{name}}、{{name!s}} 或 "
                             "{{name_pct:.0%}}",
    "no_placeholders": "无",
    "words_lost_placeholder": "{key}：没有用到占位符 {names}：这一句不会说出它（如果是有意的，没有问题）",
    "words_none_here": "这里没有 {lang} 的文字（应为 {folder}/<name>.toml，"
                       "即 `attention-lesson words export --lang {lang}` 写出的文件）",
    "words_missing_key": "缺少键 {key}（没有内置文字的语言每个键都要有；{reference} 的这一句：{line}）",
    "lang_not_code": "{lang} 不是语言代码（两三个字母：fr、de、es、ko、pt-BR）",
    "lang_rtl": "{lang}：还不支持从右往左书写的文字（画面上每一行都从左边排起）；请选从左往右书写的语言",
}, "ja": {
    "words_not_toml": "有効な TOML ではありません：{reason}",
    "words_unknown_key": "不明なキー {key}：この名前の行はレッスンにありません",
    "words_kind": "{key}：組み込みの行と同じく {kind} が必要です",
    "words_too_long": "{key}：{limit} 文字までの行が必要ですが、実際は {n} 文字",
    "string_list": "文字列のリスト",
    "words_broken": "{key}：プレースホルダーが壊れています（{reason}）。"
                    "波かっこそのものは {{{{ または }}}} と書きます",
    "words_unknown_placeholder": "{key}：不明なプレースホルダー {names}。この行で使えるのは {takes}",
    "words_bad_placeholder": "{key}：使えないプレースホルダー {field}。行に書けるのは名前だけです："
                             "{{name}}、{{name!s}}、{{name_pct:.0%}}",
    "no_placeholders": "なし",
    "words_lost_placeholder": "{key}：プレースホルダー {names} が使われていません：この行はそれを言いません"
                              "（意図どおりなら問題ありません）",
    "words_none_here": "ここには {lang} の言葉がありません（`attention-lesson words export --lang {lang}` "
                       "が書き出す {folder}/<name>.toml が必要です）",
    "words_missing_key": "キー {key} がありません（組み込みの言葉がない言語にはすべてのキーが必要です。"
                         "{reference} の行：{line}）",
    "lang_not_code": "{lang} は言語コードではありません（2〜3 文字：fr、de、es、ko、pt-BR）",
    "lang_rtl": "{lang}：右から左に書く文字にはまだ対応していません（シーンはどの行も左から並べます）。"
                "左から右に書く言語を選んでください",
}}

FORMAT_REASONS = {"zh": [
    (r"Single '([{}])' encountered in format string", "单独的 '{0}'"),
    (r"expected '}' before end of string", "结尾之前缺少 '}}'"),
    (r"unmatched '{' in format spec", "格式说明里的 '{{' 没有配对"),
    (r"unexpected '{' in field name", "名字里出现了 '{{'"),
    (r"expected ':' after conversion specifier", "转换符（!s）之后应为 ':' 或 '}}'"),
    (r"end of string while looking for conversion specifier", "'!' 之后缺少转换符（s）"),
], "ja": [
    (r"Single '([{}])' encountered in format string", "単独の '{0}'"),
    (r"expected '}' before end of string", "文字列の終わりまでに '}}' がない"),
    (r"unmatched '{' in format spec", "書式指定の '{{' が閉じていない"),
    (r"unexpected '{' in field name", "名前の中に '{{' がある"),
    (r"expected ':' after conversion specifier", "変換指定（!s）のあとには ':' か '}}' が必要"),
    (r"end of string while looking for conversion specifier", "'!' のあとに変換指定（s）がない"),
]}


class FormatReason(TomlReason):
    """Python's reason for refusing a {placeholder}, in English: said in the language where FORMAT_REASONS
    has it."""

    REASONS = FORMAT_REASONS


join(WORDS)
