"""Options shared by several commands, defined once, and the checks that turn bad input into one
clear line with exit status 2."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from attention_core import LANGS, MODES, LessonError, load
from attention_core.checks import language_gaps
from attention_core.language import LANG_ENV, LangError, chosen_lang, resolve
from attention_core.language import message_lang as core_message_lang

from .out_path import out_option, out_problem


class LessonFileError(click.ClickException):
    """A bad lesson file: one clear line, exit status 2 (like a usage error), no traceback. `bare`: the
    line as compilers write it, `FILE:LINE: message`, with no "Error: " before it."""

    exit_code = 2

    def __init__(self, message: str, bare: bool = False):
        super().__init__(message)
        self.bare = bare

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        if not self.bare:
            return super().show(file)
        click.echo(self.message, err=file is None, file=file)


def message_lang(lang: str | None = None, declared: str | None = None) -> str:
    """The language of a command's messages (attention_core.language.message_lang): `lang`, else the
    running command's --lang, else the lesson file's own `lang` (`declared`: as an error read it,
    LessonError.declared; the file is not read again), else ATTENTION_LESSON_LANG, else zh."""
    ctx = click.get_current_context(silent=True)
    given = lang or (ctx.params.get("lang") if ctx is not None else None)
    return core_message_lang(given, declared)


def load_lesson(path, lang: str | None = None):
    """The lesson (a packaged name or a file); a bad one is one line, `FILE:LINE: message` in the
    command's language (message_lang), exit status 2."""
    try:
        return load(path)
    except LessonError as e:
        raise LessonFileError(e.message(message_lang(lang, e.declared)), bare=True) from None


def lesson_lang(lang: str | None, lesson=None, declared: str | None = None) -> str:
    """The language a command shows the lesson in (attention_core.language.resolve): --lang, else the
    lesson file's `lang` (the loaded lesson's, or `declared`), else ATTENTION_LESSON_LANG, else zh; a
    bad ATTENTION_LESSON_LANG is one line, exit status 2."""
    try:
        return chosen_lang(lang, lesson) if lesson is not None else resolve(lang, declared)
    except LangError as e:
        raise LessonFileError(str(e)) from None


def warn_language_gaps(lesson, lang: str) -> None:
    """Once, on stderr: the keys that give the lesson's words in another language but not in `lang`
    (generic names stand in for them), at the line of the first."""
    try:
        text = Path(lesson.source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    for warning in language_gaps(lesson, lang, text):
        click.echo(warning.message(lang if lang in LANGS else "en"), err=True)


def check_context(lesson, context: str | None) -> str:
    """The context's name (the lesson's first when None); a usage error naming the choices if the
    lesson has no such context."""
    try:
        return lesson.context_name(context)
    except LessonError:
        from attention_core.errors import Choices, shown, text

        said = message_lang(declared=lesson.lang)
        raise click.BadParameter(text(said, "cli_no_context", context=shown(context), lesson=lesson.source,
                                      contexts=Choices(lesson.contexts)), param_hint="--context") from None


class SharedOption:
    """An option several commands declare, defined once: `@quiet_option`, or `@quiet_option.but(help=...)`
    for a command that says what it does its own way (the same flags, type and default)."""

    def __init__(self, *decls: str, **attrs):
        self.decls, self.attrs = decls, attrs

    def __call__(self, f):
        return click.option(*self.decls, **self.attrs)(f)

    def but(self, **attrs) -> SharedOption:
        return SharedOption(*self.decls, **{**self.attrs, **attrs})


lesson_option = SharedOption(
    "--lesson", "lesson", metavar="FILE", default=None,
    help="Lesson file (TOML) or packaged lesson name; default: the packaged default lesson.")
context_option = SharedOption(
    "--context", "context", metavar="NAME", default=None,
    help="Which context (sentence) of the lesson; default: the lesson's first.")
mode_option = SharedOption(
    "--mode", type=click.Choice(MODES), default="scaled", show_default=True,
    help="Normalizer: scaled (÷√d_k), unscaled (no √d_k) or uniform (1/n each).")
LANG_DEFAULT = f"default: the lesson file's lang, else ${LANG_ENV}, else {LANGS[0]}"
lang_option = SharedOption(
    "--lang", type=click.Choice(LANGS), default=None,
    help=f"Language of on-screen text and narration ({LANG_DEFAULT}).")


class AnyLanguage(click.ParamType):
    """A built-in language, or any left-to-right language code whose words a folder gives (--words):
    a right-to-left one or a word that is no language code is one line, exit status 2."""

    name = "LANG"

    def convert(self, value, param, ctx):
        from scenes.common.words import lang_problem

        if value in LANGS:
            return value
        if problem := lang_problem(value):
            raise LessonFileError(f"--lang {problem}")
        return value

    def get_metavar(self, param, ctx=None) -> str:
        return f"[{'|'.join(LANGS)}|CODE]"


any_lang_option = lang_option.but(
    type=AnyLanguage(),
    help=f"Language of on-screen text and narration: {', '.join(LANGS)}, or any other code (fr, de, ko...) "
         f"with --words DIR holding its words ({LANG_DEFAULT}).")


def theme_option(default: str | None = None):
    """--theme dark|light (style.THEMES); the videos' default (dark) unless the command names another."""
    from scenes.common.style import DEFAULT_THEME, THEMES

    return click.option("--theme", type=click.Choice(list(THEMES)), default=default or DEFAULT_THEME,
                        show_default=True,
                        help="Colours: dark, or light (white: for bright rooms, projectors and paper).")


json_option = SharedOption("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")


def lesson_options(f):
    """--lesson, --context and --mode, and the lesson loaded with a clean error."""

    @lesson_option
    @context_option
    @mode_option
    @functools.wraps(f)
    def wrapper(*args, lesson, context, mode, **kwargs):
        les = load_lesson(lesson)
        if "lang" in kwargs:  # the command's language, resolved with the lesson's own (lesson_lang)
            kwargs["lang"] = lesson_lang(kwargs["lang"], les)
        return f(*args, lesson=les, context=check_context(les, context), mode=mode, **kwargs)

    return wrapper


def quality_option(default: str = "low", help: str = "low 480p15, medium 720p30, high 1080p60, 4k 2160p60."):
    from ..pipeline.plan import QUALITIES

    return click.option("--quality", type=click.Choice(list(QUALITIES)), default=default, show_default=True,
                        help=help)


jobs_option = SharedOption("-j", "--jobs", type=click.IntRange(1, 64), default=None,
                           help="Worker processes (default: the number of cores).")
force_option = SharedOption("--force", is_flag=True, help="Render even what is up to date.")
dry_run_option = SharedOption("--dry-run", is_flag=True, help="Say what would be rendered, render nothing.")
quiet_option = SharedOption("-q", "--quiet", is_flag=True, help="No progress bars.")
all_option = SharedOption("--all", "all_", is_flag=True, help="Every scene of the lesson, in order.")
voice_option = SharedOption(
    "--voice", metavar="SOURCE", default=None,
    help="Speak every step: 'neural' (offline: Kokoro), 'piper:PATH.onnx' (a Piper voice of your own; "
         "piper:en_US-joe-medium, the English one the package ships), "
         "'kokoro:PATH' (a Kokoro voice file: .npy, .pt, .bin or .npz#name; or "
         "a voice the package carries by its name: kokoro:jm_kumo, kokoro:zf_xiaoxiao), "
         "'draft' (espeak-ng) or a folder of recordings, "
         "DIR/<lang>/<scene>/<nn>-<step>.<wav|flac|mp3|m4a|ogg> (a step without one gets "
         "the neural voice where the language has one, else the draft voice). Default: silent.")
recordings_option = SharedOption(  # `voice status`: the folder itself, which must exist
    "--voice", "folder", required=True, type=click.Path(file_okay=False, exists=True),
    help="The recordings folder (DIR/<lang>/<scene>/<nn>-<step>.<ext>).")


def run_options_without_out(f):
    """How to run a build: -j, --force, --dry-run, -q."""
    return _apply([jobs_option, force_option, dry_run_option, quiet_option], f)


def run_options(f):
    """Where and how to run a build: --out, -j, --force, --dry-run, -q."""
    return out_option()(run_options_without_out(f))


def _render_opts(video: bool) -> list:
    """What to render, how, and where; `video` adds the video-only options (format, alpha, clips)."""
    from ..pipeline.plan import FORMATS

    video_only = [
        click.option("--format", "file_format", type=click.Choice(FORMATS), default="mp4", show_default=True,
                     help="png is the last frame (a poster); gif uses a palette made for the clip."),
        click.option("--transparent", is_flag=True,
                     help="Alpha channel: webm = VP9 with alpha, mov = ProRes 4444."),
        click.option("--sections", is_flag=True,
                     help="Also one clip per step: <id>-<nn>-<step>.<ext>, for click-by-click slides."),
    ]
    return [
        lesson_option, context_option, mode_option, any_lang_option, theme_option(), quality_option(),
        click.option("--fps", type=click.IntRange(1, 120), default=None,
                     help="Frame rate (default: the quality's)."),
        *(video_only if video else []),
        voice_option,
        run_options,
    ]


def _apply(opts, f):
    for o in reversed(opts):
        f = o(f)
    return f


def render_options(f):
    """Everything `render` and `lesson` share: what to render, how, and where."""
    return _apply(_render_opts(video=True), f)


def slides_options(f):
    """The same for `slides`, without the video-only options (a deck's clips are always mp4)."""
    return _apply(_render_opts(video=False), f)


def check_voice(voice: str | None, lang: str = "zh") -> str | None:
    """None, "draft", "neural", "piper:<resolved path>.onnx" or the resolved path of an existing
    recordings folder; a usage error for anything else, one line (exit 2) for a neural voice that
    cannot speak (a missing package, a bad voice file). Says on stderr when the language has no neural
    voice and the draft voice speaks instead."""
    if voice is None:  # silent: no voice module loaded
        return voice
    from attention_core.errors import text as said

    from ..pipeline.voice.source import VoiceSource
    from ..pipeline.voice.speakers import DRAFT, speaker_for, voice_problem

    chosen = VoiceSource.of(voice)
    if chosen.kind == "draft":
        return voice
    if chosen.neural:
        resolved = voice if chosen.kind == "neural" else _resolved_voice(chosen)
        if problem := voice_problem(resolved, lang):
            raise LessonFileError(f"--voice {voice}: {problem}")
        if speaker_for(resolved, lang).kind == DRAFT:
            click.echo(said(message_lang(lang), "voice_no_neural", language=lang), err=True)
        return resolved
    folder = Path(voice)
    if not folder.is_dir():
        raise click.BadParameter(said(message_lang(lang), "voice_not_a_choice", given=repr(voice)),
                                 param_hint="--voice")
    return str(folder.resolve())


words_option = SharedOption(
    "--words", metavar="DIR", default=None, type=click.Path(file_okay=False),
    help="The teacher's own words: DIR/<lang>/<name>.toml (as `words export` writes them) win over the "
         "built-in lines key by key; a language with no built-in words takes all of its lines from there "
         "(default: the lesson file's words = \"DIR\", else none).")


def check_words(given: str | None, lesson, lang: str) -> str | None:
    """The words folder in use (--words, else the lesson file's `words`), resolved and checked: one line
    (exit 2) for a folder that is not there, `FILE:LINE: message` lines for what is wrong in it; a
    language with no built-in words needs one. The process reads through it from now on (use_words)."""
    from attention_core.errors import ph, text
    from attention_core.lines import locate
    from scenes.common import words as W

    folder = given or lesson.words
    said = W.message_lang(lang)  # lang when built in, else $ATTENTION_LESSON_LANG's, else en
    if folder is None:
        if not W.built_in(lang):
            export = f"attention-lesson words export --lang {lang} --out DIR"
            raise LessonFileError(text(said, "words_no_builtin", language=lang, export=export))
        return None
    if not Path(folder).is_dir():
        if given:
            raise click.BadParameter(text(said, "cli_not_a_folder", folder=repr(given)), param_hint="--words")
        line = locate(Path(lesson.source).read_text(encoding="utf-8"), "words") or 1
        raise LessonFileError(text(said, "at_line", file=lesson.source, line=line,
                                   text=ph("words_no_folder", folder=folder)), bare=True)
    folder = str(Path(folder).resolve())
    if W.files(folder, lang) or not W.built_in(lang):
        if problems := W.problems(folder, lang):  # in lang's words, else $ATTENTION_LESSON_LANG's, else en
            raise LessonFileError("\n".join(problems), bare=True)
        from scenes.common.words_warnings import warnings

        for warning in warnings(folder, lang):  # a placeholder a line leaves out: said, not refused
            click.echo(warning, err=True)
    W.use_words(folder)
    return folder


def _resolved_voice(chosen) -> str:
    """piper:PATH or kokoro:PATH[#name] with PATH absolute (a Kokoro voice's bundled or vendored name as
    it is: kokoro:jm_kumo; the Piper voice a package ships by its name: piper:en_US-joe-medium)."""
    from dataclasses import replace

    from ..pipeline.voice.kokoro import named
    from ..pipeline.voice.speakers import bundled_piper

    path, hash_, name = chosen.ref.partition("#")
    if chosen.kind == "kokoro" and not hash_ and named(path):
        return str(chosen)
    if chosen.kind == "piper" and (model := bundled_piper(path)) is not None:
        return str(replace(chosen, ref=str(model)))
    return str(replace(chosen, ref=f"{Path(path).expanduser().resolve()}{hash_}{name}"))


def make_options(lesson, kind: str, given: dict):
    """The RenderOptions of a command line (`given`: the command's option values by parameter name, or
    the values the command fixes), checked (a usage error, exit 2, if inconsistent); the language
    resolved (lesson_lang), and the lesson's words it lacks in it said once."""
    from scenes.common.style import DEFAULT_THEME

    from ..pipeline.plan import RenderOptions

    lang = lesson_lang(given.get("lang"), lesson)
    words = check_words(given.get("words"), lesson, lang)  # (a language's words before its lesson's)
    warn_language_gaps(lesson, lang)
    file_format = given.get("file_format", "mp4")
    if given.get("transparent") and file_format not in ("webm", "mov", "png"):
        raise click.BadParameter("an alpha channel needs --format webm, mov or png",
                                 param_hint="--transparent")
    return RenderOptions(
        lesson=str(Path(lesson.source).resolve()), context=check_context(lesson, given.get("context")),
        words=words,
        mode=given.get("mode", "scaled"), lang=lang, quality=given.get("quality", "low"),
        fps=given.get("fps"), format=file_format, transparent=bool(given.get("transparent")),
        sections=bool(given.get("sections")),
        voice=check_voice(given.get("voice"), lang), kind=kind, theme=given.get("theme") or DEFAULT_THEME)


# the click parameters a RenderOptions is made of, and those a Run is
OPTION_PARAMS = ("context", "mode", "lang", "quality", "fps", "file_format", "transparent", "sections",
                 "voice", "theme", "words")
RUN_PARAMS = ("out", "jobs", "force", "dry_run", "quiet")


def build_options(kind: str = "video", **fixed):
    """The decorated command gets its options as objects: `lesson` (loaded), `options` (a RenderOptions
    of `kind`, each field from the command's option of that name, else from `fixed`, else its default)
    and `run` (a Run), in place of the separate click parameters. Put it under the option decorators."""

    def decorate(f):
        @words_option
        @functools.wraps(f)
        def wrapper(*args, **params):
            from ..pipeline.plan import Run

            given = {**fixed, **{k: params.pop(k) for k in OPTION_PARAMS if k in params}}
            run = Run(**{k: params.pop(k) for k in RUN_PARAMS if k in params})
            les = params.pop("lesson")
            les = les if hasattr(les, "source") else load_lesson(les)  # (lesson_options loads it)
            options = make_options(les, kind, given)
            if problem := out_problem(options, run):  # (out_path.py)
                raise LessonFileError(problem)
            return f(*args, lesson=les, options=options, run=run, **params)

        return wrapper

    return decorate
