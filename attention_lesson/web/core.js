/* The lesson's attention in the browser: attention_core's functions, mirrored for the explorer and the
 * studio (issue 19). Python's attention_core stays the one source of truth; tests/test_web_core.py runs
 * this file in Debian's chromium on seeded random lessons and extreme scores and requires agreement
 * with it to 1e-12 (relative to the value's size, at least 1).
 *
 * Convention, as in the core: in every [n, n] matrix the rows are the querying tokens and the columns
 * the keys they look at. Matrices are arrays of rows (plain arrays of numbers).
 *
 * A classic script, not an ES module: Chromium refuses module scripts from file:// pages, and the
 * explorer must open from a folder. It defines one global, AttentionCore.
 */
(function (root) {
  "use strict";

  const MODES = ["scaled", "unscaled", "uniform"];

  /** numpy's sum of a row (pairwise_sum): one by one below 8, else 8 running sums combined in pairs. */
  function sum(xs) {
    const n = xs.length;
    if (n < 8) {
      let s = 0;
      for (let i = 0; i < n; i++) s += xs[i];
      return s;
    }
    const r = xs.slice(0, 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += xs[i + j];
    let s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) s += xs[i];
    return s;
  }

  /** softmax of one row, the maximum subtracted first: exp() stays finite for any score. */
  function softmax(row) {
    const top = Math.max(...row);
    const e = row.map((x) => Math.exp(x - top));
    const total = sum(e);
    return e.map((x) => x / total);
  }

  /** a @ b: [n, m] x [m, p] -> [n, p]. */
  function matmul(a, b) {
    const p = b[0].length;
    return a.map((row) => {
      const out = new Array(p).fill(0);
      for (let k = 0; k < row.length; k++) for (let j = 0; j < p; j++) out[j] += row[k] * b[k][j];
      return out;
    });
  }

  const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));
  const project = (x, w) => matmul(x, w); // [n, d_model], [d_model, d] -> [n, d]

  /** The factor the raw scores are multiplied by before the softmax. */
  function scaleFor(mode, dK) {
    if (mode === "scaled") return 1 / Math.sqrt(dK);
    if (mode === "unscaled") return 1;
    if (mode === "uniform") return 0; // every logit 0: the softmax of a constant row is 1/n
    throw new Error(`mode must be one of ${MODES.join(", ")}, not ${JSON.stringify(mode)}`);
  }

  /** Q, K, V in, every intermediate out: scores, scaled, weights (rows sum to 1), output. */
  function dotProductAttention(q, k, v, scale) {
    const scores = matmul(q, transpose(k)); // [n_q, n_k]
    const scaled = scores.map((row) => row.map((s) => s * scale));
    const weights = scaled.map(softmax);
    return { scores, scaled, weights, output: matmul(weights, v) };
  }

  /** A list of a lesson's tokens through the projections and attention. lesson: {vocab: {token:
   *  [d_model numbers]}, w_q, w_k, w_v}. */
  function attendTokens(lesson, tokens, mode = "scaled") {
    const x = tokens.map((t) => {
      if (!(t in lesson.vocab)) throw new Error(`unknown token ${JSON.stringify(t)}`);
      return lesson.vocab[t].slice();
    });
    const q = project(x, lesson.w_q);
    const k = project(x, lesson.w_k);
    const v = project(x, lesson.w_v);
    const r = dotProductAttention(q, k, v, scaleFor(mode, q[0].length));
    return { mode, tokens: tokens.slice(), x, q, k, v, ...r };
  }

  /** Argmax lookup: each query takes the value row of its best-scoring key (ties: the first). */
  function hardLookup(att) {
    const choice = att.scores.map((row) => row.indexOf(Math.max(...row)));
    const weights = choice.map((c) => att.tokens.map((_, j) => (j === c ? 1 : 0)));
    return { choice, weights, output: choice.map((c) => att.v[c].slice()) };
  }

  root.AttentionCore = { MODES, sum, softmax, matmul, project, scaleFor, dotProductAttention,
    attendTokens, hardLookup };
})(typeof globalThis !== "undefined" ? globalThis : this);
