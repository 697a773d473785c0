"""A teacher's own words: a folder of catalogs that win over the built-in ones, key by key.

A words folder holds one folder per language, each with TOML files shaped like scenes/i18n/<lang>/
(`[softmax.say] reading = "..."`): DIR/<lang>/<name>.toml, as `attention-lesson words export` writes it.
For a built-in language every key is optional (a key it lacks keeps the built-in line); for any other
language the folder must hold every key of the reference language (en). Either way a key no line of the
lesson has is an error, and so is a placeholder ({focus}, {top_pct:.0%}) that no built-in version of
the line takes and one written as no line may write it (`fields`: a bare name, {top!s} or {top_pct:.0%};
never {focus.attr}, {focus[0]}, {focus!r} or {focus:>9}); one the line leaves out is only a warning
(words_warnings.py). Every line is filled by `fill`, which holds it to the same rules.

Which folder is in use is process-wide (`use_words`): the pipeline sets it from the render options, a
scene from its settings; `catalog` and everything built on it then read through it. No manim import.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from attention_core.errors import Choices, Phrase, TomlReason, located, ph, say, tidy
from attention_core.files import MAX_LINE_CHARS, MAX_WORDS_BYTES, FileProblem, read_text, shallow_toml, within
from attention_core.language import message_lang
from attention_core.lines import key_lines, toml_line

from .words_messages import FormatReason  # joins the words check's phrases into the core's tables

BUILT_IN = ("zh", "en", "ja")  # the languages scenes/i18n/ holds a catalog of
REFERENCE = "en"  # a language from a folder needs every key of this one
# right-to-left scripts, refused until the scenes lay text out from the right
RTL = {"ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "ug", "ur", "yi"}
I18N = Path(__file__).parent.parent / "i18n"  # scenes/i18n/ (importlib.resources' readers import zipfile)
_CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")  # a BCP 47 language tag, lower-case language


class WordsError(ValueError):
    """A words file that is not TOML: its `FILE:LINE: message` (`lines(lang)`: in a language; `problems`:
    in English)."""

    def __init__(self, file: str, line: int, said: Phrase):
        self.file, self.line, self.said = file, line, said
        super().__init__(self.lines("en")[0])
        self.problems = self.lines("en")

    def lines(self, lang: str) -> list[str]:
        return [tidy(lang, located(lang, self.file, self.line, self.said))]


@dataclass(frozen=True)
class Entry:
    value: str | list[str]
    file: str  # where it is written, and on which line
    line: int


def built_in(lang: str) -> bool:
    return lang in BUILT_IN and (I18N / lang).is_dir()


def lang_problem(lang: str, say_in: str | None = None) -> str | None:
    """Why `lang` cannot be a lesson's language, or None: not a language code, or a right-to-left one;
    said in `say_in` (default: message_lang's choice for it)."""
    if not _CODE.match(lang):
        found = ph("lang_not_code", lang=repr(lang))
    elif lang.split("-")[0] in RTL:
        found = ph("lang_rtl", lang=lang)
    else:
        return None
    said = say_in or message_lang(lang)
    return tidy(said, say(said, found))


def _flatten(prefix: str, table: dict, out: dict) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _flatten(key, v, out)
        else:
            out[key] = v


def read_file(path: Path, text: str | None = None) -> dict[str, Entry]:
    """A catalog file's entries with their lines; WordsError (its line) for a file that cannot be read
    as text (no regular file, a dangling or looping symlink, larger than MAX_WORDS_BYTES, not UTF-8) or
    is not TOML (nested deeper than MAX_NESTING too)."""
    try:
        text = read_text(path, MAX_WORDS_BYTES) if text is None else text
        data = shallow_toml(within(text, MAX_WORDS_BYTES))
    except FileNotFoundError:  # (a file removed as it was read)
        gone = FileProblem(ph("readable_file"), ph("no_such_file"))
        raise WordsError(str(path), 1, gone.phrase()) from None
    except FileProblem as p:
        raise WordsError(str(path), p.line or 1, p.phrase()) from None
    except tomllib.TOMLDecodeError as e:
        line = toml_line(text, str(e)) or 1
        reason = TomlReason(re.sub(r" [(]at .*[)]$", "", str(e)))
        raise WordsError(str(path), line, ph("words_not_toml", reason=reason)) from None
    flat: dict = {}
    _flatten("", data, flat)
    lines = key_lines(text)
    return {k: Entry(v, str(path), lines.get(k, 1)) for k, v in flat.items()}


@lru_cache(maxsize=None)
def builtin_entries(lang: str) -> dict[str, Entry]:
    """Every entry of scenes/i18n/<lang>/, by key, with the file (its name) and line it is on; {} for a
    language with no built-in catalog."""
    if not built_in(lang):
        return {}
    folder = I18N / lang
    entries: dict[str, Entry] = {}
    for f in sorted(folder.iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            entries.update(read_file(Path(f.name), f.read_text(encoding="utf-8")))
    return entries


@lru_cache(maxsize=None)
def builtin_table(lang: str, table: str) -> dict[str, str | list[str]]:
    """The entries of one built-in file, scenes/i18n/<lang>/<table>.toml, by key (values only; {} when
    there is no such file): every key of a table is in its own file (tests/test_words.py checks it), so
    one line (a scene's title) needs no other file read."""
    path = I18N / lang / f"{table}.toml"
    if lang not in BUILT_IN or not path.is_file():
        return {}
    flat: dict = {}
    _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), flat)
    return flat


def files(folder: str | Path, lang: str) -> list[Path]:
    """The TOML files of a words folder's language, by name."""
    own = Path(folder) / lang
    return sorted(own.glob("*.toml")) if own.is_dir() else []


def folder_langs(folder: str | Path | None) -> list[str]:
    """The languages a words folder gives that are not built in (DIR/fr/*.toml: fr), by code; a folder
    whose name is no left-to-right language code is not one."""
    if folder is None or not Path(folder).is_dir():
        return []
    return sorted(p.name for p in Path(folder).iterdir()
                  if p.name not in BUILT_IN and lang_problem(p.name) is None and files(folder, p.name))


def _fingerprint(folder: str | Path, lang: str) -> tuple:
    """Each file's path, time and size: what, changed, has the folder read again (a file that cannot be
    looked at, a dangling or looping symlink, has none: read, and refused, each time)."""
    return tuple((str(p), *_mark(p)) for p in files(folder, lang))


def _mark(path: Path) -> tuple:
    try:
        return path.stat().st_mtime_ns, path.stat().st_size
    except OSError:
        return (None,)


def overrides(folder: str | Path | None, lang: str) -> dict[str, Entry]:
    """The entries a words folder gives for a language ({} for none), read again when a file changed;
    WordsError for a file that is not TOML."""
    if folder is None:
        return {}
    return _read(str(folder), lang, _fingerprint(folder, lang))


@lru_cache(maxsize=32)
def _read(folder: str, lang: str, fingerprint: tuple) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for path in files(folder, lang):
        entries.update(read_file(path))
    return entries


# -- placeholders -----------------------------------------------------------------------------------
# A words file changes what is said and nothing else: a {field} is a bare name the line is given,
# written as the built-in lines write one (tests/test_words_safety.py holds these to scenes/i18n/):
# {top} (a token marked), {top!s} (bare: i18n.Token) or {top_pct:.0%} (a share, as a whole percentage).
# No attribute, no index, no other conversion or spec: `{focus.__class__}` would reach the program's
# objects, `{focus:>300000000}` would fill the memory.
CONVERSIONS = (None, "s")
PERCENT, SHARE = ".0%", "_pct"  # the one spec, on a placeholder named *_pct (a number)
_LONGEST = 60  # a refused field is shown cut to this many characters


class PlaceholderError(ValueError):
    """A line's {field} refused, or a line that is no format string: what words check says of it once
    it knows the key (`phrase(key)`)."""

    def __init__(self, code: str, **fields):
        self.code, self.fields = code, fields
        super().__init__(tidy("en", say("en", ph(code, key="", **fields))).removeprefix(": "))

    def phrase(self, key: str) -> Phrase:
        return ph(self.code, key=key, **self.fields)


class MissingField(PlaceholderError, KeyError):
    """A field the line names and the program does not give: a KeyError too, as str.format's was (a
    scene tries a variant for data its lesson may lack)."""

    __str__ = Exception.__str__


def _written(name: str, conversion: str | None, spec: str) -> str:
    """A field as the line wrote it, cut short: "{focus!z}"."""
    field = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
    return field if len(field) <= _LONGEST else field[:_LONGEST - 2] + "…}"


def field_allowed(name: str, conversion: str | None, spec: str) -> bool:
    """Whether a line may write this field: a bare name, `!s`, or `:.0%` on a *_pct name."""
    if not name.isidentifier() or conversion not in CONVERSIONS:
        return False
    return spec == "" or (spec == PERCENT and conversion is None and name.endswith(SHARE))


def fields(text: str) -> list[tuple[str, str | None, str]]:
    """A line's fields as (name, conversion, spec); PlaceholderError for a line that is no format string
    or a field no line may write."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as err:
        raise PlaceholderError("words_broken", reason=FormatReason(str(err))) from None
    out = [(name, conv, spec) for _, name, spec, conv in parsed if name is not None]
    for name, conv, spec in out:
        if not field_allowed(name, conv, spec):
            raise PlaceholderError("words_bad_placeholder", field=_written(name, conv, spec))
    return out


class LineFormatter(string.Formatter):
    """Fills a catalog line with the fields it is given and nothing else (the rules of `fields`, which
    words check applies): every catalog line, on screen or said, is filled by `fill`."""

    def parse(self, format_string):
        fields(format_string)
        return super().parse(format_string)

    def get_field(self, field_name, args, kwargs):
        if field_name not in kwargs:  # a line is given its fields by name, all of them
            raise MissingField("words_unknown_placeholder", names=_names([field_name]), takes=_names(kwargs))
        return kwargs[field_name], field_name

    def convert_field(self, value, conversion):
        return str(value) if conversion == "s" else value

    def format_field(self, value, format_spec):
        if format_spec and (isinstance(value, bool) or not isinstance(value, (int, float))):  # a *_pct
            raise PlaceholderError("words_bad_placeholder", field="{" + f":{format_spec}" + "}")
        return format(value, format_spec)


_FILLER = LineFormatter()


def fill(text: str, **given) -> str:
    """A catalog line, its fields filled; PlaceholderError for a field it may not have."""
    return _FILLER.vformat(text, (), given)


def placeholders(value: str | list[str]) -> set[str]:
    """The names a line's {fields} take ("{top_pct:.0%}" -> top_pct); PlaceholderError (a ValueError)
    for a broken one or one no line may write."""
    return {name for s in (value if isinstance(value, list) else [value]) for name, _, _ in fields(s)}


@lru_cache(maxsize=None)
def _allowed() -> dict[str, tuple[frozenset, frozenset]]:
    """Per key, (the placeholders some built-in language's line takes, those every one's takes)."""
    per_key: dict[str, list[set]] = {}
    for lang in BUILT_IN:
        for key, e in builtin_entries(lang).items():
            try:
                per_key.setdefault(key, []).append(placeholders(e.value))
            except ValueError:  # a line never formatted (literal braces): no placeholders to keep
                per_key.setdefault(key, []).append(set())
    return {k: (frozenset(set().union(*s)), frozenset(set.intersection(*s))) for k, s in per_key.items()}


def _entry_problem(key: str, e: Entry, reference: dict[str, Entry], lang: str = "en") -> str | None:
    found = _line_phrase(key, e.value, reference)
    return None if found is None else tidy(lang, located(lang, e.file, e.line, found))


def line_problem(key: str, value, reference: dict[str, Entry], lang: str = "en") -> str | None:
    """What is wrong with a line given for `key` (words check's rule, without its FILE:LINE), said in
    `lang`, or None: a key no line of `reference` has, a value of the wrong kind, a broken or unknown
    placeholder."""
    found = _line_phrase(key, value, reference)
    return None if found is None else tidy(lang, say(lang, found))


def _line_phrase(key: str, value, reference: dict[str, Entry]) -> Phrase | None:
    if key not in reference:
        return ph("words_unknown_key", key=repr(key))
    want, texts = reference[key].value, value if isinstance(value, list) else [value]
    if isinstance(want, list) != isinstance(value, list) or not all(isinstance(s, str) for s in texts):
        return ph("words_kind", key=key, kind=ph("string_list" if isinstance(want, list) else "a_string"))
    if (longest := max(map(len, texts), default=0)) > MAX_LINE_CHARS:
        return ph("words_too_long", key=key, limit=MAX_LINE_CHARS, n=longest)
    try:
        found = placeholders(value)
    except PlaceholderError as err:
        return err.phrase(key)
    some = _allowed().get(key, (frozenset(), frozenset()))[0]
    if extra := sorted(found - some):
        return ph("words_unknown_placeholder", key=key, names=_names(extra), takes=_names(some))
    return None  # a placeholder every built-in version takes, left out: a warning (words_warnings.py)


def _names(names) -> Choices | Phrase:
    """Placeholders as a message names them: "{focus}, {top}" (joined as the language joins a list)."""
    return Choices("{" + n + "}" for n in sorted(names)) if names else ph("no_placeholders")


def problems(folder: str | Path, lang: str, say_in: str | None = None) -> list[str]:
    """What is wrong with a words folder's language, one `FILE:LINE: message` each, in `say_in` (default:
    message_lang): a file that is not TOML, unknown keys, values of the wrong kind, broken or unknown
    placeholders, and for a language with no built-in catalog every key of the reference
    language it lacks."""
    said = say_in or message_lang(lang)
    if not files(folder, lang):
        own = Path(folder) / lang
        return [tidy(said, located(said, str(own), 1, ph("words_none_here", lang=lang, folder=own)))]
    try:
        given = overrides(folder, lang)
    except WordsError as e:
        return e.lines(said)
    reference = builtin_entries(lang) or builtin_entries(REFERENCE)
    out = [p for key, e in given.items() if (p := _entry_problem(key, e, reference, said))]
    if not built_in(lang):
        for key, e in reference.items():
            if key not in given:
                path = Path(folder) / lang / e.file
                line = json.dumps(e.value, ensure_ascii=False)
                missing = ph("words_missing_key", key=repr(key), reference=REFERENCE, line=line)
                out.append(tidy(said, located(said, str(path), _table_line(path, key), missing)))
    return out


def _table_line(path: Path, key: str) -> int:
    """Where a missing key belongs in its file: its table's header line, else 1."""
    try:
        text = read_text(path, MAX_WORDS_BYTES)
    except (OSError, FileProblem):
        return 1
    table = key.rsplit(".", 1)[0]
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip() == f"[{table}]":
            return n
    return 1


# -- the folder in use ---------------------------------------------------------------------------------

_ACTIVE: list[str | None] = [None]


def use_words(folder: str | Path | None) -> None:
    """The words folder every catalog of this process reads through from now on (None: the built-in
    words alone)."""
    _ACTIVE[0] = None if folder is None else str(folder)


def active() -> str | None:
    return _ACTIVE[0]


def digest(folder: str | Path | None, lang: str, tables: tuple[str, ...] | None = None) -> str | None:
    """A hash of the words a folder gives for these tables (every table: None), None when it gives none:
    what a scene's or a product's digest adds, so only what shows a changed line is made again."""
    given = overrides(folder, lang)
    if not given:  # no folder, or nothing in it for this language: nothing to read the built-ins for
        return None
    builtin = builtin_entries(lang)
    changed = {k: e.value for k, e in given.items() if k not in builtin or builtin[k].value != e.value}
    picked = {k: v for k, v in sorted(changed.items())  # a line as the built-in one changes nothing
              if tables is None or k.split(".", 1)[0] in tables}
    if not picked:
        return None
    return hashlib.sha256(json.dumps(picked, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
