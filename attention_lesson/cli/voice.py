"""`attention-lesson voice script [SCENE...]`: the recording script a teacher reads from, step by step.

For every step of every chosen scene: the file to save (relative to the recordings folder that
`--voice DIR` reads, see attention_lesson/pipeline/voice.py), the line to read (the step's narration,
as the subtitles show it) and how long the step's animations already last without a voice (a longer
recording makes the step longer). The steps come from building each scene in-process in dry-run mode:
nothing is drawn or encoded, so a scene takes seconds.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import click

from scenes.common.i18n import lesson_title
from scenes.common.settings import Settings
from scenes.registry import available

from .options import lang_option, lesson_options
from .render import pick_scenes

FORMATS = ("md", "csv")
CSV_COLUMNS = ("file", "scene", "step", "line", "seconds")


@dataclass(frozen=True)
class Line:
    """One step to record."""

    file: str  # <lang>/<scene>/<nn>-<step>.wav, relative to the recordings folder
    scene: str
    n: int  # the step's number within its scene, from 1
    step: str
    line: str  # the narration, exactly as the subtitles show it
    seconds: float  # the step's length without a voice (its animations, or its reading time)


def scene_steps(info, lesson_source: str, context: str, mode: str, lang: str, media_dir: Path):
    """The steps a scene runs under these settings (LessonScene.steps), from a dry-run build: no frame
    drawn, no video written. media_dir holds manim's TeX and text caches (one per process)."""
    from manim import tempconfig

    cls = info.load()
    opts = {"dry_run": True, "write_to_movie": False, "disable_caching": True, "quality": "low_quality",
            "verbosity": "ERROR", "progress_bar": "none", "media_dir": str(media_dir)}
    with Settings(lesson_source, context, mode, lang).applied(), tempconfig(opts):
        scene = cls()
        scene.renderer.update_frame = lambda *args, **kwargs: None  # nothing looks at a frame
        scene.render()
    return scene.steps


def script_lines(scenes, lesson_source: str, context: str, mode: str, lang: str) -> list[Line]:
    out = []
    with tempfile.TemporaryDirectory(prefix="attention-voice-") as media:
        for info in scenes:
            try:
                steps = scene_steps(info, lesson_source, context, mode, lang, Path(media))
            except Exception as e:  # a scene that cannot be built: say which, no traceback
                raise click.ClickException(f"scene {info.id} could not be built: "
                                           f"{type(e).__name__}: {e}") from None
            for n, s in enumerate(steps, 1):
                out.append(Line(f"{lang}/{info.id}/{n:02d}-{s.step}.wav", info.id, n, s.step, s.narration,
                                s.end - s.start))
    return out


def as_csv(lines: list[Line]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for x in lines:
        w.writerow([x.file, x.scene, x.step, x.line, f"{x.seconds:.2f}"])
    return buf.getvalue()


def as_markdown(lines: list[Line], scenes, title: str, lesson, context: str, mode: str, lang: str) -> str:
    out = [f"# {title}: recording script ({lang})", "",
           f"Lesson {lesson.source}, context {context}, mode {mode}. Save each recording under the name "
           "shown, relative to your recordings folder (wav; flac, mp3, m4a or ogg work too), then render "
           "with `--voice FOLDER`. A recording longer than the step's animations makes the step longer; "
           "a step without a recording gets the draft voice."]
    order = {s.id: i for i, s in enumerate(available(), 1)}  # a scene's number in the whole lesson
    for info in scenes:
        mine = [x for x in lines if x.scene == info.id]
        out += ["", f"## {order.get(info.id, '')}. {info.title(lang)} ({info.id})", ""]
        for x in mine:
            quoted = "\n".join(f"   > {part}" for part in x.line.splitlines() or [""])
            out += [f"{x.n}. `{x.file}`: the step's animations last {x.seconds:.1f} s", "", quoted, ""]
        if out[-1] == "":
            out.pop()
    return "\n".join(out) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """text into path via a temporary file beside it and os.replace: never a half-written script."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@click.group()
def voice():
    """Record the lesson's voice: the script to read (`voice script`), for `--voice DIR`."""


@voice.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@lesson_options
@lang_option
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the script to this file (default: standard output).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True,
              help="md: a heading per scene, a numbered item per step; csv: file,scene,step,line,seconds.")
def script(ids, lesson, context, mode, lang, out, fmt):
    """The recording script: for every step of the chosen scenes (default: all, in lesson order) the
    file to save (<lang>/<scene>/<nn>-<step>.wav in the recordings folder), the line to read and how
    long the step's animations last without a voice."""
    scenes = pick_scenes(ids, not ids)
    source = str(Path(lesson.source).resolve())
    lines = script_lines(scenes, source, context, mode, lang)
    text = as_csv(lines) if fmt == "csv" else as_markdown(lines, scenes, lesson_title(lesson, lang), lesson,
                                                          context, mode, lang)
    if out is None:
        click.echo(text, nl=False)
        return
    write_atomically(Path(out), text)
    click.echo(f"{len(lines)} steps of {len(scenes)} scenes -> {out}", err=True)
