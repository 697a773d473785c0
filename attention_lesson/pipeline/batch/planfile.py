"""The plan file: a TOML list of lessons, contexts, modes, languages, themes, qualities, formats, scenes
and products, read and checked before anything starts. Their combinations are the variants, each rendered
into its own folder under `out`, named as `render` names it."""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from attention_core import LANGS, MODES, Lesson, LessonError, parse
from attention_core.checks import language_gaps
from attention_core.errors import LessonWarning, Phrase, ph, say, tidy
from attention_core.language import LangError, chosen_lang
from attention_core.lesson import packaged_lessons, resolve
from scenes.common.style import DEFAULT_THEME, THEMES
from scenes.registry import SceneInfo

from ..plan import FORMATS, MEDIA, QUALITIES, RenderOptions

DEFAULT_OUT = MEDIA / "batch"
PLAN_LISTS = ("lessons", "contexts", "modes", "langs", "themes", "qualities", "formats", "scenes", "products")
PLAN_PATHS = ("out", "shared")
SCENES = "scenes"  # the product that is the scene videos themselves
HANDOUT = "handout"


Note = Phrase | LessonWarning  # said in the teacher's language when printed (note_text)


def note_text(note: Note, lang: str) -> str:
    """A plan's note in a language: a phrase of the core's tables, or a lesson's warning (FILE:LINE)."""
    if isinstance(note, LessonWarning):
        return note.message(lang)
    return tidy(lang, say(lang, note))


def _unique(notes: list[Note]) -> list[Note]:
    """Each note once, in order (two variants of one lesson lack the same words)."""
    seen: dict[str, Note] = {}
    for n in notes:
        seen.setdefault(note_text(n, "en"), n)
    return list(seen.values())


class PlanError(ValueError):
    """A plan that cannot run: one line naming the file, the key and what is wrong."""


@dataclass
class Variant:
    lesson: Lesson
    lesson_file: Path
    options: RenderOptions  # the videos' options (format is the variant's)
    out_dir: Path
    # its folder under the plan's out: <lesson>/<context>-<mode>-<lang>-<res><fps>[-light][-<format>]
    name: str


@dataclass
class BatchPlan:
    source: Path
    variants: list[Variant]
    scenes: list[SceneInfo]
    products: list[str]
    out: Path
    shared: Path | None = None
    notes: list[Note] = field(default_factory=list)  # combinations skipped (a context a lesson lacks)...


def _strings(path: Path, data: dict, key: str) -> list[str] | None:
    if key not in data:
        return None
    value = data[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise PlanError(f"{path}: {key}: expected a non-empty list of strings, found {value!r}")
    return list(dict.fromkeys(value))  # in order, each once


def _choices(path: Path, data: dict, key: str, valid, what: str,
             default: list[str] | None) -> list[str] | None:
    """The plan's list under key (default when absent), each value one of valid."""
    values = _strings(path, data, key) or default
    bad = [v for v in values or [] if v not in valid]
    if bad:
        raise PlanError(f"{path}: {key}: unknown {what} {', '.join(map(repr, bad))}; "
                        f"choose from: {', '.join(valid)}")
    return values


def _read_toml(path: Path) -> dict:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlanError(f"{path}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlanError(f"{path}: cannot read it: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise PlanError(f"{path}: not valid TOML: {e}") from None
    unknown = sorted(set(data) - set(PLAN_LISTS) - set(PLAN_PATHS))
    if unknown:
        raise PlanError(f"{path}: unknown key {', '.join(map(repr, unknown))}; the keys are: "
                        + ", ".join((*PLAN_LISTS, *PLAN_PATHS)))
    for key in PLAN_PATHS:
        if key in data and not (isinstance(data[key], str) and data[key]):
            raise PlanError(f"{path}: {key}: expected a folder (a string), found {data[key]!r}")
    return data


def _lesson_path(plan_dir: Path, entry: str) -> Path:
    """A packaged lesson name, or a path relative to the plan's folder."""
    p = Path(entry).expanduser()
    if not p.is_absolute() and entry in packaged_lessons() and not (plan_dir / p).exists():
        return resolve(entry).resolve()
    return (plan_dir / p).resolve()


def _load_lessons(path: Path, entries: list[str]) -> list[tuple[Path, Lesson]]:
    loaded, stems = [], {}
    for entry in entries:
        file = _lesson_path(path.resolve().parent, entry)
        try:
            loaded.append((file, parse(tomllib.loads(file.read_text(encoding="utf-8")), str(file))))
        except FileNotFoundError:
            raise PlanError(f"{path}: lessons: {entry!r} is neither a lesson file ({file}) nor a "
                            "packaged lesson") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise PlanError(f"{path}: lessons: {entry!r}: {e}") from None
        except LessonError as e:
            raise PlanError(f"{path}: lessons: {e}") from None
        if stems.setdefault(file.stem, file) != file:
            raise PlanError(f"{path}: lessons: {stems[file.stem]} and {file} would share the output "
                            f"folder {file.stem}/: rename one")
    return loaded


def _check_contexts(path: Path, contexts: list[str] | None, loaded) -> None:
    everywhere = {c for _, les in loaded for c in les.contexts}
    missing = [c for c in contexts or [] if c not in everywhere]
    if missing:
        have = "; ".join(f"{f.stem}: {', '.join(les.contexts)}" for f, les in loaded)
        raise PlanError(f"{path}: contexts: {', '.join(map(repr, missing))} "
                        f"is in none of the lessons ({have})")


def _variants(loaded, lists: dict, out: Path) -> tuple[list[Variant], list[Note]]:
    """Every combination, each in its folder; the contexts a lesson lacks, noted."""
    variants, notes = [], []
    suffix = len(lists["formats"]) > 1  # two formats in one folder would overwrite each other's entries
    for (file, les), fmt in itertools.product(loaded, lists["formats"]):
        for ctx in lists["contexts"] or list(les.contexts):
            if ctx not in les.contexts:
                notes.append(ph("batch_no_context", lesson=file.stem, context=repr(ctx)))
                continue
            langs = lists["langs"] or [chosen_lang(None, les)]  # none named: the lesson's own language
            notes += [w for lang in langs for w in language_gaps(les, lang, file.read_text(encoding="utf-8"))]
            for mode, lang, theme, quality in itertools.product(lists["modes"], langs,
                                                                lists["themes"], lists["qualities"]):
                options = RenderOptions(lesson=str(file), context=ctx, mode=mode, lang=lang, quality=quality,
                                        format=fmt, theme=theme, words=les.words)  # its words = "DIR"
                folder = options.folder_name() + (f"-{fmt}" if suffix else "")
                variants.append(Variant(les, file, options, out / folder, folder))
    return variants, notes


def _video_notes(path: Path, names: list[str], products: dict, variants: list[Variant]) -> list[Note]:
    """A product that needs a video has none in a png variant: an error if every variant is png."""
    needing = [n for n in names if n != SCENES and products[n].needs_video]
    if not needing:
        return []
    if all(v.options.format == "png" for v in variants):
        raise PlanError(f"{path}: products: {', '.join(needing)} needs a video format "
                        "(mp4, webm, gif or mov); formats has only png")
    if any(v.options.format == "png" for v in variants):
        return [ph("batch_png")]
    return []


def _theme_notes(names: list[str], variants: list[Variant]) -> list[Note]:
    """A handout made in the dark theme prints its frames dark: say so (the handout command's default is
    light)."""
    if HANDOUT in names and any(v.options.theme == DEFAULT_THEME for v in variants):
        return [ph("batch_dark_handout", theme=DEFAULT_THEME)]
    return []


def _lists(path: Path, data: dict, scenes: list[SceneInfo], products: dict) -> dict:
    lists = {
        "modes": _choices(path, data, "modes", MODES, "mode", ["scaled"]),
        "langs": _choices(path, data, "langs", LANGS, "language", None),  # None: each lesson's own
        "themes": _choices(path, data, "themes", list(THEMES), "theme", [DEFAULT_THEME]),
        "qualities": _choices(path, data, "qualities", list(QUALITIES), "quality", ["low"]),
        "formats": _choices(path, data, "formats", FORMATS, "format", ["mp4"]),
        "scenes": _choices(path, data, "scenes", [s.id for s in scenes], "scene", None),
        "products": _choices(path, data, "products", [SCENES, *products], "product", [SCENES]),
        "contexts": _strings(path, data, "contexts"),
        "lessons": _strings(path, data, "lessons"),
    }
    if not lists["lessons"]:
        raise PlanError(f"{path}: lessons: name at least one lesson (a packaged name or a file)")
    return lists


def read_plan(path: Path, scenes: list[SceneInfo], products: dict) -> BatchPlan:
    """Read and check a plan file against the scenes and products there are; PlanError on anything
    wrong, before anything starts."""
    path = Path(path)
    data = _read_toml(path)
    lists = _lists(path, data, scenes, products)
    plan_dir = path.resolve().parent
    out = plan_dir / Path(data["out"]).expanduser() if "out" in data else DEFAULT_OUT
    shared = (plan_dir / Path(data["shared"]).expanduser()).resolve() if "shared" in data else None
    loaded = _load_lessons(path, lists["lessons"])
    _check_contexts(path, lists["contexts"], loaded)
    try:
        variants, notes = _variants(loaded, lists, out)
    except LangError as e:
        raise PlanError(f"{path}: langs: none named, and {e}") from None
    notes += (_video_notes(path, lists["products"], products, variants)
              + _theme_notes(lists["products"], variants))
    chosen = [s for s in scenes if lists["scenes"] is None or s.id in lists["scenes"]]  # in lesson order
    return BatchPlan(path, variants, chosen, lists["products"], out, shared, _unique(notes))
