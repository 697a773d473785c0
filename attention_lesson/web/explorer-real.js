/* The explorer's real-model box (a part of the explorer; see explorer.js), for a lesson with a [real]
 * table: the teacher's sentence as a pretrained model cut it and every layer's and head's weights, all
 * computed when the page was built (outputs/explorer_real.py: data.real) and only drawn here, offline.
 * A layer, a head and a query token chosen: the query's row as bars over the sentence's tokens (<s> and
 * </s>, the model's own marks, set apart), the key it weighs most (the marks and itself left out, as the
 * real scene counts), the marks' share of the row, and lines from the query to every key as thick as its
 * weight; under them, how many heads choose each word for the focus token. Without the [real] extra the
 * page was built with one line saying what to install (data.real.missing), and the box shows it.
 * Every number carries its full value (as embedded) in data-value (explorer-views.js's rule).
 */
(function (AL) {
  "use strict";

  const { esc } = AL;
  const { data, word, wordHtml, num } = AL.state;
  const chosen = { layer: null, head: null, query: null }; // the page's choice: null, data.real's start
  const parsed = new Map(); // "layer.head" -> its rows, read from data.real's text once
  const ROW_H = 22; // the lines' picture: a token's height, px
  const LINE_W = 10; // a line of weight 1, px

  const real = () => data.real;

  /** The choice in force: the page's, else the lesson's start (the focus, a head that picks the word). */
  function choice() {
    const r = real();
    return { layer: chosen.layer ?? r.start.layer, head: chosen.head ?? r.start.head,
      query: chosen.query ?? r.focus };
  }

  /** A head's [n, n] weights (rows split by ";", numbers by spaces: explorer_real.head_text). */
  function rows(layer, head) {
    const key = `${layer}.${head}`;
    if (!parsed.has(key)) {
      parsed.set(key, real().weights[layer][head].split(";").map((row) => row.split(" ").map(Number)));
    }
    return parsed.get(key);
  }

  /** The query's row in the chosen layer and head. */
  const rowNow = () => {
    const c = choice();
    return rows(c.layer, c.head)[c.query];
  };

  /** The key the row weighs most, the marks and the query itself left out (study.RealStudy.keys). */
  function strongest(row, query) {
    let best = -1;
    row.forEach((w, j) => {
      if (!real().special[j] && j !== query && (best < 0 || w > row[best])) best = j;
    });
    return best;
  }

  /** A token as the box names it: the piece, and for a mark the words that say what it is. */
  function tokenText(j) {
    const what = real().special[j] ? "real_mark" : real().words[j] === "\u2581" ? "real_space" : null;
    return real().tokens[j] + (what ? ` (${word(what)})` : "");
  }

  function selectHtml(name, options, value) {
    const opts = options.map((text, i) => `<option value="${i}"${i === value ? " selected" : ""}>${esc(text)}</option>`);
    return `<label class="field"><span>${esc(word(`real_${name}`))}</span> ` +
      `<select id="real-${name}" data-real="${name}">${opts.join("")}</select></label>`;
  }

  /** The layer, head and query token selects. */
  function controlsHtml(c) {
    const r = real();
    const count = (n, key) => Array.from({ length: n }, (_, i) => word(key, { n: i + 1 }));
    return `<div class="real-controls">${selectHtml("layer", count(r.layers, "real_option_layer"), c.layer)}` +
      `${selectHtml("head", count(r.heads, "real_option_head"), c.head)}` +
      `${selectHtml("query", r.tokens.map((_, j) => `${j}: ${tokenText(j)}`), c.query)}</div>`;
  }

  /** The row as bars over the sentence's tokens, the marks dimmed, the strongest key marked. */
  function rowHtml(c, row) {
    const best = strongest(row, c.query);
    const lines = row.map((w, j) => {
      const cls = [real().special[j] ? "special" : "", j === best ? "strongest" : "", j === c.query ? "query" : ""];
      return `<tr data-key="${j}" class="${cls.join(" ").trim()}"><th scope="row">${esc(tokenText(j))}</th>` +
        `<td class="bar-cell"><span class="bar" style="width:${(8 * w).toFixed(2)}em"></span>` +
        `${num(w, "num real-weight")}</td></tr>`;
    });
    const title = word("real_row", { token: real().words[c.query], layer: c.layer + 1, head: c.head + 1 });
    return `<h3 id="real-row-title">${esc(title)}</h3><div class="scroll"><table class="scores real-row">` +
      `<tr><th scope="col">${esc(word("real_key"))}</th><th scope="col">${esc(word("real_weight"))}</th></tr>` +
      `${lines.join("")}</table></div>${summaryHtml(c, row, best)}`;
  }

  /** The strongest key in words, and the marks' share of the row. */
  function summaryHtml(c, row, best) {
    const share = row.reduce((s, w, j) => s + (real().special[j] ? w : 0), 0);
    const said = best < 0 ? "" : wordHtml("real_strongest", { token: esc(real().words[c.query]),
      key: `<strong id="real-strongest" data-key="${best}">${esc(real().words[best])}</strong>`,
      weight: num(row[best]) });
    const percent = `<span class="num" data-value="${share}">${Math.round(100 * share)}%</span>`;
    return `<p>${said}</p><p>${wordHtml("real_marks_share", { share: percent })}</p>`;
  }

  /** Every token twice, queries on the left and keys on the right, and a line from the query to each
   *  key as thick as its weight (an SVG; the table beside it says the same in numbers). */
  function linesHtml(c, row) {
    const r = real();
    const n = r.tokens.length;
    const y = (j) => ROW_H * j + ROW_H / 2;
    const label = (j, x, anchor) => `<text x="${x}" y="${y(j) + 5}" text-anchor="${anchor}" class="${
      r.special[j] ? "special" : j === c.query && anchor === "end" ? "query" : ""}">${esc(r.tokens[j])}</text>`;
    const lines = row.map((w, j) => `<line x1="64" y1="${y(c.query)}" x2="176" y2="${y(j)}" ` +
      `stroke-width="${Math.max(0.3, LINE_W * w).toFixed(2)}" stroke-opacity="${(0.35 + 0.65 * w).toFixed(2)}"/>`);
    const title = word("real_lines", { token: r.words[c.query] });
    return `<h3>${esc(title)}</h3><svg class="real-lines" viewBox="0 0 240 ${ROW_H * n}" role="img" ` +
      `aria-label="${esc(title)}">${lines.join("")}${r.tokens.map((_, j) => label(j, 58, "end")).join("")}` +
      `${r.tokens.map((_, j) => label(j, 182, "start")).join("")}</svg>`;
  }

  /** How many heads choose each word for the focus token (the real scene's count). */
  function countsHtml() {
    const r = real();
    const counts = r.counts.map(([w, n]) => word("real_count", { word: w, n })).join(" · ");
    return `<p class="hint" id="real-counts">${esc(word("real_counts", { focus: r.words[r.focus],
      total: r.layers * r.heads, counts }))}</p>`;
  }

  function boxInnerHtml() {
    const r = real();
    if (r.missing) {
      return `<h2>${esc(word("real_title_missing"))}</h2>` +
        `<p class="real-missing">${esc(word("real_missing", { line: r.missing }))}</p>`;
    }
    const c = choice();
    const row = rowNow();
    const model = r.model.split(" ")[0];
    return `<h2>${esc(word("real_title", { model }))}</h2><p class="hint">${esc(word("real_explain",
      { places: r.places }))}</p><p class="real-sentence">${esc(r.sentence)}</p>` +
      `${controlsHtml(c)}<div class="pairs real-grid"><div>${rowHtml(c, row)}</div>` +
      `<div>${linesHtml(c, row)}</div></div>${countsHtml()}`;
  }

  /** The box's place in the page's frame (none for a lesson without [real]). */
  const boxHtml = () => (real() ? '<section class="box wide real-box" id="real"></section>' : "");

  /** The box drawn for the choice; the selects showing it (a select the student moved keeps its own). */
  function show() {
    if (!real()) return;
    const box = AL.$("#real");
    AL.views.morph(box, boxInnerHtml());
    if (real().missing) return;
    const c = choice();
    for (const name of ["layer", "head", "query"]) {
      const el = /** @type {HTMLSelectElement} */ (AL.$(`#real-${name}`, box));
      if (el.value !== String(c[name])) el.value = String(c[name]);
    }
  }

  /** A select moved: its choice kept, the box redrawn. */
  function choose(name, value) {
    chosen[name] = Number(value);
    show();
  }

  /** Whether the page has the box with the model's numbers (a lesson with [real], the extra installed). */
  const drawn = () => Boolean(real() && !real().missing);

  /** The choice as the URL's hash keeps it (explorer-url.js): "layer.head.query", layer and head as the
   *  selects number them (from 1), the query the token's index (as its select shows it); null until the
   *  student chose. */
  function hashValue() {
    if (!drawn() || Object.values(chosen).every((v) => v === null)) return null;
    const c = choice();
    return `${c.layer + 1}.${c.head + 1}.${c.query}`;
  }

  /** A hash's value taken as the choice; false (the choice unchanged) when it names no layer, head or
   *  query of the page's model. */
  function readHashValue(value) {
    const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(value);
    const r = real();
    if (!m || !drawn()) return false;
    const [layer, head, query] = [Number(m[1]) - 1, Number(m[2]) - 1, Number(m[3])];
    if (layer < 0 || head < 0 || layer >= r.layers || head >= r.heads || query >= r.tokens.length) return false;
    Object.assign(chosen, { layer, head, query });
    return true;
  }

  /** The ranges a hash's value may name, for the line that says it does not fit. */
  const hashRanges = () => ({ layers: real().layers, heads: real().heads, last: real().tokens.length - 1 });

  AL.real = { boxHtml, show, choose, rows, choice, drawn, hashValue, readHashValue, hashRanges };
})(window.AL);
