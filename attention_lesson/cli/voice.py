"""`attention-lesson voice script|status [SCENE...]`: the recording workflow, step by step.

`voice script`: the recording script a teacher reads from. `voice status --voice DIR`: what each step
will be spoken with, and whether a recording still fits its line. The steps, lines and lengths come from
pipeline/voice/lines.py; this module parses the options and prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from attention_core.errors import text as said
from attention_core.language import message_lang

from .options import (
    any_lang_option,
    check_voice,
    json_option,
    lesson_options,
    make_options,
    out_option,
    recordings_option,
    words_option,
)
from .report import run_build
from .scene_choice import pick_scenes


@click.group()
def voice():
    """Record the lesson's voice: the script to read (`voice script`), for `--voice DIR`."""


def _lines(ids, lesson, context, mode, lang, words=None, guide=None):
    """The steps to record of the chosen scenes (default: all, in lesson order), with how long the
    `guide` voice takes to say each (none without one)."""
    from ..pipeline.plan import CACHE, Run, steps_folder
    from ..pipeline.voice.lines import script_lines
    from ..pipeline.voice.track import guide_voice

    scenes = pick_scenes(ids, not ids, lesson)
    options = make_options(lesson, "steps", {"context": context, "mode": mode, "lang": lang, "words": words})
    report = run_build(lesson, scenes, options, Run(out=steps_folder(options), cache=CACHE, quiet=True))
    if report.failures:
        f = report.failures[0]
        raise click.ClickException(said(message_lang(lang), "voice_not_built", id=f.id,
                                        error=f.error.splitlines()[0]))
    return scenes, script_lines(report, lang, guide and guide_voice(lang, CACHE / "voice", guide))


@voice.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@lesson_options
@any_lang_option
@words_option
@out_option("Write the script to this file (default: standard output).", file=True)
@click.option("--format", "fmt", type=click.Choice(("md", "csv")), default="md", show_default=True,
              help="md: a heading per scene, a numbered item per step; csv: file,scene,step,line,seconds.")
@click.option("--guide", metavar="VOICE", default="neural", show_default=True,
              help="The voice whose length of each line the script gives as a guide (the one a render speaks "
                   "an unrecorded step with): 'neural', 'draft' (espeak-ng: quick), 'piper:PATH.onnx' or "
                   "'kokoro:PATH'. The lines it says are kept for the render.")
def script(ids, out, fmt, guide, **chosen):
    """The recording script: for every step of the chosen scenes (default: all, in lesson order) the
    file to save (<lang>/<scene>/<nn>-<step>.wav in the recordings folder), the line to read and how
    long the step's animations last without a voice."""
    from scenes.common.i18n import lesson_title

    from ..outputs.script import as_csv, as_markdown
    from ..pipeline.manifest import write_atomically

    guide = _guide(guide, chosen["lang"])
    scenes, lines = _lines(ids, guide=guide, **chosen)  # (the lesson, context, mode, lang and words chosen)
    lesson, lang = chosen["lesson"], chosen["lang"]
    text = as_csv(lines) if fmt == "csv" else as_markdown(lines, scenes, lesson_title(lesson, lang), lesson,
                                                          chosen["context"], chosen["mode"], lang)
    if out is None:
        click.echo(text, nl=False)
        return
    write_atomically(Path(out), text)
    written = said(message_lang(lang), "voice_script_written", steps=len(lines), scenes=len(scenes), out=out)
    click.echo(written, err=True)


def _guide(given: str, lang: str) -> str:
    """--guide resolved as --voice is; a recordings folder is not a guide."""
    from ..pipeline.voice.speakers import is_folder

    if is_folder(given):
        raise click.BadParameter(said(message_lang(lang), "voice_not_a_guide", given=repr(given)),
                                 param_hint="--guide")
    return check_voice(given, lang)


@voice.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@recordings_option
@lesson_options
@any_lang_option
@words_option
@json_option
def status(ids, folder, as_json, **chosen):
    """What speaks each step: its recording (with its length, loudness and peak; clipped or too quiet
    flagged), or the neural voice (for a language that has one), or the draft voice. A recording is stale
    when its step's line changed after it was recorded: the line each recording was first seen with is
    kept in DIR/<lang>/recorded.json."""
    from ..pipeline.voice.recordings import status as step_states

    rows = step_states(Path(folder), _lines(ids, **chosen)[1], chosen["lang"])
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for r in rows:
        measures = (f"{r['seconds']:5.1f} s  {r['lufs']:6.1f} LUFS  peak {r['peak_dbtp']:5.1f} dBTP"
                    if "seconds" in r else "")
        flags = "  " + ", ".join(r["flags"]) if r.get("flags") else ""
        click.echo(f"{r['state']:8}  {r['file']:40}  {measures or r['engine']}{flags}")
    states = ("recorded", "stale", "neural", "draft", "missing")
    counts = {s: sum(r["state"] == s for r in rows) for s in states}
    click.echo(", ".join(f"{n} {s}" for s, n in counts.items() if n) + f" of {len(rows)} steps")
    from ..pipeline.voice.speakers import draft_weakness, voices

    if counts["draft"] and (weakness := draft_weakness(chosen["lang"])):
        click.echo(weakness)
    heading = said(message_lang(chosen["lang"]), "voice_list", language=chosen["lang"])
    click.echo(heading + "\n  " + "\n  ".join(voices(chosen["lang"])))
