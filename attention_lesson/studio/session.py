"""One studio session's lesson: the text the editor holds, the last text that passed the core's checks
(its lesson and numbers), and the file on disk.

No server here: the web app (app.py) calls these methods from its handlers, in the event loop (each is
a parse or a small numpy pass: well under a millisecond for the lessons' sizes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from attention_core import (
    LANGS,
    MODES,
    Lesson,
    LessonError,
    loads,
    numbers_json,
)
from attention_core.errors import Choices, shown
from attention_core.errors import text as said
from attention_core.lines import error_line
from scenes.common.i18n import catalog

from ..outputs.explorer import page_data, palette
from ..pipeline.manifest import write_atomically


def words() -> dict[str, dict[str, str]]:
    """The studio's own words (its catalog), both languages."""
    return {lang: catalog(lang).table("studio") for lang in LANGS}


def passes(lesson: Lesson) -> dict[str, dict]:
    """Every context's numbers under every normalizer ("context|mode": `numbers --json`, every head's
    too), with the lesson's own mask: the studio's page shows the server's numbers, never its own, and
    only the file's (the explorer's what-if mask switch is not in the studio: its claims marked "no
    longer true" read as the lesson's, while the file and the frames had no mask)."""
    return {f"{name}|{mode}": numbers_json(lesson, name, mode) for name in lesson.contexts for mode in MODES}


class TextProblem(Exception):
    """A text the core refuses: its key, line and check's message, as the API's 422 carries them."""

    def __init__(self, error: dict):
        super().__init__(error["message"])
        self.error = error

    @classmethod
    def saying(cls, lang: str, at: str | None, code: str, /, **fields) -> TextProblem:
        """A request the studio refuses, its key `at`, in the page's language: the core's entry `code`."""
        return cls({"key": at, "line": None, "message": said(lang, code, **fields)})

    @classmethod
    def choice(cls, lang: str, key: str, choices, found) -> TextProblem:
        """`key: expected one of a, b, c, found 'x'`, in the page's language."""
        return cls.saying(lang, key, "studio_choice", key=key, choices=Choices(choices), found=shown(found))


def problem(text: str, e: LessonError, lang: str = "en") -> dict:
    """A LessonError as JSON: the key it names, the line of the text it points at, check's message in the
    page's language (without FILE:LINE: the page shows the line itself)."""
    return {"key": e.key, "line": error_line(text, e), "message": e.message(lang, file=False)}


@dataclass
class Session:
    path: Path  # the lesson file
    context: str | None  # the studio's context and normalizer (its numbers and frames)
    mode: str
    lang: str
    text: str = ""  # the last valid text (the working text: its numbers are the page's)
    draft: str = ""  # the latest text the editor sent, valid or not (never lost on a reload)
    disk: str = ""  # the file's text as last read or written
    lesson: Lesson | None = None
    error: dict | None = None  # the draft's problem, if it has one
    edits: int = field(default=0)  # valid texts accepted so far (the frames' run numbers follow it)
    theme: str = "dark"  # the page's palette (the frames' theme)

    @classmethod
    def open(cls, path: Path, context: str | None, mode: str, lang: str) -> Session:
        """The file's text as the first draft: its lesson when it passes the checks, else its problem
        (the page opens on it, to be fixed there: `lesson` stays None until a text passes). LessonError
        for a context the lesson does not have."""
        text = path.read_text(encoding="utf-8")
        s = cls(path, context, mode, lang, disk=text, draft=text)
        try:
            s.accept(text)
        except TextProblem:
            return s
        s.context = s.lesson.context_name(context)
        return s

    @property
    def recovery(self) -> Path:
        """Where unsaved edits are kept when the studio stops: `.<name>.unsaved.toml` beside the file."""
        return self.path.with_name(f".{self.path.stem}.unsaved{self.path.suffix}")

    def keep_unsaved(self) -> Path | None:
        """The draft, if it is not saved, into the recovery file (atomically); its path, or None."""
        if self.saved:
            return None
        write_atomically(self.recovery, self.draft)
        return self.recovery

    def recovered(self) -> str | None:
        """The recovery file's text, if one is there and differs from the file's."""
        try:
            text = self.recovery.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return text if text != self.disk else None

    def forget_recovery(self) -> None:
        self.recovery.unlink(missing_ok=True)

    def view(self, context: str | None, mode: str | None, theme: str | None, lang: str | None = None) -> None:
        """The page's choice of context, normalizer, theme and language for the frames and numbers;
        TextProblem naming what is wrong."""
        from scenes.common.style import THEMES

        for key, value, choices in (("lang", lang, LANGS), ("mode", mode, MODES), ("theme", theme, THEMES),
                                    ("context", context, self.lesson.contexts if self.lesson else None)):
            wrong = not isinstance(value, str) or choices is not None and value not in choices
            if value is not None and wrong:
                raise TextProblem.choice(self.lang, key, list(choices or []), value)
        self.context = context if context is not None else self.context
        self.mode, self.theme, self.lang = mode or self.mode, theme or self.theme, lang or self.lang

    @property
    def saved(self) -> bool:
        return self.draft == self.disk

    def parse(self, text: str) -> Lesson:
        """The text's lesson (named after the file); TextProblem if the core refuses it."""
        try:
            return loads(text, str(self.path))
        except LessonError as e:
            raise TextProblem(problem(text, e, self.lang)) from None

    def accept(self, text: str) -> dict:
        """A new editor text: kept as the draft; if valid, the working text and lesson too, and its
        numbers returned; TextProblem (the working text unchanged) if not."""
        self.draft = text
        try:
            lesson = self.parse(text)
        except TextProblem as p:
            self.error = p.error
            raise
        if self.context is not None and self.context not in lesson.contexts:
            self.context = None  # the context was renamed: the lesson's first
        self.text, self.lesson, self.error = text, lesson, None
        self.edits += 1
        return self.numbers()

    def none_passed(self) -> TextProblem:
        """No text has passed the checks yet: the last one's problem, or that none has come."""
        if self.error:
            return TextProblem(self.error)
        return TextProblem.saying(self.lang, None, "studio_no_text")

    def numbers(self, context: str | None = None, mode: str | None = None) -> dict:
        """`numbers --json` of the working lesson for a context and normalizer (the studio's by default)."""
        if self.lesson is None:
            raise self.none_passed()
        if (mode or self.mode) not in MODES:
            raise TextProblem.choice(self.lang, "mode", MODES, mode or self.mode)
        try:
            return numbers_json(self.lesson, context or self.context, mode or self.mode)
        except LessonError as e:
            raise TextProblem({"key": "context", "line": None, "message": str(e)}) from None

    def page(self) -> dict:
        """What the page's views draw: the explorer's data, with every context's pass under every
        normalizer computed here (the page shows the server's numbers, not its own). With no text that
        passed yet (a broken file opened): the page's words and palette only."""
        if self.lesson is None:
            return {"studio_words": words(), "path": str(self.path), "palette": palette(self.theme),
                    "titles": {lang: self.path.name for lang in LANGS}, "broken": True,
                    "theme": self.theme}
        data = page_data(self.lesson, self.lang, self.lesson.context_name(self.context), self.mode,
                         self.theme)
        data["passes"] = passes(self.lesson)
        return data | {"studio_words": words(), "path": str(self.path), "theme": self.theme}

    def save(self, text: str | None = None) -> None:
        """Write exactly `text` (the editor's; default the working text) to the file, atomically."""
        text = (self.text or self.draft) if text is None else text
        write_atomically(self.path, text)
        self.disk = text
        if text != self.draft:
            self.draft = text
        self.forget_recovery()  # what it kept is in the file now, or was saved over on purpose

    def name_words(self, folder: str, note: str) -> None:
        """The lesson file names its words folder from now on: `words = "<folder>"` added to the file and
        to the editor's text (unsaved edits stay unsaved; a text that does not parse keeps its lines),
        every other line as it was. toml_edit.EditError for a file on disk that is not TOML."""
        from .toml_edit import EditError, with_top_key

        disk = self.path.read_text(encoding="utf-8")
        new_disk = with_top_key(disk, "words", folder, note)
        try:
            draft = new_disk if self.draft == disk else with_top_key(self.draft, "words", folder, note)
        except EditError:
            draft = self.draft
        write_atomically(self.path, new_disk)
        self.disk = new_disk
        try:
            self.accept(draft)
        except TextProblem:
            pass  # the draft keeps its problem; the working text (its lesson) names no folder yet

    def on_disk(self, text: str) -> str:
        """The file changed on disk: "same" (ours), "replaced" (no unsaved edits: the file's text is the
        editor's now) or "conflict" (the page asks before replacing unsaved edits)."""
        if text == self.disk:
            return "same"
        unsaved = not self.saved
        self.disk = text
        return "conflict" if unsaved else "replaced"
