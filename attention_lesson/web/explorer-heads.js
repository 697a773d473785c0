/* The explorer's heads (a part of the explorer; see explorer.js), for a lesson of several heads ([heads]
 * and W_O, attention_core/heads.py): a tab per head, which picks the head every other view shows (its
 * W's, Q, K, V, scores, plane, weights and output); and the heads together, from core.attendHeads: the
 * query's weights in every head side by side, the heads' outputs laid side by side (concatenated), W_O
 * (in the studio: the explorer has it as number fields) and the multi-head output, concat · W_O.
 *
 * The tabs are ARIA tabs: a tablist of buttons, the one selected in the tab order (tabindex 0), ←/→,
 * Home and End between them, each controlling the one panel (#head-panel) the page redraws for it.
 */
(function (AL) {
  "use strict";

  const { esc } = AL;
  const { data, S, word, fmt, num, tokens, dimNames, lessonNow, headName } = AL.state;

  /** The tab's id of head `key` (its index: a key may hold any character). */
  const tabId = (key) => `head-tab-${data.lesson.heads.findIndex((h) => h.key === key)}`;

  /** One tab per head, in the file's order, the shown head selected. */
  function tabsHtml() {
    const tabs = data.lesson.heads.map((h) => {
      const on = h.key === S.head;
      return `<button type="button" role="tab" id="${tabId(h.key)}" data-head="${esc(h.key)}" ` +
        `aria-selected="${on}" aria-controls="head-panel" tabindex="${on ? 0 : -1}">` +
        `${esc(headName(h.key))}</button>`;
    });
    return `<div class="head-tabs" role="tablist" aria-label="${esc(word("heads_label"))}">${tabs.join("")}</div>`;
  }

  /** The head a key pressed on a tab moves to (←/→ round, Home, End), or null for any other key. */
  function keyTarget(e) {
    const keys = data.lesson.heads.map((h) => h.key);
    const at = keys.indexOf(e.target.dataset.head);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: keys.length - 1 }[e.key];
    return to === undefined ? null : keys[(to + keys.length) % keys.length];
  }

  const th = (text, attrs = 'scope="col"') => `<th ${attrs}>${esc(text)}</th>`;
  const queryRow = AL.views.queryRow;

  /** The query's weights in every head: rows = heads, columns = keys (a masked key struck out). */
  function weightsHtml(mh) {
    const toks = mh.heads[0].tokens;
    const i = S.query;
    const rows = mh.keys.map((key, h) => {
      const att = mh.heads[h];
      const cells = att.weights[i].map((x, j) => (att.mask && !att.mask[i][j]
        ? `<td class="masked" data-value="${x}">${fmt(x)}</td>`
        : `<td data-value="${x}" style="${AL.views.heat(x)}">${fmt(x)}</td>`));
      return `<tr data-head="${esc(key)}">${th(headName(key), 'scope="row"')}${cells.join("")}</tr>`;
    });
    return `<h3>${esc(word("head_weights", { token: toks[i] }))}</h3><div class="scroll">` +
      `<table class="heat head-weights">${AL.views.headRow(toks, ' class="role-k"')}${rows.join("")}` +
      "</table></div>";
  }

  /** The heads' outputs side by side: each head's columns under its name. */
  function concatHtml(mh) {
    const toks = mh.heads[0].tokens;
    const widths = mh.heads.map((p) => p.output[0].length);
    const groups = mh.keys.map((key, h) => th(headName(key), `scope="colgroup" colspan="${widths[h]}"`));
    const dims = widths.flatMap((n) => dimNames(n).map((d) => th(d)));
    const body = mh.concat.map((row, r) => `<tr${queryRow(r)}>${th(toks[r], 'scope="row"')}` +
      `${row.map((x) => `<td>${num(x)}</td>`).join("")}</tr>`).join("");
    const total = widths.reduce((a, b) => a + b, 0);
    return `<h3>${esc(word("concat", { n: total }))}</h3><div class="scroll"><table class="matrix" id="concat">` +
      `<tr><td></td>${groups.join("")}</tr><tr><td></td>${dims.join("")}</tr>${body}</table></div>`;
  }

  /** W_O's rows, each named by its head and its dimension there. */
  function woRowNames(mh) {
    return mh.keys.flatMap((key, h) => dimNames(mh.heads[h].output[0].length)
      .map((d) => word("w_o_row", { head: headName(key), i: d })));
  }

  /** W_O as numbers (the studio's: the explorer has its fields): rows = the heads' outputs. */
  function woHtml(mh) {
    const names = dimNames(mh.output[0].length);
    const rows = woRowNames(mh);
    const body = mh.w_o.map((row, r) => `<tr>${th(rows[r], 'scope="row"')}` +
      `${row.map((x) => `<td>${num(x)}</td>`).join("")}</tr>`).join("");
    return `<h3>${esc(word("w_o", { n: names.length }))}</h3><div class="scroll"><table class="matrix" id="w-o">` +
      `${AL.views.headRow(names)}${body}</table></div>`;
  }

  /** The multi-head output: concat · W_O, back in the embedding's dimensions. */
  function outputHtml(mh) {
    const toks = mh.heads[0].tokens;
    const names = dimNames(mh.output[0].length);
    const body = mh.output.map((row, r) => `<tr${queryRow(r)} data-row="${r}">${th(toks[r], 'scope="row"')}` +
      `${row.map((x) => `<td>${num(x, "num role-v")}</td>`).join("")}</tr>`).join("");
    return `<h3>${esc(word("mh_output"))}</h3><div class="scroll"><table class="matrix" id="mh-output">` +
      `${AL.views.headRow(names)}${body}</table></div>`;
  }

  /** The heads together: the query's weights per head, concat, W_O (when it has no fields), output. */
  function togetherHtml() {
    const mh = AL.state.core.attendHeads(lessonNow(), tokens(), S.mode);
    return `<h2>${esc(word("together"))}</h2>` + weightsHtml(mh) + concatHtml(mh) +
      (AL.state.editable ? "" : woHtml(mh)) + outputHtml(mh);
  }

  AL.heads = { tabsHtml, tabId, keyTarget, togetherHtml, woRowNames };
})(window.AL);
