"""What to render and whether it is up to date, decided without importing manim.

A render job is one scene with one set of options. Its outputs live in one folder; a manifest there
records, for every scene (and, under "<id>@slides", for its slide clips), the hash of everything the
outputs depend on (the scene's code and the shared modules, the lesson numbers it shows, the options,
the versions of manim and the project) and the files written. A job whose hash matches and whose files
all exist is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from attention_core import Lesson, __version__
from scenes.registry import HERE as SCENES_DIR
from scenes.registry import SceneInfo

ROOT = SCENES_DIR.parent
MEDIA = Path("media")  # default output root, relative to where the command runs
CACHE = MEDIA / ".cache"  # one manim media folder per worker (TeX and text caches), kept between runs

QUALITIES = {  # CLI name -> (manim quality, folder tag)
    "low": ("low_quality", "480p"),
    "medium": ("medium_quality", "720p"),
    "high": ("high_quality", "1080p"),
    "4k": ("fourk_quality", "2160p"),
}
DEFAULT_FPS = {"low": 15, "medium": 30, "high": 60, "4k": 60}
FORMATS = ("mp4", "webm", "gif", "mov", "png")
MANIFEST = "manifest.json"
PIPELINE = Path(__file__).parent
# every scene's output depends on these, besides its own file and words: the shared visuals, the core,
# and the pipeline modules that turn a scene into files
SHARED_CODE = (*sorted((SCENES_DIR / "common").glob("*.py")), *sorted((ROOT / "attention_core").glob("*.py")),
               PIPELINE / "worker.py", PIPELINE / "ffmpeg.py", PIPELINE / "slides.py")
VOICE_CODE = (PIPELINE / "voice.py", SCENES_DIR / "common" / "speech.py")  # and i18n/<lang>/speech.toml


@dataclass(frozen=True)
class RenderOptions:
    lesson: str  # resolved path of the lesson file
    context: str  # resolved context name
    mode: str = "scaled"
    lang: str = "zh"
    quality: str = "low"
    fps: int | None = None
    format: str = "mp4"
    transparent: bool = False
    sections: bool = False
    slides: bool = False  # a slide deck's clips (one per step, with notes) instead of videos
    voice: str | None = None  # None (silent), "draft" or the resolved path of a recordings folder
    frames: bool = False  # every step's last frame as a PNG (for the handout) instead of videos

    @property
    def frame_rate(self) -> int:
        return self.fps or DEFAULT_FPS[self.quality]

    def folder_name(self) -> str:
        """The default output folder under media/: one per lesson and option set."""
        tag = f"{QUALITIES[self.quality][1]}{self.frame_rate}"
        alpha = "-alpha" if self.transparent else ""
        voiced = "-voice" if self.voice else ""
        return f"{Path(self.lesson).stem}/{self.context}-{self.mode}-{self.lang}-{tag}{alpha}{voiced}"


@dataclass
class Job:
    scene: SceneInfo
    options: RenderOptions
    out_dir: Path
    digest: str = ""
    files: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.scene.id

    @property
    def key(self) -> str:
        """The job's manifest entry: a scene's videos and its slides share an output folder."""
        if self.options.frames:
            return f"{self.id}@frames"
        return f"{self.id}@slides" if self.options.slides else self.id

    def main_file(self) -> str:
        if self.options.frames:
            return f"frames/{self.id}.json"
        if self.options.slides:
            return f"slides/{self.id}.json"
        return f"{self.id}.{self.options.format}"


def _hash_files(h, paths) -> None:
    for p in sorted(paths):
        h.update(str(p.relative_to(ROOT)).encode())
        h.update(p.read_bytes())


def code_files(scene: SceneInfo, lang: str, voice: str | None = None) -> list[Path]:
    """The code and words a scene's render depends on (with a voice: how lines become speech)."""
    i18n = SCENES_DIR / "i18n" / lang
    files = [scene.file, *SHARED_CODE, i18n / "common.toml", i18n / f"{scene.module}.toml"]
    if voice:
        files += [*VOICE_CODE, i18n / "speech.toml"]
    return [p for p in files if p.exists()]


@lru_cache(maxsize=None)
def espeak_version() -> str | None:
    """espeak-ng's version line (the draft voice), None if it is not installed."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        return None
    return subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split("Data at")[0].strip()


def voice_inputs(scene: SceneInfo, options: RenderOptions) -> dict:
    """What a scene's voice depends on besides its lines: each recording of its steps (name and a hash
    of its bytes), and the draft voice's version (the steps without a recording use it)."""
    if not options.voice:
        return {}
    inputs = {"espeak": espeak_version()}
    if options.voice != "draft":
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
    h = hashlib.sha256()
    _hash_files(h, code_files(scene, options.lang, options.voice))
    payload = {
        "numbers": lesson_numbers(lesson, scene, options),
        # the lesson is in "numbers"; slides=False is left out so video digests did not change
        "options": {k: v for k, v in asdict(options).items()
                    if k != "lesson" and not (k in ("slides", "voice", "frames") and not v)},
        "frame_rate": options.frame_rate,
        "versions": {"manim": version("manim"), "attention-lesson": __version__},
    }
    if options.slides:
        payload["versions"]["manim-slides"] = version("manim-slides")
    if options.voice:
        payload["voice"] = voice_inputs(scene, options)
    h.update(json.dumps(payload, sort_keys=True).encode())
    return h.hexdigest()


def load_manifest(out_dir: Path) -> dict:
    try:
        return json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def save_manifest(out_dir: Path, manifest: dict) -> None:
    """Write the manifest atomically: a reader never sees half of it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / f".{MANIFEST}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(tmp, out_dir / MANIFEST)


def up_to_date(job: Job, manifest: dict) -> bool:
    entry = manifest.get(job.key)
    return bool(
        entry and entry.get("hash") == job.digest and entry.get("files")
        and all((job.out_dir / f).exists() for f in entry["files"])
    )


def plan(lesson: Lesson, scenes, options: RenderOptions, out_dir: Path, force: bool = False):
    """Split the jobs into (to render, up to date)."""
    manifest = load_manifest(out_dir)
    todo, fresh = [], []
    for s in scenes:
        job = Job(s, options, out_dir, input_digest(lesson, s, options))
        if not force and up_to_date(job, manifest):
            job.files = manifest[job.key]["files"]
            fresh.append(job)
        else:
            todo.append(job)
    return todo, fresh
