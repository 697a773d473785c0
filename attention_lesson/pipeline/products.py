"""The product model: a file (or folder) made from one variant's rendered scenes, such as the joined
lesson, a deck, the handout or the contact sheet.

A product declares the kind of scene job it is made of (their videos, slide clips, frames or posters),
has a digest (its scenes' digests in order, its arguments, the whole lesson file, its code, the
versions) and a manifest entry `@<name>` beside the scenes'. It is made by `make` in a folder that
holds its scenes' files: the output folder itself for `lesson`, `slides`, `handout` and `sheet`, a
private folder on a Dask worker for `batch`; the same code either way. A product whose entry is up to
date is not made again, so a re-run with nothing changed rewrites nothing.

The products themselves (what each builds) are listed in attention_lesson/outputs/registry.py.
"""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from attention_core import Lesson, parse
from scenes.common.style import DEFAULT_THEME
from scenes.common.words import digest as words_digest
from scenes.common.words import use_words

from . import manifest
from .plan import FRAMES, POSTER, ROOT, SLIDES, VIDEO, Job, RenderOptions, Result


@dataclass(frozen=True)
class Choices:
    """What the user chose for one product only, each set by the command that makes it (and part of
    every product's digest): the contact sheet's columns, the handout's frames and its explorer link."""

    sheet_columns: int = 4
    handout_frames: str = "key"  # "key": each scene's key frames; "all": every step's
    explorer_url: str | None = None  # the handout's QR code and link to the explorer


@dataclass(frozen=True)
class ProductArgs:
    """What a product needs besides the scenes' files (sent to a worker with its task); built by
    keyword (build.product_args)."""

    ids: tuple[str, ...]  # the scenes, in lesson order
    titles: tuple[str, ...]  # their titles in the language
    file_format: str
    fps: int
    quality: str  # low, medium, high, 4k: a draft's sound is encoded at a lower rate (track.audio_codec)
    title: str  # the lesson's
    author: str
    lang: str
    context: str
    mode: str
    lesson_name: str  # the lesson file's name and text (a worker may not have the file)
    lesson_text: str
    start: str | None = None  # a voiced deck's start slide text
    choices: Choices = Choices()
    theme: str = DEFAULT_THEME  # the scenes' colours, and the product's own (handout, sheet, deck, explorer)
    words: str | None = None  # a words folder's path (its lines, not its path, are in the digest)

    def lesson(self) -> Lesson:
        return parse(tomllib.loads(self.lesson_text), self.lesson_name)


@dataclass(frozen=True)
class Product:
    """A product: `build(folder, args)` makes it in a folder holding its scenes' files and returns the
    names of the files it wrote there (relative to the folder); a module-level function (Dask sends it
    by reference)."""

    name: str
    build: Callable[[Path, ProductArgs], list[str]]
    made_from: str | None = VIDEO  # the scene jobs it needs: VIDEO, SLIDES, FRAMES, POSTER or None (none)
    needs_video: bool = False  # no such product for a png variant
    folder: str | None = None  # the product is this folder, replaced at once (but for what is not `owns`)
    owns: Callable[[str], bool] | None = None  # the names in `folder` it writes (others there are kept)
    code: tuple[str, ...] = ()  # source files (relative to the project) its output depends on
    label: str = ""  # what a dry run says it would write
    check: Callable[[], str | None] | None = None  # what this machine lacks to make it, or None
    # what else its output depends on, beyond its arguments and code (the explorer: whether [real]'s model
    # package is installed, and its version); None when nothing
    inputs: Callable[[ProductArgs], object] | None = None

    @property
    def key(self) -> str:
        return f"@{self.name}"


def sources(*modules: str) -> tuple[str, ...]:
    """The files of these modules (dotted names), relative to where the packages are installed (a clone
    or site-packages): a product's code named by its modules, found without running them (only their
    packages' __init__)."""
    return tuple(Path(importlib.util.find_spec(m).origin).resolve().relative_to(ROOT).as_posix()
                 for m in modules)


def package_files(folder: Path) -> tuple[str, ...]:
    """Every file under a folder of the installed packages (e.g. reveal.js in the web files), relative to
    where the packages are installed, as `sources` names modules."""
    return tuple(sorted(p.resolve().relative_to(ROOT).as_posix() for p in folder.rglob("*") if p.is_file()))


def job_options(options: RenderOptions, made_from: str) -> RenderOptions:
    """A variant's options for the scene jobs a product is made from."""
    if made_from == SLIDES:  # a deck's clips: always mp4, whatever the videos' format
        return replace(options, format="mp4", kind=SLIDES, sections=False, transparent=False)
    if made_from == FRAMES:  # every step's last frame
        return replace(options, format="png", kind=FRAMES, sections=False, transparent=False)
    if made_from == POSTER:  # each scene's last frame
        return replace(options, format="png", kind=POSTER, sections=False)
    return options


ALONE_READS = ("lang", "context", "mode", "theme")  # all a product made of no scene reads of its arguments


def product_digest(product: Product, args: ProductArgs, jobs: list[Job]) -> str:
    """What a product's output depends on: its scenes' digests in order, its arguments, the whole lesson
    file (a handout prints numbers no scene shows), its code and the versions."""
    scenes = [[j.key, j.digest] for j in jobs] if product.made_from else []
    reads = asdict(args) if product.made_from else {k: getattr(args, k) for k in ALONE_READS}
    payload = {"product": product.name, "scenes": scenes,
               "args": {k: v for k, v in reads.items() if k not in ("lesson_text", "lesson_name", "words")},
               "lesson": hashlib.sha256(args.lesson_text.encode()).hexdigest(),
               "versions": manifest.versions(slides=product.made_from == SLIDES)}
    if (own := words_digest(args.words, args.lang)) is not None:
        payload["words"] = own
    if product.inputs is not None and (more := product.inputs(args)) is not None:
        payload["inputs"] = more
    return manifest.digest(payload, [ROOT / rel for rel in product.code], ROOT)


@dataclass
class ProductJob:
    """One product of one variant: what it is made of, where, and whether it is up to date there."""

    product: Product
    args: ProductArgs
    out_dir: Path
    jobs: list[Job]  # its scene jobs, in order
    digest: str
    fresh: bool = False
    files: list[str] | None = None

    @property
    def key(self) -> str:
        return self.product.key


def plan_product(product: Product, args: ProductArgs, jobs: list[Job], out_dir: Path,
                 force: bool = False, digests: bool = True) -> ProductJob:
    """A product job, up to date when its entry holds this digest and its files exist (and no scene it
    is made of is about to be rendered again: their digests are in its own). Without `digests`, one
    with no entry is stale, its digest left empty (build.plan)."""
    entry = manifest.load(out_dir).get(product.key)
    if entry is None and not digests:
        return ProductJob(product, args, out_dir, jobs, "", False, None)
    digest = product_digest(product, args, jobs)
    fresh = not force and manifest.is_fresh(out_dir, entry, digest)
    return ProductJob(product, args, out_dir, jobs, digest, fresh, list(entry["files"]) if fresh else None)


def build(product: Product, args: ProductArgs, folder: Path) -> Result:
    """Make a product in a folder holding its scenes' files; never raises (a failure is a Result)."""
    try:
        use_words(args.words)  # its pages' words, wherever it is made (this process or a batch worker)
        return Result(product.name, True, sorted(product.build(folder, args)))
    except Exception as e:  # noqa: BLE001 - reported with its variant, the others go on
        import traceback

        tb = traceback.format_exc(limit=-3)
        return Result(product.name, False, [], f"{type(e).__name__}: {e}\n{tb}")


def make(pjob: ProductJob) -> Result:
    """Bring a product up to date in its output folder (nothing is written when it already is)."""
    if pjob.fresh:
        return Result(pjob.product.name, True, list(pjob.files))
    manifest.forget(pjob.out_dir, [pjob.key])
    result = build(pjob.product, pjob.args, pjob.out_dir)
    manifest.record(pjob.out_dir, pjob.key, pjob.digest, result.files if result.ok else None)
    pjob.files = result.files
    return result
