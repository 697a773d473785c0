"""The studio's render buttons: a product (the lesson video, the HTML or PPTX deck, the handout) of the
text as it was when the button was pressed, made by the same code as the CLI's commands
(pipeline.build with the product of outputs/registry.py) into the same folders.

Each render runs in a process of its own (spawn: the server's threads are not inherited), which writes
the text to a snapshot file named like the lesson file (the output folder is named after it), builds,
and reports its progress on a queue; a thread of the server relays it as events. A render in progress
is not touched by later edits. Stopping the studio interrupts it as Ctrl-C would (the pipeline removes
its temporary folders). `render_request` checks what the page asks for; `render_langs` is the languages
its form offers (the built-in ones and the lesson's words folder's).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import shutil
import signal
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from .drawing import Emit
from .session import TextProblem

PRODUCTS = ("lesson", "html", "pptx", "handout")
QUALITIES = ("low", "medium", "high")
VOICES = ("none", "draft", "neural")


@dataclass(frozen=True)
class RenderRequest:
    product: str
    quality: str
    lang: str
    voice: str
    context: str
    mode: str
    text: str  # the lesson file's text when the button was pressed
    name: str  # the lesson file's name (the output folder's)
    theme: str = "dark"
    words: str | None = None  # the lesson's words folder (resolved: the snapshot is elsewhere)


class QueueProgress:
    """pipeline.build's Progress, as messages on a queue: ("start", n), ("step", scene, step),
    ("done", scene, ok)."""

    def __init__(self, q):
        self.q = q

    def start(self, jobs) -> None:
        self.q.put(("start", len(jobs)))

    def step(self, scene_id: str, step: str) -> None:
        self.q.put(("step", scene_id, step))

    def done(self, result) -> None:
        self.q.put(("done", result.id, result.ok))


def _options(req: RenderRequest, lesson_file: Path):
    from ..outputs.registry import PRODUCTS as ALL
    from ..pipeline.plan import RenderOptions
    from ..pipeline.products import job_options

    product = ALL[req.product]
    base = RenderOptions(lesson=str(lesson_file.resolve()), context=req.context, mode=req.mode, lang=req.lang,
                         quality=req.quality, voice=None if req.voice == "none" else req.voice,
                         theme=req.theme, words=req.words)
    return product, job_options(base, product.made_from)


def render_main(req: RenderRequest, q, snapshots: str) -> None:
    """In the render's process: the snapshot, the build, ("result", files relative to media/) or
    ("error", line)."""
    from attention_core import load
    from scenes.registry import available

    from ..pipeline.build import build
    from ..pipeline.plan import MEDIA, Run

    folder = Path(tempfile.mkdtemp(prefix="render-", dir=snapshots))
    try:
        lesson_file = folder / req.name
        lesson_file.write_text(req.text, encoding="utf-8")
        product, options = _options(req, lesson_file)
        lesson = load(lesson_file)
        report = build(lesson, list(available(lesson)), options, Run(quiet=True), products=[product],
                       progress=QueueProgress(q))
        if report.failures:
            q.put(("error", "; ".join(f"{f.id}: {f.error.splitlines()[0]}" for f in report.failures)))
        else:
            q.put(("result", [str(p.relative_to(MEDIA)) for p in report.files_of(product.name)]))
    except KeyboardInterrupt:
        q.put(("error", "stopped"))
    except Exception as e:  # noqa: BLE001 - the page says what went wrong
        q.put(("error", f"{type(e).__name__}: {e}"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Renders:
    """The renders started from the page, each in its own process."""

    def __init__(self, emit: Emit, snapshots: Path):
        self.emit, self.snapshots = emit, snapshots
        self.ctx = mp.get_context("spawn")
        self.running: dict[str, mp.Process] = {}
        snapshots.mkdir(parents=True, exist_ok=True)

    def start(self, req: RenderRequest) -> str:
        job = uuid.uuid4().hex[:12]
        q = self.ctx.Queue()
        p = self.ctx.Process(target=render_main, args=(req, q, str(self.snapshots)), daemon=False)
        p.start()
        self.running[job] = p
        threading.Thread(target=self._relay, args=(job, req, p, q), daemon=True).start()
        self.emit("render", {"job": job, "product": req.product, "state": "started"})
        return job

    def _relay(self, job: str, req: RenderRequest, p, q) -> None:
        """The render's messages as events until it ends; its result or error last."""
        total, done = 0, 0
        while True:
            try:
                msg = q.get(timeout=0.5)
            except queue.Empty:  # a render killed from outside says nothing more
                if p.is_alive():
                    continue
                msg = ("error", f"the render stopped (exit status {p.exitcode})")
            if msg[0] == "start":
                total = msg[1]
            elif msg[0] == "done":
                done += 1
            elif msg[0] in ("result", "error"):
                break
            self.emit("render", {"job": job, "product": req.product, "state": "running", "done": done,
                                 "total": total, "step": msg[2] if msg[0] == "step" else None})
        p.join()
        self.running.pop(job, None)
        key = "files" if msg[0] == "result" else "message"
        state = "done" if key == "files" else "failed"
        self.emit("render", {"job": job, "product": req.product, "state": state, key: msg[1]})

    def close(self, timeout: float = 20.0) -> None:
        """Interrupt every render as Ctrl-C would, wait for it to clean up, then stop it."""
        for p in list(self.running.values()):
            if p.is_alive():
                os.kill(p.pid, signal.SIGINT)
        for p in list(self.running.values()):
            p.join(timeout)
            if p.is_alive():
                p.terminate()
        shutil.rmtree(self.snapshots, ignore_errors=True)


# -- the page's render requests ------------------------------------------------------------------------

def render_langs(studio) -> list[str]:
    """The languages the render form offers: every built-in one, then those the lesson's words folder
    gives (DIR/fr/: fr), when the lesson file names one."""
    from attention_core import LANGS
    from scenes.common.words import folder_langs

    return [*LANGS, *folder_langs(studio.words())]


def render_request(studio, body: dict) -> RenderRequest:
    """The page's render request, checked: TextProblem naming the key that is wrong."""
    from attention_core import MODES
    from scenes.common.style import THEMES

    s = studio.session
    if s.lesson is None:
        raise s.none_passed()
    choices = {"product": PRODUCTS, "quality": QUALITIES, "lang": tuple(render_langs(studio)),
               "voice": VOICES, "theme": tuple(THEMES), "context": tuple(s.lesson.contexts), "mode": MODES}
    # as the commands do: a handout prints light
    theme = "light" if body.get("product") == "handout" else s.theme
    given = {"quality": "low", "lang": s.lang, "voice": "none", "theme": theme,
             "context": s.lesson.context_name(s.context), "mode": s.mode}
    given |= {k: body[k] for k in choices if k in body}
    for key, allowed in choices.items():
        if given.get(key) not in allowed:
            raise TextProblem.choice(s.lang, key, allowed, given.get(key))
    if (problem := _words_problem(studio, given["lang"])) is not None:
        raise TextProblem({"key": "lang", "line": None, "message": problem})
    return RenderRequest(given["product"], given["quality"], given["lang"], given["voice"],
                         given["context"], given["mode"], s.text, s.path.name, given["theme"],
                         studio.words())


def _words_problem(studio, lang: str) -> str | None:
    """Why the words folder cannot render `lang` (one with no built-in words: every key is needed; any:
    a line words check refuses, as a render from the command line does), the first of words check's
    lines and how many more, in the page's language; None when it can."""
    from attention_core.errors import text
    from scenes.common import words as W

    folder = studio.words()
    if W.built_in(lang) and (folder is None or not W.files(folder, lang)):
        return None
    found = W.problems(folder, lang, studio.session.lang)
    if len(found) < 2:
        return found[0] if found else None
    return text(studio.session.lang, "words_more", first=found[0], n=len(found) - 1, folder=folder,
                language=lang)
