"""The words of the tools around a lesson, in en, zh and ja: what `words check` says of a folder of the
teacher's words, and the notes and summary of a batch plan. A sibling of messages.py's tables (EN, ZH,
JA), joined into them there, so `errors.text` and `errors.located` say them as they say a lesson's
errors: `FILE:LINE: message`, fields filled, a tight language without spaces between its characters.
The same entries and fields in every language (tests/test_tool_messages.py holds them together).

Placeholders a teacher writes ({focus}) reach a message as a field's value, never as its template:
a brace the template itself prints is doubled twice ("{{{{" prints "{{").
"""

from __future__ import annotations

TOOLS: dict[str, dict[str, str | dict[str, str]]] = {"en": {
    # words check: FILE:LINE: one of these
    "words_not_toml": "not valid TOML: {reason}",
    "words_unknown_key": "unknown key {key}: no line of the lesson has this name",
    "words_kind": "{key}: expected {kind}, as the built-in line is",
    "string_list": "a list of strings",
    "words_broken": "{key}: a broken placeholder ({reason}); write a brace as {{{{ or }}}}",
    "words_unknown_placeholder": "{key}: unknown placeholder {names}; this line takes {takes}",
    "no_placeholders": "none",
    "words_lost_placeholder": "{key}: placeholder {names} missing",
    "words_none_here": "no words for {lang} here (expected {folder}/<name>.toml, as "
                       "`attention-lesson words export --lang {lang}` writes them)",
    "words_missing_key": "missing key {key} (every key is needed for a language with no built-in words; "
                         "the {reference} line: {line})",
    "words_fine_all": "{folder}: every line fine",
    "words_fine_files": {"one": "{folder}: {n} file of lines fine",
                         "other": "{folder}: {n} files of lines fine"},
    # batch: the plan's notes, its units and its summary
    "note": "note: {text}",
    "batch_no_context": "{lesson} has no context {context}: skipped",
    "batch_png": "png variants get no joined lesson (a poster frame per scene only)",
    "batch_dark_handout": "a handout of a {theme} variant has {theme} frames (much ink); "
                          "themes = [\"light\"] makes the printable one",
    "batch_would_render": "would render",
    "batch_would_build": "would build",
    "batch_up_to_date": "up to date",
    "batch_summary": "{stale} to do in {tasks} tasks ({shared} shared between variants), {fresh} up to date, "
                     "{variants} variants",
}, "zh": {
    "words_not_toml": "不是合法的 TOML：{reason}",
    "words_unknown_key": "未知的键 {key}：课里没有哪一句叫这个名字",
    "words_kind": "{key}：应为 {kind}，与内置的这一句相同",
    "string_list": "一列字符串",
    "words_broken": "{key}：占位符写坏了（{reason}）；花括号本身请写成 {{{{ 或 }}}}",
    "words_unknown_placeholder": "{key}：未知的占位符 {names}；这一句可用的是 {takes}",
    "no_placeholders": "无",
    "words_lost_placeholder": "{key}：缺少占位符 {names}",
    "words_none_here": "这里没有 {lang} 的文字（应为 {folder}/<name>.toml，"
                       "即 `attention-lesson words export --lang {lang}` 写出的文件）",
    "words_missing_key": "缺少键 {key}（没有内置文字的语言每个键都要有；{reference} 的这一句：{line}）",
    "words_fine_all": "{folder}：每一句都可以使用",
    "words_fine_files": "{folder}：{n} 个文件里的句子都可以使用",
    "note": "提示：{text}",
    "batch_no_context": "{lesson} 没有语境 {context}：跳过",
    "batch_png": "png 变体不合成整课视频（每个场景只有一帧封面）",
    "batch_dark_handout": "{theme} 变体的讲义画面也是 {theme}（很费墨）；"
                          "themes = [\"light\"] 生成适合打印的讲义",
    "batch_would_render": "将渲染",
    "batch_would_build": "将生成",
    "batch_up_to_date": "已是最新",
    "batch_summary": "待做 {stale} 项，共 {tasks} 个任务（变体之间共用 {shared} 项），{fresh} 项已是最新，"
                     "{variants} 个变体",
}, "ja": {
    "words_not_toml": "有効な TOML ではありません：{reason}",
    "words_unknown_key": "不明なキー {key}：この名前の行はレッスンにありません",
    "words_kind": "{key}：組み込みの行と同じく {kind} が必要です",
    "string_list": "文字列のリスト",
    "words_broken": "{key}：プレースホルダーが壊れています（{reason}）。"
                    "波かっこそのものは {{{{ または }}}} と書きます",
    "words_unknown_placeholder": "{key}：不明なプレースホルダー {names}。この行で使えるのは {takes}",
    "no_placeholders": "なし",
    "words_lost_placeholder": "{key}：プレースホルダー {names} がありません",
    "words_none_here": "ここには {lang} の言葉がありません（`attention-lesson words export --lang {lang}` "
                       "が書き出す {folder}/<name>.toml が必要です）",
    "words_missing_key": "キー {key} がありません（組み込みの言葉がない言語にはすべてのキーが必要です。"
                         "{reference} の行：{line}）",
    "words_fine_all": "{folder}：すべての行が使えます",
    "words_fine_files": "{folder}：{n} 個のファイルの行はすべて使えます",
    "note": "注記：{text}",
    "batch_no_context": "{lesson} には文脈 {context} がないため、スキップします",
    "batch_png": "png のバリアントには通しのレッスン動画がありません（シーンごとのポスターフレームのみ）",
    "batch_dark_handout": "{theme} のバリアントの配布資料はフレームも {theme} です（インクを多く使います）。"
                          "themes = [\"light\"] で印刷向けになります",
    "batch_would_render": "レンダリング予定",
    "batch_would_build": "作成予定",
    "batch_up_to_date": "最新",
    "batch_summary": "実行予定 {stale} 件（タスク {tasks} 個、うちバリアント間で共有 {shared} 件）、"
                     "最新 {fresh} 件、バリアント {variants} 個",
}}

# Python's reasons for refusing a {placeholder} (string.Formatter), said where a language has them;
# matched whole, a reason not listed shown as Python wrote it.
FORMAT_REASONS = {"zh": [
    (r"Single '([{}])' encountered in format string", "单独的 '{0}'"),
    (r"expected '}' before end of string", "结尾之前缺少 '}}'"),
    (r"unmatched '{' in format spec", "格式说明里的 '{{' 没有配对"),
], "ja": [
    (r"Single '([{}])' encountered in format string", "単独の '{0}'"),
    (r"expected '}' before end of string", "文字列の終わりまでに '}}' がない"),
    (r"unmatched '{' in format spec", "書式指定の '{{' が閉じていない"),
]}
