"""The studio's frames: the last frame of every step of the scenes whose inputs changed, drawn in the
background at low quality by warm workers (pipeline/drawing/warm.WarmPool) after each valid edit.

One thread plans and collects, so the server's event loop never waits on a render. A new edit cancels
the drawing of the previous one: its waiting jobs are dropped, its running ones stop before their next
animation (nothing written); then the newest text is planned against the folder's manifest (unchanged
scenes are not drawn again) and what is stale is drawn. Each step's frame is sent to the page as soon as
the worker has drawn it (`step`, served from memory), the scene's files once it is done (`frames`).
Every event names its run (`run`): the page shows only the newest run's.

What a free worker draws next (`priority`): a step's clip the page asked to play, then the scene on the
page's screen (`focus`: told with each edit and each new selection), then that step's clip (drawn ahead
after an edit, so that Play has it at once), then the other scenes, the longest first, then the scene on
screen as a whole video. A press on Play with both workers busy stops the frames of a scene off screen
(drawn again later).
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from attention_core import Lesson

from ..pipeline import timings
from ..pipeline.drawing import runner, warm
from ..pipeline.plan import CACHE, FRAMES, MEDIA, VIDEO, Job, RenderOptions, Result, plan, step_count
from . import clips

STUDIO = MEDIA / "studio"  # the studio's frames, apart from the folders the commands write
GROWTH_MB = 140  # how much a worker may grow past the most one held after the first drawing (warm.py): two
# workers, 280 MB at most (a worker warms by some 70 MB as it comes to draw every scene and a video)

Emit = Callable[[str, dict], None]  # (event name, JSON data): must be safe to call from any thread


@dataclass
class Request:
    run: int
    lesson: Lesson
    options: RenderOptions
    first: str | None = None  # the scene drawn before the others
    step: int | None = None  # and the step of it on screen (its clip drawn ahead)
    announced: threading.Event = field(default_factory=threading.Event)  # its plan told to the pages


def frames_folder(options: RenderOptions) -> Path:
    return STUDIO / options.folder_name()


def steps_of(out_dir: Path, scene_id: str) -> list[dict]:
    """A drawn scene's steps: name, narration, its catalog key and frame file (relative to media/), from its
    index."""
    index = json.loads((out_dir / "frames" / f"{scene_id}.json").read_text(encoding="utf-8"))
    rel = out_dir.relative_to(MEDIA)
    return [{"step": s["step"], "narration": s["narration"], "key": s.get("key", ""),
             "frame": f"{rel}/{s['frame']}",
             "seconds": round(s.get("end", 0.0) - s.get("start", 0.0), 2)} for s in index["steps"]]


def clips_of(out_dir: Path, files: list[str], scene_id: str) -> list[str]:
    """A scene video's step clips (`<id>-<nn>-<step>.mp4`), in order, as paths under media/."""
    rel = out_dir.relative_to(MEDIA)
    return [f"{rel}/{f}" for f in sorted(files) if f.startswith(f"{scene_id}-") and f.endswith(".mp4")]


class Drawer:
    """Draws the frames of the newest text asked for; one thread, a warm pool of worker processes."""

    def __init__(self, workers: int, emit: Emit, scenes):
        self.emit, self.scenes = emit, list(scenes)
        self.pool = warm.WarmPool(workers, CACHE, on_event=self._event, priority=self.priority,
                                  preemptible=self.preemptible)
        self.latest: Request | None = None  # the request the drawing thread has not taken yet
        self.asked: Request | None = None  # the newest request, taken or not
        self.focus: tuple[str | None, int] = (None, 1)  # the step on the page's screen: scene, n
        self.cost: dict[str, float] = {}  # the newest run's frames jobs: expected seconds, by scene
        self.drawing: set[str] = set()  # the scenes whose frames are being drawn now
        self.making: set[Path] = set()  # the step clips being drawn
        self.previews: dict[tuple[int, str, int], bytes] = {}  # (run, scene, n) -> a step's PNG, as drawn
        self.folders: set[Path] = set()  # where it drew: swept of dead workers' folders on close
        self.wake = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._loop, name="studio-drawer", daemon=True)
        self.thread.start()

    def priority(self, task: warm.Task) -> tuple:
        """What a free worker draws first (the smallest): see the module's docstring."""
        scene = task.job.id
        if task.kind == "step":
            return (0,) if task.urgent else (2,)
        if task.kind == "clips":
            return (4,)
        return (1,) if scene == self.focus[0] else (3, -self.cost.get(scene, 0.0))

    def preemptible(self, task: warm.Task) -> bool:
        """Whether a press on Play may stop this job: the frames of a scene off screen, a whole video."""
        return task.kind == "clips" or (task.kind == "frames" and task.job.id != self.focus[0])

    def look(self, scene: str | None, n: int = 1) -> None:
        """The page shows step n of `scene` now: its frames are drawn before the other scenes' (those
        not begun yet)."""
        self.focus = (scene, n)

    def request(self, lesson: Lesson, options: RenderOptions, first: str | None = None,
                step: int | None = None) -> int:
        """Draw the frames of this lesson (the scene `first` first, and its step `step`'s clip ahead: the
        one on the page's screen): cancels what is being drawn; the new run's number."""
        if first is not None:
            self.look(first, step or 1)
        run = self.pool.cancel()
        with self.wake:
            self.latest = self.asked = Request(run, lesson, replace(options, kind=FRAMES, format="png"),
                                               first, step)
            self.wake.notify()
        return run

    def announce(self, run: int) -> None:
        """Tell the pages which scenes run `run` makes stale, at once (from any thread: the drawer's
        own may still be waiting for the last run's jobs to stop). The drawing waits for it a while."""
        with self.wake:
            req = self.asked if self.asked is not None and self.asked.run == run else None
        if req is None:  # a newer edit came first: its own announcement tells
            return
        todo, fresh = plan(req.lesson, self.scenes, req.options, frames_folder(req.options))
        self._tell_plan(req, {j.id for j in todo}, {j.id: step_count(j) for j in todo + fresh})

    def _tell_plan(self, req: Request, stale: set[str], steps: dict[str, int]) -> None:
        """The plan event of a run, once: by the announcement or by the drawing, whichever comes first
        (a late second one would mark stale again what was drawn meanwhile). Each scene with its steps'
        count (from its source), so the page lays out and names every step before it is drawn, and its
        steps' names for people by their ids (`names`)."""
        with self.wake:
            if req.announced.is_set():
                return
            req.announced.set()
            lang = req.options.lang
            scenes = [{"id": s.id, "title": s.title(lang), "short": s.short(lang),
                       "names": s.step_titles(lang), "stale": s.id in stale, "steps": steps[s.id]}
                      for s in self.scenes if s.fits(req.lesson)]
            self.emit("plan", {"run": req.run, "scenes": scenes})

    def close(self) -> None:
        with self.wake:
            self.closed = True
            self.wake.notify()
        self.pool.close()
        for folder in self.folders:  # a job stopped mid-step leaves its private folder
            runner.sweep(folder)

    def _event(self, run: int, kind: str, scene_id: str, *rest) -> None:
        """A worker's news of run `run` (only the newest run's is told): a step begun, or drawn."""
        if run != self.pool.generation.value:
            return
        if kind == "step":
            if scene_id in self.drawing:  # a frames job's (a clip's steps are not the timeline's)
                self.emit("progress", {"run": run, "scene": scene_id, "step": rest[0]})
            return
        n, step, png = rest
        if any(key[0] != run for key in self.previews):
            self.previews = {k: v for k, v in self.previews.items() if k[0] == run}
        self.previews[(run, scene_id, n)] = png
        self.emit("step", {"run": run, "scene": scene_id, "n": n, "step": step,
                           "frame": f"/api/preview/{run}/{scene_id}/{n}.png"})

    def clip(self, scene_id: str, n: int | None = None, urgent: bool = True) -> dict:
        """The scene of the newest text as a video at the studio's quality, a clip per step (manim's
        sections): its clips at once when up to date, else drawn by a warm worker and told as a `clip`
        event (an edit meanwhile cancels it). With n (a step, from 1) and the scene not drawn: that
        step alone (studio/clips.py), told with `n`: urgent (Play) before anything else, else (drawn
        ahead) after the frames of the scene on screen. Every answer and event names the run it is of (a
        page ignores a clip of an older text). LookupError for a scene the studio does not draw."""
        req, run = self.asked, self.pool.generation.value
        scene = next((s for s in self.scenes if s.id == scene_id), None)
        if req is None or scene is None:
            raise LookupError(f"no such scene: {scene_id}")
        options = replace(req.options, kind=VIDEO, format="mp4", sections=True)
        out_dir = frames_folder(options)
        todo, fresh = plan(req.lesson, [scene], options, out_dir)
        if fresh:
            return {"scene": scene_id, "run": run, "ready": True,
                    "clips": clips_of(out_dir, fresh[0].files, scene_id)}
        if n is None:
            self._draw_clips(todo[0], out_dir)
            return {"scene": scene_id, "run": run, "ready": False, "clips": []}
        dst = clips.step_clip(out_dir, todo[0], n)
        if dst.exists():
            return {"scene": scene_id, "n": n, "run": run, "ready": True,
                    "clips": [str(dst.relative_to(MEDIA))]}
        if dst in self.making:  # drawn ahead already: now urgent, if it waits
            if urgent:
                self.pool.hurry(lambda t: t.tag == dst)
        elif not self.closed:
            self._draw_step(todo[0], out_dir, n, urgent)
        return {"scene": scene_id, "n": n, "run": run, "ready": False, "clips": []}

    def _draw_clips(self, job: Job, out_dir: Path) -> None:
        run = self.pool.generation.value

        def done(result: Result) -> None:
            runner.record(job, result)
            ok = result.ok and run == self.pool.generation.value
            self.emit("clip", {"scene": job.id, "run": run, "ready": ok, "message": _why(result, ok),
                               "clips": clips_of(out_dir, result.files, job.id) if ok else []})
        if not self.closed:
            self.pool.submit(job, run, done, kind="clips")

    def _draw_step(self, job: Job, out_dir: Path, n: int, urgent: bool) -> None:
        run, folder = self.pool.generation.value, clips.pieces_folder(out_dir)
        dst = clips.step_clip(out_dir, job, n)

        def done(result: Result) -> None:
            try:  # drawn is drawn: the file is named by its inputs, true even after a newer edit
                joined = clips.join_segments(folder, dst) if result.ok else clips.discard(folder)
            except Exception as e:  # noqa: BLE001 - told to the page as the clip's failure
                joined, result = False, replace(result, error=f"joining the step's clip: {e}")
            finally:
                self.making.discard(dst)
            ok = joined and run == self.pool.generation.value
            self.emit("clip", {"scene": job.id, "n": n, "run": run, "ready": ok, "message": _why(result, ok),
                               "clips": [str(dst.relative_to(MEDIA))] if ok else []})
        self.making.add(dst)
        self.pool.submit(clips.step_job(job, n, folder), run, done, kind="step", urgent=urgent, tag=dst)

    def preview(self, run: int, scene_id: str, n: int) -> bytes | None:
        return self.previews.get((run, scene_id, n))

    def _loop(self) -> None:
        while True:
            with self.wake:
                while self.latest is None and not self.closed:
                    self.wake.wait()
                if self.closed:
                    return
                req, self.latest = self.latest, None
            try:
                self._draw(req)
            except Exception as e:  # noqa: BLE001 - told to the page; the next edit tries again
                self.emit("fault", {"run": req.run, "message": f"drawing frames: {type(e).__name__}: {e}"})

    def _draw(self, req: Request) -> None:
        """Plan against the manifest, announce every scene (the fresh ones with their frames), draw the
        stale ones (in the order of `priority`), announce each as it is done."""
        out_dir = frames_folder(req.options)
        self.folders.add(out_dir)
        runner.sweep(out_dir)
        req.announced.wait(2.0)  # the pages know what is stale before the first frame comes
        todo, fresh = plan(req.lesson, self.scenes, req.options, out_dir)
        self._tell_plan(req, {j.id for j in todo}, {j.id: step_count(j) for j in todo + fresh})
        for j in fresh:
            self.emit("frames", {"run": req.run, "scene": j.id, "steps": steps_of(out_dir, j.id),
                                 "drawn": False})
        cost = runner.costs(todo, timings.load(CACHE))
        self.cost = {j.id: cost[j.task] for j in todo}  # the longest first: no core waits at the end
        # while another draws a long scene alone
        done: queue.SimpleQueue[Result] = queue.SimpleQueue()
        self.drawing = {j.id for j in todo}
        self.pool.submit_all([(job, req.run, done.put) for job in todo])
        self._ahead(req, {j.id for j in todo})
        by_id = {j.id: j for j in todo}
        results = [self._collect(req, out_dir, by_id, done.get()) for _ in todo]
        timings.save(CACHE, todo, results)
        self.emit("idle", {"run": req.run})
        self.pool.settle(GROWTH_MB)
        if req.first is not None and self.asked is req:  # the scene on screen's clips, ready for Play
            with contextlib.suppress(LookupError):  # a scene the page named that is not drawn here
                self.clip(req.first)

    def _ahead(self, req: Request, stale: set[str]) -> None:
        """After an edit that changed the scene on screen: its step's clip, drawn ahead (a press on Play
        finds it drawn, or being drawn)."""
        if req.step is not None and req.first in stale and self.asked is req:
            with contextlib.suppress(LookupError):
                self.clip(req.first, req.step, urgent=False)

    def _collect(self, req: Request, out_dir: Path, by_id: dict, result: Result) -> Result:
        runner.record(by_id[result.id], result)  # a job that finished (even of an older run) is real
        self.drawing.discard(result.id)
        if result.ok:
            self.emit("frames", {"run": req.run, "scene": result.id, "steps": steps_of(out_dir, result.id),
                                 "drawn": True, "seconds": round(result.seconds, 2)})
        elif not result.error.startswith("Cancelled"):
            self.emit("fault", {"run": req.run, "scene": result.id, "message": result.error.splitlines()[0]})
        return result


def _why(result: Result, ok: bool) -> str:
    """The one line a page shows for a clip that failed ("" when it did not)."""
    return "" if ok else (result.error.splitlines() or ["a newer edit came first"])[0][:200]
