"""`attention-lesson voice script|status [SCENE...]`: the recording workflow, step by step.

`voice script`: the recording script a teacher reads from. `voice status --voice DIR`: what each step
will be spoken with, and whether a recording still fits its line.

For every step of every chosen scene: the file to save (relative to the recordings folder that
`--voice DIR` reads, see attention_lesson/pipeline/voice.py), the line to read (the step's narration,
as the subtitles show it) and how long the step's animations already last without a voice (a longer
recording makes the step longer). The steps come from building each scene in-process in dry-run mode:
nothing is drawn or encoded, so a scene takes seconds.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import click

from scenes.common.i18n import lesson_title
from scenes.common.speech import speakable
from scenes.registry import available

from ..pipeline.dryrun import scene_steps
from .options import lang_option, lesson_options
from .render import pick_scenes

FORMATS = ("md", "csv")
CSV_COLUMNS = ("file", "scene", "step", "line", "seconds", "draft_seconds")


@dataclass(frozen=True)
class Line:
    """One step to record."""

    file: str  # <lang>/<scene>/<nn>-<step>.wav, relative to the recordings folder
    scene: str
    n: int  # the step's number within its scene, from 1
    step: str
    line: str  # the narration, exactly as the subtitles show it
    seconds: float  # the step's length without a voice (its animations, or its reading time)
    draft: float | None = None  # how long the draft voice takes to say it (a guide), if espeak-ng is here


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
                                s.end - s.start, draft_seconds(s.narration, lang)))
    return out


def draft_seconds(line: str, lang: str) -> float | None:
    """How long the draft voice takes to say a line (espeak-ng, before any processing)."""
    from ..pipeline.plan import espeak_version
    from ..pipeline.voice import synthesize

    if espeak_version() is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "draft.wav"
        synthesize(speakable(line, lang), lang, wav)
        with wave.open(str(wav)) as w:
            return w.getnframes() / w.getframerate()


def as_csv(lines: list[Line]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for x in lines:
        w.writerow([x.file, x.scene, x.step, x.line, f"{x.seconds:.2f}",
                    "" if x.draft is None else f"{x.draft:.2f}"])
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
            guide = "" if x.draft is None else f"; the draft voice takes {x.draft:.1f} s"
            out += [f"{x.n}. `{x.file}`: the step's animations last {x.seconds:.1f} s{guide}", "", quoted, ""]
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


# -- status -----------------------------------------------------------------------------------------
RECORDED = "recorded.json"  # in DIR/<lang>/: each recording (by content hash) -> the line it was read from
QUIET_LUFS = -35.0  # a recording quieter than this is flagged: normalising it raises its noise too
CLIP_DBTP = -0.1  # a peak this high is flagged as clipped


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def step_status(folder: Path, x: Line, seen: dict) -> dict:
    """One step: recorded / stale (its line changed since it was recorded) / draft (no recording, the
    draft voice speaks it) / missing (no recording and no espeak-ng), and the recording's measures."""
    from ..pipeline.plan import espeak_version
    from ..pipeline.voice import audio_seconds, measure, recording

    rec = recording(folder, x.file.split("/")[0], x.scene, x.n, x.step)
    row = {"file": x.file, "scene": x.scene, "step": x.step, "line": x.line}
    if rec is None:
        return row | {"state": "draft" if espeak_version() else "missing"}
    key, line = _sha(rec.read_bytes()), _sha(x.line.encode())
    seen.setdefault(key, line)  # first seen now: recorded from the line as it is
    lufs, peak = measure(rec)
    flags = (["clipped"] if peak >= CLIP_DBTP else []) + (["too quiet"] if lufs < QUIET_LUFS else [])
    return row | {"file": str(rec.relative_to(folder)), "state": "recorded" if seen[key] == line else "stale",
                  "seconds": round(audio_seconds(rec) or 0.0, 2), "lufs": lufs, "peak_dbtp": peak,
                  "flags": flags}


@voice.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@click.option("--voice", "folder", required=True, type=click.Path(file_okay=False, exists=True),
              help="The recordings folder (DIR/<lang>/<scene>/<nn>-<step>.<ext>).")
@lesson_options
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def status(ids, folder, lesson, context, mode, lang, as_json):
    """What speaks each step: its recording (with its length, loudness and peak; clipped or too quiet
    flagged), or the draft voice. A recording is stale when its step's line changed after it was
    recorded: the line each recording was first seen with is kept in DIR/<lang>/recorded.json."""
    import json

    folder = Path(folder)
    scenes = pick_scenes(ids, not ids)
    lines = script_lines(scenes, str(Path(lesson.source).resolve()), context, mode, lang)
    seen_path = folder / lang / RECORDED
    seen = json.loads(seen_path.read_text(encoding="utf-8")) if seen_path.exists() else {}
    rows = [step_status(folder, x, seen) for x in lines]
    write_atomically(seen_path, json.dumps(seen, indent=1, sort_keys=True))
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for r in rows:
        measures = (f"{r['seconds']:5.1f} s  {r['lufs']:6.1f} LUFS  peak {r['peak_dbtp']:5.1f} dBTP"
                    if "seconds" in r else "")
        flags = "  " + ", ".join(r["flags"]) if r.get("flags") else ""
        click.echo(f"{r['state']:8}  {r['file']:40}  {measures}{flags}")
    counts = {s: sum(r["state"] == s for r in rows) for s in ("recorded", "stale", "draft", "missing")}
    click.echo(", ".join(f"{n} {s}" for s, n in counts.items() if n) + f" of {len(rows)} steps")
