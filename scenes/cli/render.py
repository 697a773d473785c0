"""`attention-lesson render ID... | --all`: render scenes, incrementally and in parallel."""

from __future__ import annotations

from pathlib import Path

import click

from ..pipeline.plan import RenderOptions, plan
from ..registry import available
from .options import load_lesson, render_options

MEDIA = Path("media")


def pick_scenes(ids: tuple[str, ...], all_: bool):
    by_id = {s.id: s for s in available()}
    valid = list(by_id)
    if all_ or not ids:
        if not all_:
            raise click.UsageError("name one or more scenes, or --all. Scenes: " + ", ".join(valid))
        return list(available())
    unknown = [i for i in ids if i not in valid]
    if unknown:
        raise click.BadParameter(
            f"unknown scene {', '.join(map(repr, unknown))}; valid ids: {', '.join(valid)}",
            param_hint="ID",
        )
    return [by_id[i] for i in ids]


def build_options(lesson, context, mode, lang, quality, fps, fmt="mp4", transparent=False,
                  sections=False, slides=False):
    if context is not None and context not in lesson.contexts:
        raise click.BadParameter(
            f"{context!r} is not a context of {lesson.source}; choose one of: "
            + ", ".join(lesson.contexts), param_hint="--context")
    if transparent and fmt not in ("webm", "mov", "png"):
        raise click.BadParameter("an alpha channel needs --format webm, mov or png",
                                 param_hint="--transparent")
    return RenderOptions(str(Path(lesson.source).resolve()), lesson.context_name(context), mode,
                         lang, quality, fps, fmt, transparent, sections, slides)


def execute(scenes, options: RenderOptions, out: str | None, jobs: int | None, force: bool,
            dry_run: bool, quiet: bool, join: bool = False):
    """Plan, check dependencies, render what is stale.

    Returns (output folder, jobs rendered now, jobs already up to date, failed results)."""
    from ..pipeline.runner import default_jobs

    lesson = load_lesson(options.lesson)
    out_dir = Path(out) if out else MEDIA / options.folder_name()
    todo, fresh = plan(lesson, scenes, options, out_dir, force=force)
    say = (lambda *a, **k: None) if quiet else click.echo
    if dry_run:
        for j in todo:
            click.echo(f"would render {j.id} -> {out_dir / j.main_file()}")
        for j in fresh:
            click.echo(f"up to date   {j.id} -> {out_dir / j.main_file()}")
        return out_dir, [], fresh, []
    failures = []
    if todo:
        from ..pipeline.deps import missing

        problems = missing({options.format}, options.transparent, join)
        if problems:
            raise click.ClickException("missing system dependencies:\n  " + "\n  ".join(problems))
        results = {r.id: r for r in _run(todo, jobs or default_jobs(), quiet)}
        for j in todo:
            j.files = results[j.id].files
        failures = [r for r in results.values() if not r.ok]
    say(f"{len(todo) - len(failures)} rendered, {len(fresh)} up to date, {len(failures)} failed "
        f"-> {out_dir}")
    return out_dir, todo, fresh, failures


def _run(todo, workers: int, quiet: bool):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..pipeline.runner import beat_count, run

    cache = MEDIA / ".cache"
    console = Console(stderr=True)
    columns = (TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    failures = []
    with Progress(*columns, console=console, disable=quiet, transient=False) as progress:
        whole = progress.add_task("all scenes", total=len(todo))
        totals = {j.id: beat_count(j) for j in todo}
        tasks = {j.id: progress.add_task(f"  {j.id}", total=totals[j.id]) for j in todo}

        def on_beat(sid, beat):
            progress.update(tasks[sid], advance=1, description=f"  {sid}: {beat}"[:28])

        def on_done(r):
            progress.update(tasks[r.id], completed=totals[r.id],
                            description=f"  {r.id}" + ("" if r.ok else " FAILED"))
            progress.advance(whole)
            if not r.ok:
                failures.append(r)

        results = run(todo, workers, cache, on_beat=on_beat, on_done=on_done)
    for f in failures:
        click.echo(f"scene {f.id} failed: {f.error}", err=True)
    return results


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "all_", is_flag=True, help="Every scene of the lesson, in order.")
@render_options
def render(ids, all_, lesson, context, mode, lang, quality, fps, fmt, transparent, sections, out,
           jobs, force, dry_run, quiet):
    """Render scenes: `render scores softmax` or `render --all`."""
    scenes = pick_scenes(ids, all_)
    les = load_lesson(lesson)
    options = build_options(les, context, mode, lang, quality, fps, fmt, transparent, sections)
    out_dir, rendered, _, failures = execute(scenes, options, out, jobs, force, dry_run, quiet)
    for j in rendered:  # the paths written
        for f in j.files:
            click.echo(str(out_dir / f))
    if failures:
        raise SystemExit(1)
