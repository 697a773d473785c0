"""The classroom handout: handout.html and handout.pdf (A4) from the same lesson file and scenes, made
to be printed: light frames by default (the light theme), little ink, greys that print apart.

A one-page summary (the formula, the four steps with the focus token's numbers, the Q/K/V colours); then
each scene on one page: every step's last frame (rendered by the pipeline's frames variant, reused
through the manifest) cropped to its body and numbered, with the step's narration line beneath or beside
it, its smallest text at least 6 pt on paper (handout_print.py), and the scene's numbers as tables
typeset for print (`frames="all"`: every frame large instead, as many pages as they take); then
exercises generated from the lesson with blanks and room to work them out, on a page of their own, and
their answers. Every number is from attention_core. A figure or a table is never split across pages (CSS
break-inside); a scene's frames and tables get as large as let its page hold it, measured by the browser
that lays the page out (a script in the page, handout_print.fit_script). The summary ends with a box
naming the explorer (explorer/index.html beside the handout, or the address given): the address as a
link, what it is for, and for an address given (--explorer-url) its QR code (segno, inline SVG). The
HTML is one file with the frames beside it in frames/; the PDF is printed from it by the Debian chromium
(headless --print-to-pdf): it renders MathML, which WeasyPrint does not (WeasyPrint #59, #2171), and it
reads the same system fonts as the video (Noto Sans CJK SC)."""

from __future__ import annotations

import html
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import segno

from attention_core import attend, hard_lookup
from attention_core.geometry import picture
from scenes.common import style
from scenes.common.formats import number_text, shared_format
from scenes.common.i18n import catalog, d_k_labels
from scenes.common.languages import tag

from ..pipeline.deps import CHROMIUM_TOOL, chromium
from ..pipeline.products import ProductArgs
from . import handout_print as P
from .exercises import exercises, vec
from .files import ALL_FRAMES

HTML, PDF = "handout.html", "handout.pdf"
PLANE_SCENE, PLANE_STEP = "geometry", "weights"  # the summary's picture: its frame of the weights
EXPLORER = "explorer/index.html"  # the explorer page, relative to the handout
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                 "--disable-background-networking", "--no-first-run",
                 "--run-all-compositor-stages-before-draw"]


def engine_missing() -> str | None:
    return CHROMIUM_TOOL.hint() if chromium() is None else None


# -- numbers and exercises -------------------------------------------------------------------------

@dataclass
class Table:
    caption: str
    rows: list[str]
    cols: list[str]
    values: np.ndarray  # [rows, cols]


def tables(scene_id: str, lesson, context: str, mode: str, lang: str) -> list[Table]:
    """The numbers a scene shows, as tables: rows and columns named as on screen."""
    tr, att = catalog(lang), attend(lesson, context, mode)
    f, toks, dims = att.index(lesson.focus), list(att.tokens), list(lesson.dim_names(lang))
    t = lambda name: tr(f"handout.table_{name}")  # noqa: E731
    d_in = [f"d{i + 1}" for i in range(lesson.d_model)]
    d_k = d_k_labels(att.d_k, lang)  # the axis W_Q, W_K, Q and K share, named as every output names it
    d_v = dims if len(dims) == att.v.shape[1] else [f"v{i + 1}" for i in range(att.v.shape[1])]
    x_cols = dims if len(dims) == lesson.d_model else d_in
    one = [lesson.focus]
    modes = {m: attend(lesson, context, m) for m in ("scaled", "unscaled", "uniform")}
    by_scene = {
        "projection": [Table(t("x"), toks, x_cols, att.x), Table(t("w_q"), x_cols, d_k, lesson.w_q),
                       Table(t("w_k"), x_cols, d_k, lesson.w_k), Table(t("w_v"), x_cols, d_v, lesson.w_v),
                       Table(t("q"), toks, d_k, att.q), Table(t("k"), toks, d_k, att.k),
                       Table(t("v"), toks, d_v, att.v)],
        "scores": [Table(t("scores"), one, toks, att.scores[f][None]),
                   Table(t("scaled"), one, toks, att.scaled[f][None])],
        "softmax": [Table(t("scaled"), one, toks, att.scaled[f][None]),
                    Table(t("weights"), one, toks, att.weights[f][None])],
        "mixing": [Table(t("weights"), one, toks, att.weights[f][None]), Table(t("v"), toks, d_v, att.v),
                   Table(t("output"), one, d_v, att.output[f][None])],
        "matrix": [Table(t("matrix"), toks, toks, att.weights)],
        "contexts": [Table(t("contexts"), [lesson.context_label(c, lang) for c in lesson.contexts], d_v,
                           np.array([a.output[a.index(lesson.focus)]
                                     for a in (attend(lesson, c, mode) for c in lesson.contexts)]))],
        "lookup": [Table(t("lookup"), [tr("handout.hard"), tr("handout.soft")], d_v,
                         np.array([hard_lookup(att).output[f], att.output[f]]))],
        "geometry": geometry_tables(lesson, context, mode, lang),
        "normalizers": [Table(t("modes"), [tr(f"common.mode_{m}") for m in modes], toks,
                              np.array([a.weights[f] for a in modes.values()])),
                        Table(t("mode_outputs"), [tr(f"common.mode_{m}") for m in modes], d_v,
                              np.array([a.output[f] for a in modes.values()]))],
    }
    return by_scene.get(scene_id, [])


def geometry_tables(lesson, context: str, mode: str, lang: str) -> list[Table]:
    """The geometry scene's numbers: the arrows' coordinates on the plane of queries and keys, each
    key's shadow (x |q|: the plane's part of the score) beside the whole score and the weight, the
    weighted values on the plane of values and their sum, every context's output there."""
    tr, p = catalog(lang), picture(lesson, context, mode)
    t = lambda name: tr(f"geometry.table_{name}")  # noqa: E731
    qk = [d_k_labels(lesson.d_k, lang)[a] for a in p.qk.axes]
    v = [lesson.dim_names(lang)[a] for a in p.v.axes]
    toks, every = list(p.tokens), [picture(lesson, c, mode) for c in lesson.contexts]
    return [Table(t("points"), [tr("geometry.query_of", focus=lesson.focus), *toks], qk,
                  np.vstack([p.query[None], p.keys])),
            Table(t("shadows"), toks, [t("in_plane"), t("scores"), t("weights")],
                  np.column_stack([p.shown, p.scores, p.weights])),
            Table(t("values"), [*toks, tr("geometry.sum")], v, np.vstack([p.weighted, p.output[None]])),
            Table(t("contexts"), [lesson.context_label(c, lang) for c in lesson.contexts], v,
                  np.array([q.output for q in every]))]


# -- the page --------------------------------------------------------------------------------------

FORMULA = ('<math display="block"><mrow><mi>Attention</mi><mo>(</mo><mi style="color:{q}">Q</mi>'
           '<mo>,</mo><mi style="color:{k}">K</mi><mo>,</mo><mi style="color:{v}">V</mi><mo>)</mo><mo>=</mo>'
           '<mi>softmax</mi><mrow><mo>(</mo><mfrac><mrow><mi style="color:{q}">Q</mi>'
           '<msup><mi style="color:{k}">K</mi><mi>⊤</mi></msup></mrow><msqrt><msub><mi>d</mi><mi>k</mi>'
           '</msub></msqrt></mfrac><mo>)</mo></mrow><mi style="color:{v}">V</mi></mrow></math>')

PAGE_H_MM = 297 - 14 - 16  # A4 less the @page margins: what one scene's page may hold
CSS = """
@page { size: A4; margin: 14mm 14mm 16mm;
        @bottom-center { content: counter(page) " / " counter(pages);
                         font: 8pt "Noto Sans CJK SC", sans-serif; color: #555; } }
body { font-family: "Noto Sans CJK SC", "Noto Sans", sans-serif; font-size: 10.5pt; color: #111;
       line-height: 1.45; margin: 0 auto; max-width: 182mm; }
h1 { font-size: 20pt; margin: 0 0 2mm; } h2 { font-size: 14pt; margin: 6mm 0 2mm; break-after: avoid; }
h3 { font-size: 11pt; margin: 4mm 0 1mm; break-after: avoid; }
.summary { break-after: page; } .scene { break-before: page; } .exercises, .answers { break-before: page; }
.scene > h2:first-child { margin-top: 0; }
.beside { align-items: center; } .beside table { margin-bottom: 2mm; }
figure { margin: 2mm 0 4mm; break-inside: avoid; }
figure img { width: 100%; height: auto; display: block; border: 0.3mm solid #c8ccd2; border-radius: 1mm;
             box-sizing: border-box; }
.all figure img { max-height: 95mm; object-fit: contain; }
figcaption { margin-top: 1.5mm; }
.shots figcaption { margin-top: 1mm; font-size: 8.5pt; line-height: 1.35; }
.shots .n { display: inline-block; min-width: 4.2mm; height: 4.2mm; padding: 0 0.7mm; margin-right: 1.2mm;
            box-sizing: border-box; border: 0.3mm solid #111; border-radius: 2.1mm; font-size: 7pt;
            line-height: 3.6mm; text-align: center; font-weight: bold; vertical-align: 0.3mm; }
.numbers { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 2mm 5mm; margin-top: 3mm;
           font-size: calc(var(--num, 8.5) * 1pt); line-height: 1.3; }
.numbers table { margin: 1mm 0 0; } .numbers th, .numbers td { padding: 0.5mm 1.4mm; }
table { border-collapse: collapse; margin: 2mm 0 4mm; break-inside: avoid;
        font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding-bottom: 1mm; }
th, td { border: 0.3mm solid #999; padding: 0.8mm 2mm; text-align: right; }
th { background: #eee; font-weight: normal; }
.legend span { display: inline-block; width: 4mm; height: 4mm; border-radius: 1mm; margin: 0 1mm 0 3mm;
               vertical-align: middle; }
ol.steps li { margin-bottom: 1.5mm; } .blank { display: inline-block; min-width: 28mm;
               border-bottom: 0.3mm solid #111; }
math { font-size: 120%; }
.exercises { display: flex; flex-direction: column; height: %(ex_h)smm; }
.ex { break-inside: avoid; flex: 1 1 0; display: flex; flex-direction: column; margin-bottom: 3mm; }
.ex .work { flex: 1; margin: 1.5mm 0 0 5mm; min-height: 12mm; print-color-adjust: exact;
            -webkit-print-color-adjust: exact;
            background: repeating-linear-gradient(#fff 0 7.7mm, #c8c8c8 7.7mm 8mm); }
.answers li { break-inside: avoid; margin-bottom: 2mm; }
.explore { display: flex; align-items: center; gap: 4mm; margin-top: 6mm; padding: 2mm 4mm 2mm 2mm;
           border: 0.3mm solid #999; border-radius: 2mm; break-inside: avoid; width: fit-content; }
.explore svg.qr { width: 26mm; height: 26mm; flex: none; display: block; }
.explore p { margin: 0 0 1mm; } .explore .title { font-weight: bold; font-size: 11pt; }
.explore a { color: #111; word-break: break-all; }
""".replace("%(ex_h)s", str(PAGE_H_MM - 5)) + P.CSS  # the exercises fill their page, less a rounding margin
TABLE_PT = (8.5, 7.5, 6.5)  # the numbers' sizes, tried in turn where a scene's tables are many and large
FIT = P.fit_script(PAGE_H_MM, TABLE_PT)  # each scene of key frames on one page, as large as it holds


def _table(t: Table) -> str:
    fmt = shared_format(t.values)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.cols)
    body = "".join(f"<tr><th>{html.escape(r)}</th>" + "".join(f"<td>{fmt(x)}</td>" for x in row) + "</tr>"
                   for r, row in zip(t.rows, np.atleast_2d(t.values)))
    return f"<table><caption>{html.escape(t.caption)}</caption><tr><th></th>{head}</tr>{body}</table>"


def _e(s) -> str:
    return html.escape(str(s))


def _explore(url: str | None, lang: str) -> str:
    """The box that names the explorer: a QR code of its address (only for an address given with
    --explorer-url: a phone cannot open the relative path), the address as a link, what it is for."""
    tr = catalog(lang)
    qr = "" if url is None else segno.make_qr(url, error="m").svg_inline(
        border=4, dark="#111", light="#fff", omitsize=True, svgclass="qr", title=url)
    what, href = ((tr("handout.explore_beside"), EXPLORER) if url is None
                  else (tr("handout.explore_what"), url))
    return (f"<aside class='explore'>{qr}<div><p class='title'>{_e(tr('handout.explore_title'))}</p>"
            f"<p>{_e(what)}</p><p><a href='{_e(href)}'>{_e(href)}</a></p></div></aside>")


def _summary(lesson, att, args: ProductArgs, plane: P.Frame | None = None) -> list[str]:
    """The first page: the formula, the four steps with the focus's numbers, its row and output (and,
    where the geometry scene was drawn, its plane beside them), the Q/K/V colours of the theme, and the
    box that names the explorer."""
    lang, title = args.lang, args.title
    tr, f, t = catalog(lang), att.index(lesson.focus), style.THEMES[args.theme]
    colors = {"q": t.q.to_hex(), "k": t.k.to_hex(), "v": t.v.to_hex()}
    steps = [tr("handout.step_query", focus=lesson.focus, q=vec(att.q[f])),
             tr("handout.step_scores", scores=vec(att.scores[f]), scaled=vec(att.scaled[f]),
                sqrt=number_text(att.sqrt_d_k)),
             tr("handout.step_weights", weights=vec(att.weights[f])),
             tr("handout.step_output", output=vec(att.output[f]))]
    legend = "".join(f'<span style="background:{colors[r]}"></span>{_e(tr(f"common.{n}"))}'
                     for r, n in (("q", "query"), ("k", "key"), ("v", "value")))
    intro = tr("handout.intro", sentence=" ".join(att.tokens), focus=lesson.focus,
               context=lesson.context_label(args.context, lang))
    return [f"<section class='summary'><h1>{_e(title)}</h1>", f"<p>{_e(intro)}</p>",
            FORMULA.format(**colors), f"<h2>{_e(tr('handout.four_steps'))}</h2><ol class='steps'>",
            *(f"<li>{_e(s)}</li>" for s in steps), "</ol>",
            "<div class='shots beside'><div>",
            _table(Table(tr("handout.focus_numbers", focus=lesson.focus),
                         [tr("handout.table_scores"), tr("handout.table_scaled"),
                          tr("handout.table_weights")],
                         list(att.tokens), np.array([att.scores[f], att.scaled[f], att.weights[f]]))),
            _table(Table(tr("handout.table_output"), [lesson.focus], list(lesson.dim_names(lang)),
                         att.output[f][None])), "</div>",
            *([P.figure(plane, P.scale_mm([plane]), tr("geometry.title"), _e(tr("geometry.summary_plane")))]
              if plane else []), "</div>",
            f"<p class='legend'>{_e(tr('handout.palette'))}{legend}</p>",
            _explore(args.choices.explorer_url, lang), "</section>"]


def _key_frames(out_dir: Path, title: str, steps: list[dict]) -> tuple[float, list[str]]:
    """A scene's steps' frames cropped to their bodies, each with its number and narration, all at the
    scale that prints the smallest text of any at 6 pt; and how much larger they may be drawn."""
    frames = [P.read_frame(out_dir, s["frame"]) for s in steps]
    scale = P.scale_mm(frames)
    return P.most_enlarged(scale), [
        P.figure(f, scale, f"{title} {n}", f"<span class='n'>{n}</span>{_e(s['narration'])}")
        for n, (f, s) in enumerate(zip(frames, steps), 1)]


def _scene(out_dir: Path, number: int, sid: str, lesson, args: ProductArgs) -> list[str]:
    """A scene: its steps' frames with their narration, then its numbers as tables. KEY_FRAMES: one
    page, the frames a grid of numbered thumbnails; ALL_FRAMES: every frame large, as many pages as
    they take."""
    index = json.loads((out_dir / "frames" / f"{sid}.json").read_text(encoding="utf-8"))
    title, steps = index["title"], index["steps"]
    numbers = [_table(t) for t in tables(sid, lesson, args.context, args.mode, args.lang)]
    head = f"<h2>{number}. {_e(title)}</h2>"
    # every frame large, its size written: the page's script measures it before it loads
    if args.choices.handout_frames == ALL_FRAMES:
        sizes = [P.read_frame(out_dir, s["frame"]) for s in steps]
        return [f"<section class='scene all'>{head}",
                *(f"<figure><img src='{_e(s['frame'])}' width='{f.width}' height='{f.height}' "
                  f"alt='{_e(title)} {n}'><figcaption>{n}. {_e(s['narration'])}</figcaption></figure>"
                  for n, (s, f) in enumerate(zip(steps, sizes), 1)),
                *numbers, "</section>"]
    most, shots = _key_frames(out_dir, title, steps)
    # no empty box of numbers: its 3 mm margin is no line the page's script can move, and where the
    # frames end within 3 mm of the page's foot it is printed alone on a blank page of its own
    tables_box = ["<div class='numbers'>", *numbers, "</div>"] if numbers else []
    return [f"<section class='scene key' style='--kmax:{most:.3f}'>{head}<div class='shots'>", *shots,
            "</div>", *tables_box, "</section>"]


def _exercises(lesson, context: str, mode: str, lang: str) -> list[str]:
    tr, exs, blank = catalog(lang), exercises(lesson, context, mode, lang), "<span class='blank'></span>"
    return [f"<section class='exercises'><h2>{_e(tr('handout.exercises'))}</h2>",
            *(f"<div class='ex'><div>{n}. {_e(x.prompt).replace('___', blank)}</div><div class='work'></div>"
              "</div>" for n, x in enumerate(exs, 1)),
            f"</section><section class='answers'><h2>{_e(tr('handout.answers'))}</h2><ol>",
            *(f"<li>{_e(x.answer)}</li>" for x in exs), "</ol></section>"]


def _plane(out_dir: Path, ids: list[str]) -> P.Frame | None:
    """The geometry scene's frame of the weights (the keys as thick as their weights, the table of them
    beside), where that scene is in the handout: the summary shows it beside the focus's numbers."""
    if PLANE_SCENE not in ids:
        return None
    index = json.loads((out_dir / "frames" / f"{PLANE_SCENE}.json").read_text(encoding="utf-8"))
    src = next((s["frame"] for s in index["steps"] if s["step"] == PLANE_STEP), None)
    return P.read_frame(out_dir, src) if src else None


def page(out_dir: Path, args: ProductArgs) -> str:
    """The handout as one HTML page (the frames beside it, in frames/)."""
    lesson, ids = args.lesson(), list(args.ids)
    att = attend(lesson, args.context, args.mode)
    parts = [*_summary(lesson, att, args, _plane(out_dir, ids)),
             *(p for n, sid in enumerate(ids, 1) for p in _scene(out_dir, n, sid, lesson, args)),
             *_exercises(lesson, args.context, args.mode, args.lang)]
    return (f"<!doctype html><html lang='{tag(args.lang)}'><head><meta charset='utf-8'>"
            f"<title>{_e(args.title)}</title><style>{CSS}</style></head><body>{''.join(parts)}{FIT}</body></html>")


def build_handout(out_dir: Path, args: ProductArgs) -> tuple[Path, Path]:
    """handout.html (frames beside it in frames/) and handout.pdf in out_dir, both replaced atomically
    once both are made. From `args`: the lesson, its context, mode, language and scenes; the theme (the
    frames': the page itself is always black on white paper); its choices' explorer_url (the explorer's
    published address, for the summary's link and QR code; None: the relative path explorer/index.html,
    where the explorer sits beside the handout, as a link and no QR code) and handout_frames (KEY_FRAMES
    or ALL_FRAMES)."""
    exe = chromium()
    if exe is None:
        raise RuntimeError(engine_missing())
    with tempfile.TemporaryDirectory(prefix=".tmp-handout-", dir=out_dir) as tmp:
        tmp = Path(tmp)
        doc = page(out_dir, args)
        (out_dir / f".tmp-{HTML}").write_text(doc, encoding="utf-8")  # beside frames/ so they load
        try:
            subprocess.run([exe, *CHROMIUM_ARGS, f"--user-data-dir={tmp / 'profile'}",
                            f"--print-to-pdf={tmp / PDF}", (out_dir / f".tmp-{HTML}").resolve().as_uri()],
                           check=True, capture_output=True, timeout=300)
            if not (tmp / PDF).exists():
                raise RuntimeError("chromium wrote no PDF")
            os.replace(tmp / PDF, out_dir / PDF)
            os.replace(out_dir / f".tmp-{HTML}", out_dir / HTML)
        finally:
            (out_dir / f".tmp-{HTML}").unlink(missing_ok=True)
    return out_dir / HTML, out_dir / PDF
