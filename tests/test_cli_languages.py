"""What the command line says to a zh or ja teacher beyond a lesson's errors: click's own words for a bad
command line (Usage, Error, No such option, Missing option, extra arguments), in the language `words
check` speaks (--lang when built in, else $ATTENTION_LESSON_LANG's, else English), exit status 2, no
traceback; attention_lesson's CLICK table (every entry in zh and ja with click's placeholders, each
English one click's own message)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from attention_lesson.cli import main
from attention_lesson.cli.click_words import said_lang
from attention_lesson.messages.answers import CLICK

FIELDS = re.compile(r"{(\w+)(![rsa])?}")


def run(*args: str, env: dict | None = None) -> tuple[int, list[str]]:
    r = CliRunner().invoke(main, list(args), env={"ATTENTION_LESSON_LANG": "", **(env or {})},
                            prog_name="attention-lesson")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output, r.output
    return r.exit_code, r.output.splitlines()


def clicks_messages() -> set:
    """Every message click's sources ask gettext (a string) and ngettext (a pair) for."""
    found = set()
    for path in Path(click.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "ngettext"):
                words = tuple(a.value for a in node.args if isinstance(a, ast.Constant))
                if words:
                    found.add(words[0] if node.func.id == "_" else words[:2])
    return found


def test_every_click_entry_is_clicks_own_and_in_every_language_with_its_placeholders():
    assert set(CLICK["en"]) == set(CLICK["zh"]) == set(CLICK["ja"])
    known = clicks_messages()
    for code, entry in CLICK["en"].items():
        assert ((entry["one"], entry["other"]) if isinstance(entry, dict) else entry) in known, code
        fields = set(FIELDS.findall(entry["other"] if isinstance(entry, dict) else entry))
        if isinstance(entry, dict):  # click fills the singular's and the plural's fields alike
            fields |= set(FIELDS.findall(entry["one"]))
        for lang in ("zh", "ja"):
            said = CLICK[lang][code]
            assert isinstance(said, str) and set(FIELDS.findall(said)) <= fields, (lang, code)
            assert said.count("{") == len(FIELDS.findall(said))
    for code in ("click_no_option", "click_extra", "click_not_choice", "click_invalid_for"):
        for lang in ("zh", "ja"):
            assert set(FIELDS.findall(CLICK[lang][code])) == set(FIELDS.findall(
                CLICK["en"][code]["other"] if isinstance(CLICK["en"][code], dict) else CLICK["en"][code]))


@pytest.mark.parametrize(("args", "env", "lang"), [
    (["lesson", "--lang", "ja", "--fsp", "3"], {}, "ja"),
    (["lesson", "--fps", "x", "--lang=zh"], {"ATTENTION_LESSON_LANG": "ja"}, "zh"),
    (["words", "export", "--lang", "fr"], {"ATTENTION_LESSON_LANG": "ja"}, "ja"),
    (["words", "export", "--lang", "fr"], {}, "en"),
    (["numbers", "a"], {"ATTENTION_LESSON_LANG": "zh"}, "zh"),
    (["numbers", "--", "--lang", "ja"], {}, "zh"),  # the one rule's last word: zh
    (["numbers", "--", "--lang", "ja"], {"ATTENTION_LESSON_LANG": "en"}, "en"),
])
def test_the_language_of_clicks_words_is_the_one_words_check_speaks(args, env, lang):
    assert said_lang(args, env) == lang


ZH = {
    ("lesson", "--lang", "zh", "--fsp", "3"): [
        "用法: attention-lesson lesson [OPTIONS]", "用 'attention-lesson lesson --help' 查看帮助。", "",
        "错误：没有选项 '--fsp'。 你是想写 '--fps' 吗？"],
    ("lesson", "--lang", "zh", "--fps", "x"): [
        "用法: attention-lesson lesson [OPTIONS]", "用 'attention-lesson lesson --help' 查看帮助。", "",
        "错误：'--fps' 的值无效：'x' 不是有效的数（integer range）。"],
    ("lesson", "--lang", "zh", "--mode", "max"): [
        "用法: attention-lesson lesson [OPTIONS]", "用 'attention-lesson lesson --help' 查看帮助。", "",
        "错误：'--mode' 的值无效：'max' 不是可选值之一：'scaled', 'unscaled', 'uniform'。"],
}
JA = {
    ("words", "export", "--lang", "ja"): [
        "使い方: attention-lesson words export [OPTIONS]",
        "ヘルプは 'attention-lesson words export --help' で表示できます。", "",
        "エラー：未指定のオプション '--out'."],
    ("numbers", "river", "bank"): [
        "使い方: attention-lesson numbers [OPTIONS]",
        "ヘルプは 'attention-lesson numbers --help' で表示できます。", "",
        "エラー：余分な引数があります（river bank）"],
    ("lesson", "--lang", "ja", "--fps", "500"): [
        "使い方: attention-lesson lesson [OPTIONS]",
        "ヘルプは 'attention-lesson lesson --help' で表示できます。", "",
        "エラー：'--fps' の値が不正です：500 は範囲 1<=x<=120 の外です。"],
}


@pytest.mark.parametrize("args", [*ZH, *JA])
def test_a_bad_command_line_is_said_in_the_teachers_language_with_exit_status_2(args):
    env = {"ATTENTION_LESSON_LANG": "ja"} if args in JA else {}
    assert run(*args, env=env) == (2, (ZH | JA)[args])


def test_english_stays_clicks_own_and_nothing_carries_over_from_a_chinese_run():
    import attention_lesson.cli.list  # noqa: F401 - the package's `list` is this module once it ran
    assert run("lesson", "--lang", "zh", "--fsp", "3")[1][-1].startswith("错误：")
    assert run("lesson", "--fsp", "3", env={"ATTENTION_LESSON_LANG": "en"}) == (2, [
        "Usage: attention-lesson lesson [OPTIONS]", "Try 'attention-lesson lesson --help' for help.", "",
        "Error: No such option '--fsp'. Did you mean '--fps'?"])
    code, lines = run("words", "export", "--lang", "fr")  # a language with no built-in words: English
    assert (code, lines[-1]) == (2, "Error: Missing option '--out'.")


def test_the_help_pages_headings_are_in_the_language_and_nothing_is_fixed_in_it():
    code, lines = run("sheet", "--help", env={"ATTENTION_LESSON_LANG": "zh"})
    assert code == 0 and lines[0] == "用法: attention-lesson sheet [OPTIONS]" and "选项:" in lines
    assert any("[默认：4; 1<=x<=12]" in line.replace("\n", " ") for line in lines), lines
    assert any(line.startswith("  --dest FILE ") for line in lines), lines  # a metavar: click's, aligned
    code, lines = run("sheet", "--help", env={"ATTENTION_LESSON_LANG": "en"})  # nothing left Chinese
    assert code == 0 and "Options:" in lines and any("[default: 4; 1<=x<=12]" in line for line in lines)
    assert any(line.startswith("  --dest FILE ") for line in lines) and any("Show this message" in line
                                                                          for line in lines)
    code, lines = run("new", str(Path(__file__).parent), "--lang", "ja")
    here = Path(__file__).parent
    assert (code, lines[-1]) == (2, f"エラー：'FILE' の値が不正です：'{here}'（File）はフォルダーです。")


def test_an_export_comments_in_its_language_and_a_new_language_in_english(tmp_path):
    from attention_lesson.outputs.words import export
    from scenes.common import words as W

    for lang in ("ja", "zh", "fr"):
        export(lang, tmp_path)
    ja = (tmp_path / "ja" / "softmax.toml").read_text(encoding="utf-8").splitlines()
    assert ja[:3] == ["# ja：シーン softmax「ソフトマックス：スコアが重みになる」。",
                      "# どの行も編集できます。変えない行は消してかまいません"
                      "（ないキーは組み込みの行のままです）。",
                      "# チェック：attention-lesson words check DIR --lang ja"]
    at = ja.index("[softmax.say]")
    assert re.fullmatch(r"# ステップ to_weights のナレーション：音声、字幕、発表者ノート、steps\.json "
                        r"\(scenes/softmax\.py:\d+\)。プレースホルダー \{scores\}, \{weights\}",
                        ja[ja.index(next(x for x in ja[at:] if x.startswith("to_weights = "))) - 1])
    zh = (tmp_path / "zh" / "deck.toml").read_text(encoding="utf-8").splitlines()
    assert zh[0] == "# zh：幻灯片（HTML 和 PPTX）及其演讲者备注。" and zh[2].startswith("# 检查：")
    assert re.fullmatch(r"# 幻灯片（HTML 和 PPTX）及其演讲者备注 "
                        r"\(attention_lesson/outputs/deck\.py:\d+\)；没有占位符",
                        zh[zh.index('explore = "动手试试这些数"') - 1]), zh[:8]
    fr = (tmp_path / "fr" / "softmax.toml").read_text(encoding="utf-8")
    assert fr.startswith("# fr: the scene softmax, “softmax: scores become weights”.\n"
                         "# Translate every line and keep every key")
    assert W.problems(tmp_path, "ja") == W.problems(tmp_path, "zh") == []  # comments only: the lines parse


def test_a_scheduler_that_does_not_answer_or_a_bad_address_is_one_line_and_exit_2(tmp_path, monkeypatch):
    from attention_lesson.pipeline import batch as B
    from attention_lesson.pipeline.batch import client as C

    monkeypatch.setattr(C, "CONNECT_SECONDS", 1)
    plan = tmp_path / "plan.toml"
    plan.write_text(f'lessons = ["default"]\nscenes = ["softmax"]\nout = "{tmp_path / "out"}"\n',
                    encoding="utf-8")
    assert run("batch", str(plan), "--scheduler", "tcp://127.0.0.1:1", "--lang", "ja") == (2, [
        "エラー：tcp://127.0.0.1:1 の Dask スケジューラーが 1 秒以内に応答しません：そこで起動する"
        "（dask scheduler）か、アドレスとポートを確かめてください。"
        "--scheduler なしならこのマシンで実行します"])
    assert run("batch", str(plan), "--scheduler", "http://127.0.0.1:8786", "--lang", "zh") == (2, [
        "错误：--scheduler http://127.0.0.1:8786：不是 Dask 调度器的地址；请写成 tcp://host:8786"])
    for fine in ("tcp://10.0.0.2:8786", "tls://host:8786", "inproc://10.0.0.2/1/1"):
        B.check_address(fine)
    with pytest.raises(B.BatchError) as e:
        B.check_address("host")  # no port
    assert str(e.value) == "--scheduler host: not a Dask scheduler's address; write it as tcp://host:8786"


def test_a_worker_that_dies_is_said_in_the_language_and_the_batch_exits_2(monkeypatch, capsys, tmp_path):
    from types import SimpleNamespace

    from distributed import KilledWorker

    from attention_lesson.cli.report import execute_batch
    from attention_lesson.pipeline import batch as B
    from attention_lesson.pipeline.batch import client as C

    died = KilledWorker("render-softmax", SimpleNamespace(address="tcp://10.0.0.2:40000"), 3)
    future = SimpleNamespace(status="error", exception=lambda: died)
    error = C._outcome(future, SimpleNamespace(what="softmax")).result.error  # as the run records it
    lost = C._outcome(SimpleNamespace(status="cancelled"), SimpleNamespace(what="lesson")).result.error
    report = C.BatchReport(failures=[C.Failure("default/river-scaled-zh-480p15", "softmax", error),
                                     C.Failure("default/river-scaled-zh-480p15", "lesson", lost)])
    monkeypatch.setattr(B, "execute", lambda *args, **kwargs: report)
    work = SimpleNamespace(plan=SimpleNamespace(out=tmp_path, notes=[]), tasks=[1], fresh=[])
    with pytest.raises(SystemExit) as e:
        execute_batch(work, {}, "tcp://10.0.0.2:8786", 1, True, "zh")
    assert e.value.code == 2 and capsys.readouterr().err.splitlines() == [
        "softmax 在 default/river-scaled-zh-480p15 中失败：运行它的每个 Dask 工作进程都退出了"
        "（内存不足？请查看工作进程的日志）",
        "lesson 在 default/river-scaled-zh-480p15 中失败：Dask 调度器丢失了这个任务（调度器停止了吗？）"]
    report.failures[1:] = [C.Failure("v", "mixing", "RuntimeError: the scene's own")]  # a scene's: exit 1
    with pytest.raises(SystemExit) as e:
        execute_batch(work, {}, None, 1, True, "ja")
    assert e.value.code == 2 and capsys.readouterr().err.splitlines()[0].startswith(
        "default/river-scaled-zh-480p15 の softmax が失敗しました：実行したワーカーがすべて落ちました")
    report.failures[:1] = []
    with pytest.raises(SystemExit) as e:
        execute_batch(work, {}, None, 1, True, "ja")
    assert (e.value.code, capsys.readouterr().err) == (
        1, "v の mixing が失敗しました：RuntimeError: the scene's own\n")


def test_a_scene_a_context_or_a_lesson_file_a_command_does_not_have_is_said_in_the_language(tmp_path):
    from attention_lesson.studio.serve import StudioError, check_file

    code, lines = run("render", "nosuch", "--lang", "zh", "--dry-run")
    assert (code, lines[-1]) == (2, "错误：ID 的值无效：未知的场景 'nosuch'；可用的 id："
                                    "overview、projection、scores、geometry、softmax、mixing、matrix、"
                                    "contexts、lookup、normalizers、edge-cases、mistakes、cost")
    code, lines = run("lesson", "--context", "sea", "--dry-run", env={"ATTENTION_LESSON_LANG": "ja"})
    assert code == 2 and re.fullmatch(r"エラー：--context の値が不正です：'sea' は \S+default\.toml の"
                                      r"文脈ではありません。選べるのは：river、savings", lines[-1]), lines
    with pytest.raises(StudioError) as e:
        check_file(tmp_path / "nope.toml", "zh")
    nope = tmp_path / "nope.toml"
    assert str(e.value) == f"{nope}：没有这个课件文件；可以这样新建：attention-lesson new {nope}"


@pytest.mark.parametrize("args, lang", [(("explorer",), "en"), (("handout", "--lang", "zh"), "zh"),
                                        (("lesson", "--dry-run", "--lang", "ja"), "ja"),
                                        (("voice", "script"), "en"),
                                        (("words", "export", "--lang", "ja"), "ja")])
def test_an_out_that_cannot_be_made_is_one_line_and_nothing_is_made(args, lang, tmp_path):
    """--out under a file (the nearest part of it that exists is no folder): one line in the teacher's
    language naming both, exit 2, before any work (before, a traceback from the manifest's first write)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    out = blocker / "lesson" / ("script.txt" if "voice" in args else "out")
    code, lines = run(*args, "--out", str(out), env={"ATTENTION_LESSON_LANG": "en"})  # --lang wins
    said = {"en": f"{out} cannot be made: {blocker} is not a folder",
            "zh": f"无法建立 {out}：{blocker} 不是文件夹",
            "ja": f"{out} を作れません：{blocker} はフォルダーではありません"}[lang]
    assert code == 2 and lines[-1].endswith(said), lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"] and blocker.read_text() == ""
