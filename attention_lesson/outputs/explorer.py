"""The explorer: one self-contained folder (explorer/index.html, its script and style, the lesson as
data) where a student changes the lesson's numbers and watches attention follow. It opens from
file:// with no network and zips to take elsewhere.

The page computes with web/core.js, attention_core's functions mirrored in JavaScript (checked against
the core in tests/test_web_core.py); the view is web/explorer.js and its parts (SCRIPTS), with the
helpers the studio shares in web/shared.js. What the page needs from Python is
written into data.js: the lesson (vocab, W's, contexts, names), both catalogs' words, the palette, and
the lesson's claims (which key its focus favours in each context, computed here by the core), which
the page checks again with the student's numbers, a lesson with [real] its model's weights
(explorer_real.py: computed here, once; the studio's page has no such box), and the lesson file's own
text: the page's download is that text with only the numbers the student changed rewritten in place
(explorer-export.js), so the teacher's comments, order and spacing stay as they were.
"""

from __future__ import annotations

import html
import json
import shutil
import tempfile
from dataclasses import fields
from pathlib import Path

from attention_core import LANGS, Lesson, attend
from attention_core.diagnostics import TIE
from scenes.common import style
from scenes.common.i18n import catalog, lesson_title
from scenes.common.words import fill

from ..pipeline.manifest import swap_folder
from .explorer_real import real_data
from .files import EXPLORER_ASSETS as ASSETS
from .files import EXPLORER_FOLDER as FOLDER
from .files import EXPLORER_SCRIPTS as SCRIPTS
from .files import VENDOR as VENDOR  # (the deck takes reveal.js from it)
from .files import WEB, explorer_owns

COMMON_WORDS = ("query", "key", "value", "weights", "scores", "output", "embedding", "sum",
                "mode_scaled", "mode_unscaled", "mode_uniform", "d_k_column")


def words(lang: str) -> dict[str, str]:
    """The page's words in one language: the explorer's catalog and the scenes' shared words."""
    tr = catalog(lang)
    return tr.table("explorer") | {f"common_{k}": tr(f"common.{k}") for k in COMMON_WORDS}


def palette(theme: str = style.DEFAULT_THEME) -> dict:
    """A theme of the scenes' palette (style.py) under the names the stylesheet uses (the theme's field
    names), the inks for text on heat colours, and the CSS color-scheme of its background (form
    controls, scroll bars)."""
    t = style.THEMES[theme]
    colours = {f.name: getattr(t, f.name).to_hex() for f in fields(t) if f.name not in ("name", "heat")}
    return colours | {"heat": [c.to_hex() for c in t.heat], "ink_dark": style.INKS[0].to_hex(),
                      "ink_light": style.INKS[1].to_hex(),
                      "scheme": "light" if style.luminance(t.background) > 0.5 else "dark"}


def claims(lesson: Lesson) -> dict[str, str]:
    """context -> the key the lesson's focus gives the most weight there (scaled, the lesson's own
    normalizer); a context where that weight is tied makes no claim."""
    found = {}
    for name in lesson.contexts:
        att = attend(lesson, name)
        row = att.weights[att.index(lesson.focus)]  # [n]
        if (row >= row.max() - TIE).sum() == 1:
            found[name] = att.tokens[int(row.argmax())]
    return found


def feature_data(lesson: Lesson) -> dict:
    """[training], [positions] and [tiling] as core.js's train, positionsStudy and tiles read them,
    each only where the lesson has the table."""
    data = {}
    if lesson.training:
        t = lesson.training
        data["training"] = {"query": t.query, "target": t.target, "learning_rate": t.learning_rate,
                            "steps": t.steps}
    if lesson.positions:
        data["positions"] = {"kind": lesson.positions.kind, "base": lesson.positions.base}
    if lesson.tiling:
        data["tiling"] = {"block": lesson.tiling.block}
    return data


def next_lesson_data(lesson: Lesson) -> dict:
    """The next lessons' keys, only where the lesson has them (a one-head lesson without a mask gets
    nothing: its page data stays what it was): the mask; every head (its key, its name in each
    language, its W's), the focus head's key and W_O. With heads, the lesson's w_q, w_k, w_v are the
    focus head's (lesson.py), as core.js reads them when no head is named."""
    data = {"mask": lesson.mask} if lesson.mask else {}
    data |= feature_data(lesson)
    if lesson.heads:
        data |= {"heads": [{"key": h.key, "names": {lang: h.name(lang) for lang in LANGS},
                            "w_q": h.w_q.tolist(), "w_k": h.w_k.tolist(), "w_v": h.w_v.tolist()}
                           for h in lesson.heads],
                 "w_o": lesson.w_o.tolist(), "focus_head": lesson.focus_head}
    return data


def lesson_data(lesson: Lesson) -> dict:
    """The lesson as the page reads it (and writes it back as TOML)."""
    return {"vocab": {t: v.tolist() for t, v in lesson.vocab.items()},
            "w_q": lesson.w_q.tolist(), "w_k": lesson.w_k.tolist(), "w_v": lesson.w_v.tolist(),
            "contexts": {n: list(t) for n, t in lesson.contexts.items()}, "focus": lesson.focus,
            "title": dict(lesson.title), "author": lesson.author,
            "dimensions": {lang: list(d) for lang, d in lesson.dimensions.items()},
            "context_labels": lesson.context_labels, "narration": lesson.narration,
            "geometry": {key: list(axes) for key, axes in lesson.geometry.items()},  # axes from 0
            **({"lang": lesson.lang} if lesson.lang else {}), **next_lesson_data(lesson)}


def page_data(lesson: Lesson, lang: str, context: str, mode: str, theme: str = style.DEFAULT_THEME,
              text: str | None = None) -> dict:
    """Everything the page starts from: data.js's one object (text: the lesson file's, for the
    download; None writes the file anew)."""
    return {"source": Path(lesson.source).name, "text": text, "lesson": lesson_data(lesson),
            "claims": claims(lesson),
            "start": {"lang": lang, "context": context, "mode": mode},
            "titles": {la: lesson_title(lesson, la) for la in LANGS},
            "words": {la: words(la) for la in LANGS}, "palette": palette(theme),
            "places": style.NUMBER_PLACES, "tie": TIE}


INDEX_HTML = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="explorer.css">
</head>
<body>
<noscript>{title}: this page needs JavaScript.</noscript>
<main id="app" aria-live="off"></main>
<script src="data.js"></script>
{scripts}
<script>Explorer.start(window.EXPLORER_DATA, AttentionCore);</script>
</body>
</html>
"""


def write_folder(folder: Path, data: dict) -> None:
    """index.html, data.js and the web assets into an empty folder."""
    lang = data["start"]["lang"]
    title = fill(data["words"][lang]["page_title"], title=data["titles"][lang])  # words.fill's rules
    scripts = "\n".join(f'<script src="{name}"></script>' for name in SCRIPTS)
    index = INDEX_HTML.format(lang=lang, title=html.escape(title), scripts=scripts)
    (folder / "index.html").write_text(index, encoding="utf-8")
    payload = json.dumps(data, ensure_ascii=False, indent=1).replace("</", "<\\/")  # never ends the script
    (folder / "data.js").write_text(f"window.EXPLORER_DATA = {payload};\n", encoding="utf-8")
    for name in ASSETS:
        shutil.copyfile(WEB / name, folder / name)


def build_explorer(out_dir: Path, lesson: Lesson, lang: str, context: str, mode: str,
                   theme: str = style.DEFAULT_THEME, text: str | None = None) -> list[Path]:
    """out_dir/explorer/, replaced at once (never half-written); the files written. Only the files the
    page is made of are replaced: any other file in explorer/ (the teacher's) stays. text: the lesson
    file's, which the page's download edits in place (None: the download is written anew)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".tmp-explorer-", dir=out_dir) as tmp:
        new = Path(tmp) / FOLDER
        new.mkdir()
        write_folder(new, page_data(lesson, lang, context, mode, theme, text) | real_data(lesson))
        written = sorted(p.name for p in new.iterdir())
        swap_folder(new, out_dir / FOLDER, explorer_owns)
    return [out_dir / FOLDER / name for name in written]
