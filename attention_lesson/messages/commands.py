"""The words of the commands' own lines, in en, zh and ja: `new`, a build's dry run and outcome, the
voice commands, `doctor`, batch's notes counted and its missing extra. Joined into the core's tables
(attention_core/messages.py) by this package and said through `errors.text`, as answers.py's ANSWERS
are; the language is the command's (attention_core.language)."""

from __future__ import annotations

COMMANDS: dict[str, dict[str, str]] = {"en": {
    "new_exists": "{path} exists; use --force to overwrite it",
    "new_no_folder": "no folder {folder} for {name}",
    "new_copied": "{path}: {language} has no starter of its own: copied the {copied} one (comments in "
                  "{copied}, lang = \"{copied}\"{words}); show it in {language} with --lang {language}",
    "new_written": "{path}: a starter lesson. Next: attention-lesson check {command}",
    "render_failed": "{id} failed: {error}",
    "render_not_made": "not made: {names}",
    "render_drafted": "no recording for {n} steps, {voice} speaks them: {steps}",
    "render_summary": "{rendered} rendered, {fresh} up to date, {failed} failed",
    "render_made": "{name} made",
    "render_fresh": "{name} up to date",
    "render_nothing": "nothing made",
    "cli_not_a_folder": "{folder} is not a folder",
    "doctor_job_ffmpeg": "joins the scenes, muxes the voice, makes GIFs and ProRes",
    "doctor_job_cairo": "draw every frame (through manim's pycairo and ManimPango)",
    "doctor_job_font": "the Chinese (and every other) text on screen",
    "doctor_job_espeak": "the draft voice (--voice draft, and --voice neural where no neural voice is)",
    "doctor_job_chromium": "prints the handout to PDF",
    "doctor_needed": "{job}; needed by: {commands}",
    "doctor_extra": "[{extra}] for {command}",
    "doctor_voices": "voices, as installed here, with their licences:",
    "doctor_render_needs": "A render needs {tools}: install as above.",
    "doctor_all_here": "Everything a render needs is here.",
    "batch_more_notes": "note: {n} more notes (every one: --dry-run --list)",
    "voice_no_neural": "no neural voice for {language}: the draft voice speaks every step (name one with "
                       "--voice piper:PATH.onnx or kokoro:PATH; see the guide's voices page)",
    "voice_not_a_choice": "{given} is neither 'draft', 'neural', 'piper:PATH.onnx', 'kokoro:PATH' nor a "
                          "folder of recordings (DIR/<lang>/<scene>/<nn>-<step>.wav ...)",
    "voice_not_a_guide": "{given}: expected 'neural', 'draft', 'piper:PATH.onnx' or 'kokoro:PATH'",
    "voice_not_built": "scene {id} could not be built: {error}",
    "voice_script_written": "{steps} steps of {scenes} scenes -> {out}",
    "voice_list": "voices for {language}:",
    "batch_needs_dask": "batch runs on Dask, in the extra [batch] (missing: {packages}): "
                        "pip install 'attention-lesson[batch]'",
}, "zh": {
    "new_exists": "{path} 已存在；要覆盖它，请加 --force",
    "new_no_folder": "没有文件夹 {folder}，无法写入 {name}",
    "new_copied": "{path}：{language} 没有自己的起始课件，已复制 {copied} 的（注释是 {copied}，"
                  "lang = \"{copied}\"{words}）；用 --lang {language} 以 {language} 显示",
    "new_written": "{path}：起始课件已写好。下一步：attention-lesson check {command}",
    "render_failed": "{id} 失败：{error}",
    "render_not_made": "未生成：{names}",
    "render_drafted": "{n} 个步骤没有录音，由 {voice} 朗读：{steps}",
    "render_summary": "渲染 {rendered} 个，{fresh} 个已是最新，{failed} 个失败",
    "render_made": "已生成 {name}",
    "render_fresh": "{name} 已是最新",
    "render_nothing": "什么也没生成",
    "cli_not_a_folder": "{folder} 不是文件夹",
    "doctor_job_ffmpeg": "拼接各场景、混入语音、生成 GIF 和 ProRes",
    "doctor_job_cairo": "绘制每一帧（通过 manim 的 pycairo 和 ManimPango）",
    "doctor_job_font": "屏幕上的中文（以及其他所有）文字",
    "doctor_job_espeak": "草稿语音（--voice draft；没有神经语音时 --voice neural 也用它）",
    "doctor_job_chromium": "把讲义打印成 PDF",
    "doctor_needed": "{job}；需要它的命令：{commands}",
    "doctor_extra": "[{extra}]，用于 {command}",
    "doctor_voices": "本机已安装的语音及其许可证：",
    "doctor_render_needs": "渲染需要 {tools}：请按上面的方法安装。",
    "doctor_all_here": "渲染所需的一切都已齐备。",
    "batch_more_notes": "提示：还有 {n} 条提示（全部列出：--dry-run --list）",
    "voice_no_neural": "{language} 没有神经语音：每一步都由草稿语音朗读（可用 --voice piper:PATH.onnx "
                       "或 kokoro:PATH 指定一个；见指南的语音一页）",
    "voice_not_a_choice": "{given} 既不是 'draft'、'neural'、'piper:PATH.onnx'、'kokoro:PATH'，"
                          "也不是录音文件夹（DIR/<lang>/<scene>/<nn>-<step>.wav ...）",
    "voice_not_a_guide": "{given}：应为 'neural'、'draft'、'piper:PATH.onnx' 或 'kokoro:PATH'",
    "voice_not_built": "无法生成场景 {id}：{error}",
    "voice_script_written": "{scenes} 个场景的 {steps} 个步骤 -> {out}",
    "voice_list": "{language} 的语音：",
    "batch_needs_dask": "batch 在 Dask 上运行，需要附加组件 [batch]（缺少：{packages}）："
                        "pip install 'attention-lesson[batch]'",
}, "ja": {
    "new_exists": "{path} はすでにあります。上書きするには --force を付けてください",
    "new_no_folder": "{name} を書くフォルダー {folder} がありません",
    "new_copied": "{path}：{language} には専用の雛形がないため、{copied} のものを写しました"
                  "（コメントは {copied}、lang = \"{copied}\"{words}）。"
                  "{language} で表示するには --lang {language}",
    "new_written": "{path}：雛形のレッスンを書きました。次は：attention-lesson check {command}",
    "render_failed": "{id} が失敗しました：{error}",
    "render_not_made": "作成できなかったもの：{names}",
    "render_drafted": "{n} 個のステップに録音がないため、{voice} が読みます：{steps}",
    "render_summary": "レンダリング {rendered} 本、最新 {fresh} 本、失敗 {failed} 本",
    "render_made": "{name} を作成",
    "render_fresh": "{name} は最新",
    "render_nothing": "作成したものはありません",
    "cli_not_a_folder": "{folder} はフォルダーではありません",
    "doctor_job_ffmpeg": "シーンをつなぎ、音声を合わせ、GIF と ProRes を作る",
    "doctor_job_cairo": "すべてのフレームを描く（manim の pycairo と ManimPango を通して）",
    "doctor_job_font": "画面の中国語（とその他すべての）文字",
    "doctor_job_espeak": "下書き音声（--voice draft。ニューラル音声がないときは --voice neural でも）",
    "doctor_job_chromium": "配布資料を PDF に印刷する",
    "doctor_needed": "{job}。使うコマンド：{commands}",
    "doctor_extra": "[{extra}]：{command} 用",
    "doctor_voices": "このマシンに入っている音声とそのライセンス：",
    "doctor_render_needs": "レンダリングには {tools} が必要です。上の方法で入れてください。",
    "doctor_all_here": "レンダリングに必要なものはすべてそろっています。",
    "batch_more_notes": "注記：あと {n} 件の注記があります（すべて表示：--dry-run --list）",
    "voice_no_neural": "{language} のニューラル音声がありません。すべての段階を下書き音声が読みます"
                       "（--voice piper:PATH.onnx か kokoro:PATH で指定できます。"
                       "ガイドの音声のページを参照）",
    "voice_not_a_choice": "{given} は 'draft'、'neural'、'piper:PATH.onnx'、'kokoro:PATH' のどれでもなく、"
                          "録音のフォルダー（DIR/<lang>/<scene>/<nn>-<step>.wav ...）でもありません",
    "voice_not_a_guide": "{given}：'neural'、'draft'、'piper:PATH.onnx'、'kokoro:PATH' の"
                         "いずれかを指定してください",
    "voice_not_built": "シーン {id} を作れませんでした：{error}",
    "voice_script_written": "{scenes} シーンの {steps} 段階 -> {out}",
    "voice_list": "{language} の音声：",
    "batch_needs_dask": "batch は Dask で動きます。追加機能 [batch] が必要です（不足：{packages}）："
                        "pip install 'attention-lesson[batch]'",
}}
