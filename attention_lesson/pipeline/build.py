"""Bring a set of scenes up to date in one output folder: plan, check the system, render what is stale.

What `render`, `lesson`, `slides` and `sheet` share. Progress goes to an optional `Progress` (the CLI
draws bars); problems the user must fix are raised as `MissingDependencies`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from attention_core import Lesson

from .plan import CACHE, MEDIA, Job, RenderOptions, plan
from .worker import Result


class MissingDependencies(Exception):
    """System tools a render needs are not installed; each line names one and how to install it."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("missing system dependencies:\n  " + "\n  ".join(problems))


class Progress(Protocol):
    def start(self, jobs: list[Job]) -> None: ...
    def beat(self, scene_id: str, beat: str) -> None: ...
    def done(self, result: Result) -> None: ...


@dataclass
class Report:
    out_dir: Path
    todo: list[Job]  # stale: rendered now (or, in a dry run, would be)
    fresh: list[Job]  # up to date, not rendered
    failures: list[Result] = field(default_factory=list)
    drafted: list[str] = field(default_factory=list)  # <scene>/<nn>-<step> spoken by the draft voice

    @property
    def written(self) -> list[Path]:
        """The files rendered now, in scene order."""
        return [self.out_dir / f for j in self.todo for f in j.files]


def output_folder(options: RenderOptions, out: str | Path | None = None) -> Path:
    """--out, or media/<lesson>/<context>-<mode>-<lang>-<resolution><fps>[-alpha]."""
    return Path(out) if out else MEDIA / options.folder_name()


def build(lesson: Lesson, scenes, options: RenderOptions, out_dir: Path, *, jobs: int,
          force: bool = False, dry_run: bool = False, join: bool = False,
          progress: Progress | None = None, quiet: bool = False) -> Report:
    """Render the scenes of `options` into out_dir that are not up to date there (all with force).
    A dry run only plans. `join` also checks for what joining the clips needs; quiet hides manim's
    warnings."""
    todo, fresh = plan(lesson, scenes, options, out_dir, force=force)
    report = Report(out_dir, todo, fresh)
    if dry_run or not todo:
        return report
    from .deps import missing

    problems = missing({options.format}, options.transparent, join, options.voice)
    if problems:
        raise MissingDependencies(problems)
    from .runner import run

    if progress is None:
        results = run(todo, jobs, CACHE, quiet=quiet)
    else:
        progress.start(todo)
        results = run(todo, jobs, CACHE, on_beat=progress.beat, on_done=progress.done, quiet=quiet)
    by_id = {r.id: r for r in results}
    for j in todo:
        j.files = by_id[j.id].files
    report.failures = [r for r in results if not r.ok]
    report.drafted = [d for r in results for d in r.drafted]
    return report
