"""The teacher's own words: exported, checked, and winning over the built-in lines key by key, in the
frames, the narration and the digests (only the scenes whose words changed are made again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attention_core import load
from attention_core.errors import text as said
from attention_lesson.outputs.words import export
from attention_lesson.pipeline.plan import RenderOptions, input_digest
from scenes.common import words as W
from scenes.common.i18n import catalog, phrase
from scenes.common.words_warnings import line_warning, warnings
from scenes.registry import BY_ID, SCENES

from .cli_helpers import cli

TITLE = "Softmax, in my own words"
LINE = "Now softmax turns {focus}'s scores into weights that add up to one."


@pytest.fixture(autouse=True)
def no_words_after():
    """Each test leaves the process reading the built-in words (the folder in use is process-wide)."""
    yield
    W.use_words(None)


def edit(folder: Path, lang: str, name: str, old: str, new: str) -> None:
    """Replace one `key = ...` line of an exported file."""
    path = folder / lang / f"{name}.toml"
    text, n = re.subn(rf"(?m)^{re.escape(old)} = .*$", new, path.read_text(encoding="utf-8"), count=1)
    assert n == 1, old
    path.write_text(text, encoding="utf-8")


def test_an_untouched_export_is_the_built_in_words(tmp_path):
    written = export("en", tmp_path)
    builtin_files = [p.name for p in (W.I18N / "en").iterdir()]
    assert sorted(p.name for p in written) == sorted(n for n in builtin_files if n.endswith(".toml"))
    own = W.overrides(tmp_path, "en")
    builtin = W.builtin_entries("en")
    assert set(own) == set(builtin) and all(own[k].value == builtin[k].value for k in builtin)
    assert W.problems(tmp_path, "en") == []
    text = (tmp_path / "en" / "softmax.toml").read_text(encoding="utf-8")
    # every key under a comment naming its placeholders, and where it is drawn when a line asks for it
    assert re.search(r"# on screen \(scenes/softmax\.py:\d+\); placeholders \{focus\}\nweights_of = ", text)
    assert re.search(r"# narration of step to_weights: .*placeholders \{scores\}, \{weights\}\nto_weights = ",
                     text)


def test_check_names_each_problem_at_its_line(tmp_path):
    """A new language: a key it lacks, one no line has and a broken placeholder, each FILE:LINE, exit 2."""
    export("fr", tmp_path)  # en's lines, as a translation starts
    fr = tmp_path / "fr"
    softmax = (fr / "softmax.toml").read_text(encoding="utf-8")
    softmax = re.sub(r'(?m)^weights_of = .*$', 'weights_of = "poids de {focus"', softmax)
    softmax = re.sub(r'(?m)^key_axis = .*\n', '', softmax)
    softmax = softmax.replace("[softmax.say]\n", "[softmax.say]\nmy_step = \"Bonjour\"\n")
    (fr / "softmax.toml").write_text(softmax, encoding="utf-8")
    lines = softmax.splitlines()
    out = cli("words", "check", str(tmp_path), "--lang", "fr", code=2).splitlines()
    at = {name: f"{fr / 'softmax.toml'}:{n}" for n, line in enumerate(lines, 1)
          for name in ("weights_of", "my_step", "[softmax]") if line.startswith(name)}
    assert len(out) == 3, out
    assert out[0].startswith(f"{at['weights_of']}: softmax.weights_of: a broken placeholder")
    assert out[1] == f"{at['my_step']}: unknown key 'softmax.say.my_step': no line of the lesson has this " \
                     "name"
    assert out[2].startswith(f"{at['[softmax]']}: missing key 'softmax.key_axis'")
    # the same folder as English overrides: a missing key falls back, the unknown key is still an error
    (fr / "softmax.toml").rename(tmp_path / "softmax.toml")
    (tmp_path / "en").mkdir()
    (tmp_path / "softmax.toml").rename(tmp_path / "en" / "softmax.toml")
    out = cli("words", "check", str(tmp_path), "--lang", "en", code=2).splitlines()
    assert [line.split(": ", 2)[1] for line in out] == ["softmax.weights_of",
                                                        "unknown key 'softmax.say.my_step'"]


def test_placeholders_no_built_in_line_takes_or_every_one_keeps(tmp_path):
    """A placeholder no built-in line takes is an error; one every built-in line takes, left out of the
    teacher's line, only a warning: words check prints it and exits 0, a render says it and goes on."""
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "x.toml").write_text('[softmax.say]\n'
                                            'reading = "about {top_pct:.0%} to {top} and {tip}"\n'
                                            'to_weights = "Softmax: {scores}."\n', encoding="utf-8")
    assert W.problems(tmp_path, "en") == [
        f"{tmp_path / 'en' / 'x.toml'}:2: softmax.say.reading: unknown placeholder {{tip}}; this line takes "
        "{focus}, {rest}, {self_pct}, {top}, {top_pct}"]
    at = f"{tmp_path / 'en' / 'x.toml'}:3"
    lost = f"{at}: warning: softmax.say.to_weights: placeholder {{weights}} left out: the line does " \
        "not say it (fine if meant)"
    assert warnings(tmp_path, "en") == [lost]  # (reading's error says it: no warning of it besides)
    assert warnings(tmp_path, "en", "ja") == [f"{at}: 警告：softmax.say.to_weights：プレースホルダー "
                                              "{weights} が使われていません：この行はそれを言いません"
                                              "（意図どおりなら問題ありません）"]
    out = cli("words", "check", str(tmp_path), "--lang", "en", code=2)
    assert lost in out and "unknown placeholder {tip}" in out
    edit(tmp_path, "en", "x", "reading", 'reading = "about {top_pct:.0%} to {top}"')  # every line takes now
    out = cli("words", "check", str(tmp_path), "--lang", "en")
    assert lost in out and "softmax.say.reading: placeholder {rest}, {self_pct} left out" in out
    assert out.strip().endswith(f"{tmp_path}/en: 1 file of lines fine")
    out = cli("render", "softmax", "--words", str(tmp_path), "--lang", "en", "--dry-run")
    assert lost in out
    W.use_words(tmp_path)
    said = catalog("en")("softmax.say.to_weights", scores="[1, 2]", weights="[0.3, 0.7]")
    assert said == "Softmax: [1, 2]."  # filled all the same


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_studio_saves_a_line_that_leaves_out_a_placeholder_with_its_warning(lang):
    from attention_lesson.studio.narration import check

    key = "softmax.say.reading"
    assert check(key, "{top} {top_pct:.0%}", lang) == line_warning(key, "{top} {top_pct:.0%}", lang)
    assert "{rest}" in check(key, "{top} {top_pct:.0%}", lang) and "{self_pct}" in check(key, "{top}", lang)
    assert check(key, "{top} {top_pct:.0%} {self_pct:.0%} {rest}", lang) is None
    assert check(key, "{top}", lang).startswith(said(lang, "warning", text=""))  # "warning: ", "警告："


def test_a_right_to_left_language_is_refused_in_one_line(tmp_path):
    out = cli("words", "export", "--lang", "ar", "--out", str(tmp_path), code=2)
    assert out.strip().endswith("right-to-left scripts are not supported yet (the scenes lay every line out "
                                "from the left); choose a left-to-right language")
    assert len(out.strip().splitlines()) == 1


def test_only_the_scene_whose_words_changed_is_made_again(tmp_path, lesson):
    export("en", tmp_path)
    options = RenderOptions(lesson=lesson.source, context="river", lang="en")
    scenes = [s for s in SCENES if s.fits(lesson)]
    before = {s.id: input_digest(lesson, s, options) for s in scenes}
    with_folder = RenderOptions(lesson=lesson.source, context="river", lang="en", words=str(tmp_path))
    assert {s.id: input_digest(lesson, s, with_folder) for s in scenes} == before  # the same lines
    edit(tmp_path, "en", "softmax", "to_weights", f'to_weights = "{LINE}"')
    after = {s.id: input_digest(lesson, s, with_folder) for s in scenes}
    assert [s for s in after if after[s] != before[s]] == ["softmax"]
    edit(tmp_path, "en", "common", "list_and", 'list_and = " and also "')
    assert all(input_digest(lesson, s, with_folder) != before[s.id] for s in scenes)


def test_the_lesson_file_names_its_words_folder(tmp_path):
    text = (Path(load().source)).read_text(encoding="utf-8")
    (tmp_path / "mine").mkdir()
    (tmp_path / "l.toml").write_text('words = "mine"\n' + text, encoding="utf-8")
    assert load(tmp_path / "l.toml").words == str((tmp_path / "mine").resolve())
    (tmp_path / "bad.toml").write_text('# mine\nwords = 3\n' + text, encoding="utf-8")
    n = 2
    out = cli("render", "softmax", "--lesson", str(tmp_path / "bad.toml"), "--lang", "en", "--dry-run",
              code=2)
    assert out.strip().startswith(f"{tmp_path / 'bad.toml'}:{n}: words: expected a folder of the teacher's "
                                  "words")
    (tmp_path / "gone.toml").write_text('words = "nowhere"\n' + text, encoding="utf-8")
    out = cli("render", "softmax", "--lesson", str(tmp_path / "gone.toml"), "--dry-run", "--lang", "en",
              code=2)
    assert out.strip() == f"{tmp_path / 'gone.toml'}:1: words: no folder {(tmp_path / 'nowhere').resolve()}"


def test_a_bad_folder_stops_a_render_before_it_starts(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "mine.toml").write_text('[softmax]\ntitel = "Softmax"\n', encoding="utf-8")
    out = cli("render", "softmax", "--words", str(tmp_path), "--lang", "en", "--dry-run", code=2)
    assert out.strip() == f"{tmp_path / 'en' / 'mine.toml'}:2: unknown key 'softmax.titel': no line of the " \
                          "lesson has this name"


def test_a_new_language_needs_its_words(tmp_path):
    out = cli("render", "softmax", "--lang", "fr", "--dry-run", code=2)
    assert "no built-in words for fr; give them with --words DIR" in out


def test_an_override_wins_key_by_key(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "mine.toml").write_text(f'[softmax]\ntitle = "{TITLE}"\n', encoding="utf-8")
    assert catalog("en", str(tmp_path))("softmax.title") == TITLE
    assert catalog("en", str(tmp_path))("mixing.title") == catalog("en")("mixing.title") != TITLE
    assert catalog("zh", str(tmp_path))("softmax.title") == catalog("zh")("softmax.title")  # en's only


@pytest.mark.parametrize("lang", W.BUILT_IN)
def test_one_line_read_from_its_own_file_is_the_catalog_s(lang):
    """Every key of a built-in table is in the file of its name (a title is read from it alone)."""
    entries = W.builtin_entries(lang)
    assert {e.file for k, e in entries.items() if e.file != f"{k.split('.')[0]}.toml"} == set()
    assert {k: phrase(lang, k) for k in entries} == catalog(lang).entries


def test_one_line_in_a_words_folder_is_the_folder_s(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "mine.toml").write_text(f'[softmax]\ntitle = "{TITLE}"\n', encoding="utf-8")
    W.use_words(str(tmp_path))
    assert phrase("en", "softmax.title") == TITLE
    assert phrase("en", "mixing.title") == catalog("en")("mixing.title") == "Mixing the values"
    assert BY_ID["softmax"].title("en") == TITLE


def test_a_right_to_left_language_is_refused_by_every_command():
    out = cli("render", "softmax", "--lang", "he", "--dry-run", code=2)
    assert out.strip() == "Error: --lang he: right-to-left scripts are not supported yet (the scenes lay " \
                          "every line out from the left); choose a left-to-right language"


def test_each_language_has_its_font_voice_and_breaker():
    from scenes.common.languages import CJK_SC, font, language

    assert [language(c).espeak for c in ("zh", "en", "ja", "fr", "pt-BR", "ko")] == \
        ["cmn-latn-pinyin", "en", "ja", "fr", "pt-br", "ko"]
    assert [language(c).font for c in ("zh", "en", "ja", "ko", "zh-TW", "de", "ru", "el")] == \
        [CJK_SC, CJK_SC, "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK TC", *["Noto Sans"] * 3]
    assert font("de", installed=frozenset({CJK_SC})) == CJK_SC  # Noto Sans not installed: CJK's Latin
    assert [language(c).breaker for c in ("zh", "ja", "ko", "fr")] == ["jieba", "budoux", "spaces", "spaces"]


def test_japanese_subtitles_break_between_phrases():
    import budoux

    from scenes.common.captions import cues

    line = "クエリとキーの内積をスケールしたスコアを、キーの軸に沿って、重みを一つずつ見ていきます。"
    phrases = budoux.load_default_japanese_parser().parse(line)
    bounds = {sum(map(len, phrases[:i])) for i in range(len(phrases) + 1)}
    got = [ln for c in cues(line, "ja") for ln in c.split("\n")]
    assert "".join(got) == line and len(got) >= 3
    assert all(len(ln) <= 16 for ln in got)
    ends = [sum(map(len, got[:i + 1])) for i in range(len(got))]
    assert set(ends) <= bounds, (got, phrases)


def test_a_language_from_a_folder_renders_in_its_words(tmp_path, media_dir):
    """French from a folder holding every key (English lines but the two edited): its title on screen,
    its line in the narration and the subtitles."""
    from .scene_harness import build

    export("fr", tmp_path)
    edit(tmp_path, "fr", "softmax", "title", f'title = "{TITLE}"')
    edit(tmp_path, "fr", "softmax", "to_weights", f'to_weights = "{LINE}"')
    scene, watch = build(BY_ID["softmax"], media_dir, lang="fr", words=str(tmp_path))
    assert watch.problems == []
    focus = scene.lesson.focus
    said = {s.step: s.narration for s in scene.steps}
    assert said["to_weights"] == LINE.replace("{focus}", f"“{focus}”")
    assert TITLE.replace(" ", "") in watch.texts["scores_in"]  # (Text drops the spaces)
    cues = scene.renderer.file_writer.subcaptions
    subs = "".join(c for sub in cues for c in sub.content if not c.isspace())
    assert "".join(LINE.replace("{focus}", f"“{focus}”").split()) in subs
    # its other lines are the folder's (here English's)
    assert said["scores_in"] == catalog("en")("softmax.say.scores_in", focus=catalog("en").token(focus))


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("words-media")


def test_japanese_says_every_line_with_the_same_placeholders():
    ja, en = W.builtin_entries("ja"), W.builtin_entries("en")
    assert set(ja) == set(en)
    # every line in Japanese (kana or kanji) but the marks, names and formulas that are the same everywhere
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    same = [k for k, e in ja.items() if not k.startswith("speech.") and e.value == en[k].value]
    assert all(not kana.search(str(en[k].value)) for k in same)
    assert len(same) < 40, same
    for key, e in ja.items():
        if not key.startswith("speech."):
            assert W._entry_problem(key, e, en) is None
    tr = catalog("ja")
    assert (tr("common.query"), tr("common.key"), tr("common.value")) == ("クエリ", "キー", "バリュー")


def test_the_built_in_lessons_speak_japanese():
    for name in ("default", "causal", "two_heads"):
        lesson = load(name)
        assert lesson.title["ja"] and lesson.narration["ja"]["story"]
        assert lesson.dimensions["ja"] == ("地理", "金融", "機能語", "多義")
    assert [h.name("ja") for h in load("two_heads").heads] == ["意味", "文法"]


def test_a_japanese_scene_lays_out_and_breaks_its_subtitles_between_phrases(media_dir):
    """The mask scene of the causal lesson in Japanese: its words, the lesson's own (its context labels),
    no layout problem, and subtitles that break only where BudouX or punctuation allows."""
    import budoux

    from .scene_harness import build

    scene, watch = build(BY_ID["mask"], media_dir, lesson="causal", lang="ja")
    assert watch.problems == []
    assert catalog("ja")("mask.title") in watch.texts[scene.step_keys[0]]
    parser = budoux.load_default_japanese_parser()
    for step in scene.steps:
        line = step.narration
        ok = {sum(map(len, parser.parse(line)[:i])) for i in range(len(parser.parse(line)) + 1)}
        ok |= {i for m in re.finditer(r"[、。，：；！？]|\s+", line) for i in (m.end(), m.start())}
        cues = [sub.content for sub in scene.renderer.file_writer.subcaptions]
        for cue in cues:
            for part in cue.split("\n"):
                at = line.find(part)
                if at >= 0:
                    assert at in ok and at + len(part) in ok | {len(line)}, (part, line)


def test_an_export_s_header_says_what_deleting_a_line_does(tmp_path):
    """A built-in language's line may be deleted (the built-in one stays), so its header says so; a new
    language needs every key, so its header asks for every line (words check refuses a missing one)."""
    export("ja", tmp_path)
    export("fr", tmp_path)
    ja = (tmp_path / "ja" / "softmax.toml").read_text(encoding="utf-8")
    fr = (tmp_path / "fr" / "softmax.toml").read_text(encoding="utf-8")
    assert f"# {said('ja', 'export_edit')}\n" in ja and said("ja", "export_edit_new") not in ja
    assert f"# {said('en', 'export_edit_new')}\n" in fr and said("en", "export_edit") not in fr
    for lang in ("ja", "fr"):
        edit(tmp_path, lang, "softmax", "key_axis", "")
    assert W.problems(tmp_path, "ja") == []
    assert [p.split(": ", 1)[1][:29] for p in W.problems(tmp_path, "fr")] == ["missing key 'softmax.key_axis"]
