"""What to render and whether it is up to date, decided without importing manim.

A render job is one scene with one set of options, of one kind: its videos, its slide clips (a deck's),
every step's last frame (the handout's) or only its steps (the recording script's). Its outputs live in
one folder whose manifest (pipeline/manifest.py) records the hash of everything they depend on: the
scene's code and the shared modules, its words, the lesson numbers it shows, the options, the versions.
A job whose hash matches and whose files all exist is skipped.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from attention_core import Lesson
from scenes.common.style import DEFAULT_THEME
from scenes.common.words import built_in
from scenes.common.words import digest as words_digest
from scenes.registry import HERE as SCENES_DIR
from scenes.registry import SceneInfo

from . import manifest
from .voice.source import VoiceSource

ROOT = SCENES_DIR.parent
MEDIA = Path("media")  # default output root, relative to where the command runs
# the workers' cache: one manim media folder per worker process (formula and text caches), the voice's
# lines, the last run's timings; kept between runs: media/.cache beside the default output folders, or
# <out>/.cache in a build's --out (cache_folder)
CACHE = MEDIA / ".cache"
CACHE_NAME = ".cache"

QUALITIES = {  # CLI name -> (manim quality, folder tag)
    "low": ("low_quality", "480p"),
    "medium": ("medium_quality", "720p"),
    "high": ("high_quality", "1080p"),
    "4k": ("fourk_quality", "2160p"),
}
DEFAULT_FPS = {"low": 15, "medium": 30, "high": 60, "4k": 60}
FORMATS = ("mp4", "webm", "gif", "mov", "png")
# the closed sets an option takes, as types (the tuples above are the same sets at run time; a test
# holds each pair together)
Quality = Literal["low", "medium", "high", "4k"]
Format = Literal["mp4", "webm", "gif", "mov", "png"]
Mode = Literal["scaled", "unscaled", "uniform"]
Kind = Literal["video", "slides", "frames", "poster", "steps"]
# what a job makes of its scene: its videos; a deck's clips and notes; every step's last frame (the
# handout); its last frame as a PNG beside the videos (the contact sheet's); only its steps, lines and
# lengths (the recording script: nothing drawn)
VIDEO, SLIDES, FRAMES, POSTER, STEPS = "video", "slides", "frames", "poster", "steps"
KINDS = (VIDEO, SLIDES, FRAMES, POSTER, STEPS)
PIPELINE = Path(__file__).parent


def modules(folder: Path, but: tuple[str, ...] = ()) -> tuple[Path, ...]:
    """Every module of a package folder, but the ones named: read from the folder, so a module moved
    in or out is in or out of every digest that lists its package."""
    return tuple(p for p in sorted(folder.glob("*.py")) if p.name not in ("__init__.py", *but))


SPEEDUPS = PIPELINE / "drawing" / "manim_speedups"
# every scene's output depends on these, besides its own file and words: the shared visuals, the core,
# the ffmpeg settings and the drawing modules that turn a scene into files (all but the runner, which
# only schedules them; manim's speed-ups with their gate); with a voice, the voice's modules and
# i18n/<lang>/speech.toml
SHARED_CODE = (*modules(SCENES_DIR / "common"), *modules(ROOT / "attention_core"), PIPELINE / "ffmpeg.py",
               *modules(PIPELINE / "drawing", but=("runner.py",)), SPEEDUPS / "__init__.py",
               *modules(SPEEDUPS))
VOICE_CODE = modules(PIPELINE / "voice")


def theme_tag(theme: str) -> str:
    """What a theme adds to a file or folder name: nothing for the default theme, "-light" for light."""
    return "" if theme == DEFAULT_THEME else f"-{theme}"


def voice_tag(voice: str | None) -> str:
    """What a voice adds to a folder name: nothing when silent, "-neural" for the neural voices (and a
    Piper voice of the teacher's), "-voice-kokoro-<file's stem>[-<name>]" for a Kokoro voice file (one
    folder per voice: it must not share the draft voice's), "-voice" for the draft voice and
    recordings."""
    if not voice:
        return ""
    chosen = VoiceSource.of(voice)
    if chosen.kind in ("neural", "piper"):
        return "-neural"
    if chosen.kind == "kokoro":
        path, _, name = chosen.ref.partition("#")
        own = "-".join(part for part in (Path(path).stem, name) if part)
        return "-voice-kokoro-" + (re.sub(r"[^\w.-]+", "_", own).strip("._-") or "voice")
    return "-voice"


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    lesson: str  # resolved path of the lesson file
    context: str  # resolved context name
    mode: Mode = "scaled"
    lang: str = "zh"  # zh, en, ja, or a language a words folder gives: an open set
    quality: Quality = "low"
    fps: int | None = None
    format: Format = "mp4"
    transparent: bool = False
    sections: bool = False
    voice: str | None = None  # None (silent), "draft", "neural", "piper:<path>.onnx" or a recordings folder
    kind: Kind = "video"  # one of KINDS
    theme: str = DEFAULT_THEME  # a name of scenes.common.style.THEMES
    words: str | None = None  # resolved path of a words folder (scenes/common/words.py); None: built-in

    @property
    def frame_rate(self) -> int:
        return self.fps or DEFAULT_FPS[self.quality]

    def folder_name(self) -> str:
        """The default output folder under media/: one per lesson and option set (the default theme's
        without its name: `...-480p15` is dark, `...-480p15-light` light)."""
        tag = f"{QUALITIES[self.quality][1]}{self.frame_rate}{theme_tag(self.theme)}"
        alpha = "-alpha" if self.transparent else ""
        voiced = voice_tag(self.voice)
        return f"{Path(self.lesson).stem}/{self.context}-{self.mode}-{self.lang}-{tag}{alpha}{voiced}"


@dataclass(frozen=True, kw_only=True)
class Run:
    """How a build runs (--out, -j, --force, --dry-run, -q): none of it changes what is made."""

    out: str | Path | None = None  # the output folder; None: media/<lesson>/<the options' folder name>
    jobs: int | None = None  # worker processes; None: the number of cores
    force: bool = False  # make even what is up to date
    dry_run: bool = False  # say what would be made, make nothing
    quiet: bool = False  # no progress bars, no summary line
    cache: str | Path | None = None  # the workers' cache; None: cache_folder(out)

    @property
    def cache_root(self) -> Path:
        return Path(self.cache) if self.cache else cache_folder(self.out)


def cache_folder(out: str | Path | None) -> Path:
    """The workers' cache of a build: inside its --out (<out>/.cache: nothing is written where the
    command runs), else media/.cache beside the default output folders."""
    return Path(out) / CACHE_NAME if out else CACHE


@dataclass(frozen=True)
class Piece:
    """What of its scene a job draws when the scene is drawn in pieces (pipeline/drawing/pieces.py):
    the steps [first, stop), their segments into `folder`; the last piece (stop None) draws to the end
    and joins, taking the earlier animations' segments from it."""

    folder: Path
    steps: tuple[int, int | None]

    @property
    def joins(self) -> bool:
        return self.steps[1] is None


@dataclass
class Job:
    scene: SceneInfo
    options: RenderOptions
    out_dir: Path
    digest: str = ""
    files: list[str] = field(default_factory=list)
    lesson: Lesson | None = field(default=None, compare=False, repr=False)  # handed to the scene as data
    piece: Piece | None = None  # drawn in pieces: which piece of its scene this job draws

    @property
    def task(self) -> str:
        """The job's name among the tasks of a run: a piece's is its scene's and its first step (the
        last piece's is its scene's: it makes the job's files)."""
        return self.id if self.piece is None or self.piece.joins else f"{self.id}#{self.piece.steps[0]}"

    @property
    def id(self) -> str:
        return self.scene.id

    @property
    def key(self) -> str:
        """The job's manifest entry: a scene's videos, slides, frames and steps share an output folder."""
        kind = self.options.kind
        return self.id if kind == VIDEO else f"{self.id}@{kind}"

    def main_file(self) -> str:
        kind = self.options.kind
        return f"{self.id}.{self.options.format}" if kind in (VIDEO, POSTER) else f"{kind}/{self.id}.json"


@dataclass
class Result:
    """What rendering one job (or making one product) came to; `files` relative to its folder."""

    id: str
    ok: bool
    files: list[str]
    error: str = ""
    seconds: float = 0.0
    drafted: list[str] = field(default_factory=list)  # steps a recordings folder had no file for


def code_files(scene: SceneInfo, lang: str, voice: str | None = None) -> list[Path]:
    """The code and words a scene's render depends on (with a voice: how lines become speech)."""
    i18n = SCENES_DIR / "i18n" / lang
    own = i18n / f"{scene.module}.toml"  # a scene may narrate itself, with no catalog of its own
    known = built_in(lang)  # a language from a words folder: its words are in the digest's payload
    words = [i18n / "common.toml", *([own] if own.exists() else [])] if known else []
    files = [scene.file, *SHARED_CODE, *words]
    if voice:
        files += [*VOICE_CODE, *([i18n / "speech.toml"] if known else [])]
    return files  # each must exist: manifest.hash_files refuses a missing one


def steps_folder(options: RenderOptions) -> Path:
    """Where the scenes' steps are kept: a cache beside the workers' manim folders."""
    return CACHE / "steps" / options.folder_name()


def step_count(job: Job) -> int:
    """How many steps a scene has, read from its source (self.step(...) calls): a progress total."""
    scene = job.scene
    return manifest.kept(("steps", scene.package, scene.id),
                         lambda: _steps_in(scene.file, scene.file.stat().st_mtime_ns))


@functools.lru_cache(maxsize=64)
def _steps_in(file: Path, mtime_ns: int) -> int:
    """The steps of a scene's source as it was at mtime_ns (parsed once: 5 ms a scene, and the studio's
    planning of an edit asks it three times a scene)."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    names = {n.targets[0].id: n.value for n in ast.walk(tree)
             if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    return _step_calls(tree, names) or 1


def _step_calls(node: ast.AST, names: dict[str, ast.expr]) -> int:
    """self.step(...) calls under node, a call in a loop over a sequence written out counted once per
    item (`for name in ("loss", "gradient"): self.step(name)`: 2)."""
    if isinstance(node, ast.For):
        body = sum(_step_calls(n, names) for n in node.body)
        return body * _items(node.iter, names) + sum(_step_calls(n, names) for n in node.orelse)
    own = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"
    return int(own) + sum(_step_calls(c, names) for c in ast.iter_child_nodes(node))


def _items(expr: ast.expr, names: dict[str, ast.expr], depth: int = 0) -> int:
    """How many items a loop's sequence has, read from the source: a tuple or list written out, a sum
    of them, the larger side of `a if c else b`, a name assigned one of those; else 1. A count the
    lesson decides (a step only for RoPE) is the most it may be: the studio lays out that many steps
    until the scene is drawn and names its own."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return len(expr.elts)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _items(expr.left, names, depth) + _items(expr.right, names, depth)
    if isinstance(expr, ast.IfExp):
        return max(_items(expr.body, names, depth), _items(expr.orelse, names, depth))
    if isinstance(expr, ast.Name) and expr.id in names and depth < 4:
        return _items(names[expr.id], names, depth + 1)
    return 1


def voice_inputs(scene: SceneInfo, options: RenderOptions) -> dict:
    """What a scene's voice depends on besides its lines: each recording of its steps (name and a hash
    of its bytes), and who speaks the steps without one (the engine, a neural voice's model content
    and settings: pipeline/voice/speakers.py)."""
    if not options.voice:
        return {}
    from .voice.speakers import is_folder, speaker_for  # (a silent render's planning loads no voice)

    inputs = {"speaker": speaker_for(options.voice, options.lang).inputs()}
    if is_folder(options.voice):
        folder = Path(options.voice) / options.lang / scene.id
        inputs["recordings"] = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                                for p in sorted(folder.glob("*")) if p.is_file()}
    return inputs


def lesson_numbers(lesson: Lesson, scene: SceneInfo, options: RenderOptions) -> dict:
    """The lesson data a scene shows: the contexts it uses, their embeddings, the projections."""
    names = list(lesson.contexts) if scene.contexts == "all" else [options.context]
    contexts = {n: lesson.contexts[n] for n in names}
    tokens = sorted({t for ts in contexts.values() for t in ts})
    return {
        "contexts": contexts,
        "x": {t: lesson.vocab[t].tolist() for t in tokens},
        "w_q": lesson.w_q.tolist(), "w_k": lesson.w_k.tolist(), "w_v": lesson.w_v.tolist(),
        "focus": lesson.focus,
        "dims": list(lesson.dim_names(options.lang)),
        "context_labels": {n: lesson.context_label(n, options.lang) for n in names},
        "title": lesson.title.get(options.lang),
        "narration": lesson.narration.get(options.lang, {}),  # the lesson's own lines ([narration])
    }


def input_digest(lesson: Lesson, scene: SceneInfo, options: RenderOptions) -> str:
    payload = {
        "numbers": lesson_numbers(lesson, scene, options),
        # the lesson is in "numbers"; a silent video's kind and voice are left out
        "options": {k: v for k, v in asdict(options).items()
                    if k not in ("lesson", "words") and not (k == "voice" and not v)
                    and not (k == "kind" and v == VIDEO)},
        "frame_rate": options.frame_rate,
        "versions": manifest.versions(slides=options.kind == SLIDES),
    }
    if options.voice:
        payload["voice"] = voice_inputs(scene, options)
    tables = (scene.module, "common", *(("speech",) if options.voice else ()))
    if (own := words_digest(options.words, options.lang, tables)) is not None:
        payload["words"] = own  # the teacher's lines this scene shows: only its own changes re-render it
    files = manifest.kept(("code", scene.package, scene.id, options.lang, options.voice),
                          lambda: code_files(scene, options.lang, options.voice))  # a batch: once a scene
    return manifest.digest(payload, files, ROOT)


def plan(lesson: Lesson, scenes, options: RenderOptions, out_dir: Path, force: bool = False,
         digests: bool = True):
    """Split the jobs into (to render, up to date); every job carries the lesson it renders. A scene of a
    feature the lesson lacks (the mask scene for a lesson with no mask) is not planned. Without
    `digests` (a batch's dry run), a job its folder's manifest has no entry for is to do whatever its
    inputs: its digest is left empty, not computed."""
    entries = manifest.load(out_dir)
    todo, fresh = [], []
    for s in (s for s in scenes if s.fits(lesson)):
        job = Job(s, options, out_dir, lesson=lesson)
        entry = entries.get(job.key)
        if digests or entry is not None:
            job.digest = input_digest(lesson, s, options)
        if not force and entry is not None and manifest.is_fresh(out_dir, entry, job.digest):
            job.files = list(entry["files"])
            fresh.append(job)
        else:
            todo.append(job)
    return todo, fresh


def default_jobs() -> int:
    """Worker processes when -j is not given: one per core."""
    return os.cpu_count() or 1
