"""A scene's key frames on its handout page, laid out for print.

Each frame is cropped to its body (the scene's heading left out: the page heads it, and the summary
names the sentence) and placed so that its smallest text prints at least CAP_MM tall (a cap height of
1.5 mm: 6 pt type), every frame of a scene at one scale, so a number is as large in one frame as in the
next; a wide frame gets a wide figure, a narrow one shares its row, and a frame with room beside it in
its row has its caption there. Where the page has room, the page's script (FIT) draws a scene's frames
larger, up to ENLARGE, and its tables in larger type, keeping the layout that fits an A4 page; never so
large that a frame prints at less than MIN_DPI. What a frame holds it says itself, in its PNG's text
chunks (`LessonScene.save_keyframe`; `registry.FRAME_BODY`, `FRAME_MIN_CAP`): the box of its body and
the cap height of its smallest text, in pixels, as the scene's layout measured them. A frame that says
neither is placed whole, FALLBACK_MM wide."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from scenes.registry import FRAME_BODY, FRAME_MIN_CAP

CAP_MM = 1.5  # the least cap height of a frame's text on paper: 6 pt type (Noto Sans: caps are 0.71 em)
MIN_DPI = 250  # the least a frame is printed at, where its text needs no more
FALLBACK_MM = 88.0  # a frame that does not say its text's size: as wide as two columns of the page
MIN_FIGURE_MM = 58.0  # a figure is at least this wide (its caption beneath a narrow frame)
CAPTION_BESIDE_MM = 45.0  # a caption goes beside its frame where its row leaves it this much room
ENLARGE = (1.5, 1.35, 1.2, 1.1, 1.0)  # the scales above the least that FIT tries (the page decides)
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Frame:
    """A step's frame as its page places it: its file, its size and its body's box (pixels), the cap
    height of its smallest text (pixels; None: not said)."""

    src: str
    width: int
    height: int
    box: tuple[float, float, float, float]
    cap: float | None

    @property
    def crop_w(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def crop_h(self) -> float:
        return self.box[3] - self.box[1]


def read_frame(out_dir: Path, src: str) -> Frame:
    """A frame file and what its text chunks say (its body's box; its smallest text's cap height)."""
    with Image.open(out_dir / src) as im:
        (w, h), said = im.size, getattr(im, "text", {})
    box = tuple(float(v) for v in said[FRAME_BODY].split(",")) if FRAME_BODY in said else (0.0, 0.0, w, h)
    cap = float(said[FRAME_MIN_CAP]) if FRAME_MIN_CAP in said else None
    return Frame(src, w, h, box, cap)


def scale_mm(frames: list[Frame]) -> float:
    """Millimetres a pixel for every frame of a scene: its smallest text at CAP_MM on paper."""
    caps = [f.cap for f in frames if f.cap]
    if not caps:
        return FALLBACK_MM / max(f.width for f in frames)
    return CAP_MM / min(caps)


def most_enlarged(scale: float) -> float:
    """The largest enlargement of a scene's frames that still prints them at MIN_DPI (never below 1:
    where the frames are too coarse for both, the text's size wins)."""
    return max(1.0, math.floor(MM_PER_INCH / MIN_DPI / scale * 1000) / 1000)  # rounded down: MIN_DPI kept


def figure(frame: Frame, scale: float, alt: str, caption: str) -> str:
    """A figure of a frame cropped to its body, `scale` mm a pixel (times the page's --k, at most
    --kmax), with its caption (HTML) beneath: the image is the whole frame, moved and clipped in a box
    of the body's shape (the frame's size given, so the page is laid out before the image loads)."""
    x0, y0, _, _ = frame.box
    w, h = frame.crop_w, frame.crop_h
    where = f"width:{100 * frame.width / w:.3f}%;left:{-100 * x0 / w:.3f}%;top:{-100 * y0 / h:.3f}%"
    wide = math.ceil(w * scale * 100) / 100  # mm, rounded up: its text keeps CAP_MM
    return (f"<figure style='--w:{wide:.2f}'><div class='frame' style='aspect-ratio:{w:.1f}/{h:.1f}'>"
            f"<img src='{html.escape(frame.src)}' width='{frame.width}' height='{frame.height}' "
            f"style='{where}' alt='{html.escape(alt)}'></div><figcaption>{caption}</figcaption></figure>")


CSS = """
.shots { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 3mm 4mm; }
.shots figure { margin: 0; flex: 1 0 auto; max-width: 100%; display: flex; flex-wrap: wrap;
                align-items: flex-start; column-gap: 3mm;
                width: max(%(fig)smm, calc(min(var(--k, 1), var(--kmax, 1)) * var(--w) * 1mm + 0.6mm)); }
.shots .frame { flex: none; position: relative; overflow: hidden; max-width: calc(100%% - 0.6mm);
                width: calc(min(var(--k, 1), var(--kmax, 1)) * var(--w) * 1mm);
                border: 0.3mm solid #c8ccd2; border-radius: 1mm; }
.shots .frame img { position: absolute; max-width: none; height: auto; border: 0; border-radius: 0; }
.shots figure figcaption { flex: 1 1 %(cap)smm; min-width: %(cap)smm; }
.page-start { break-before: page; } .continued { margin-top: 0; }
""".replace("%(fig)s", f"{MIN_FIGURE_MM:g}").replace("%(cap)s", f"{CAPTION_BESIDE_MM:g}").replace("%%", "%")


MIN_FILL = 1 / 3  # no page of a scene less full than this: a scene that spills is balanced over its pages
FILL_MARGIN_MM = 8.0  # what the page's script keeps above MIN_FILL: boxes end below their ink


FIT_JS = """
(() => {
  const MM = 96 / 25.4, page = PAGE_MM * MM - 2;  // CSS px, less a rounding margin
  const room = page - MM;  // a page of a scene spread over pages: 1 mm spare, the printer's sums not ours
  const least = (MIN_FILL * PAGE_MM + MARGIN_MM) * MM;  // the least a page of a scene may hold
  const box = (n) => n.getBoundingClientRect();
  const fits = (s) => box(s).height <= page;
  const earlier = (a, b) => {  // ranks compared as tuples
    const i = a.findIndex((x, j) => x !== b[j]);
    return i >= 0 && a[i] < b[i];
  };
  const set = (s, [k, pt]) => { s.style.setProperty("--k", k); s.style.setProperty("--num", pt); };

  // Where a page may break: before a line of frames, a line of tables, or a block of the scene's own.
  function atoms(s) {
    const out = [];
    for (const c of s.children) {
      if (c.tagName === "H2") continue;
      const lines = c.classList.contains("shots") || c.classList.contains("numbers");
      for (const n of lines ? c.children : [c]) {
        const r = box(n), last = out[out.length - 1], parent = lines ? c : s;
        const bottom = r.bottom + parseFloat(getComputedStyle(n).marginBottom);  // the printer counts it
        if (lines && last && last.parent === c && Math.abs(r.top - last.top) < 1) {
          last.nodes.push(n);
          last.bottom = Math.max(last.bottom, bottom);
        } else out.push({ parent, nodes: [n], top: r.top, bottom });
      }
    }
    return out;
  }

  // The atoms that start a page, as the printer breaks (greedy), then the last page's start moved back
  // while it holds less than `least` and the page can take the atom before (its page keeping one).
  function pages(s, list) {
    const starts = [0];
    let top = box(s).top;
    list.forEach((a, i) => { if (i > 0 && a.bottom - top > room) { starts.push(i); top = a.top; } });
    // the end: the section's own where it reaches past its last line (a trailing block, a margin)
    const k = starts.length - 1;
    const end = Math.max(list.length ? list[list.length - 1].bottom : 0, box(s).bottom);
    if (k > 0) {
      while (end - list[starts[k]].top < least && starts[k] - 1 > starts[k - 1] &&
             end - list[starts[k] - 1].top <= room) starts[k]--;
    }
    const held = starts.map((i, j) => (j + 1 < starts.length ? list[starts[j + 1] - 1].bottom : end) -
                                      (j ? list[i].top : box(s).top));
    return { starts, ok: held.every((h) => h >= least && h <= room) };
  }

  // A page break before each start but the first: a line of frames or tables moves, with the lines
  // after it, to a copy of its box that starts a page.
  function split(s, list, starts) {
    for (const i of starts.slice(1).reverse()) {
      const a = list[i], first = a.nodes[0];
      if (a.parent === s || first === a.parent.firstElementChild) {
        (a.parent === s ? first : a.parent).classList.add("page-start");
        continue;
      }
      const rest = a.parent.cloneNode(false);
      rest.classList.add("page-start", "continued");
      a.parent.after(rest);
      for (let n = first, next; n; n = next) { next = n.nextElementSibling; rest.append(n); }
    }
  }

  // A scene's layout: the first try (largest text first) that fits a page; else the one that spreads
  // over its pages with none less than a third full, the fewest pages, the largest text.
  function layout(s, tries) {
    let best = null;
    for (const [j, t] of tries.entries()) {
      set(s, t);
      if (fits(s)) return;
      const p = pages(s, atoms(s)), rank = [p.ok ? 0 : 1, p.starts.length, j];
      if (!best || earlier(rank, best.rank)) best = { t, rank };
    }
    set(s, best.t);
    const list = atoms(s);
    split(s, list, pages(s, list).starts);
  }

  for (const s of document.querySelectorAll("section.scene")) {
    const most = parseFloat(s.style.getPropertyValue("--kmax")) || 1, tries = [];
    for (const k of ENLARGE) for (const pt of SIZES) tries.push([Math.min(k, most), pt]);
    tries.sort((a, b) => Math.min(6 * b[0], b[1]) - Math.min(6 * a[0], a[1]) || b[0] - a[0] || b[1] - a[1]);
    layout(s, s.classList.contains("key") ? tries : [[1, SIZES[0]]]);
  }
})();
"""


def fit_script(page_mm: float, sizes: tuple[float, ...]) -> str:
    """The page's script: each scene of key frames on one page, trying its frames' enlargements and its
    tables' sizes (the smallest text of the two largest first) and keeping the first that fits
    page_mm, measured by the browser that lays it out (fonts, line breaks, table widths). A scene that
    fits in no layout (and a scene of every frame large) is spread over its pages: whole lines of
    frames and tables, each page at least MIN_FILL full (what spills is not left alone on a page), the
    fewest pages, the largest text; its breaks written into the page, where the script measured them."""
    js = (FIT_JS.replace("PAGE_MM", f"{page_mm:g}").replace("MIN_FILL", f"{MIN_FILL:.4f}")
          .replace("MARGIN_MM", f"{FILL_MARGIN_MM:g}").replace("ENLARGE", str(list(ENLARGE)))
          .replace("SIZES", str(list(sizes))))
    return f"<script>{js}</script>"
