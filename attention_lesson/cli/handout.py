"""`attention-lesson handout [SCENE... | --all]`: the classroom handout, handout.html and handout.pdf."""

from __future__ import annotations

from dataclasses import replace

import click

from scenes.common.i18n import lesson_title
from scenes.registry import available

from ..pipeline.plan import QUALITIES
from .options import context_option, lang_option, lesson_option, load_lesson, mode_option
from .render import execute, make_options, pick_scenes


@click.command()
@click.argument("ids", nargs=-1, metavar="[SCENE]...")
@click.option("--all", "all_", is_flag=True, help="Every scene of the lesson, in order (the default).")
@lesson_option
@context_option
@mode_option
@lang_option
@click.option("--quality", type=click.Choice(list(QUALITIES)), default="medium", show_default=True,
              help="Resolution of the frames (medium: 720p, sharp enough for A4).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Output folder (default: the videos' folder of the same options).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=None, help="Worker processes.")
@click.option("--force", is_flag=True, help="Draw the frames again even if they are up to date.")
@click.option("--dry-run", is_flag=True, help="Say what would be drawn, draw nothing.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
def handout(ids, all_, lesson, context, mode, lang, quality, out, jobs, force, dry_run, quiet):
    """A printable handout that follows the video step by step: a one-page summary, every step's last
    frame with its narration and numbers, exercises from the lesson with their answers; as
    handout.html (frames beside it in frames/) and handout.pdf (A4, printed by chromium)."""
    from ..outputs.handout import build_handout, engine_missing

    scenes = pick_scenes(ids, all_ or not ids)
    order = [s.id for s in available()]
    scenes.sort(key=lambda s: order.index(s.id) if s.id in order else len(order))  # the video's order
    les = load_lesson(lesson)
    options = replace(make_options(les, context, mode, lang, quality, None, file_format="png"), frames=True)
    if not dry_run and (problem := engine_missing()):
        raise click.ClickException(problem)
    report = execute(les, scenes, options, out, jobs, force, dry_run, quiet)
    if dry_run:
        click.echo(f"would write {report.out_dir / 'handout.html'} and handout.pdf")
        return
    if report.failures:
        click.echo("no handout: some scenes failed", err=True)
        raise SystemExit(1)
    for path in build_handout(report.out_dir, les, options.context, mode, lang, [s.id for s in scenes],
                              lesson_title(les, lang)):
        click.echo(str(path))
