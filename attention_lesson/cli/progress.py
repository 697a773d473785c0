"""Progress bars (rich, on stderr): `Bars` for a render, one bar for the whole run and one per scene, by
steps; `BatchBar` for a batch, one bar for every output. Both are a `RichBars`: shown from the first
job on, nothing at all when nothing renders, drawn but disabled when quiet."""

from __future__ import annotations

import click

from ..pipeline.plan import step_count

WIDTH = 28  # of the description column


class RichBars:
    """A rich Progress on stderr, opened by `open` (from a subclass's `start`) and closed on exit."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.progress = None  # shown from the first job on: nothing at all when nothing renders

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
        self.closed()
        return False

    def closed(self) -> None:
        """What to print once the bars are gone."""

    def open(self, description: str, **kwargs) -> None:
        """Show the bars: a description column (a rich format), the bar, done/total, time elapsed."""
        # imported only when something renders: a re-run with nothing to do is quicker
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn(description), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        self.progress = Progress(*columns, console=Console(stderr=True), disable=self.quiet, **kwargs)
        self.progress.__enter__()


class Bars(RichBars):
    """A pipeline.build.Progress drawn with rich; failures are printed with their error at the end."""

    def __init__(self, quiet: bool = False, lang: str | None = None):
        super().__init__(quiet)
        self.failures, self.lang = [], lang  # lang: the build's (its failures are said in it)

    def closed(self) -> None:
        from attention_core.errors import text
        from attention_core.language import message_lang

        for f in self.failures:
            click.echo(text(message_lang(self.lang), "render_failed", id=f.id, error=f.error), err=True)

    def start(self, jobs) -> None:
        # refreshed on every event, not by rich's own thread: render workers are forked while the
        # bars show, and a fork should not happen while another thread holds the console's lock
        self.open(f"{{task.description:<{WIDTH}}}", transient=False, auto_refresh=False)
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


class BatchBar(RichBars):
    """A pipeline.batch.BatchProgress: one bar for the whole batch, its done, to do, skipped and failed
    outputs."""

    def start(self, total: int, skipped: int) -> None:
        self.skipped = skipped
        self.open("{task.description}")
        self.task = self.progress.add_task(self._text(0, total - skipped, 0), total=total, completed=skipped)

    def _text(self, done: int, left: int, failed: int) -> str:
        return f"batch: {done} done, {left} to do, {self.skipped} skipped, {failed} failed"

    def update(self, done: int, left: int, failed: int) -> None:
        self.progress.update(self.task, completed=self.skipped + done + failed,
                             description=self._text(done, left, failed))
