/* The explorer's view (issue 19): the lesson's numbers as editable matrices, and everything computed
 * from them (Q, K, V, the query's scores term by term, the softmax weights, the value mix, the weight
 * matrix, hard beside soft lookup), recomputed on every edit by `core` (AttentionCore, web/core.js).
 *
 * State lives in the URL's hash (#lang=..&context=..&query=..&mode=..&x.<token>=a,b&w_q=a,b;c,d), so a
 * link or a reload gives the same page; what does not fit the lesson is ignored and said so on the page.
 * Every number shown carries its full value in data-value; the weight matrix's cells their data-row
 * (query) and data-col (key) and an aria-label.
 *
 * A classic script (the page opens from file://): one global, Explorer.
 */
(function (root) {
  "use strict";

  const MATRICES = ["w_q", "w_k", "w_v"];
  const data = {}; // what data.js gave: lesson, words, palette, claims, start
  const S = {}; // the state: lang, context, query (index), mode, vocab, w_q, w_k, w_v
  let core = null;
  let editable = true; // the explorer edits its numbers; the studio's view shows the editor's
  const timings = []; // ms per update, for scripts/benchmark.py

  // -- small helpers ------------------------------------------------------------------------------
  const $ = (sel, el = document) => el.querySelector(sel);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const copy = (m) => JSON.parse(JSON.stringify(m));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  function w(key, fields = {}) {
    const text = data.words[S.lang][key];
    if (text === undefined) throw new Error(`no word ${key}`);
    return text.replace(/\{(\w+)\}/g, (_, f) => (f in fields ? fields[f] : `{${f}}`));
  }

  /** A catalog line as HTML: its text escaped, its fields given as HTML (a number with its data-value). */
  function wh(key, fields) {
    return esc(w(key, Object.fromEntries(Object.keys(fields).map((f) => [f, `\u0000${f}\u0000`]))))
      .replace(/\u0000(\w+)\u0000/g, (_, f) => fields[f]);
  }

  function fmt(x) {
    const places = data.places;
    const shown = Math.abs(x) < 0.5 * 10 ** -places ? 0 : x; // never "-0.00"
    return shown.toFixed(places);
  }

  /** A number as shown: rounded on screen, its full value in data-value. */
  const num = (x, cls = "num") => `<span class="${cls}" data-value="${x}">${fmt(x)}</span>`;

  const tokens = () => data.lesson.contexts[S.context];
  const dimNames = (n) => {
    const names = data.lesson.dimensions[S.lang];
    return names && names.length === n ? names : Array.from({ length: n }, (_, i) => `${i + 1}`);
  };
  const sentence = (ctx) => data.lesson.contexts[ctx].join(" ");
  const contextLabel = (ctx) => (data.lesson.context_labels[ctx] || {})[S.lang] || ctx;

  function lessonNow() {
    return { vocab: S.vocab, w_q: S.w_q, w_k: S.w_k, w_v: S.w_v };
  }

  // -- colour: style.py's heat_color and text_on ----------------------------------------------------
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const luminance = (c) => c.map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const contrast = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
  function heat(t) {
    const stops = data.palette.heat.map(rgb);
    const pos = Math.min(1, Math.max(0, t)) * (stops.length - 1);
    const i = Math.min(Math.floor(pos), stops.length - 2);
    const c = stops[i].map((a, j) => Math.round(a + (stops[i + 1][j] - a) * (pos - i)));
    const [dark, light] = [data.palette.ink_dark, data.palette.ink_light];
    const ink = contrast(c, rgb(dark)) >= contrast(c, rgb(light)) ? dark : light;
    return `background:rgb(${c.join(",")});color:${ink}`;
  }

  // -- the URL's hash ---------------------------------------------------------------------------------
  const rowText = (row) => row.map(String).join(",");
  const matrixText = (m) => m.map(rowText).join(";");

  function queryName() {
    const toks = tokens();
    const t = toks[S.query];
    const nth = toks.slice(0, S.query + 1).filter((x) => x === t).length;
    return toks.indexOf(t) === S.query ? t : `${t}:${nth}`;
  }

  function hashOf() {
    const p = new URLSearchParams({ lang: S.lang, context: S.context, query: queryName(), mode: S.mode });
    for (const [t, row] of Object.entries(S.vocab)) {
      if (!same(row, data.lesson.vocab[t])) p.set(`x.${t}`, rowText(row));
    }
    for (const m of MATRICES) if (!same(S[m], data.lesson[m])) p.set(m, matrixText(S[m]));
    return p.toString();
  }

  function parseRow(text, n) {
    const parts = text.split(",");
    if (parts.length !== n) return null;
    const row = parts.map((s) => (s.trim() === "" ? NaN : Number(s)));
    return row.every(Number.isFinite) ? row : null;
  }

  function parseMatrix(text, rows, cols) {
    const lines = text.split(";");
    if (lines.length !== rows) return null;
    const m = lines.map((line) => parseRow(line, cols));
    return m.every((r) => r !== null) ? m : null;
  }

  function findQuery(value, toks) {
    if (toks.includes(value)) return toks.indexOf(value);
    const m = /^(.*):(\d+)$/.exec(value);
    if (!m) return -1;
    const at = toks.map((t, i) => (t === m[1] ? i : -1)).filter((i) => i >= 0);
    return at[Number(m[2]) - 1] ?? -1;
  }

  /** The state a hash describes on top of the lesson's; what did not fit, as lines for the note. */
  function readHash(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ""));
    const bad = [];
    const take = (key, ok, apply) => {
      if (!p.has(key)) return;
      if (ok(p.get(key))) apply(p.get(key));
      else bad.push(w(`bad_${key}`, { value: p.get(key) }));
    };
    take("lang", (v) => v in data.words, (v) => (S.lang = v));
    take("context", (v) => v in data.lesson.contexts, (v) => (S.context = v));
    S.query = Math.max(0, tokens().indexOf(data.lesson.focus));
    take("mode", (v) => core.MODES.includes(v), (v) => (S.mode = v));
    take("query", (v) => findQuery(v, tokens()) >= 0, (v) => (S.query = findQuery(v, tokens())));
    for (const [key, value] of p.entries()) {
      if (["lang", "context", "mode", "query"].includes(key)) continue;
      const problem = readNumbers(key, value);
      if (problem) bad.push(problem);
    }
    return bad;
  }

  /** One x.<token> or w_* entry of the hash into the state; a line for the note if it does not fit. */
  function readNumbers(key, value) {
    if (key.startsWith("x.")) {
      const token = key.slice(2);
      if (!(token in data.lesson.vocab)) return w("bad_token", { key, token });
      const n = data.lesson.vocab[token].length;
      const row = parseRow(value, n);
      if (row === null) return w("bad_row", { key, expected: n, value });
      S.vocab[token] = row;
      return null;
    }
    if (!MATRICES.includes(key)) return w("bad_key", { key });
    const rows = data.lesson[key].length;
    const cols = data.lesson[key][0].length;
    const m = parseMatrix(value, rows, cols);
    if (m === null) return w("bad_matrix", { key, rows, cols, value });
    S[key] = m;
    return null;
  }

  // -- the page's frame: controls and the boxes filled later ---------------------------------------
  function controlsHtml() {
    const langs = Object.keys(data.words).map((l) =>
      `<button type="button" data-lang="${l}" aria-pressed="${l === S.lang}">${l === "zh" ? "中文" : "English"}</button>`);
    const contexts = Object.keys(data.lesson.contexts).map((c) =>
      `<option value="${esc(c)}"${c === S.context ? " selected" : ""}>${esc(contextLabel(c))}: ${esc(sentence(c))}</option>`);
    const modes = core.MODES.map((m) => `<label class="choice"><input type="radio" name="mode" value="${m}"` +
      `${m === S.mode ? " checked" : ""}> ${esc(w(`common_mode_${m}`))}</label>`);
    return `<div class="controls">
      <div role="group" aria-label="${esc(w("language"))}" class="langs">${langs.join("")}</div>
      <label class="field"><span>${esc(w("context"))}</span> <select id="context">${contexts.join("")}</select></label>
      <fieldset class="modes"><legend>${esc(w("mode"))}</legend>${modes.join("")}</fieldset>
      ${editable ? `<div class="actions"><button type="button" id="reset">${esc(w("reset"))}</button>
      <button type="button" id="export">${esc(w("export"))}</button></div>` : ""}</div>`;
  }

  function frameHtml() {
    const title = esc(w("page_title", { title: data.titles[S.lang] }));
    const box = (id, extra = "") => `<section class="box" id="${id}" ${extra}></section>`;
    const intro = editable ? `<h1>${title}</h1><p class="intro">${esc(w("intro"))}</p>` : "";
    return `<header>${intro}${controlsHtml()}
      <div id="note" role="status"></div></header>
      <section class="box wide" id="tokens"></section>
      ${box("claims", 'aria-live="polite"')}
      ${editable ? `<h2>${esc(w("inputs"))}</h2><p class="hint">${esc(w("inputs_hint"))}</p>
      <div class="grid" id="inputs"></div><h2>${esc(w("computed"))}</h2>` : ""}
      <div class="grid">${box("qkv")}${box("scores")}${box("mix")}${box("matrix")}${box("lookup")}</div>
      <footer>${esc(w(editable ? "footer" : "footer_server", { source: data.source }))}</footer>`;
  }

  // -- the inputs: a number field per entry, a slider per matrix ----------------------------------
  function inputCell(matrix, r, c, value, label) {
    return `<td><input type="number" step="any" inputmode="decimal" data-matrix="${matrix}" data-r="${r}"` +
      ` data-c="${c}" value="${value}" aria-label="${esc(label)}"></td>`;
  }

  /** rows: [{name, values, key}] where key names the state's row (a token of vocab, or a W's row). */
  function editableTable(id, caption, matrix, rows, cols) {
    const head = `<tr><th></th>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>`;
    const body = rows.map(({ name, values, key }) => `<tr><th scope="row">${esc(name)}</th>` +
      values.map((v, c) => inputCell(matrix, key, c, v, `${caption.split(":")[0]} ${name}, ${cols[c]}`)).join("") +
      "</tr>").join("");
    const slider = `<label class="slider"><span class="slider-label">${esc(w("slider_none"))}</span>` +
      `<input type="range" data-for="${matrix}" min="-3" max="3" step="0.01" value="0" disabled></label>`;
    return `<section class="box" id="${id}"><h3>${esc(caption)} <span class="edited-count"></span></h3>` +
      `<div class="scroll"><table class="matrix edit">${head}${body}</table></div>${slider}</section>`;
  }

  function inputsHtml() {
    const dModel = data.lesson.w_q.length;
    const inNames = dimNames(dModel);
    const seen = tokens().filter((t, i, all) => all.indexOf(t) === i);
    const x = editableTable("edit-x", w("x"), "x", seen.map((t) => ({ name: t, values: S.vocab[t], key: t })), inNames);
    const ws = MATRICES.map((m) => {
      const cols = m === "w_v" ? dimNames(S[m][0].length) : S[m][0].map((_, j) => `${j + 1}`);
      const rows = S[m].map((values, r) => ({ name: inNames[r], values, key: r }));
      return editableTable(`edit-${m}`, `${w(m)} (${w("w_hint")})`, m, rows, cols);
    });
    return [x, ...ws].join("");
  }

  function cellOf(input) {
    const { matrix, r, c } = input.dataset;
    return matrix === "x" ? [S.vocab[r], Number(c)] : [S[matrix][Number(r)], Number(c)];
  }

  function lessonValue(input) {
    const { matrix, r, c } = input.dataset;
    return matrix === "x" ? data.lesson.vocab[r][c] : data.lesson[matrix][r][c];
  }

  /** After an edit: the fields' edited marks and counts, and every field of the same entry. */
  function markEdited() {
    for (const box of document.querySelectorAll("#inputs .box")) {
      let n = 0;
      for (const input of box.querySelectorAll("input[type=number]")) {
        const [row, c] = cellOf(input);
        if (Number(input.value) !== row[c] && document.activeElement !== input) input.value = row[c];
        const edited = row[c] !== lessonValue(input);
        input.classList.toggle("edited", edited);
        n += edited ? 1 : 0;
      }
      $(".edited-count", box).textContent = n ? `(${w("edited")}: ${n})` : "";
    }
  }

  function bindSlider(input) {
    const box = input.closest(".box");
    const slider = $("input[type=range]", box);
    const v = lessonValue(input);
    const span = Math.max(3, Math.ceil(2 * Math.abs(v)));
    Object.assign(slider, { min: -span, max: span, disabled: false });
    slider.value = Number(input.value);
    slider.target = input;
    const label = w("slider", { cell: input.getAttribute("aria-label") });
    $(".slider-label", box).textContent = label;
    slider.setAttribute("aria-label", label);
  }

  function setEntry(input, text) {
    const value = text.trim() === "" ? NaN : Number(text);
    input.setAttribute("aria-invalid", String(!Number.isFinite(value)));
    if (!Number.isFinite(value)) return;
    const [row, c] = cellOf(input);
    row[c] = value;
    update();
  }

  // -- the computed views ---------------------------------------------------------------------------
  function matrixHtml(caption, rows, cols, m, cls) {
    const head = `<tr><th></th>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>`;
    const body = m.map((row, i) => `<tr${i === S.query ? ' class="query"' : ""}><th scope="row">${esc(rows[i])}</th>` +
      row.map((x) => `<td>${num(x)}</td>`).join("") + "</tr>").join("");
    return `<h3 class="${cls}">${esc(caption)}</h3><div class="scroll"><table class="matrix ${cls}">${head}${body}</table></div>`;
  }

  function qkvHtml(att) {
    const toks = att.tokens;
    const dk = att.q[0].length;
    const kNames = Array.from({ length: dk }, (_, j) => `${j + 1}`);
    return matrixHtml(w("q"), toks, kNames, att.q, "role-q") + matrixHtml(w("k"), toks, kNames, att.k, "role-k") +
      matrixHtml(w("v"), toks, dimNames(att.v[0].length), att.v, "role-v");
  }

  function scaleWord(dk) {
    if (S.mode === "scaled") return wh("scale_scaled", { sqrt: num(Math.sqrt(dk)) });
    return esc(w(`scale_${S.mode}`));
  }

  function scoresHtml(att) {
    const i = S.query;
    const q = att.q[i];
    const head = `<tr><th scope="col">${esc(w("common_key"))}</th><th scope="col">${esc(w("raw"))}</th>` +
      `<th scope="col">${scaleWord(q.length)}</th><th scope="col">${esc(w("weight"))}</th></tr>`;
    const rows = att.tokens.map((t, j) => {
      const terms = q.map((qi, d) => `<span class="term">${num(qi, "num role-q")}×${num(att.k[j][d], "num role-k")}</span>`);
      const wt = att.weights[i][j];
      return `<tr data-key="${j}" class="score-row"><th scope="row" class="role-k">${esc(t)}</th>` +
        `<td>${num(att.scores[i][j])}</td><td>${num(att.scaled[i][j])}</td>` +
        `<td class="bar-cell"><span class="bar" style="width:${(3 * wt).toFixed(2)}em"></span>${num(wt, "num weight")}</td></tr>` +
        `<tr class="terms-row"><td colspan="4" class="terms"><div><span class="dot">${esc(w("dot"))}:</span> ` +
        `${terms.join(" + ")}</div></td></tr>`;
    });
    return `<h3>${esc(w("scores", { token: att.tokens[i] }))}</h3>` +
      `<div class="scroll"><table class="scores">${head}${rows.join("")}</table></div>`;
  }

  function mixHtml(att) {
    const i = S.query;
    const names = dimNames(att.v[0].length);
    const head = `<tr><th></th>${names.map((n) => `<th scope="col">${esc(n)}</th>`).join("")}</tr>`;
    const rows = att.tokens.map((t, j) => `<tr><th scope="row">${wh("mix_row", { weight: num(att.weights[i][j]), key: esc(t) })}</th>` +
      att.v[j].map((x) => `<td>${num(att.weights[i][j] * x)}</td>`).join("") + "</tr>");
    const out = `<tr class="total" id="output"><th scope="row">${esc(w("output", { token: att.tokens[i] }))}</th>` +
      att.output[i].map((x) => `<td>${num(x, "num role-v")}</td>`).join("") + "</tr>";
    return `<h3>${esc(w("mix", { token: att.tokens[i] }))}</h3>` +
      `<div class="scroll"><table class="matrix mix">${head}${rows.join("")}${out}</table></div>`;
  }

  function weightMatrixHtml(att) {
    const toks = att.tokens;
    const head = `<tr><th></th>${toks.map((t) => `<th scope="col" class="role-k">${esc(t)}</th>`).join("")}</tr>`;
    const rows = att.weights.map((row, r) => `<tr${r === S.query ? ' class="query"' : ""}>` +
      `<th scope="row"><button type="button" class="row-query role-q" data-query="${r}">${esc(toks[r])}</button></th>` +
      row.map((x, c) => `<td data-row="${r}" data-col="${c}" data-value="${x}" style="${heat(x)}" ` +
        `aria-label="${esc(w("matrix_cell", { query: toks[r], key: toks[c], weight: fmt(x) }))}">${fmt(x)}</td>`).join("") +
      "</tr>");
    return `<h3>${esc(w("matrix"))}</h3><div class="scroll"><table class="heat">${head}${rows.join("")}</table></div>`;
  }

  function lookupHtml(att) {
    const i = S.query;
    const hard = core.hardLookup(att);
    const choice = hard.choice[i];
    const top = att.weights[i].indexOf(Math.max(...att.weights[i]));
    const line = (label, weights, output, cls) => `<div class="lookup ${cls}"><h4>${esc(label)}</h4>` +
      `<p class="weights">${weights.map((x, j) => `<span class="pair">${esc(att.tokens[j])} ${num(x)}</span>`).join(" ")}</p>` +
      `<p class="out">${esc(w("common_output"))} [${output.map((x) => num(x, "num role-v")).join(", ")}]</p></div>`;
    return `<h3>${esc(w("lookup"))}</h3><div class="pairs">` +
      line(w("soft"), att.weights[i], att.output[i], "soft") +
      line(w("hard", { key: att.tokens[choice] }), hard.weights[i], hard.output[i], "hard") + "</div>" +
      (top === choice ? `<p class="hint">${esc(w("hard_same"))}</p>` : "");
  }

  function claimHtml(ctx, target) {
    const toks = data.lesson.contexts[ctx];
    const att = core.attendTokens(lessonNow(), toks, S.mode);
    const row = att.weights[toks.indexOf(data.lesson.focus)];
    const best = Math.max(...row);
    const tied = toks.filter((_, j) => row[j] >= best - data.tie);
    const holds = tied.length === 1 && tied[0] === target;
    const weight = num(best);
    let verdict = wh("claim_holds", { target: esc(target), weight });
    if (!holds) verdict = tied.length > 1 ? wh("claim_tie", { tied: esc(tied.join(", ")), weight })
      : wh("claim_broken", { top: esc(tied[0]), weight });
    return `<li class="${holds ? "holds" : "broken"}" data-context="${esc(ctx)}" data-holds="${holds}">` +
      `${esc(w("claim", { sentence: sentence(ctx), focus: data.lesson.focus, target }))}: <strong>${verdict}</strong></li>`;
  }

  function tokensHtml() {
    const buttons = tokens().map((t, i) => `<button type="button" class="token" data-query="${i}" ` +
      `aria-pressed="${i === S.query}">${esc(t)}</button>`);
    return `<h2>${esc(w("tokens"))}</h2><div class="token-row">${buttons.join("")}</div>`;
  }

  /** Make `el`'s children those of `html`, keeping every element whose place and tag are the same
   *  (only changed text and attributes are written): an edit restyles and relays out the cells whose
   *  numbers changed, not the whole box. */
  function morph(el, html) {
    if (el.lastHtml === html) return;
    el.lastHtml = html;
    const t = document.createElement("template");
    t.innerHTML = html;
    sync(el, t.content);
  }

  function sync(old, fresh) {
    const a = [...old.childNodes];
    const b = [...fresh.childNodes];
    if (a.length !== b.length || a.some((n, i) => n.nodeName !== b[i].nodeName)) {
      old.replaceChildren(...b);
      return;
    }
    a.forEach((n, i) => {
      if (n.nodeType === Node.TEXT_NODE) {
        if (n.nodeValue !== b[i].nodeValue) n.nodeValue = b[i].nodeValue;
        return;
      }
      if (n.nodeType !== Node.ELEMENT_NODE || n.isEqualNode(b[i])) return;
      for (const { name } of [...n.attributes]) if (!b[i].hasAttribute(name)) n.removeAttribute(name);
      for (const { name, value } of b[i].attributes) if (n.getAttribute(name) !== value) n.setAttribute(name, value);
      sync(n, b[i]);
    });
  }

  let hashTimer = null;
  let lastWrite = -Infinity;
  /** The URL follows the state: at once, unless it was written less than 250 ms ago, then 250 ms after
   *  that write (Chromium ignores replaceState called more than 200 times in 10 s, as a dragged
   *  slider would). */
  function writeHash() {
    if (hashTimer !== null) return; // the write already waiting takes the state as it is then
    const write = () => {
      hashTimer = null;
      lastWrite = performance.now();
      history.replaceState(null, "", `#${hashOf()}`);
    };
    const wait = lastWrite + 250 - performance.now();
    if (wait <= 0) write();
    else hashTimer = setTimeout(write, wait);
  }

  /** Recompute everything from the state and redraw what depends on it (the inputs stay). */
  function update() {
    const t0 = performance.now();
    const att = core.attendTokens(lessonNow(), tokens(), S.mode);
    morph($("#tokens"), tokensHtml());
    morph($("#qkv"), qkvHtml(att));
    morph($("#scores"), scoresHtml(att));
    morph($("#mix"), mixHtml(att));
    morph($("#matrix"), weightMatrixHtml(att));
    morph($("#lookup"), lookupHtml(att));
    const claims = Object.entries(data.claims).map(([ctx, target]) => claimHtml(ctx, target));
    morph($("#claims"), claims.length ? `<h2>${esc(w("claims"))}</h2><ul>${claims.join("")}</ul>` : "");
    $("#claims").classList.toggle("broken", $("#claims .broken") !== null);
    markEdited();
    writeHash();
    timings.push(performance.now() - t0);
  }

  // -- export: the edited lesson as a lesson file ------------------------------------------------------
  const str = (s) => JSON.stringify(s); // a TOML basic string: JSON's escapes are TOML's
  const arr = (xs) => `[${xs.map((x) => (typeof x === "number" ? String(x) : str(x))).join(", ")}]`;

  function langTable(name, table) {
    const langs = Object.keys(table || {});
    return langs.length ? `\n[${name}]\n${langs.map((l) => `${l} = ${str(table[l])}`).join("\n")}\n` : "";
  }

  function lessonToml() {
    const L = data.lesson;
    const out = [`# Exported from the attention-lesson explorer (lesson file: ${data.source}).`,
      `focus = ${str(L.focus)}`];
    if (L.author) out.push(`author = ${str(L.author)}`);
    out.push(langTable("title", L.title));
    const dims = Object.keys(L.dimensions);
    if (dims.length) out.push(`\n[dimensions]\n${dims.map((l) => `${l} = ${arr(L.dimensions[l])}`).join("\n")}\n`);
    out.push(`\n[vocab]\n${Object.keys(S.vocab).map((t) => `${str(t)} = ${arr(S.vocab[t])}`).join("\n")}\n`);
    out.push(`\n[projections]\n${MATRICES.map((m) => `${m} = [\n${S[m].map((r) => `  ${arr(r)},`).join("\n")}\n]`).join("\n")}\n`);
    for (const [lang, lines] of Object.entries(L.narration)) out.push(langTable(`narration.${lang}`, lines));
    out.push(`\n[contexts]\n${Object.entries(L.contexts).map(([c, t]) => `${str(c)} = ${arr(t)}`).join("\n")}\n`);
    const labels = Object.entries(L.context_labels);
    if (labels.length) {
      out.push(`\n[context_labels]\n${labels.map(([c, t]) => `${str(c)} = { ${Object.entries(t)
        .map(([l, s]) => `${l} = ${str(s)}`).join(", ")} }`).join("\n")}\n`);
    }
    return out.join("\n");
  }

  function exportLesson() {
    const blob = new Blob([lessonToml()], { type: "application/toml" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${data.source.replace(/\.toml$/, "")}-explored.toml`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // -- events -----------------------------------------------------------------------------------------
  function onClick(e) {
    const el = e.target.closest("button");
    if (!el) return;
    if (el.dataset.query !== undefined) {
      S.query = Number(el.dataset.query);
      update();
    } else if (el.dataset.lang) {
      S.lang = el.dataset.lang;
      draw();
    } else if (el.id === "reset") {
      Object.assign(S, copy({ vocab: data.lesson.vocab, w_q: data.lesson.w_q, w_k: data.lesson.w_k, w_v: data.lesson.w_v }));
      update();
    } else if (el.id === "export") exportLesson();
  }

  function onInput(e) {
    const el = e.target;
    if (el.type === "number" && el.dataset.matrix) {
      setEntry(el, el.value);
      const slider = $("input[type=range]", el.closest(".box"));
      if (slider.target === el && Number.isFinite(Number(el.value))) slider.value = el.value;
    } else if (el.type === "range" && el.target) {
      el.target.value = el.value;
      setEntry(el.target, el.value);
    } else if (el.name === "mode") {
      S.mode = el.value;
      update();
    } else if (el.id === "context") {
      S.context = el.value;
      S.query = Math.max(0, tokens().indexOf(data.lesson.focus));
      draw();
    }
  }

  function onFocus(e) {
    if (e.target.type === "number" && e.target.dataset.matrix) bindSlider(e.target);
  }

  function onBlur(e) {
    if (e.target.type === "number" && e.target.dataset.matrix) markEdited(); // the field shows the value in use
  }

  /** The whole page for the state (a new language or context), then the numbers. */
  function draw() {
    document.documentElement.lang = S.lang;
    if (editable) document.title = w("page_title", { title: data.titles[S.lang] });
    const note = $("#note") ? $("#note").innerHTML : "";
    $("#app").innerHTML = frameHtml();
    $("#note").innerHTML = note;
    if (editable) $("#inputs").innerHTML = inputsHtml();
    update();
  }

  function showNote(bad) {
    $("#note").innerHTML = bad.length ? `<p>${esc(w("ignored"))}</p><ul>${bad.map((b) => `<li>${esc(b)}</li>`).join("")}</ul>` : "";
    $("#note").hidden = !bad.length;
  }

  function palette() {
    const style = document.documentElement.style;
    for (const [name, value] of Object.entries(data.palette)) if (typeof value === "string") style.setProperty(`--${name}`, value);
  }

  /** The state of the lesson's start, then of the hash (what does not fit is noted). */
  function load(hash) {
    Object.assign(S, copy({ vocab: data.lesson.vocab, w_q: data.lesson.w_q, w_k: data.lesson.w_k, w_v: data.lesson.w_v }));
    Object.assign(S, data.start);
    const bad = readHash(hash);
    draw();
    showNote(bad);
  }

  /** Start the page: `given` is data.js's object (or the studio's), `attentionCore` what computes
   *  (AttentionCore, or the studio's numbers from the server); options.editable false shows the numbers
   *  without their fields (the studio edits the lesson's text instead). */
  function start(given, attentionCore, options = {}) {
    Object.assign(data, given);
    core = attentionCore;
    editable = options.editable !== false;
    palette();
    const app = $("#app");
    app.addEventListener("click", onClick);
    app.addEventListener("input", onInput);
    app.addEventListener("focusin", onFocus);
    app.addEventListener("focusout", onBlur);
    window.addEventListener("hashchange", () => { if (location.hash.slice(1) !== hashOf()) load(location.hash); });
    load(location.hash);
  }

  /** A new lesson (the studio's editor changed it): its numbers, the page's choices kept where they
   *  still fit (the language, the context, the query, the normalizer). */
  function replace(given, attentionCore = core) {
    const keep = { lang: S.lang, context: S.context, mode: S.mode, query: S.query };
    const shape = (d) => JSON.stringify([d.lesson.contexts, d.lesson.dimensions, d.lesson.focus, d.titles,
      d.lesson.context_labels, d.lesson.w_q.length, d.lesson.w_q[0].length, d.lesson.w_v[0].length]);
    const same = shape(data) === shape(given);
    Object.assign(data, given);
    core = attentionCore;
    Object.assign(S, copy({ vocab: data.lesson.vocab, w_q: data.lesson.w_q, w_k: data.lesson.w_k, w_v: data.lesson.w_v }));
    Object.assign(S, keep);
    if (!(S.context in data.lesson.contexts)) S.context = data.start.context;
    if (S.query >= tokens().length) S.query = Math.max(0, tokens().indexOf(data.lesson.focus));
    if (same) update(); // only numbers changed: the elements stay, their text follows
    else draw();
  }

  /** True once the URL holds the page's state (no write is waiting). */
  const settled = () => hashTimer === null;

  root.Explorer = { start, replace, timings, lessonToml, settled, state: S };
})(typeof globalThis !== "undefined" ? globalThis : this);
