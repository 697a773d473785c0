"""The selected step's narration line in the teacher's own words: which catalog line a drawn step says,
that line as the words folder gives it (or the built-in one), and an edit of it written to the folder.

A step's frames index (frames/<scene>.json) names the step, the line it said, filled in, and the line's
catalog key as the scene chose it (`<scene>.say.<step>` or a variant, `<scene>.say.<step>_<variant>`, by
its data and the claims the line makes: scenes/common/base.py records it in each Step). The edit goes
where `attention-lesson words export` would put it (DIR/<lang>/<the built-in file>.toml), with the same
comment over a new key, and the lesson file names the folder (`words = "words"`) from the first edit.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path

from scenes.common import words as W

from ..pipeline.manifest import write_atomically
from . import toml_edit

FOLDER = "words"  # the folder a first edit creates beside the lesson file
NOTE = "the lesson's lines in your own words: words/<lang>/*.toml"


class LineProblem(Exception):
    """A line request the studio refuses: its HTTP status and one line for the page."""

    def __init__(self, status: int, message: str, key: str | None = None):
        super().__init__(message)
        self.status, self.message, self.key = status, message, key


def pattern(template: str) -> re.Pattern | None:
    """A regex the line reads as once its placeholders are filled in (spaces optional: a Japanese line
    drops the one beside 「」); None for a template that is no format string."""
    parts = []
    try:
        for literal, name, _, _ in string.Formatter().parse(template):
            parts.append(r"\s*".join(re.escape(w) for w in literal.split(" ")))
            if name is not None:
                parts.append("(.*?)")
    except ValueError:
        return None
    return re.compile("".join(parts), re.S)


def texts(folder: str | None, lang: str) -> dict[str, str]:
    """Every line's text in use: the built-in one, or the words folder's."""
    given = {k: e.value for k, e in W.overrides(folder, lang).items()} if folder else {}
    return {k: e.value for k, e in W.builtin_entries(lang).items()} | given


@dataclass
class Place:
    """Where a lesson's words are: the folder (named by the lesson file or not yet) and the language."""

    folder: Path
    lang: str
    named: bool  # the lesson file names it (`words = "..."`)

    def file(self, key: str) -> Path:
        return self.folder / self.lang / W.builtin_entries(self.lang)[key].file


def place_of(lesson, path: Path, lang: str, chosen: Path | None = None) -> Place:
    """The folder the studio reads and writes the lesson's words in: `studio --words DIR` (`chosen`),
    else the lesson's `words = "..."`, else words/ beside the lesson file (not named yet)."""
    if chosen is not None:
        return Place(Path(chosen), lang, True)
    if lesson.words:
        return Place(Path(lesson.words), lang, True)
    return Place(path.resolve().parent / FOLDER, lang, False)


def elsewhere(place: Place, lesson_path: Path, chosen: Path | None, lang: str) -> LineProblem | None:
    """Why the studio may not write in place's folder (403, naming it), or None: it writes only in the
    lesson file's folder or below it, or in the folder the teacher chose on the command line (`studio
    --words DIR`); never where an unsaved text's `words = "..."` points (links resolved)."""
    from attention_core.errors import text as said

    folder = place.folder.resolve()
    base = lesson_path.resolve().parent
    if any(folder.is_relative_to(root) for root in (base, *([Path(chosen).resolve()] if chosen else []))):
        return None
    return LineProblem(403, said(lang, "studio_words_elsewhere", folder=str(folder), base=str(base)), "words")


def shown(path: Path, lesson_path: Path) -> str:
    """A words file as the page names it: relative to the lesson file's folder when it is in it."""
    base = lesson_path.resolve().parent
    return str(path.relative_to(base)) if path.is_relative_to(base) else str(path)


def describe(place: Place, scene: str, step: dict, n: int, lesson_path: Path) -> dict:
    """What the page shows for a drawn step's line: its key (None: no line of the catalog), the text in
    use, the built-in one, whether it is the teacher's own, where it is written, its placeholders."""
    folder = str(place.folder) if place.named else None
    key = step.get("key") or None  # recorded by the scene as it said the line
    if key not in W.builtin_entries(place.lang):
        key = None
    out = {"scene": scene, "n": n, "step": step["step"], "said": step["narration"], "key": key}
    if key is None:
        return out
    builtin = W.builtin_entries(place.lang)[key].value
    text = texts(folder, place.lang)[key]
    current = pattern(text) is not None and bool(pattern(text).fullmatch(step["narration"].strip()))
    return out | {"text": text, "builtin": builtin, "own": text != builtin, "current": current,
                  "file": shown(place.file(key), lesson_path),
                  "placeholders": sorted(W.placeholders(builtin))}


def check(key: str, text, lang: str) -> str | None:
    """LineProblem (422, words check's message) for a line the lesson cannot take; its warning (a
    placeholder it leaves out: saved all the same) or None."""
    from attention_core.errors import shown
    from attention_core.errors import text as said

    builtin = W.builtin_entries(lang)
    if not isinstance(key, str) or ".say." not in key or key not in builtin:
        raise LineProblem(404, said(lang, "studio_no_line", key=shown(key)), "key")
    if not isinstance(text, str) or not text.strip():
        raise LineProblem(422, said(lang, "line_empty"), "text")
    if (problem := W.line_problem(key, text, builtin, lang)) is not None:
        raise LineProblem(422, problem, "text")
    from scenes.common.words_warnings import line_warning

    return line_warning(key, text, lang)


def note(key: str, lang: str) -> str:
    """The comment over a key, as `words export` writes it."""
    from ..outputs.words import comment, said_in

    return comment(key, W.builtin_entries(lang)[key].value, said_in(lang))


def header(lang: str, name: str) -> str:
    """The first comment lines of a file of the words folder the studio makes, as `words export` writes
    them, in the language (said_in: English for a language with no built-in words)."""
    from ..outputs.words import head, said_in

    return "".join(f"# {line}\n" for line in head(name, lang, said_in(lang)))


def write(place: Place, key: str, text: str) -> Path:
    """The line written into its file of the words folder (made on the first edit); its path."""
    path = place.file(key)
    old = path.read_text(encoding="utf-8") if path.is_file() else header(place.lang, path.stem)
    try:
        new = toml_edit.set_key(old, key, text, note(key, place.lang))
    except toml_edit.EditError as e:
        raise LineProblem(409, f"{path}: {e}", "file") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, new)
    return path


def remove(place: Place, key: str) -> Path:
    """The key taken out of its file (the file and the folder stay): the built-in line is back."""
    path = place.file(key)
    if not path.is_file():
        return path
    old = path.read_text(encoding="utf-8")
    try:
        new = toml_edit.drop_key(old, key, note(key, place.lang))
    except toml_edit.EditError as e:
        raise LineProblem(409, f"{path}: {e}", "file") from None
    if new != old:
        write_atomically(path, new)
    return path
