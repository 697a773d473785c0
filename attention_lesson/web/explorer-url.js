/* The explorer's state in the URL's hash (a part of the explorer; see explorer.js):
 *   #lang=..&context=..&query=..&mode=..&mask=causal|none&x.<token>=a,b&w_q=a,b;c,d
 * and, for a lesson of several heads, head=<key> (the head shown), h.<key>.w_q=a,b;c,d and w_o=...,
 * for a lesson with [training], step=<n> (the training step the slider shows, once it was moved),
 * for a lesson with [real], real=<layer>.<head>.<query> (the real box's choice, once it was made),
 * so a link or a reload gives the same page. Only the numbers that differ from the lesson's are written;
 * what does not fit the lesson is ignored, and said so on the page (readHash's lines).
 */
(function (AL) {
  "use strict";

  const { MATRICES, data, S, same, word, tokens, focusIndex, hasHeads } = AL.state;
  const MASKS = ["causal", "none"];

  const rowText = (row) => row.map(String).join(",");
  const matrixText = (m) => m.map(rowText).join(";");

  /** The query as the hash names it: its token, or token:n for the n-th of a repeated token. */
  function queryName() {
    const toks = tokens();
    const t = toks[S.query];
    const nth = toks.slice(0, S.query + 1).filter((x) => x === t).length;
    return toks.indexOf(t) === S.query ? t : `${t}:${nth}`;
  }

  /** Every matrix the page edits besides X: [the hash's key, S's matrix, the lesson's] (one head:
   *  w_q, w_k, w_v; several: each head's as h.<key>.w_q, ..., and w_o). */
  function matrices() {
    if (!hasHeads()) return MATRICES.map((m) => [m, S[m], data.lesson[m]]);
    const out = data.lesson.heads.flatMap((h) => MATRICES.map((m) => [`h.${h.key}.${m}`, S.heads[h.key][m],
      h[m]]));
    return [...out, ["w_o", S.w_o, data.lesson.w_o]];
  }

  function hashOf() {
    const p = new URLSearchParams({ lang: S.lang, context: S.context, query: queryName(), mode: S.mode,
      mask: S.mask || "none" });
    if (hasHeads()) p.set("head", S.head);
    if (data.lesson.training && S.step !== null && S.step !== undefined) p.set("step", String(S.step));
    const real = AL.real.hashValue();
    if (real !== null) p.set("real", real);
    for (const [t, row] of Object.entries(S.vocab)) {
      if (!same(row, data.lesson.vocab[t])) p.set(`x.${t}`, rowText(row));
    }
    for (const [key, now, was] of matrices()) if (!same(now, was)) p.set(key, matrixText(now));
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

  /** The index a hash's query names in toks (see queryName), or -1. */
  function findQuery(value, toks) {
    if (toks.includes(value)) return toks.indexOf(value);
    const m = /^(.*):(\d+)$/.exec(value);
    if (!m) return -1;
    const at = toks.map((t, i) => (t === m[1] ? i : -1)).filter((i) => i >= 0);
    return at[Number(m[2]) - 1] ?? -1;
  }

  /** The state a hash describes on top of the lesson's (S already holds that); what did not fit, as
   *  lines for the note. */
  function readHash(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ""));
    const bad = [];
    const take = (key, ok, apply, fields = {}) => {
      if (!p.has(key)) return;
      if (ok(p.get(key))) apply(p.get(key));
      else bad.push(word(`bad_${key}`, { value: p.get(key), ...fields }));
    };
    take("lang", (v) => v in data.words, (v) => (S.lang = v));
    take("context", (v) => v in data.lesson.contexts, (v) => (S.context = v));
    S.query = focusIndex();
    take("mode", (v) => AL.MODES.includes(v), (v) => (S.mode = v));
    take("query", (v) => findQuery(v, tokens()) >= 0, (v) => (S.query = findQuery(v, tokens())));
    take("mask", (v) => MASKS.includes(v), (v) => (S.mask = v === "none" ? null : v));
    const heads = (data.lesson.heads || []).map((h) => h.key);
    take("head", (v) => heads.includes(v), (v) => (S.head = v));
    const known = ["lang", "context", "mode", "query", "mask", "head"];
    if (data.lesson.training) { // the training step shown: 0 to the run's steps (else an unknown key)
      const steps = data.lesson.training.steps;
      take("step", (v) => /^\d+$/.test(v) && Number(v) <= steps, (v) => (S.step = Number(v)), { steps });
      known.push("step");
    }
    if (AL.real.drawn()) { // the real box's layer, head and query (else an unknown key)
      take("real", (v) => AL.real.readHashValue(v), () => {}, AL.real.hashRanges());
      known.push("real");
    }
    for (const [key, value] of p.entries()) {
      if (known.includes(key)) continue;
      const problem = key.startsWith("x.") ? readRow(key, value) : readMatrix(key, value);
      if (problem) bad.push(problem);
    }
    return bad;
  }

  /** An x.<token> entry of the hash into S.vocab; a line for the note if it does not fit. */
  function readRow(key, value) {
    const token = key.slice(2);
    if (!(token in data.lesson.vocab)) return word("bad_token", { key, token });
    const n = data.lesson.vocab[token].length;
    const row = parseRow(value, n);
    if (row === null) return word("bad_row", { key, expected: n, value });
    S.vocab[token] = row;
    return null;
  }

  /** A matrix entry of the hash (matrices()'s keys) into S; a line for the note if it does not fit. */
  function readMatrix(key, value) {
    const i = matrices().findIndex(([k]) => k === key);
    if (i < 0) return word("bad_key", { key });
    const [, now, was] = matrices()[i];
    const [rows, cols] = [was.length, was[0].length];
    const m = parseMatrix(value, rows, cols);
    if (m === null) return word("bad_matrix", { key, rows, cols, value });
    now.splice(0, rows, ...m); // S's matrix itself, which the views and the inputs read
    return null;
  }

  let timer = null;
  let lastWrite = -Infinity;

  /** The URL follows the state: at once, unless it was written less than 250 ms ago, then 250 ms after
   *  that write (Chromium ignores replaceState called more than 200 times in 10 s, as a dragged
   *  slider would). */
  function writeHash() {
    if (timer !== null) return; // the write already waiting takes the state as it is then
    const write = () => {
      timer = null;
      lastWrite = performance.now();
      history.replaceState(null, "", `#${hashOf()}`);
    };
    const wait = lastWrite + 250 - performance.now();
    if (wait <= 0) write();
    else timer = setTimeout(write, wait);
  }

  /** True once the URL holds the page's state (no write is waiting). */
  const settled = () => timer === null;

  AL.url = { hashOf, readHash, writeHash, settled };
})(window.AL);
