"""The plan file: a TOML list of lessons, contexts, modes, languages, themes, qualities, formats, scenes
and products, read and checked before anything starts. Their combinations are the variants, each rendered
into its own folder under `out`, named as `render` names it."""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from attention_core import LANGS, MODES, Lesson, LessonError, loads
from attention_core.checks import language_gaps
from attention_core.errors import LessonWarning, Phrase, Said, TomlReason, located, ph, say, shown, tidy
from attention_core.language import LangError, chosen_lang, message_lang
from attention_core.lesson import packaged_lessons, resolve
from attention_core.lines import locate, toml_line
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
    """A plan that cannot run: one line naming the file, its line, the key and what is wrong (a phrase,
    or the lesson's own error), `message(lang)` in a language; str() is it in English."""

    def __init__(self, path: Path, said: Phrase | LessonError, key: str = "", line: int | None = None):
        self.path, self.said, self.key = path, said, key
        self.line = line if line is not None else _key_line(path, key)
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        said = Said(self.said.message(lang)) if isinstance(self.said, LessonError) else self.said
        if self.key:
            said = ph("plan_at_key", key=self.key, text=said)
        return tidy(lang, located(lang, str(self.path), self.line, said))


def _key_line(path: Path, key: str) -> int | None:
    """The plan file's line of a key (None: no key, or a file that cannot be read)."""
    try:
        return locate(Path(path).read_text(encoding="utf-8"), key) if key else None
    except (OSError, UnicodeDecodeError):
        return None


def error_lang(path: Path, given: str | None = None, environ=None) -> str:
    """The language a plan's error is said in, by the one rule (attention_core.language): --lang, else
    the plan's first `langs` (when the file can be read that far), else ATTENTION_LESSON_LANG, else zh."""
    try:
        langs = tomllib.loads(Path(path).read_text(encoding="utf-8")).get("langs")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        langs = None
    first = langs if isinstance(langs, str) else (langs or [None])[0] if isinstance(langs, list) else None
    return message_lang(given, first if first in LANGS else None, environ)


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
        raise PlanError(path, ph("plan_strings", found=shown(value)), key)
    return list(dict.fromkeys(value))  # in order, each once


def _choices(path: Path, data: dict, key: str, valid, what: str,
             default: list[str] | None) -> list[str] | None:
    """The plan's list under key (default when absent), each value one of valid."""
    values = _strings(path, data, key) or default
    bad = [v for v in values or [] if v not in valid]
    if bad:
        raise PlanError(path, ph("plan_unknown", what=ph(f"plan_{key}"), names=", ".join(map(repr, bad)),
                                 choices=", ".join(valid)), key)
    return values


def _read_toml(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise PlanError(path, ph("plan_no_file")) from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlanError(path, ph("plan_unreadable", reason=str(e))) from None
    except tomllib.TOMLDecodeError as e:
        reason = TomlReason(str(e).rsplit(" (at ", 1)[0])
        raise PlanError(path, ph("plan_not_toml", reason=reason), line=toml_line(text, str(e))) from None
    unknown = sorted(set(data) - set(PLAN_LISTS) - set(PLAN_PATHS))
    if unknown:
        raise PlanError(path, ph("plan_unknown_key", names=", ".join(map(repr, unknown)),
                                 keys=", ".join((*PLAN_LISTS, *PLAN_PATHS))), line=locate(text, unknown[0]))
    for key in PLAN_PATHS:
        if key in data and not (isinstance(data[key], str) and data[key]):
            raise PlanError(path, ph("plan_folder", found=shown(data[key])), key)
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
            loaded.append((file, loads(file.read_text(encoding="utf-8"), str(file))))  # errors at their line
        except FileNotFoundError:
            raise PlanError(path, ph("plan_no_lesson", entry=repr(entry), file=file), "lessons") from None
        except (OSError, UnicodeDecodeError) as e:
            raise PlanError(path, ph("plan_lesson_unreadable", entry=repr(entry), reason=str(e)),
                            "lessons") from None
        except LessonError as e:
            raise PlanError(path, e, "lessons") from None
        if stems.setdefault(file.stem, file) != file:
            raise PlanError(path, ph("plan_same_stem", a=stems[file.stem], b=file, stem=file.stem), "lessons")
    return loaded


def _check_contexts(path: Path, contexts: list[str] | None, loaded) -> None:
    everywhere = {c for _, les in loaded for c in les.contexts}
    missing = [c for c in contexts or [] if c not in everywhere]
    if missing:
        have = "; ".join(f"{f.stem}: {', '.join(les.contexts)}" for f, les in loaded)
        raise PlanError(path, ph("plan_context_nowhere", names=", ".join(map(repr, missing)), have=have),
                        "contexts")


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
        raise PlanError(path, ph("plan_needs_video", products=", ".join(needing)), "products")
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
        raise PlanError(path, ph("plan_no_lessons"), "lessons")
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
        raise PlanError(path, ph("plan_langs_env", reason=str(e)), "langs") from None
    notes += (_video_notes(path, lists["products"], products, variants)
              + _theme_notes(lists["products"], variants))
    chosen = [s for s in scenes if lists["scenes"] is None or s.id in lists["scenes"]]  # in lesson order
    return BatchPlan(path, variants, chosen, lists["products"], out, shared, _unique(notes))
