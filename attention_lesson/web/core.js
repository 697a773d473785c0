/* The lesson's attention in the browser: attention_core's functions, mirrored for the explorer and the
 * studio. Python's attention_core stays the one source of truth; tests/test_web_core.py runs
 * this file in Debian's chromium on seeded random lessons and extreme scores and requires agreement
 * with it to 1e-12 (relative to the value's size, at least 1).
 *
 * Convention, as in the core: in every [n, n] matrix the rows are the querying tokens and the columns
 * the keys they look at. Matrices are arrays of rows (plain arrays of numbers).
 *
 * A classic script, not an ES module: Chromium refuses module scripts from file:// pages, and the
 * explorer must open from a folder. It defines one global, AttentionCore; core-next.js, loaded next,
 * adds the lessons the lesson points to (training, positions, tiles).
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

  /** [n, n] booleans: query i may look at key j when j <= i (attention.causal_mask). */
  const causalMask = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => j <= i));

  /** Q, K, V in, every intermediate out: scores, scaled (-Infinity where the mask [n_q, n_k] forbids:
   *  a masked weight is exactly 0, not small), weights (rows sum to 1), output. */
  function dotProductAttention(q, k, v, scale, mask = null) {
    const scores = matmul(q, transpose(k)); // [n_q, n_k]
    let scaled = scores.map((row) => row.map((s) => s * scale));
    if (mask) scaled = scaled.map((row, i) => row.map((s, j) => (mask[i][j] ? s : -Infinity)));
    const weights = scaled.map(softmax);
    return { scores, scaled, weights, output: matmul(weights, v) };
  }

  /** W_Q, W_K, W_V of a head (null: the lesson's own, with several heads the focus head's). */
  function projections(lesson, head = null) {
    if (head === null || head === undefined) return [lesson.w_q, lesson.w_k, lesson.w_v];
    const h = (lesson.heads || []).find((x) => x.key === head);
    if (!h) throw new Error(`no head ${JSON.stringify(head)} in this lesson`);
    return [h.w_q, h.w_k, h.w_v];
  }

  /** A list of a lesson's tokens through the projections and attention (attention.attend_tokens).
   *  lesson: {vocab: {token: [d_model numbers]}, w_q, w_k, w_v, mask?: "causal", heads?: [{key, w_q,
   *  w_k, w_v}]}; masked null: the lesson's mask, else true / false; head null: the lesson's (focus)
   *  projections, else that head's. The pass's mask: [n, n] booleans, or null. */
  function attendTokens(lesson, tokens, mode = "scaled", masked = null, head = null) {
    const x = tokens.map((t) => {
      if (!(t in lesson.vocab)) throw new Error(`unknown token ${JSON.stringify(t)}`);
      return lesson.vocab[t].slice();
    });
    const [wQ, wK, wV] = projections(lesson, head);
    const q = project(x, wQ);
    const k = project(x, wK);
    const v = project(x, wV);
    const on = masked === null || masked === undefined ? lesson.mask === "causal" : masked;
    const mask = on ? causalMask(tokens.length) : null;
    const r = dotProductAttention(q, k, v, scaleFor(mode, q[0].length), mask);
    return { mode, tokens: tokens.slice(), x, q, k, v, ...r, mask };
  }

  /** Every head of a lesson over a list of its tokens, their outputs side by side and W_O over them
   *  (multihead.attend_heads): {heads: [pass], keys, concat [n, Σ d_v], w_o, output [n, d_model]}. */
  function attendHeads(lesson, tokens, mode = "scaled", masked = null) {
    if (!lesson.heads || !lesson.heads.length) throw new Error("a lesson of one head has no W_O");
    const heads = lesson.heads.map((h) => attendTokens(lesson, tokens, mode, masked, h.key));
    const concat = tokens.map((_, i) => heads.flatMap((p) => p.output[i])); // [n, Σ d_v]
    return { heads, keys: lesson.heads.map((h) => h.key), concat, w_o: lesson.w_o,
      output: matmul(concat, lesson.w_o) };
  }

  /** numpy's argmax of a row: the first largest, or the first NaN when there is one (numpy takes NaN
   *  for the largest; scores past the largest double give inf - inf). */
  function argmax(row) {
    const nan = row.findIndex(Number.isNaN);
    return nan >= 0 ? nan : row.indexOf(Math.max(...row));
  }

  /** Argmax lookup: each query takes the value row of its best-scoring key (ties: the first), among
   *  the keys its mask lets it see. */
  function hardLookup(att) {
    const m = att.mask;
    const allowed = m ? att.scores.map((row, i) => row.map((s, j) => (m[i][j] ? s : -Infinity))) : att.scores;
    const choice = allowed.map(argmax);
    const weights = choice.map((c) => att.tokens.map((_, j) => (j === c ? 1 : 0)));
    return { choice, weights, output: choice.map((c) => att.v[c].slice()) };
  }

  // -- attention as geometry: attention_core/geometry.py, mirrored --------------------------------
  /* The focus's query, the keys and the values as arrows in two planes of two axes each (the Q/K plane:
   * two d_k axes; the V plane: two d_v axes). A key's shadow on the query's line is k·q/|q| long; that
   * times |q| is the plane's part of the score. The output is the value arrows, each scaled by its
   * weight, laid tip to tail. A plane is {axes: [a, b] (from 0, a < b), share: 0..1} (geometry.Plane);
   * the lesson here also has contexts ({name: [tokens]}), focus and geometry ({qk?, values?}: axes). */

  const norm = (x) => Math.sqrt(x[0] * x[0] + x[1] * x[1]); // [2] -> |x|
  /** [2] -> [2]: the arrow's direction; a zero arrow has none: itself. */
  const unit = (x) => (norm(x) > 0 ? x.map((a) => a / norm(x)) : x.slice());
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
  const pick = (row, axes) => axes.map((a) => row[a]); // [d] -> [2]

  /** [d] summed |terms| per axis -> the plane of the two largest (ties to the first axis), their share. */
  function bestAxes(terms) {
    const order = terms.map((_, a) => a).sort((a, b) => terms[b] - terms[a] || a - b);
    return givenPlane(terms, order.slice(0, 2).sort((a, b) => a - b));
  }

  /** [d] summed |terms|, two axes -> their plane, with the share of the terms it holds (1 when none). */
  function givenPlane(terms, axes) {
    const total = sum(terms);
    return { axes: axes.slice(), share: total > 0 ? (terms[axes[0]] + terms[axes[1]]) / total : 1 };
  }

  /** [n, d] -> [d]: each column's sum, row after row (numpy's sum over axis 0). */
  const columnSums = (rows) => rows.slice(1).reduce((s, row) => s.map((x, a) => x + row[a]), rows[0]);
  const plus = (acc, xs) => (acc ? acc.map((x, a) => x + xs[a]) : xs); // [d], [d] -> [d]

  /** -> [[d_k], [d_v]]: the focus's |q_a k_a| and |w_j v_ja| summed over keys, then over every context
   *  the focus is in. attend: (lesson, tokens, mode) -> a pass (attendTokens, or the studio's server's).
   *  @returns {[number[], number[]]} */
  function terms(lesson, mode = "scaled", focus = lesson.focus, attend = attendTokens) {
    let qk = null;
    let v = null;
    for (const tokens of Object.values(lesson.contexts)) {
      const i = tokens.indexOf(focus);
      if (i < 0) continue;
      const att = attend(lesson, tokens, mode);
      const byKey = att.k.map((k) => k.map((x, a) => Math.abs(att.q[i][a] * x))); // [n, d_k]
      const byValue = att.v.map((row, j) => row.map((x) => Math.abs(att.weights[i][j] * x))); // [n, d_v]
      qk = plus(qk, columnSums(byKey));
      v = plus(v, columnSums(byValue));
    }
    return [qk, v];
  }

  /** The Q/K plane and the V plane: the lesson's [geometry] axes, else the strongest two (chosen with
   *  the scaled weights, so that every normalizer is drawn in the same axes). -> [qk, v]
   *  @returns {[Plane, Plane]} */
  function planes(lesson, focus = lesson.focus, attend = attendTokens) {
    const [qkTerms, vTerms] = terms(lesson, "scaled", focus, attend);
    const chosen = lesson.geometry || {};
    return [chosen.qk ? givenPlane(qkTerms, chosen.qk) : bestAxes(qkTerms),
      chosen.values ? givenPlane(vTerms, chosen.values) : bestAxes(vTerms)];
  }

  /** The value arrows scaled by their weights (weighted), laid tip to tail: [n], [n, 2] -> {weighted,
   *  tails, tips}, each [n, 2]. */
  function tipToTail(weights, values) {
    const weighted = values.map((val, j) => [weights[j] * val[0], weights[j] * val[1]]);
    const tails = [];
    const tips = [];
    weighted.forEach((step, j) => {
      const tail = j ? tips[j - 1] : [0, 0];
      tails.push(tail);
      tips.push([tail[0] + step[0], tail[1] + step[1]]);
    });
    return { weighted, tails, tips };
  }

  /** One context's query (index `at`, the focus by default) as arrows on the lesson's planes (or the
   *  ones given): geometry.Picture's fields and its properties (feet, tips, weighted: tip minus tail,
   *  query_length: |query|, a shadow times it is the plane's score). */
  function picture(lesson, context, mode = "scaled", plane = null, at = null, attend = attendTokens) {
    const tokens = lesson.contexts[context];
    const i = at === null ? tokens.indexOf(lesson.focus) : at;
    const [qk, vp] = plane || planes(lesson, tokens[i], attend);
    const att = attend(lesson, tokens, mode);
    const query = pick(att.q[i], qk.axes); // [2]
    const keys = att.k.map((k) => pick(k, qk.axes)); // [n, 2]
    const u = unit(query);
    const reach = keys.map((k) => dot(k, u)); // [n]
    const values = att.v.map((v) => pick(v, vp.axes)); // [n, 2]
    const weights = att.weights[i].slice(); // [n]
    const { weighted, tails, tips } = tipToTail(weights, values);
    return { tokens: att.tokens.slice(), focus: i, qk, v: vp, query, keys, reach,
      shown: reach.map((r) => r * norm(query)), scores: att.scores[i].slice(), weights, values,
      tails, output: tips[tips.length - 1].slice(), output_full: att.output[i].slice(),
      feet: reach.map((r) => [r * u[0], r * u[1]]), tips, weighted, query_length: norm(query) };
  }

  const JSON_FIELDS = ["tokens", "focus", "query", "keys", "reach", "shown", "scores", "weights", "values",
    "tails", "output", "output_full", "feet", "tips"];

  /** A picture as geometry.picture_json writes it: plain lists, the planes' axes and shares apart. */
  function pictureJson(p) {
    return { ...Object.fromEntries(JSON_FIELDS.map((f) => [f, p[f]])), qk_axes: p.qk.axes,
      qk_share: p.qk.share, v_axes: p.v.axes, v_share: p.v.share };
  }

  const base = /** @satisfies {AttentionCoreBase} */ ({ MODES, sum, softmax, matmul, transpose, project,
    scaleFor, causalMask, dotProductAttention, projections, attendTokens, attendHeads, argmax, hardLookup,
    norm, unit, bestAxes, givenPlane, terms, planes, picture, pictureJson });
  // core-next.js adds the next lessons' part (until it runs, the Api is this much)
  root.AttentionCore = /** @type {AttentionCoreApi} */ (/** @type {unknown} */ (base));
})(typeof globalThis !== "undefined" ? globalThis : this);
