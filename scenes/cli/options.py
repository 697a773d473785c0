"""Options shared by several commands, defined once."""

from __future__ import annotations

import functools

import click

from attention_core import MODES, LessonError, load


class LessonFileError(click.ClickException):
    """A bad lesson file: one clear line, exit status 2 (like a usage error), no traceback."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def load_lesson(path):
    try:
        return load(path)
    except LessonError as e:
        raise LessonFileError(str(e)) from None


def lesson_option(f):
    return click.option(
        "--lesson", "lesson", metavar="FILE", default=None,
        help="Lesson file (TOML) or packaged lesson name; default: the packaged default lesson.",
    )(f)


def context_option(f):
    return click.option(
        "--context", "context", metavar="NAME", default=None,
        help="Which context (sentence) of the lesson; default: the lesson's first.",
    )(f)


def mode_option(f):
    return click.option(
        "--mode", type=click.Choice(MODES), default="scaled", show_default=True,
        help="Normalizer: scaled (÷√d_k), unscaled (no √d_k) or uniform (1/n each).",
    )(f)


def lang_option(f):
    return click.option(
        "--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
        help="Language of on-screen text and narration.",
    )(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(f)


def lesson_options(f):
    """--lesson, --context and --mode, and the lesson loaded with a clean error."""

    @lesson_option
    @context_option
    @mode_option
    @functools.wraps(f)
    def wrapper(*args, lesson, context, mode, **kwargs):
        les = load_lesson(lesson)
        if context is not None and context not in les.contexts:
            raise click.BadParameter(
                f"{context!r} is not a context of {les.source}; choose one of: "
                + ", ".join(les.contexts),
                param_hint="--context",
            )
        return f(*args, lesson=les, context=context, mode=mode, **kwargs)

    return wrapper
