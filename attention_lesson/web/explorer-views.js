/* The explorer's computed views (a part of the explorer; see explorer.js), each the HTML of one box from
 * one pass of attention (`att`, core.attendTokens's answer: the page's head, normalizer and mask): the
 * tokens, Q, K and V, the query's scores term by term, the plane (explorer-plane.js: its own passes,
 * core.picture), the value mix, the softmax's input with the causal mask (when it is on), the weight
 * matrix, hard beside soft lookup, the lesson's claims; the heads together (explorer-heads.js); and
 * morph, which writes a box's new HTML into the page changing only what changed.
 *
 * Every number shown carries its full value in data-value (a masked score: -Infinity, shown −∞); the
 * weight matrix's cells their data-row (query) and data-col (key) and an aria-label.
 */
(function (AL) {
  "use strict";

  const { esc } = AL;
  const { data, S, word, wordHtml, fmt, num, tokens, sentence, dimNames, lessonNow, hasHeads, headName } = AL.state;

  /** Whether the pass's mask hides key j from query i. */
  const hidden = (att, i, j) => Boolean(att.mask) && !att.mask[i][j];
  /** A masked score, before the softmax: −∞, its value -Infinity (never a large negative number). */
  const minusInf = () => `<span class="num masked" data-value="-Infinity">−∞</span>`;

  /** A heat-map cell's style: style.py's heat_color of t in [0, 1], and text_on's ink on it (a weight
   *  that is not a number, from scores past the largest double, as 0: its cell still reads "nan"). */
  function heat(t) {
    const stops = data.palette.heat.map(AL.rgb);
    const pos = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t)) * (stops.length - 1);
    const i = Math.min(Math.floor(pos), stops.length - 2);
    const c = stops[i].map((a, j) => Math.round(a + (stops[i + 1][j] - a) * (pos - i)));
    const ink = AL.inkOn(c, [data.palette.ink_dark, data.palette.ink_light]);
    return `background:rgb(${c.join(",")});color:${ink}`;
  }

  const headRow = (names, cls = "") =>
    `<tr><th></th>${names.map((n) => `<th scope="col"${cls}>${esc(n)}</th>`).join("")}</tr>`;
  const queryRow = (i) => (i === S.query ? ' class="query"' : "");

  function matrixHtml(caption, rows, cols, m, cls) {
    const body = m.map((row, i) => `<tr${queryRow(i)}><th scope="row">${esc(rows[i])}</th>` +
      row.map((x) => `<td>${num(x)}</td>`).join("") + "</tr>").join("");
    return `<h3 class="${cls}">${esc(caption)}</h3>` +
      `<div class="scroll"><table class="matrix ${cls}">${headRow(cols)}${body}</table></div>`;
  }

  function qkvHtml(att) {
    const toks = att.tokens;
    const kNames = Array.from({ length: att.q[0].length }, (_, j) => word("common_d_k_column", { i: j + 1 }));
    return matrixHtml(word("q"), toks, kNames, att.q, "role-q") +
      matrixHtml(word("k"), toks, kNames, att.k, "role-k") +
      matrixHtml(word("v"), toks, dimNames(att.v[0].length), att.v, "role-v");
  }

  function scaleWord(dk) {
    if (S.mode === "scaled") return wordHtml("scale_scaled", { sqrt: num(Math.sqrt(dk)) });
    return esc(word(`scale_${S.mode}`));
  }

  /** Key j's two rows of the scores table: its scores and weight, then q·k term by term. */
  function scoreRows(att, j) {
    const i = S.query;
    const terms = att.q[i].map((qi, d) =>
      `<span class="term">${num(qi, "num role-q")}×${num(att.k[j][d], "num role-k")}</span>`);
    const wt = att.weights[i][j];
    const bar = `<span class="bar" style="width:${(3 * wt).toFixed(2)}em"></span>${num(wt, "num weight")}`;
    const off = hidden(att, i, j);
    return `<tr data-key="${j}" class="score-row${off ? " masked-row" : ""}">` +
      `<th scope="row" class="role-k">${esc(att.tokens[j])}</th>` +
      `<td>${num(att.scores[i][j])}</td><td${off ? ' class="masked"' : ""}>` +
      `${off ? minusInf() : num(att.scaled[i][j])}</td>` +
      `<td class="bar-cell">${bar}</td></tr>` +
      `<tr class="terms-row"><td colspan="4" class="terms"><div><span class="dot">${esc(word("dot"))}:</span> ` +
      `${terms.join(" + ")}</div></td></tr>`;
  }

  function scoresHtml(att) {
    const head = `<tr><th scope="col">${esc(word("common_key"))}</th><th scope="col">${esc(word("raw"))}</th>` +
      `<th scope="col">${scaleWord(att.q[0].length)}</th><th scope="col">${esc(word("weight"))}</th></tr>`;
    const rows = att.tokens.map((_, j) => scoreRows(att, j));
    return `<h3>${esc(word("scores", { token: att.tokens[S.query] }))}</h3>` +
      `<div class="scroll"><table class="scores">${head}${rows.join("")}</table></div>`;
  }

  function mixHtml(att) {
    const i = S.query;
    const rows = att.tokens.map((t, j) =>
      `<tr><th scope="row">${wordHtml("mix_row", { weight: num(att.weights[i][j]), key: esc(t) })}</th>` +
      att.v[j].map((x) => `<td>${num(att.weights[i][j] * x)}</td>`).join("") + "</tr>");
    const outName = esc(word("output", { token: att.tokens[i] }));
    const out = `<tr class="total" id="output"><th scope="row">${outName}</th>` +
      `${att.output[i].map((x) => `<td>${num(x, "num role-v")}</td>`).join("")}</tr>`;
    const head = headRow(dimNames(att.v[0].length));
    return `<h3>${esc(word("mix", { token: att.tokens[i] }))}</h3>` +
      `<div class="scroll"><table class="matrix mix">${head}${rows.join("")}${out}</table></div>`;
  }

  /** A weight matrix's cell: its heat colour; a masked one struck out (its weight exactly 0). */
  function weightCell(toks, r, c, x, off = false) {
    const label = word(off ? "masked_cell" : "matrix_cell", { query: toks[r], key: toks[c], weight: fmt(x) });
    const look = off ? 'class="masked"' : `style="${heat(x)}"`;
    return `<td data-row="${r}" data-col="${c}" data-value="${x}" ${look} ` +
      `aria-label="${esc(label)}">${fmt(x)}</td>`;
  }

  function weightMatrixHtml(att) {
    const toks = att.tokens;
    const rows = att.weights.map((row, r) => `<tr${queryRow(r)}><th scope="row">` +
      `<button type="button" class="row-query role-q" data-query="${r}">${esc(toks[r])}</button></th>` +
      row.map((x, c) => weightCell(toks, r, c, x, hidden(att, r, c))).join("") + "</tr>");
    const head = headRow(toks, ' class="role-k"');
    return `<h3>${esc(word("matrix"))}</h3>` +
      `<div class="scroll"><table class="heat">${head}${rows.join("")}</table></div>`;
  }

  /** With the causal mask on: the softmax's input for every query, the keys after it −∞, and why. */
  function maskedHtml(att) {
    if (!att.mask) return "";
    const toks = att.tokens;
    const body = att.scaled.map((row, i) => `<tr${queryRow(i)}><th scope="row" class="role-q">` +
      `${esc(toks[i])}</th>${row.map((x, j) => (hidden(att, i, j)
        ? `<td class="masked" aria-label="${esc(word("masked_score", { query: toks[i], key: toks[j] }))}">` +
          `${minusInf()}</td>` : `<td>${num(x)}</td>`)).join("")}</tr>`).join("");
    return `<h3>${esc(word("mask_box"))}</h3><div class="scroll"><table class="matrix masked-scores">` +
      `${headRow(toks, ' class="role-k"')}${body}</table></div><p class="hint">${esc(word("mask_explain"))}</p>`;
  }

  function lookupHtml(att) {
    const i = S.query;
    const hard = AL.state.core.hardLookup(att);
    const choice = hard.choice[i];
    const top = att.weights[i].indexOf(Math.max(...att.weights[i]));
    const pairs = (weights) =>
      weights.map((x, j) => `<span class="pair">${esc(att.tokens[j])} ${num(x)}</span>`);
    const line = (label, weights, output, cls) => `<div class="lookup ${cls}"><h4>${esc(label)}</h4>` +
      `<p class="weights">${pairs(weights).join(" ")}</p><p class="out">${esc(word("common_output"))} ` +
      `[${output.map((x) => num(x, "num role-v")).join(", ")}]</p></div>`;
    return `<h3>${esc(word("lookup"))}</h3><div class="pairs">` +
      line(word("soft"), att.weights[i], att.output[i], "soft") +
      line(word("hard", { key: att.tokens[choice] }), hard.weights[i], hard.output[i], "hard") + "</div>" +
      (top === choice ? `<p class="hint">${esc(word("hard_same"))}</p>` : "");
  }

  /** The lesson's claim that in ctx its focus attends most to target, checked with S's numbers. */
  function claimHtml(ctx, target) {
    const toks = data.lesson.contexts[ctx];
    const att = AL.state.core.attendTokens(lessonNow(), toks, S.mode);
    const row = att.weights[toks.indexOf(data.lesson.focus)];
    const best = Math.max(...row);
    const tied = toks.filter((_, j) => row[j] >= best - data.tie);
    const holds = tied.length === 1 && tied[0] === target;
    const weight = num(best);
    let verdict = wordHtml("claim_holds", { target: esc(target), weight });
    if (!holds) verdict = tied.length > 1 ? wordHtml("claim_tie", { tied: esc(tied.join(", ")), weight })
      : wordHtml("claim_broken", { top: esc(tied[0]), weight });
    const said = word("claim", { sentence: sentence(ctx), focus: data.lesson.focus, target });
    const claim = hasHeads() ? word("claim_head", { claim: said, head: headName(data.lesson.focus_head) }) : said;
    return `<li class="${holds ? "holds" : "broken"}" data-context="${esc(ctx)}" data-holds="${holds}">` +
      `${esc(claim)}: <strong>${verdict}</strong></li>`;
  }

  function claimsHtml() {
    const claims = Object.entries(data.claims).map(([ctx, target]) => claimHtml(ctx, target));
    return claims.length ? `<h2>${esc(word("claims"))}</h2><ul>${claims.join("")}</ul>` : "";
  }

  function tokensHtml() {
    const buttons = tokens().map((t, i) => `<button type="button" class="token" data-query="${i}" ` +
      `aria-pressed="${i === S.query}">${esc(t)}</button>`);
    return `<h2>${esc(word("tokens"))}</h2><div class="token-row">${buttons.join("")}</div>`;
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
      for (const { name, value } of b[i].attributes) {
        if (n.getAttribute(name) !== value) n.setAttribute(name, value);
      }
      sync(n, b[i]);
    });
  }

  /** Every computed box from one pass of attention (the frame's boxes are in the page). */
  function show(att) {
    const $ = AL.$;
    morph($("#tokens"), tokensHtml());
    morph($("#qkv"), qkvHtml(att));
    morph($("#scores"), scoresHtml(att));
    morph($("#plane"), AL.plane.planeHtml());
    morph($("#mix"), mixHtml(att));
    morph($("#masked"), maskedHtml(att));
    morph($("#matrix"), weightMatrixHtml(att));
    morph($("#lookup"), lookupHtml(att));
    morph($("#claims"), claimsHtml());
    $("#claims").classList.toggle("broken", $("#claims .broken") !== null);
    if ($("#whatif")) morph($("#whatif"), whatIfHtml()); // the explorer's mask switch (not the studio's)
    if (hasHeads()) morph($("#multihead"), AL.heads.togetherHtml());
  }

  /** What the mask switch changed: the lesson's own mask, or a what-if. */
  function whatIfHtml() {
    const own = data.lesson.mask || null;
    if (S.mask === own) return "";
    return esc(word(own ? "mask_off" : "mask_on"));
  }

  AL.views = { show, heat, morph, headRow, matrixHtml, queryRow };
})(window.AL);
