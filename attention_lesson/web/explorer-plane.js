/* The explorer's plane (a part of the explorer; see explorer.js): attention as geometry, the picture of
 * the geometry scene (scenes/geometry.py). Two SVG panels for the page's context, normalizer and query:
 *   the Q/K plane: the query as an arrow, each key as an arrow (the more weight, the thicker and the
 *     less faint), its shadow on the query's line (a dashed perpendicular to its foot) with the number
 *     shadow × |q|: the score (the plane's part of it when the plane holds only some of the terms);
 *   the V plane: each value arrow (faint) and, scaled by its weight, laid tip to tail, the last tip on
 *     the output arrow.
 * The head shown (a lesson of several heads) and the page's mask are drawn, as every other view.
 * Every number is core.js's (AttentionCore.picture, attention_core/geometry.py's mirror); this file
 * only places them: one scale for both axes of a panel (right angles stay right), labels nudged apart.
 * When a plane holds less than every term it says how much, and the exact numbers stay in its table.
 */
(function (AL) {
  "use strict";

  const { esc } = AL;
  const { S, word, wordHtml, fmt, num, tokens, dimNames, lessonNow } = AL.state;
  const BOX = { width: 400, height: 320, pad: 30 }; // the SVG's viewBox, and the margin for labels
  // the labels' size in viewBox units: larger on a phone, where the SVG is drawn at about 320 px wide
  // (explorer.js redraws when the page crosses NARROW)
  const NARROW = "(max-width: 480px)";
  let FONT = 16;
  const HEAD = 9; // an arrowhead's length

  /** Whether every point has finite coordinates (numbers past the largest double give inf and NaN:
   *  what cannot be placed is not drawn; the tables still say "inf" or "nan"). */
  const finite = (...points) => points.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));

  /** The panel's map from plane to SVG: the (finite) points' box and the origin, centred, one scale. */
  function frameOf(points) {
    const shown = points.filter((p) => finite(p));
    const xs = [0, ...shown.map((p) => p[0])];
    const ys = [0, ...shown.map((p) => p[1])];
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const room = [BOX.width - 2 * BOX.pad, BOX.height - 2 * BOX.pad];
    const scale = Math.min(room[0] / (x1 - x0 || 1), room[1] / (y1 - y0 || 1));
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    return ([x, y]) => [BOX.width / 2 + (x - cx) * scale, BOX.height / 2 - (y - cy) * scale];
  }

  const at = (p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`;

  /** A line from a to b (SVG points). */
  const segment = (cls, a, b) => (finite(a, b) ? `<line class="${cls}" x1="${a[0].toFixed(1)}" ` +
    `y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}"/>` : "");

  /** Plane points as data attributes, full precision: {tip: [x, y]} -> ' data-tip="x y"'. */
  const dataOf = (points) => Object.entries(points).map(([k, p]) => ` data-${k}="${p[0]} ${p[1]}"`).join("");

  /** An arrow from a to b (SVG points): its shaft and a head of its colour (a dot when it has no length);
   *  look: {width, opacity, data: plane points for data attributes}. */
  function arrow(a, b, cls, { width = 2, opacity = 1, data = {} } = {}) {
    if (!finite(a, b)) return "";
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const attrs = `class="${cls}"${dataOf(data)} opacity="${opacity.toFixed(2)}"`;
    if (len < 0.5) return `<circle ${attrs} cx="${b[0].toFixed(1)}" cy="${b[1].toFixed(1)}" r="3"/>`;
    const [ux, uy] = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    const head = Math.min(HEAD + width, len);
    const base = [b[0] - ux * head, b[1] - uy * head];
    const half = head * 0.45;
    const wings = [[base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
    return `<g ${attrs}>${segment("shaft", a, base).replace("/>", ` stroke-width="${width.toFixed(2)}"/>`)}` +
      `<polygon points="${at(b)} ${wings.map(at).join(" ")}"/></g>`;
  }

  /** A label's rough box: CJK characters a full em wide, others about 0.6. */
  const textWidth = (s) => [...s].reduce((n, c) => n + (c.charCodeAt(0) > 0x2e80 ? 1 : 0.6), 0) * FONT;

  /** Whether segment [a, b] (SVG points) crosses box {x, y, w, h} (Liang-Barsky clipping). */
  function crosses(box, [a, b]) {
    const d = [b[0] - a[0], b[1] - a[1]];
    let [t0, t1] = [0, 1];
    const edges = [[-d[0], a[0] - box.x], [d[0], box.x + box.w - a[0]], [-d[1], a[1] - box.y],
      [d[1], box.y + box.h - a[1]]];
    for (const [pk, qk] of edges) {
      if (pk === 0 && qk < 0) return false;
      if (pk !== 0) {
        const t = qk / pk;
        if (pk < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    return t0 <= t1;
  }

  /** Where a label may go, in the order tried: nudged along `along` (a unit [dx, dy]; down by
   *  default), one way then the other; then around where it was asked for, in eight directions. */
  function spots(l) {
    const [ax, ay] = l.along || [0, 1];
    const out = [];
    for (let k = 0; k < 16; k++) {
      const d = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * FONT * 1.1;
      out.push([l.x + ax * d, l.y + ay * d]);
    }
    for (let r = 1; r <= 4; r++) {
      for (let a = 0; a < 8; a++) {
        out.push([l.x + Math.cos(a * Math.PI / 4) * r * FONT, l.y + Math.sin(a * Math.PI / 4) * r * FONT]);
      }
    }
    return out;
  }

  /** Labels {x, y, text, cls, value, along, anchor, own}, centred on x with y their baseline, each put
   *  at the first of its spots where it overlaps no label placed before it, no box given (the axes'
   *  names) and no line given ({line: [a, b], id}) but its own (id = own), kept inside the viewBox; at
   *  the first spot clear of labels when every spot crosses a line. One moved far from where it was
   *  asked for gets a thin leader from its anchor (the point it names). */
  function placeLabels(labels, taken = [], lines = []) {
    const placed = taken.slice();
    const hits = (b) => placed.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h &&
      o.y < b.y + b.h);
    const inside = (x, y, width) => [Math.min(Math.max(x - width / 2, 2), BOX.width - width - 2),
      Math.min(Math.max(y, FONT + 2), BOX.height - 4) - FONT];
    return labels.filter((l) => finite([l.x, l.y])).map((l) => {
      const width = textWidth(l.text);
      const boxes = spots(l).map(([x0, y0]) => {
        const [x, y] = inside(x0, y0, width);
        return { x, y, w: width, h: FONT * 1.1 };
      });
      const clear = (b) => !lines.some((g) => g.id !== l.own && finite(...g.line) && crosses(b, g.line));
      const box = boxes.find((b) => !hits(b) && clear(b)) || boxes.find((b) => !hits(b)) || boxes[0];
      placed.push(box);
      const value = l.value === undefined ? "" : ` data-value="${l.value}"`;
      return leader(l, box) + `<text x="${(box.x + width / 2).toFixed(1)}" ` +
        `y="${(box.y + FONT * 0.9).toFixed(1)}" text-anchor="middle" class="${l.cls}"${value}>` +
        `${esc(l.text)}</text>`;
    }).join("");
  }

  /** A thin line from a label's anchor to its box's nearest point, when the box is far from it. */
  function leader(l, box) {
    if (!l.anchor) return "";
    const near = [Math.min(Math.max(l.anchor[0], box.x), box.x + box.w),
      Math.min(Math.max(l.anchor[1], box.y), box.y + box.h)];
    const far = Math.hypot(near[0] - l.anchor[0], near[1] - l.anchor[1]) > FONT * 1.2;
    return far ? segment("leader", l.anchor, near) : "";
  }

  /** Labels of points (SVG) that fall on one spot merged: [{point, text}] -> [{point, text}], the
   *  texts of one spot joined by ", " (or kept once when they are the same). */
  function merged(items) {
    const spots = new Map();
    for (const { point, text } of items) {
      const key = at(point);
      const texts = spots.get(key) ? spots.get(key).texts : [];
      if (!texts.includes(text)) texts.push(text);
      spots.set(key, { point, texts });
    }
    return [...spots.values()].map(({ point, texts }) => ({ point, text: texts.join(", ") }));
  }

  /** A label a little beyond point b, away from a. */
  function beyond(a, b, gap = 12) {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len < 0.5) return [b[0], b[1] + FONT + 4];
    return [b[0] + ((b[0] - a[0]) / len) * gap, b[1] + ((b[1] - a[1]) / len) * gap + FONT / 3];
  }

  /** A box in SVG units: its top left corner, width and height. */
  /** @typedef {{x: number, y: number, w: number, h: number}} Box */

  /** A label for placeLabels: x, y (its baseline), text and class, and what it may carry. */
  /** @typedef {{x: number, y: number, text: string, cls: string, value?: number, along?: number[],
   *    anchor?: number[], own?: string}} Label */

  /** The two axes through the origin, each named at its positive end; and the names' boxes.
   *  @returns {[string, Box[]]} */
  function axesSvg(to, names) {
    const o = to([0, 0]);
    const [wx, wy] = names.map(textWidth);
    const x = { x: BOX.width - 6 - wx, y: o[1] - 8 - FONT, w: wx, h: FONT * 1.1 };
    const y = { x: o[0] + 6, y: 4, w: wy, h: FONT * 1.1 };
    const name = (b, text) => `<text class="axis-name" x="${b.x.toFixed(1)}" ` +
      `y="${(b.y + FONT * 0.9).toFixed(1)}">${esc(text)}</text>`;
    const svgText = segment("axis", [4, o[1]], [BOX.width - 4, o[1]]) +
      segment("axis", [o[0], 4], [o[0], BOX.height - 4]) + name(x, names[0]) + name(y, names[1]);
    return [svgText, [x, y]];
  }

  /** The weight as an arrow's look: thicker and less faint the more weight (uniform: all the same). */
  const look = (weight) => {
    const w8 = Number.isFinite(weight) ? weight : 0;
    return { width: 1.5 + 7 * w8, opacity: 0.35 + 0.65 * w8 };
  };

  /** The svg element of a panel: role img, named by its title and described by its desc. */
  function svg(id, title, desc, body) {
    return `<svg class="plane-svg" viewBox="0 0 ${BOX.width} ${BOX.height}" font-size="${FONT}" role="img" ` +
      `aria-labelledby="${id}-title" aria-describedby="${id}-desc">` +
      `<title id="${id}-title">${esc(title)}</title>` +
      `<desc id="${id}-desc">${esc(desc)}</desc>${body}</svg>`;
  }

  /** Key j: its dashed drop to its foot on the query's line, the foot, the arrow as its weight looks. */
  function keySvg(p, to, j) {
    const [o, tip, foot] = [to([0, 0]), to(p.keys[j]), to(p.feet[j])];
    const dot = finite(foot) ? `<circle class="foot"${dataOf({ foot: p.feet[j] })} ` +
      `cx="${foot[0].toFixed(1)}" cy="${foot[1].toFixed(1)}" r="3.5"/>` : "";
    return segment("drop", tip, foot) + dot +
      arrow(o, tip, "key-arrow", { ...look(p.weights[j]), data: { tip: p.keys[j] } });
  }

  /** The labels of the Q/K plane: the query, each score beside its foot (nudged along the query's line),
   *  each key at its tip (those on one spot, and one score on one spot, written once). */
  function qkLabels(p, to, o, taken) {
    const tip = to(p.query);
    const q = `q ${p.tokens[p.focus]}`;
    /** @type {Label[]} */
    const labels = [{ ...xy(beyond(o, tip)), text: q, cls: "q-label" }];
    const beside = besideFeet(o, tip, p.keys.map(to));
    const len = Math.hypot(tip[0] - o[0], tip[1] - o[1]) || 1;
    const along = [(tip[0] - o[0]) / len, (tip[1] - o[1]) / len];
    const value = Object.fromEntries(p.shown.map((x) => [fmt(x), x]));
    for (const { point, text } of merged(p.feet.map((f, j) => ({ point: to(f), text: fmt(p.shown[j]) })))) {
      labels.push({ ...xy(beside(point, textWidth(text))), along, text, cls: "score-label",
        value: value[text], anchor: point });
    }
    for (const { point, text } of merged(p.keys.map((k, j) => ({ point: to(k), text: p.tokens[j] })))) {
      labels.push({ ...xy(beyond(o, point)), text, cls: "k-label", anchor: point, own: at(point) });
    }
    labels[0].own = at(tip);
    const lines = [tip, ...p.keys.map(to)].map((t) => ({ line: [o, t], id: at(t) }))
      .concat(p.feet.map((f, j) => ({ line: [to(p.keys[j]), to(f)], id: "drop" })));
    return placeLabels(labels, taken, lines);
  }

  /** The query's line across the panel (clipped to it), each key's shadow on it (the line from the
   *  origin to the key's foot, in the key's colour and look) and its drop to it, the query's arrow. */
  function qkSvg(p, all) {
    const to = frameOf(all.flatMap((a) => [a.query, ...a.keys, ...a.feet]));
    const o = to([0, 0]);
    const u = AttentionCore.unit(p.query);
    const far = (s) => to([s * u[0] * 1e3, s * u[1] * 1e3]);
    const line = p.query_length > 0 ? segment("query-line", far(-1), far(1)) : "";
    const shadows = p.feet.map((f, j) => [Math.abs(p.reach[j]), segment("shadow", o, to(f))])
      .sort((a, b) => b[0] - a[0]).map(([, svgText]) => svgText); // the longest under the others
    const keys = p.keys.map((_, j) => keySvg(p, to, j));
    const [axes, taken] = axesSvg(to, p.qk.axes.map((a) => word("common_d_k_column", { i: a + 1 })));
    return `<clipPath id="plane-qk-clip"><rect width="${BOX.width}" height="${BOX.height}"/></clipPath>` +
      `${axes}<g clip-path="url(#plane-qk-clip)">${line}</g>${shadows.join("")}${keys.join("")}` +
      arrow(o, to(p.query), "query-arrow", { width: 3, data: { tip: p.query } }) + qkLabels(p, to, o, taken);
  }

  /** @type {(point: number[]) => {x: number, y: number}} */
  const xy = ([x, y]) => ({ x, y });

  /** Where the scores' labels go: beside each foot, off the query's line on the side with fewer keys,
   *  far enough that a label of `width` clears the line. -> (foot, width) -> [x, baseline] */
  function besideFeet(o, qTip, tips) {
    const len = Math.hypot(qTip[0] - o[0], qTip[1] - o[1]);
    const n = len < 0.5 ? [0, 1] : [(o[1] - qTip[1]) / len, (qTip[0] - o[0]) / len]; // the line's normal
    const sideOf = (t) => Math.sign((t[0] - o[0]) * n[0] + (t[1] - o[1]) * n[1]);
    const s = tips.reduce((acc, t) => acc + sideOf(t), 0) > 0 ? -1 : 1;
    return (foot, width) => {
      const gap = 4 + Math.abs(n[0]) * width / 2 + Math.abs(n[1]) * FONT * 0.55;
      return [foot[0] + s * n[0] * gap, foot[1] + s * n[1] * gap + FONT * 0.35];
    };
  }

  /** Each value arrow (faint), the weighted ones tip to tail, and the output arrow (over them: when one
   *  weight is all, the last step is the output) on the last tip. */
  function vSvg(p, all) {
    const to = frameOf(all.flatMap((a) => [...a.values, ...a.tips]));
    const o = to([0, 0]);
    const faint = p.values.map((v) => arrow(o, to(v), "value-arrow faint", { width: 1.2, opacity: 0.45,
      data: { tip: v } }));
    const steps = p.tails.map((t, j) => arrow(to(t), to(p.tips[j]), "value-arrow step",
      { ...look(p.weights[j]), data: { tail: t, tip: p.tips[j] } }));
    const out = arrow(o, to(p.output), "out-arrow", { width: 3, data: { tip: p.output } });
    const outText = `${word("common_output")} ${p.tokens[p.focus]}`;
    /** @type {Label[]} */
    const labels = [{ ...xy(beyond(o, to(p.output), 16)), text: outText, cls: "out-label",
      own: at(to(p.output)) }];
    for (const { point, text } of merged(p.values.map((v, j) => ({ point: to(v), text: p.tokens[j] })))) {
      labels.push({ ...xy(beyond(o, point)), text, cls: "v-label", anchor: point, own: at(point) });
    }
    const [axes, taken] = axesSvg(to, p.v.axes.map((a) => dimNames(p.output_full.length)[a]));
    const lines = [p.output, ...p.values].map((v) => ({ line: [o, to(v)], id: at(to(v)) }))
      .concat(p.tails.map((t, j) => ({ line: [to(t), to(p.tips[j])], id: "step" })));
    return axes + faint.join("") + steps.join("") + out + placeLabels(labels, taken, lines); // output on top
  }

  /** How much of the terms a plane holds, when not all: a sentence with the share as a percentage. */
  function shareNote(key, share) {
    if (share >= 1 - 1e-12) return "";
    const text = Number.isFinite(share) ? `${(100 * share).toFixed(0)}%` : fmt(share);
    const pct = `<span class="num" data-value="${share}">${text}</span>`;
    return `<p class="hint plane-share">${wordHtml(key, { share: pct })}</p>`;
  }

  /** Key by key: its shadow, × |q| (the plane's part of its score), its whole score, its weight. */
  function qkTable(p) {
    const part = p.qk.share < 1 - 1e-12;
    const norm = num(p.query_length);
    const heads = [esc(word("common_key")), esc(word("plane_shadow")),
      wordHtml(part ? "plane_part" : "plane_score", { norm }), ...(part ? [esc(word("plane_whole"))] : []),
      esc(word("weight"))];
    const head = `<tr>${heads.map((h) => `<th scope="col">${h}</th>`).join("")}</tr>`;
    const rows = p.tokens.map((t, j) => `<tr><th scope="row" class="role-k">${esc(t)}</th>` +
      `<td>${num(p.reach[j])}</td><td>${num(p.shown[j])}</td>${part ? `<td>${num(p.scores[j])}</td>` : ""}` +
      `<td>${num(p.weights[j], "num weight")}</td></tr>`);
    return `<div class="scroll"><table class="plane-table">${head}${rows.join("")}</table></div>`;
  }

  /** Key by key: its weight × its value on the plane's axes; then their sum, the output. */
  function vTable(p) {
    const names = p.v.axes.map((a) => dimNames(p.output_full.length)[a]);
    const head = `<tr><th></th>${names.map((n) => `<th scope="col">${esc(n)}</th>`).join("")}</tr>`;
    const rows = p.tokens.map((t, j) => `<tr><th scope="row">${wordHtml("mix_row", { weight: num(p.weights[j]),
      key: esc(t) })}</th>${p.weighted[j].map((x) => `<td>${num(x)}</td>`).join("")}</tr>`);
    const out = `<tr class="total"><th scope="row">${esc(word("output", { token: p.tokens[p.focus] }))}</th>` +
      `${p.output.map((x) => `<td>${num(x, "num role-v")}</td>`).join("")}</tr>`;
    return `<div class="scroll"><table class="plane-table">${head}${rows.join("")}${out}</table></div>`;
  }

  /** The page's query in its context and normalizer (core.picture), and the same query in every
   *  context it is in, on the same planes: each panel is framed for them all, so that a switch of
   *  context (or normalizer) keeps its axes where they were and only the arrows move.
   *  @returns {[Picture, Picture[]]} */
  function pictures() {
    const now = lessonNow();
    // another head than the focus head has its own d_k and d_v: the [geometry] axes are the focus head's
    const other = S.head !== null && S.head !== now.focus_head;
    const lesson = other ? { ...now, geometry: {} } : now;
    const attend = (l, t, m) => AL.state.core.attendTokens(l, t, m, null, S.head); // the head shown
    const token = tokens()[S.query];
    const plane = AttentionCore.planes(lesson, token, attend);
    const p = AttentionCore.picture(lesson, S.context, S.mode, plane, S.query, attend);
    const all = Object.entries(lesson.contexts).filter(([c, t]) => c !== S.context && t.includes(token))
      .map(([c, t]) => AttentionCore.picture(lesson, c, S.mode, plane, t.indexOf(token), attend));
    return [p, [p, ...all]];
  }

  /** The box: the heading, then each plane's figure (caption, SVG, its share, its table). */
  function planeHtml() {
    FONT = window.matchMedia(NARROW).matches ? 20 : 16;
    const [p, all] = pictures();
    const token = p.tokens[p.focus];
    const qkAxes = p.qk.axes.map((a) => word("common_d_k_column", { i: a + 1 }));
    const vAxes = p.v.axes.map((a) => dimNames(p.output_full.length)[a]);
    const qkTitle = word("plane_qk", { a: qkAxes[0], b: qkAxes[1] });
    const vTitle = word("plane_v", { a: vAxes[0], b: vAxes[1] });
    return `<h3>${esc(word("plane", { token }))}</h3><div class="plane-panels">` +
      `<figure class="plane-panel" data-plane="qk"><figcaption>${esc(qkTitle)}</figcaption>` +
      svg("plane-qk", qkTitle, word("plane_qk_desc", { token }), qkSvg(p, all)) +
      shareNote("plane_share_qk", p.qk.share) + qkTable(p) + "</figure>" +
      `<figure class="plane-panel" data-plane="v"><figcaption>${esc(vTitle)}</figcaption>` +
      svg("plane-v", vTitle, word("plane_v_desc", { token }), vSvg(p, all)) +
      shareNote("plane_share_v", p.v.share) + vTable(p) + "</figure></div>";
  }

  AL.plane = { planeHtml, NARROW };
})(window.AL);
