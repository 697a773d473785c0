"""What the tools around a lesson say to a teacher in zh and ja, as `check` says a lesson's errors: `words
check` (FILE:LINE: message, exit 2, no traceback), the batch plan's notes and dry run, the studio's
line check and its render languages. The words are the words check's (scenes/common/words_messages.py)
and attention_lesson's (attention_lesson/messages/tools.py), each joined into the core's EN, ZH and JA
(attention_core/messages.py); English stays as it was (tests/test_words.py, tests/test_batch.py)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from click.testing import CliRunner

from attention_core.messages import EN, JA, MESSAGES, ZH
from attention_lesson.cli import main
from attention_lesson.messages.tools import TOOLS
from attention_lesson.outputs.words import export
from scenes.common.words import builtin_entries
from scenes.common.words_messages import FORMAT_REASONS, WORDS, FormatReason

from .conftest import LESSONS

FIELDS = re.compile(r"{(\w+)}")
KANA = re.compile(r"[\u3040-\u30ff]")
ENGLISH = re.compile(r"\b(expected|found|unknown|missing|placeholder|key|line|note|would|render|build|"
                     r"up to date|skipped|variants?|tasks?|valid|file|words|fine|none)\b")
BROKEN_WORDS = ('[softmax]\nweights_of = "{focus の重み"\n\n[softmax.say]\n'
                'to_weights = "ソフトマックス：{scores}。"\nreading = "{tip} と {focus}"\n'
                'my_step = "こんにちは"\n')


def run(*args: str, env: dict | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), env=env)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output, r.output
    return r.exit_code, r.output


def said(output: str, folder: Path) -> list[str]:
    """The lines, the folder's path written DIR."""
    return output.replace(str(folder), "DIR").splitlines()


def prose(line: str) -> str:
    """A line without what the teacher wrote or a program's name: the key, placeholders, quotes, paths."""
    return re.sub(r"'[^']*'|\{+\w*\}+|[\w./<>-]*(\.toml|_\w+)[\w.:]*|`[^`]*`|\bDIR\S*", "", line)


@pytest.mark.parametrize("tables", [TOOLS, WORDS], ids=["tools", "words check"])
def test_every_language_has_every_entry_with_the_same_fields(tables):
    assert set(tables["en"]) == set(tables["zh"]) == set(tables["ja"])
    for code, entry in tables["en"].items():
        other = entry["other"] if isinstance(entry, dict) else entry
        for lang in ("zh", "ja"):
            assert isinstance(tables[lang][code], str), code  # no plural in zh or ja
            assert set(FIELDS.findall(tables[lang][code])) == set(FIELDS.findall(other)), (lang, code)
    for table, lang in ((EN, "en"), (ZH, "zh"), (JA, "ja")):  # joined into the core's tables
        assert all(table[k] is tables[lang][k] for k in tables[lang]) and MESSAGES[lang] is table


def test_pythons_reasons_for_a_broken_placeholder_are_said_in_zh_and_ja():
    assert [p for p, _ in FORMAT_REASONS["zh"]] == [p for p, _ in FORMAT_REASONS["ja"]]
    for text in ("a {b", "a }", "a {", "{a:{b}"):
        with pytest.raises(ValueError) as e:
            list(string.Formatter().parse(text))
        reason = FormatReason(str(e.value))
        assert reason.said("en") == str(e.value)
        assert reason.said("zh") != str(e.value) and KANA.search(reason.said("ja")), (text, str(e.value))
    assert FormatReason("Single '}' encountered in format string").said("ja") == "単独の '}'"
    assert FormatReason("expected '}' before end of string").said("zh") == "结尾之前缺少 '}'"


JAPANESE = [
    "DIR/ja/softmax.toml:2: softmax.weights_of：プレースホルダーが壊れています（文字列の終わりまでに '}' が"
    "ない）。波かっこそのものは {{ または }} と書きます",
    "DIR/ja/softmax.toml:6: softmax.say.reading：不明なプレースホルダー {tip}。この行で使えるのは {focus}、"
    "{rest}、{self_pct}、{top}、{top_pct}",
    "DIR/ja/softmax.toml:7: 不明なキー 'softmax.say.my_step'：この名前の行はレッスンにありません",
    "DIR/ja/softmax.toml:5: 警告：softmax.say.to_weights：プレースホルダー {weights} が使われていません："
    "この行はそれを言いません（意図どおりなら問題ありません）",
]


def test_words_check_says_a_real_broken_folder_in_japanese_at_the_lines_english_names(tmp_path):
    for lang in ("ja", "zh", "en"):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "softmax.toml").write_text(BROKEN_WORDS, encoding="utf-8")
    code, out = run("words", "check", str(tmp_path), "--lang", "ja")
    assert (code, said(out, tmp_path)) == (2, JAPANESE)
    en = said(run("words", "check", str(tmp_path), "--lang", "en")[1], tmp_path)
    zh = said(run("words", "check", str(tmp_path), "--lang", "zh")[1], tmp_path)
    at = [line.split(": ", 1)[0].replace("/en/", "/ja/") for line in en]
    assert [line.split(": ", 1)[0].replace("/zh/", "/ja/") for line in zh] == at == \
           [line.split(": ", 1)[0] for line in JAPANESE]
    assert zh[2] == "DIR/zh/softmax.toml:7: 未知的键 'softmax.say.my_step'：课里没有哪一句叫这个名字"
    assert zh[3] == "DIR/zh/softmax.toml:5: 警告：softmax.say.to_weights：没有用到占位符 {weights}：" \
                    "这一句不会说出它（如果是有意的，没有问题）"
    for line in zh + JAPANESE:
        assert not ENGLISH.search(prose(line)), line
    assert en[3] == "DIR/en/softmax.toml:5: warning: softmax.say.to_weights: placeholder {weights} left " \
                    "out: the line does not say it (fine if meant)"


def test_a_file_that_is_not_toml_and_a_fine_folder_in_zh_and_ja(tmp_path):
    for lang in ("ja", "zh"):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "deck.toml").write_text('[deck]\ntitle = "x\n', encoding="utf-8")
    assert said(run("words", "check", str(tmp_path), "--lang", "ja")[1], tmp_path) == [
        "DIR/ja/deck.toml:2: 有効な TOML ではありません：不正な文字 '\\n'"]
    assert said(run("words", "check", str(tmp_path), "--lang", "zh")[1], tmp_path) == [
        "DIR/zh/deck.toml:2: 不是合法的 TOML：非法字符 '\\n'"]
    (tmp_path / "ja" / "deck.toml").write_text('[softmax.say]\nto_weights = "{scores} から {weights} へ"\n',
                                               encoding="utf-8")
    assert run("words", "check", str(tmp_path), "--lang", "ja") == (
        0, f"{tmp_path}/ja：1 個のファイルの行はすべて使えます\n")
    code, out = run("words", "check", str(tmp_path), "--lang", "ko")
    assert (code, said(out, tmp_path)) == (2, [
        "DIR/ko:1: no words for ko here (expected DIR/ko/<name>.toml, as `attention-lesson words export "
        "--lang ko` writes them)"])


def test_a_new_language_is_checked_in_the_teachers_language(tmp_path):
    """fr is no built-in language: its messages are in $ATTENTION_LESSON_LANG's language, else English."""
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "softmax.toml").write_text('[softmax]\nweights_of = "poids de {focus"\n',
                                                  encoding="utf-8")
    code, ja = run("words", "check", str(tmp_path), "--lang", "fr", env={"ATTENTION_LESSON_LANG": "ja"})
    _, en = run("words", "check", str(tmp_path), "--lang", "fr", env={"ATTENTION_LESSON_LANG": ""})
    ja, en = said(ja, tmp_path), said(en, tmp_path)
    assert code == 2 and len(ja) == len(en) > 100  # the broken line, and every key fr lacks
    assert ja[0] == "DIR/fr/softmax.toml:2: softmax.weights_of：プレースホルダーが壊れています" \
                    "（文字列の終わりまでに '}' がない）。波かっこそのものは {{ または }} と書きます"
    missing = next(line for line in ja if "'softmax.title'" in line)
    title = json.dumps(builtin_entries("en")["softmax.title"].value, ensure_ascii=False)
    assert missing == ("DIR/fr/softmax.toml:1: キー 'softmax.title' がありません"
                       f"（組み込みの言葉がない言語にはすべてのキーが必要です。en の行：{title}）")
    assert all(KANA.search(line) for line in ja) and not any(KANA.search(line) for line in en)


# -- batch --------------------------------------------------------------------------------------------

@pytest.fixture
def fixture_lessons():
    return ("tiny.toml",)


def write_plan(folder: Path, **keys) -> Path:
    (folder / "plan.toml").write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in keys.items()) + "\n",
                                      encoding="utf-8")
    return folder / "plan.toml"


def test_the_batch_plans_notes_and_dry_run_in_japanese_and_chinese(fixtures):
    """Every line the dry run prints (its units, notes, summary and estimate) in --lang's language, or
    the plan's first language, or $ATTENTION_LESSON_LANG's (attention_core.language's one rule)."""
    tiny = fixtures / "tiny.toml"  # its dimensions named in English only: a note at their line
    tiny.write_text(re.sub(r'(?m)^zh = \["动物".*\n', "", tiny.read_text(encoding="utf-8")), encoding="utf-8")
    plan = write_plan(fixtures, lessons=["default", "tiny.toml"], contexts=["river", "short"], langs=["zh"],
                      scenes=["blink"], products=["scenes", "handout"], out="o")
    code, ja = run("batch", str(plan), "--dry-run", "--list", "--lang", "ja")
    assert code == 0 and ja.splitlines() == [
        "o/default/river-scaled-zh-480p15",
        "  レンダリング予定 blink              -> blink.mp4",
        "  レンダリング予定 blink@frames       -> frames/blink.json",
        "  作成予定         handout            -> handout.html, handout.pdf",
        "o/tiny/short-scaled-zh-480p15",
        "  レンダリング予定 blink              -> blink.mp4",
        "  レンダリング予定 blink@frames       -> frames/blink.json",
        "  作成予定         handout            -> handout.html, handout.pdf",
        "注記：default には文脈 'short' がないため、スキップします",
        "注記：tiny には文脈 'river' がないため、スキップします",
        f"注記：{tiny}:4: 警告：dimensions：zh の言葉がありません（en だけ）。"
        "zh で表示すると汎用の言葉で代用します（次元は v1、v2…、文脈のラベルとヘッドの名前はキー名、"
        "タイトルは汎用のもの。ストーリーは省きます）。zh の項目を加えるか、--lang en を選んでください",
        "注記：dark のバリアントの配布資料はフレームも dark です（インクを多く使います）。"
        "themes = [\"light\"] で印刷向けになります",
        "バリアント 2 個、シーン 1 個：クリップ 4 本（作成済み 0 本）、成果物 2 個（作成済み 0 個）",
        "実行予定 6 件（タスク 6 個、うちバリアント間で共有 0 件）、最新 0 件、バリアント 2 個",
        *ja.splitlines()[14:]]
    wall, chain, split = ja.splitlines()[14:]  # the estimate (its numbers: tests/test_batch_pieces.py)
    assert re.fullmatch(r"クリティカルパス（ワーカー \d+ 個）：約 [\d.]+ 秒 = "
                        r"max\(作業量 [\d.]+ 秒 / \d+ = [\d.]+ 秒、最長の連鎖 [\d.]+ 秒\)", wall), wall
    assert re.fullmatch(r"  最長の連鎖：blink \(\w+/\w+-scaled-zh-480p15\)、[\d.]+ 秒、分割なし",
                        chain), chain
    assert re.fullmatch(r"  シーンのタスク 4 個のうち 0 個を分割。計時：既知 \d 個、推定 \d 個.*。"
                        r"成果物は計時しません（0 秒）", split), split
    assert run("batch", str(plan), "--dry-run", "--list", "--lang", "ja",
               env={"ATTENTION_LESSON_LANG": "en"}) == (0, ja)  # --lang wins over the variable
    _, short = run("batch", str(plan), "--dry-run", "--lang", "ja")  # no --list
    hint = "各バリアントのすべてのジョブと出力先：--dry-run --list"
    assert short.splitlines() == [*ja.splitlines()[8:], hint]
    # the plan's first language (its langs) wins over the variable, as a lesson file's lang does
    _, zh = run("batch", str(plan), "--dry-run", "--list", env={"ATTENTION_LESSON_LANG": "ja"})
    assert zh.splitlines()[1:4] == [
        "  将渲染   blink              -> blink.mp4",
        "  将渲染   blink@frames       -> frames/blink.json",
        "  将生成   handout            -> handout.html, handout.pdf"]
    assert zh.splitlines()[8:11] == [
        "提示：default 没有语境 'short'：跳过", "提示：tiny 没有语境 'river'：跳过",
        f"提示：{tiny}:4: 警告：dimensions：没有 zh 的写法（只有 en）；"
        "用 zh 显示时改用通用的写法（维度写作 v1、v2…，语境的标签和头的名字用其键名，"
        "标题用通用标题；故事不讲）：请补上 zh 条目，或用 --lang en"]
    assert zh.splitlines()[12:14] == ["2 个变体，1 个场景：4 个片段（已做好 0 个），2 个产物（已做好 0 个）",
                                      "待做 6 项，共 6 个任务（变体之间共用 0 项），0 项已是最新，2 个变体"]
    assert zh.splitlines()[14].startswith("关键路径（") and zh.splitlines()[16].endswith("产物不计时（0 秒）")
    for line in zh.splitlines() + ja.splitlines() + short.splitlines():
        assert not ENGLISH.search(prose(line).replace("handout", "")), line
    assert run("batch", str(plan), "--dry-run", env={"ATTENTION_LESSON_LANG": "xx"})[0] == 0  # not asked
    plan.write_text(plan.read_text(encoding="utf-8").replace('langs = ["zh"]\n', ""), encoding="utf-8")
    code, bad = run("batch", str(plan), "--dry-run", env={"ATTENTION_LESSON_LANG": "xx"})  # asked
    assert code == 2 and len(bad.splitlines()) == 1 and "ATTENTION_LESSON_LANG='xx'" in bad


PLAN_ERRORS = {  # a plan file's text: what batch says of it in ja and zh (FILE is the plan's path)
    'lessons = ["default"]\nqualitys = ["low"]\n': (
        "FILE:2: 不明なキー 'qualitys'。使えるキーは lessons, contexts, modes, langs, themes, qualities, "
        "formats, scenes, products, out, shared",
        "FILE:2: 未知的键 'qualitys'；可用的键：lessons, contexts, modes, langs, themes, qualities, formats, "
        "scenes, products, out, shared"),
    'lessons = ["default"]\nmodes = ["cosine"]\n': (
        "FILE:2: modes：不明な正規化 'cosine'。選べるのは scaled, unscaled, uniform",
        "FILE:2: modes：未知的归一化方式 'cosine'；可选：scaled, unscaled, uniform"),
    'lessons = ["default"]\ncontexts = ["lake"]\n': (
        "FILE:2: contexts：文脈 'lake' はどのレッスンにもありません（default: river, savings）",
        "FILE:2: contexts：没有哪一课有语境 'lake'（default: river, savings）"),
    'lessons = [\n': ("FILE:1: 有効な TOML ではありません：無効な値", "FILE:1: 不是合法的 TOML：无效的值"),
    'lessons = ["broken.toml"]\n': (
        "FILE:1: lessons：DIR/broken.toml:2: projections：テーブル [projections] が必要ですが、"
        "実際は何もありません",
        "FILE:1: lessons：DIR/broken.toml:2: projections：应为一个表 [projections]，实际：没有"),
}


def test_a_bad_plan_is_one_line_in_the_teachers_language(tmp_path):
    """--lang, else the plan's own first language, else $ATTENTION_LESSON_LANG: FILE:LINE: key: message,
    exit 2; a lesson the plan names that does not load, said as `check` says it, at its line."""
    (tmp_path / "broken.toml").write_text('focus = "bank"\nvocab = 3\n', encoding="utf-8")
    plan = tmp_path / "plan.toml"
    for text, (ja, zh) in PLAN_ERRORS.items():
        plan.write_text(text, encoding="utf-8")
        for lang, line in (("ja", ja), ("zh", zh)):
            code, out = run("batch", str(plan), "--dry-run", "--lang", lang)
            assert (code, out.replace(str(plan), "FILE").replace(str(tmp_path), "DIR")) == (2, line + "\n")
    plan.write_text('langs = ["ja"]\nlessons = ["default"]\nmodes = ["cosine"]\n', encoding="utf-8")
    own, env = (run("batch", str(plan), env={"ATTENTION_LESSON_LANG": la})[1] for la in ("", "zh"))
    assert own.startswith(f"{plan}:3: modes：不明な") and env == own  # the plan's language, then the variable
    assert run("batch", str(plan), "--lang", "zh")[1].startswith(f"{plan}:3: modes：未知")
    assert run("batch", str(plan), "--lang", "en")[1] == \
        f"{plan}:3: modes: unknown mode 'cosine'; choose from: scaled, unscaled, uniform\n"


# -- the studio ---------------------------------------------------------------------------------------

def test_the_studio_renders_every_built_in_language_and_the_words_folders(tmp_path):
    from attention_lesson.pipeline.plan import RenderOptions
    from attention_lesson.studio.app import Studio, TextProblem, render_langs, render_request
    from attention_lesson.studio.session import Session

    text = (LESSONS / "tiny.toml").read_text(encoding="utf-8")
    (tmp_path / "lesson.toml").write_text(text.replace('focus = "cat"\n', 'focus = "cat"\nwords = "mine"\n'),
                                          encoding="utf-8")
    session = Session.open(tmp_path / "lesson.toml", None, "scaled", "zh")
    studio = Studio(session, RenderOptions(lesson=str(tmp_path / "lesson.toml"), context=""), "token", 0)
    assert render_langs(studio) == ["zh", "en", "ja"]  # no folder yet
    for lang in ("fr", "en", "ar", "not-a-code!"):  # a language of its own; a built-in one; neither
        (tmp_path / "mine" / lang).mkdir(parents=True)
        (tmp_path / "mine" / lang / "softmax.toml").write_text('[softmax]\ntitle = "x"\n', encoding="utf-8")
    (tmp_path / "mine" / "de").mkdir()  # no words in it
    assert render_langs(studio) == ["zh", "en", "ja", "fr"]
    assert render_request(studio, {"product": "lesson"}).lang == "zh"  # the page's
    with pytest.raises(TextProblem) as e:  # fr lacks keys: the first of words check's lines, and a count
        render_request(studio, {"product": "html", "lang": "fr"})
    mine = tmp_path / "mine"
    assert re.fullmatch(rf"{mine}/fr/\w+\.toml:1: 缺少键 '[\w.]+'（.*）（另有 \d+ 处："
                        rf"attention-lesson words check {mine} --lang fr）", e.value.error["message"])
    export("fr", mine)  # every key: fr renders
    chosen = [render_request(studio, {"product": "html", "lang": la}).lang for la in ("ja", "fr")]
    assert chosen == ["ja", "fr"]
    with pytest.raises(TextProblem) as e:
        render_request(studio, {"product": "html", "lang": "de"})
    assert e.value.error["message"] == "lang：应为 zh、en、ja、fr 之一，实际是 'de'"


def test_the_studios_line_check_says_its_problem_in_the_lines_language():
    from attention_lesson.studio.narration import LineProblem, check

    with pytest.raises(LineProblem) as e:
        check("softmax.say.reading", "{focus} と {tip}", "ja")
    assert str(e.value) == ("softmax.say.reading：不明なプレースホルダー {tip}。"
                            "この行で使えるのは {focus}、{rest}、{self_pct}、{top}、{top_pct}")
    with pytest.raises(LineProblem) as e:
        check("softmax.say.reading", "  ", "ja")
    assert (e.value.status, str(e.value)) == (
        422, "行が空です：このステップのナレーションを書くか、組み込みの行に戻してください")
    with pytest.raises(LineProblem) as e:
        check("softmax.say.reading", "{focus} 和 {tip}", "zh")
    assert str(e.value).startswith("softmax.say.reading：未知的占位符 {tip}；这一句可用的是 {focus}、")


def test_what_a_batch_run_says_in_japanese_and_chinese(capsys, tmp_path):
    """The run's summary, a failure, the scheduler's state and what a machine lacks (a real run's words:
    tests/test_batch.py runs them in English)."""
    from types import SimpleNamespace

    from attention_lesson.cli.report import _ready, batch_summary, execute_batch
    from attention_lesson.pipeline.batch import BatchError

    report = SimpleNamespace(done=[1, 2, 3], fresh=[4], failures=[], wall=12.345, tasks=3, workers=2,
                             overhead=lambda: (0.004, 2.0), gaps=lambda: [0.004])
    assert batch_summary(report, "o", "ja") == \
        "完了 3 件、最新 1 件、失敗 0 件、12.3 秒（タスク 3 個、ワーカー 2 個。" \
        "タスク間の Dask：4 ミリ秒、タスクの 0.20%）-> o"
    assert batch_summary(report, "o", "zh") == \
        "完成 3 项，1 项已是最新，0 项失败，用时 12.3 秒（3 个任务，2 个工作进程；" \
        "任务之间 Dask 用去 4 毫秒，是一个任务的 0.20%）-> o"
    assert batch_summary(report, "o", "en") == "3 done, 1 up to date, 0 failed in 12.3 s (3 tasks on 2 " \
        "workers; Dask between tasks: 4 ms, 0.20% of a task) -> o"
    _ready("http://127.0.0.1:8787/status", True, "ja")
    work = SimpleNamespace(plan=SimpleNamespace(out=tmp_path / "o", notes=[]), tasks=[], fresh=[1, 2])
    execute_batch(work, {}, None, 1, False, "zh")
    out, err = capsys.readouterr()
    assert err == ("スケジューラーにまだワーカーがいません：待っています\n"
                   "Dask ダッシュボード：http://127.0.0.1:8787/status\n")
    assert out == f"完成 0 项，2 项已是最新，0 项失败 -> {tmp_path / 'o'}\n"
    missing = BatchError.missing("batch_missing_here", ["ffmpeg: not found"])
    assert str(missing) == "missing on this machine:\n  ffmpeg: not found"
    assert missing.message("ja") == "このマシンに足りないもの：\n  ffmpeg: not found"


def test_a_missing_folder_and_a_language_no_command_can_take(tmp_path):
    """words check of no folder; a right-to-left or malformed --lang and a new language with no words,
    said in $ATTENTION_LESSON_LANG's language; the lesson's words folder that is not there, at its line,
    in the command's language."""
    assert run("words", "check", str(tmp_path / "nowhere"), "--lang", "ja") == (
        2, f"{tmp_path / 'nowhere'}：そのようなフォルダーはありません\n")
    code, out = run("words", "check", str(tmp_path), "--lang", "ar", env={"ATTENTION_LESSON_LANG": "ja"})
    assert (code, out) == (2, "エラー：ar：右から左に書く文字にはまだ対応していません（シーンはどの行も左から"
                              "並べます）。左から右に書く言語を選んでください\n")
    code, out = run("render", "blink", "--lang", "fr", "--dry-run", env={"ATTENTION_LESSON_LANG": "zh"})
    assert (code, out) == (2, "错误：--lang fr：没有内置的 fr 文字；请用 --words DIR 提供"
                              "（DIR/fr/*.toml：`attention-lesson words export --lang fr --out DIR` "
                              "会写出要翻译的英文句子）\n")
    lesson = tmp_path / "l.toml"
    lesson.write_text('# mine\nwords = "gone"\n' + (LESSONS / "tiny.toml").read_text(encoding="utf-8"),
                      encoding="utf-8")
    code, out = run("render", "blink", "--lesson", str(lesson), "--lang", "ja", "--dry-run")
    assert (code, out) == (2, f"{lesson}:2: words：フォルダー {tmp_path / 'gone'} がありません\n")
    assert run("words", "export", "--lang", "ja", "--from", "xx", "--out", str(tmp_path))[1].endswith(
        "エラー：--from の値が不正です：'xx' には組み込みの言葉がありません\n")  # (click's words, in ja too)
    (tmp_path / "plan.toml").write_text('lessons = ["default"]\n', encoding="utf-8")
    code, out = run("batch", str(tmp_path / "plan.toml"), "--scheduler", "tcp://127.0.0.1:9",
                    "--workers", "2", "--lang", "zh")
    assert code == 2 and out.endswith(
        "错误：--workers 决定本机集群的大小；用 --scheduler 时由集群自己的工作进程渲染\n")
