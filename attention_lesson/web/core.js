/* The lesson's attention in the browser: attention_core's functions, mirrored for the explorer and the
 * studio. Python's attention_core stays the one source of truth; tests/test_web_core.py runs
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


  // -- the lessons the lesson points to: attention_core/next/, mirrored -----------------------------
  /* Each answers as the core's *_json writes it (numbers --json's training, positions and tiles), so
   * the studio's server can answer the same calls from its numbers (studio-numbers.js). */

  const outer = (a, b) => a.map((x) => b.map((y) => x * y)); // [n], [m] -> [n, m]
  const minus = (a, b, rate) => a.map((row, r) => row.map((x, c) => x - rate * b[r][c]));

  /** training.step_at: the loss -log w(query -> target) at W_Q, W_K, its gradients, the query's weights
   *  and the angle (degrees) between the query's vector and the target's key. seen: [n] booleans. */
  function trainingStep(x, query, target, wQ, wK, scale, seen) {
    const q = matmul([x[query]], wQ)[0];
    const k = matmul(x, wK);
    const s = k.map((row, j) => (seen[j] ? scale * row.reduce((acc, kj, a) => acc + kj * q[a], 0) : -Infinity));
    const top = Math.max(...s);
    const loss = top + Math.log(sum(s.map((v) => Math.exp(v - top)))) - s[target];
    const weights = softmax(s);
    const g = weights.slice();
    g[target] -= 1; // dloss/ds; 0 where hidden (weight 0)
    const dq = q.map((_, a) => scale * g.reduce((acc, gj, j) => acc + gj * k[j][a], 0));
    const dk = outer(g, q).map((row) => row.map((v) => scale * v));
    const len = (v) => Math.sqrt(v.reduce((acc, a) => acc + a * a, 0));
    const cos = q.reduce((acc, a, i) => acc + a * k[target][i], 0) / (len(q) * len(k[target]) || 1);
    const angle = (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
    return { loss, w_q: wQ, w_k: wK, grad_w_q: outer(x[query], dq), grad_w_k: matmul(transpose(x), dk), q,
      weights, angle };
  }

  /** training.hard_step: the argmax lookup's choice, and how the target's hard weight moves when each
   *  score is nudged by 1e-6 (exactly 0 away from a tie) against the softmax's slopes. */
  function hardStep(s, target, weights) {
    const hardTarget = (scores) => (argmax(scores) === target ? 1 : 0);
    const base = hardTarget(s);
    const slopes = s.map((_, j) => (hardTarget(s.map((v, i) => (i === j ? v + 1e-6 : v))) - base) / 1e-6);
    const soft = weights.map((w, j) => weights[target] * ((j === target ? 1 : 0) - w));
    return { choice: argmax(s), target_weight: base, slopes, soft_slopes: soft };
  }

  /** training.train + training_json: the lesson's [training] ({query, target, learning_rate, steps}) on
   *  a list of its tokens, through the focus head, its scores times the mode's scale; masked null: the
   *  lesson's mask. -> {query, target, query_index, target_index, learning_rate, scale, steps, hard}. */
  const FLAT = 0.05;  // claims.FLAT: a loss within this share of its first value has barely moved

  /** claims.descent: how a descent went, from its losses: "falls", "uneven", "rises" or "flat". */
  function descent(losses) {
    const [first, last] = [losses[0], losses[losses.length - 1]];
    if (last < (1 - FLAT) * first) return losses.every((x, i) => i === 0 || x <= losses[i - 1]) ? "falls" : "uneven";
    return last > (1 + FLAT) * first + 1e-9 ? "rises" : "flat";
  }

  function train(lesson, tokens, mode = "scaled", masked = null) {
    const plan = lesson.training;
    if (!plan) throw new Error("this lesson has no [training] table");
    const x = tokens.map((t) => lesson.vocab[t].slice());
    let [wQ, wK] = projections(lesson);
    const query = tokens.indexOf(plan.query);
    const target = tokens.indexOf(plan.target);
    const scale = scaleFor(mode, wQ[0].length);
    const on = masked === null || masked === undefined ? lesson.mask === "causal" : masked;
    const seen = tokens.map((_, j) => !on || j <= query);
    const steps = [];
    for (let n = 0; n <= plan.steps; n++) {
      const step = trainingStep(x, query, target, wQ, wK, scale, seen);
      steps.push(step);
      [wQ, wK] = [minus(wQ, step.grad_w_q, plan.learning_rate), minus(wK, step.grad_w_k, plan.learning_rate)];
    }
    const first = steps[0];
    const s = matmul(x, first.w_k).map((row, j) =>
      (seen[j] ? scale * row.reduce((acc, kj, a) => acc + kj * first.q[a], 0) : -Infinity));
    const zeros = first.w_q.map((row) => row.map(() => 0));
    return { query: tokens[query], target: tokens[target], query_index: query, target_index: target,
      learning_rate: plan.learning_rate, scale, steps, descent: descent(steps.map((s) => s.loss)),
      hard: { ...hardStep(s, target, first.weights), grad_w_q: zeros, grad_w_k: zeros } };
  }

  /** positions.sinusoidal: [n, d], PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(...). */
  function sinusoidal(n, d, base, start = 0) {
    return Array.from({ length: n }, (_, r) => Array.from({ length: d }, (__, c) => {
      const angle = (start + r) / base ** ((c - (c % 2)) / d);
      return c % 2 ? Math.cos(angle) : Math.sin(angle);
    }));
  }

  /** positions.rope_angles: [n, d_k / 2], p · base^(-2i/d_k). */
  const ropeAngles = (n, dK, base, start = 0) => Array.from({ length: n }, (_, r) =>
    Array.from({ length: Math.ceil(dK / 2) }, (__, i) => (start + r) * base ** -((2 * i) / dK)));

  /** positions.rotate: each row's pairs (2i, 2i+1) turned by its angles. */
  const rotate = (m, angles) => m.map((row, r) => row.map((v, c) => {
    const a = angles[r][c >> 1];
    return c % 2 ? row[c - 1] * Math.sin(a) + v * Math.cos(a) : v * Math.cos(a) - row[c + 1] * Math.sin(a);
  }));

  /** positions.attend_positioned: attendTokens with the lesson's positions ({kind, base}) from
   *  `start`: PE added to X, or Q and K turned. */
  function attendPositioned(lesson, tokens, mode = "scaled", start = 0, masked = null) {
    const pos = lesson.positions;
    const [wQ, wK, wV] = projections(lesson);
    let x = tokens.map((t) => lesson.vocab[t].slice());
    if (pos.kind === "sinusoidal") {
      const pe = sinusoidal(tokens.length, x[0].length, pos.base, start);
      x = x.map((row, r) => row.map((v, c) => v + pe[r][c]));
    }
    let q = project(x, wQ);
    let k = project(x, wK);
    if (pos.kind === "rope") {
      const angles = ropeAngles(tokens.length, q[0].length, pos.base, start);
      [q, k] = [rotate(q, angles), rotate(k, angles)];
    }
    const v = project(x, wV);
    const on = masked === null || masked === undefined ? lesson.mask === "causal" : masked;
    const mask = on ? causalMask(tokens.length) : null;
    return { mode, tokens: tokens.slice(), x, q, k, v, ...dotProductAttention(q, k, v, scaleFor(mode, q[0].length), mask), mask };
  }

  /** The largest |a - b| of two matrices. */
  const gap = (a, b) => Math.max(0, ...a.flatMap((row, r) => row.map((v, c) => Math.abs(v - b[r][c]))));

  /** positions.study + positions_json: the tokens, then reversed, without positions and with them; and
   *  every position shifted by 3; the three gaps. */
  function positionsStudy(lesson, tokens, mode = "scaled", masked = null) {
    const pos = lesson.positions;
    const order = tokens.map((_, i) => tokens.length - 1 - i);
    const shuffled = order.map((i) => tokens[i]);
    const plain = { ...lesson, positions: null };
    const passes = { without: attendTokens(plain, tokens, mode, masked),
      without_shuffled: attendTokens(plain, shuffled, mode, masked),
      with: attendPositioned(lesson, tokens, mode, 0, masked),
      with_shuffled: attendPositioned(lesson, shuffled, mode, 0, masked),
      shifted: attendPositioned(lesson, tokens, mode, 3, masked) };
    const fields = (p) => ({ tokens: p.tokens, x: p.x, q: p.q, k: p.k, scores: p.scores, weights: p.weights,
      output: p.output });
    const n = tokens.length;
    const extra = pos.kind === "sinusoidal" ? { pe: sinusoidal(n, passes.without.x[0].length, pos.base) }
      : { angles: ropeAngles(n, passes.without.q[0].length, pos.base) };
    const reorder = (m) => order.map((i) => m[i]);
    return { kind: pos.kind, base: pos.base, ...extra, order,
      ...Object.fromEntries(Object.entries(passes).map(([name, p]) => [name, fields(p)])), shift: 3,
      without_gap: gap(passes.without_shuffled.output, reorder(passes.without.output)),
      with_gap: gap(passes.with_shuffled.output, reorder(passes.with.output)),
      shift_gap: gap(passes.shifted.scores, passes.with.scores) };
  }

  /** tiling.online_softmax + tiles_json: scaled [n_q, n_k] (-Infinity where masked), v [n_k, d_v],
   *  block keys at a time: m, l, o and α after each block (m -Infinity where nothing is seen yet). */
  function onlineSoftmax(scaled, v, block) {
    const nK = scaled[0].length;
    let m = scaled.map(() => -Infinity);
    let l = scaled.map(() => 0);
    let o = scaled.map(() => v[0].map(() => 0));
    const out = { block, spans: [], m: [], l: [], o: [], alpha: [] };
    for (let lo = 0; lo < nK; lo += block) {
      const hi = Math.min(lo + block, nK);
      const mNew = scaled.map((row, i) => Math.max(m[i], ...row.slice(lo, hi)));
      const alpha = m.map((mi, i) => (Number.isFinite(mi) ? Math.exp(mi - mNew[i]) : 0));
      const p = scaled.map((row, i) => row.slice(lo, hi).map((s) => (Number.isFinite(mNew[i]) ? Math.exp(s - mNew[i]) : 0)));
      const pv = matmul(p, v.slice(lo, hi));
      l = l.map((li, i) => alpha[i] * li + sum(p[i]));
      o = o.map((row, i) => row.map((x, c) => alpha[i] * x + pv[i][c]));
      m = mNew;
      out.spans.push([lo, hi]);
      out.m.push(m);
      out.l.push(l);
      out.o.push(o);
      out.alpha.push(alpha);
    }
    const n = scaled.length;
    return { ...out, output: o.map((row, i) => row.map((x) => x / l[i])),
      memory: { tiled: n * Math.min(block, n), full: n * n } };
  }

  /** The lesson's [tiling] ({block}) over one pass of attention (tiling.tile + tiles_json). */
  function tiles(lesson, tokens, mode = "scaled", masked = null) {
    const att = attendTokens(lesson, tokens, mode, masked);
    const t = onlineSoftmax(att.scaled, att.v, lesson.tiling.block);
    return { ...t, full_output: att.output, gap: gap(t.output, att.output) };
  }

  root.AttentionCore = { MODES, sum, softmax, matmul, project, scaleFor, causalMask, dotProductAttention,
    projections, attendTokens, attendHeads, argmax, hardLookup, norm, unit, bestAxes, givenPlane, terms, planes, picture, pictureJson,
    train, descent, sinusoidal, ropeAngles, rotate, attendPositioned, positionsStudy, onlineSoftmax, tiles };
})(typeof globalThis !== "undefined" ? globalThis : this);
