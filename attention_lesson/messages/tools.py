"""The words of the tools around a lesson, in en, zh and ja: `words check`'s summary (its FILE:LINE:
messages are the words check's own, scenes/common/words_messages.py), the notes and summary of a batch
plan, a command's language and words folder, `words export`'s comments. Joined into the core's tables
(attention_core/messages.py) by this package, so `errors.text` and `errors.located` say them as they say
a lesson's errors: `FILE:LINE: message`, fields filled, a tight language without spaces between its
characters. The same entries and fields in every language (tests/test_tool_messages.py holds them
together).

Placeholders a teacher writes ({focus}) reach a message as a field's value, never as its template: a
brace the template itself prints is doubled twice ("{{{{" prints "{{")."""

from __future__ import annotations

TOOLS: dict[str, dict[str, str | dict[str, str]]] = {"en": {
    # words check: its summary
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
    "batch_counts": "{variants} variants, {scenes} scenes: {clips} clips ({made} already made), {products} "
                    "products ({products_made} already made)",
    "batch_list_hint": "every job of every variant, and where it goes: --dry-run --list",
    "batch_confirm": "{clips} clips to render in {tasks} tasks (more than {limit}): start?",
    "batch_needs_yes": "{clips} clips to render in {tasks} tasks, more than {limit}, and no terminal to "
                       "ask in: add --yes to start them (--dry-run to see the plan)",
    "batch_summary": "{stale} to do in {tasks} tasks ({shared} shared between variants), {fresh} up to date, "
                     "{variants} variants",
    # batch: what is wrong with a plan file (FILE:LINE: key: one of these)
    "plan_at_key": "{key}: {text}",
    "plan_strings": "expected a non-empty list of strings, found {found}",
    "plan_unknown": "unknown {what} {names}; choose from: {choices}",
    "plan_modes": "mode",
    "plan_langs": "language",
    "plan_themes": "theme",
    "plan_qualities": "quality",
    "plan_formats": "format",
    "plan_scenes": "scene",
    "plan_products": "product",
    "plan_no_file": "no such plan file",
    "plan_unreadable": "cannot read it: {reason}",
    "plan_not_toml": "not valid TOML: {reason}",
    "plan_unknown_key": "unknown key {names}; the keys are: {keys}",
    "plan_folder": "expected a folder (a string), found {found}",
    "plan_no_lesson": "{entry} is neither a lesson file ({file}) nor a packaged lesson",
    "plan_lesson_unreadable": "{entry}: {reason}",
    "plan_same_stem": "{a} and {b} would share the output folder {stem}/: rename one",
    "plan_context_nowhere": "{names} is in none of the lessons ({have})",
    "plan_needs_video": "{products} needs a video format (mp4, webm, gif or mov); formats has only png",
    "plan_no_lessons": "name at least one lesson (a packaged name or a file)",
    "plan_langs_env": "none named, and {reason}",
    # batch: the dry run's estimate of the wall time (its critical path)
    "path_none": "critical path: no scene to draw (products are not timed)",
    "path_workers": {"one": "{n} worker", "other": "{n} workers"},
    "path_on_assumed": "{workers} ({assumed})",
    "path_threads_now": "the scheduler's threads now",
    "path_no_workers": "assumed: the scheduler has no workers yet",
    "path_no_answer": "assumed: the scheduler did not answer",
    "path_wall": "critical path on {on}: about {wall} s = max(work {work} s / {workers} = {per} s, "
                 "longest chain {longest} s)",
    "path_chain": "longest chain: {where}, {cost} s {how}",
    "path_pieces": "in {pieces} pieces: {at_once} at once, then the join",
    "path_whole": "whole",
    "path_split": "{split} of {n} scene tasks in pieces; timings: {known} known, {estimated} "
                  "estimated{source}; products not timed (0 s)",
    "path_source_scaled": " (packaged 480p15 seconds, scaled to the timed scenes)",
    "path_source_packaged": " (packaged 480p15 seconds)",
    # batch: what a run says
    "batch_done": "{done} done, {fresh} up to date, {failed} failed in {wall} s ({tasks} tasks on {workers} "
                  "workers{dask}) -> {out}",
    "batch_dask_gap": "; Dask between tasks: {ms} ms, {pct}% of a task",
    "batch_nothing": "0 done, {fresh} up to date, 0 failed -> {out}",
    "batch_failed": "{what} failed in {variant}: {error}",
    "batch_waiting": "the scheduler has no workers yet: waiting for some",
    "batch_dashboard": "Dask dashboard: {link}",
    # any command stopped by Ctrl-C: one line, exit status 130 (a build says that it cleaned up)
    "interrupted": "interrupted",
    "interrupted_out": "interrupted: nothing half-written left in {out}",
    "batch_missing_here": "missing on this machine:",
    "batch_missing_workers": "missing on workers:",
    "batch_no_scheduler": "no Dask scheduler answered at {address} within {seconds} s: start one there "
                          "(dask scheduler) or check the address and port; without --scheduler the batch "
                          "runs on this machine",
    "batch_bad_address": "--scheduler {address}: not a Dask scheduler's address; write it as "
                         "tcp://host:8786",
    "batch_worker_died": "{what} failed in {variant}: every Dask worker that ran it died (out of memory? "
                         "see the workers' logs)",
    "batch_task_lost": "{what} failed in {variant}: the Dask scheduler lost it (did the scheduler stop?)",
    # a language, and a words folder, a command is given
    "words_no_builtin": "--lang {language}: no built-in words for {language}; give them with --words DIR "
                        "(DIR/{language}/*.toml: `{export}` writes the English lines to translate)",
    "words_no_folder": "words: no folder {folder}",
    "words_not_a_folder": "{folder}: no such folder",
    "words_from": "{source} has no built-in words",
    "out_blocked": "{folder} cannot be made: {blocker} is not a folder",
    "out_not_writable": "{folder}: {blocker} cannot be written in",
    "batch_workers_or_scheduler": "--workers sizes the local cluster; with --scheduler the cluster's own "
                                  "workers render",
    "words_more": "{first} (and {n} more: attention-lesson words check {folder} --lang {language})",
    # the studio's narration field
    "line_empty": "an empty line: write the step's narration, or restore the built-in line",
    # words export: the comments over the exported files and keys
    "export_head": "{language}: {what}.",
    "export_edit": "Edit any line; delete the ones you keep as they are (a missing key keeps the built-in "
                   "line).",
    "export_edit_new": "Translate every line and keep every key: a language with no built-in words needs "
                       "them all (words check names any missing).",
    "export_check": "Check with: attention-lesson words check DIR --lang {language}",
    "export_common": "shared: every scene, the decks, the handout and the pages",
    "export_deck": "the slide decks (HTML and PPTX) and their speaker notes",
    "export_handout": "the handout (HTML and PDF) and its exercises",
    "export_explorer": "the explorer page",
    "export_studio": "the studio page",
    "export_speech": "how the draft voice reads numbers and symbols (heard, never shown)",
    "export_scene": "the scene {scene}, “{title}”",
    "export_words_of": "the words of {name}",
    "export_say": "narration of step {step}: spoken, the subtitles, the speaker notes, steps.json",
    "export_title": "the scene's title: its heading, the lesson's lists, the decks, the contact sheet",
    "export_short": "the scene's name on the studio's timeline",
    "export_step_name": "the name of step {step} on the studio's timeline and in its preview",
    "export_on_screen": "on screen",
    "export_takes": "{where}; placeholders {names}",
    "export_takes_none": "{where}; no placeholders",
}, "zh": {
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
    "batch_counts": "{variants} 个变体，{scenes} 个场景：{clips} 个片段（已做好 {made} 个），"
                    "{products} 个产物（已做好 {products_made} 个）",
    "batch_list_hint": "每个变体的每项工作及其去处：--dry-run --list",
    "batch_confirm": "要渲染 {clips} 个片段，共 {tasks} 个任务（超过 {limit}）：开始吗？",
    "batch_needs_yes": "要渲染 {clips} 个片段，共 {tasks} 个任务，超过 {limit}，且没有终端可以询问："
                       "加 --yes 开始（--dry-run 查看计划）",
    "batch_summary": "待做 {stale} 项，共 {tasks} 个任务（变体之间共用 {shared} 项），{fresh} 项已是最新，"
                     "{variants} 个变体",
    "plan_at_key": "{key}：{text}",
    "plan_strings": "应为非空的字符串列表，实际：{found}",
    "plan_unknown": "未知的{what} {names}；可选：{choices}",
    "plan_modes": "归一化方式",
    "plan_langs": "语言",
    "plan_themes": "主题",
    "plan_qualities": "画质",
    "plan_formats": "格式",
    "plan_scenes": "场景",
    "plan_products": "产物",
    "plan_no_file": "没有这个计划文件",
    "plan_unreadable": "无法读取：{reason}",
    "plan_not_toml": "不是合法的 TOML：{reason}",
    "plan_unknown_key": "未知的键 {names}；可用的键：{keys}",
    "plan_folder": "应为一个文件夹（字符串），实际：{found}",
    "plan_no_lesson": "{entry} 既不是课件文件（{file}），也不是内置课件",
    "plan_lesson_unreadable": "{entry}：{reason}",
    "plan_same_stem": "{a} 和 {b} 会共用输出文件夹 {stem}/：请给其中一个改名",
    "plan_context_nowhere": "没有哪一课有语境 {names}（{have}）",
    "plan_needs_video": "{products} 需要视频格式（mp4、webm、gif 或 mov）；formats 里只有 png",
    "plan_no_lessons": "至少写一课（内置课件的名字或一个文件）",
    "plan_langs_env": "没有写，而且 {reason}",
    "path_none": "关键路径：没有要画的场景（产物不计时）",
    "path_workers": "{n} 个工作进程",
    "path_on_assumed": "{workers}，{assumed}",
    "path_threads_now": "调度器当前的线程数",
    "path_no_workers": "假定：调度器还没有工作进程",
    "path_no_answer": "假定：调度器没有应答",
    "path_wall": "关键路径（{on}）：约 {wall} 秒 = max(工作量 {work} 秒 / {workers} = {per} 秒，"
                 "最长链 {longest} 秒)",
    "path_chain": "最长链：{where}，{cost} 秒，{how}",
    "path_pieces": "分 {pieces} 段：{at_once} 段同时画，再拼接",
    "path_whole": "不分段",
    "path_split": "{n} 个场景任务中 {split} 个分段；计时：{known} 个已知，{estimated} 个估计{source}；"
                  "产物不计时（0 秒）",
    "path_source_scaled": "（按内置的 480p15 秒数，以已计时的场景缩放）",
    "path_source_packaged": "（按内置的 480p15 秒数）",
    "batch_done": "完成 {done} 项，{fresh} 项已是最新，{failed} 项失败，用时 {wall} 秒（{tasks} 个任务，"
                  "{workers} 个工作进程{dask}）-> {out}",
    "batch_dask_gap": "；任务之间 Dask 用去 {ms} 毫秒，是一个任务的 {pct}%",
    "batch_nothing": "完成 0 项，{fresh} 项已是最新，0 项失败 -> {out}",
    "batch_failed": "{what} 在 {variant} 中失败：{error}",
    "batch_waiting": "调度器还没有工作进程：等待中",
    "batch_dashboard": "Dask 仪表板：{link}",
    "interrupted": "已中断",
    "interrupted_out": "已中断：{out} 中没有留下写了一半的文件",
    "batch_missing_here": "本机缺少：",
    "batch_missing_workers": "工作进程上缺少：",
    "batch_no_scheduler": "{address} 处的 Dask 调度器在 {seconds} 秒内没有应答："
                          "请在那里启动一个（dask scheduler），或检查地址和端口；"
                          "不加 --scheduler 时批量任务在本机运行",
    "batch_bad_address": "--scheduler {address}：不是 Dask 调度器的地址；请写成 tcp://host:8786",
    "batch_worker_died": "{what} 在 {variant} 中失败：运行它的每个 Dask 工作进程都退出了"
                         "（内存不足？请查看工作进程的日志）",
    "batch_task_lost": "{what} 在 {variant} 中失败：Dask 调度器丢失了这个任务（调度器停止了吗？）",
    "words_no_builtin": "--lang {language}：没有内置的 {language} 文字；请用 --words DIR 提供"
                        "（DIR/{language}/*.toml：`{export}` 会写出要翻译的英文句子）",
    "words_no_folder": "words：没有文件夹 {folder}",
    "words_not_a_folder": "{folder}：没有这个文件夹",
    "words_from": "{source} 没有内置的文字",
    "out_blocked": "无法建立 {folder}：{blocker} 不是文件夹",
    "out_not_writable": "{folder}：无法写入 {blocker}",
    "batch_workers_or_scheduler": "--workers 决定本机集群的大小；用 --scheduler 时由集群自己的工作进程渲染",
    "words_more": "{first}（另有 {n} 处：attention-lesson words check {folder} --lang {language}）",
    "line_empty": "这一句是空的：请写上这一步的旁白，或恢复内置的句子",
    "export_head": "{language}：{what}。",
    "export_edit": "任何一句都可以改；不改的句子可以删掉（缺少的键沿用内置的句子）。",
    "export_edit_new": "请翻译每一句并保留每个键：没有内置文字的语言每个键都要有"
                       "（words check 会指出缺少的键）。",
    "export_check": "检查：attention-lesson words check DIR --lang {language}",
    "export_common": "共用：每个场景、幻灯片、讲义和各个页面",
    "export_deck": "幻灯片（HTML 和 PPTX）及其演讲者备注",
    "export_handout": "讲义（HTML 和 PDF）及其练习",
    "export_explorer": "探索页",
    "export_studio": "工作室页面",
    "export_speech": "草稿配音怎样读数字和符号（只听到，不显示）",
    "export_scene": "场景 {scene}，“{title}”",
    "export_words_of": "{name} 的文字",
    "export_say": "步骤 {step} 的旁白：配音、字幕、演讲者备注、steps.json",
    "export_title": "场景的标题：标题栏、课程的列表、幻灯片、缩略图总览",
    "export_short": "场景在工作室时间轴上的名字",
    "export_step_name": "第 {step} 步在工作室时间轴和预览中的名字",
    "export_on_screen": "画面上",
    "export_takes": "{where}；占位符 {names}",
    "export_takes_none": "{where}；没有占位符",
}, "ja": {
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
    "batch_counts": "バリアント {variants} 個、シーン {scenes} 個：クリップ {clips} 本"
                    "（作成済み {made} 本）、成果物 {products} 個（作成済み {products_made} 個）",
    "batch_list_hint": "各バリアントのすべてのジョブと出力先：--dry-run --list",
    "batch_confirm": "クリップ {clips} 本（タスク {tasks} 個、{limit} 超）をレンダリングしますか？",
    "batch_needs_yes": "クリップ {clips} 本（タスク {tasks} 個）は {limit} を超え、確認する端末がありません："
                       "開始するには --yes を付けてください（計画は --dry-run で確認）",
    "batch_summary": "実行予定 {stale} 件（タスク {tasks} 個、うちバリアント間で共有 {shared} 件）、"
                     "最新 {fresh} 件、バリアント {variants} 個",
    "plan_at_key": "{key}：{text}",
    "plan_strings": "空でない文字列のリストが必要ですが、実際は {found}",
    "plan_unknown": "不明な{what} {names}。選べるのは {choices}",
    "plan_modes": "正規化",
    "plan_langs": "言語",
    "plan_themes": "テーマ",
    "plan_qualities": "画質",
    "plan_formats": "形式",
    "plan_scenes": "シーン",
    "plan_products": "成果物",
    "plan_no_file": "そのような計画ファイルはありません",
    "plan_unreadable": "読み込めません：{reason}",
    "plan_not_toml": "有効な TOML ではありません：{reason}",
    "plan_unknown_key": "不明なキー {names}。使えるキーは {keys}",
    "plan_folder": "フォルダー（文字列）が必要ですが、実際は {found}",
    "plan_no_lesson": "{entry} はレッスンファイル（{file}）でも組み込みのレッスンでもありません",
    "plan_lesson_unreadable": "{entry}：{reason}",
    "plan_same_stem": "{a} と {b} が出力フォルダー {stem}/ を共有してしまいます。"
                      "どちらかの名前を変えてください",
    "plan_context_nowhere": "文脈 {names} はどのレッスンにもありません（{have}）",
    "plan_needs_video": "{products} には動画の形式（mp4、webm、gif、mov）が必要ですが、"
                        "formats は png だけです",
    "plan_no_lessons": "レッスンを少なくとも 1 つ書いてください（組み込みの名前かファイル）",
    "plan_langs_env": "書かれておらず、{reason}",
    "path_none": "クリティカルパス：描くシーンがありません（成果物は計時しません）",
    "path_workers": "ワーカー {n} 個",
    "path_on_assumed": "{workers}、{assumed}",
    "path_threads_now": "スケジューラーの現在のスレッド数",
    "path_no_workers": "仮定：スケジューラーにまだワーカーがいません",
    "path_no_answer": "仮定：スケジューラーが応答しません",
    "path_wall": "クリティカルパス（{on}）：約 {wall} 秒 = max(作業量 {work} 秒 / {workers} = {per} 秒、"
                 "最長の連鎖 {longest} 秒)",
    "path_chain": "最長の連鎖：{where}、{cost} 秒、{how}",
    "path_pieces": "{pieces} 分割：{at_once} 個を同時に描き、最後に結合",
    "path_whole": "分割なし",
    "path_split": "シーンのタスク {n} 個のうち {split} 個を分割。計時：既知 {known} 個、推定 {estimated} 個"
                  "{source}。成果物は計時しません（0 秒）",
    "path_source_scaled": "（組み込みの 480p15 の秒数を、計時済みのシーンに合わせて換算）",
    "path_source_packaged": "（組み込みの 480p15 の秒数）",
    "batch_done": "完了 {done} 件、最新 {fresh} 件、失敗 {failed} 件、{wall} 秒（タスク {tasks} 個、"
                  "ワーカー {workers} 個{dask}）-> {out}",
    "batch_dask_gap": "。タスク間の Dask：{ms} ミリ秒、タスクの {pct}%",
    "batch_nothing": "完了 0 件、最新 {fresh} 件、失敗 0 件 -> {out}",
    "batch_failed": "{variant} の {what} が失敗しました：{error}",
    "batch_waiting": "スケジューラーにまだワーカーがいません：待っています",
    "batch_dashboard": "Dask ダッシュボード：{link}",
    "interrupted": "中断しました",
    "interrupted_out": "中断しました：{out} に書きかけのファイルは残っていません",
    "batch_missing_here": "このマシンに足りないもの：",
    "batch_missing_workers": "ワーカーに足りないもの：",
    "batch_no_scheduler": "{address} の Dask スケジューラーが {seconds} 秒以内に応答しません：そこで起動する"
                          "（dask scheduler）か、アドレスとポートを確かめてください。--scheduler なしなら"
                          "このマシンで実行します",
    "batch_bad_address": "--scheduler {address}：Dask スケジューラーのアドレスではありません。"
                         "tcp://host:8786 のように書きます",
    "batch_worker_died": "{variant} の {what} が失敗しました：実行したワーカーがすべて落ちました"
                         "（メモリー不足？ワーカーのログを見てください）",
    "batch_task_lost": "{variant} の {what} が失敗しました：Dask スケジューラーがタスクを失いました"
                       "（スケジューラーは止まりましたか？）",
    "words_no_builtin": "--lang {language}：{language} の組み込みの言葉がありません。"
                        "--words DIR で渡してください"
                        "（DIR/{language}/*.toml：`{export}` が翻訳する英語の行を書き出します）",
    "words_no_folder": "words：フォルダー {folder} がありません",
    "words_not_a_folder": "{folder}：そのようなフォルダーはありません",
    "words_from": "{source} には組み込みの言葉がありません",
    "out_blocked": "{folder} を作れません：{blocker} はフォルダーではありません",
    "out_not_writable": "{folder}：{blocker} に書き込めません",
    "batch_workers_or_scheduler": "--workers はローカルクラスターの大きさです。--scheduler のときは"
                                  "クラスター自身のワーカーがレンダリングします",
    "words_more": "{first}（ほかに {n} 件：attention-lesson words check {folder} --lang {language}）",
    "line_empty": "行が空です：このステップのナレーションを書くか、組み込みの行に戻してください",
    "export_head": "{language}：{what}。",
    "export_edit": "どの行も編集できます。変えない行は消してかまいません"
                   "（ないキーは組み込みの行のままです）。",
    "export_edit_new": "すべての行を翻訳し、キーはすべて残してください：組み込みの言葉がない言語には"
                       "すべてのキーが必要です（足りないキーは words check が示します）。",
    "export_check": "チェック：attention-lesson words check DIR --lang {language}",
    "export_common": "共通：すべてのシーン、スライド、配布資料、各ページ",
    "export_deck": "スライド（HTML と PPTX）とその発表者ノート",
    "export_handout": "配布資料（HTML と PDF）とその練習問題",
    "export_explorer": "エクスプローラーのページ",
    "export_studio": "スタジオのページ",
    "export_speech": "下書き音声が数字や記号をどう読むか（聞こえるだけで、表示されません）",
    "export_scene": "シーン {scene}「{title}」",
    "export_words_of": "{name} の言葉",
    "export_say": "ステップ {step} のナレーション：音声、字幕、発表者ノート、steps.json",
    "export_title": "シーンのタイトル：見出し、レッスンの一覧、スライド、サムネイル一覧",
    "export_short": "スタジオのタイムラインでのシーン名",
    "export_step_name": "ステップ {step} のスタジオのタイムラインとプレビューでの名前",
    "export_on_screen": "画面上",
    "export_takes": "{where}。プレースホルダー {names}",
    "export_takes_none": "{where}。プレースホルダーなし",
}}

