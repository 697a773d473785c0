"""Progress bars for renders (rich, on stderr): one for the whole run, one per scene, by steps."""

from __future__ import annotations

import click

from ..pipeline.plan import step_count

WIDTH = 28  # of the description column


class Bars:
    """A pipeline.build.Progress drawn with rich; failures are printed with their error at the end."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.progress = None  # shown from the first job on: nothing at all when nothing renders
        self.failures = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
        for f in self.failures:
            click.echo(f"scene {f.id} failed: {f.error}", err=True)
        return False

    def start(self, jobs) -> None:
        from rich.console import Console  # only when something renders: a re-run with nothing to do is quicker
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn(f"{{task.description:<{WIDTH}}}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn())
        # refreshed on every event, not by rich's own thread: render workers are forked while the
        # bars show, and a fork should not happen while another thread holds the console's lock
        self.progress = Progress(*columns, console=Console(stderr=True), disable=self.quiet,
                                 transient=False, auto_refresh=False)
        self.progress.__enter__()
        self.whole = self.progress.add_task("all scenes", total=len(jobs))
        self.totals = {j.id: step_count(j) for j in jobs}
        self.tasks = {j.id: self.progress.add_task(f"  {j.id}", total=self.totals[j.id]) for j in jobs}

    def step(self, scene_id: str, step: str) -> None:
        self.progress.update(self.tasks[scene_id], advance=1, description=f"  {scene_id}: {step}"[:WIDTH],
                             refresh=True)

    def done(self, result) -> None:
        self.progress.update(self.tasks[result.id], completed=self.totals[result.id],
                             description=f"  {result.id}" + ("" if result.ok else " FAILED"))
        self.progress.advance(self.whole)
        self.progress.refresh()
        if not result.ok:
            self.failures.append(result)
