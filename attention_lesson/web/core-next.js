/* The lessons the lesson points to in the browser: attention_core/next/ mirrored (training, positions,
 * tiles), added to core.js's AttentionCore (loaded before it: outputs/files.py's EXPLORER_SCRIPTS). Each
 * answers as the core's *_json writes it (numbers --json's training, positions and tiles), so the
 * studio's server can answer the same calls from its numbers (studio-numbers.js); tests/test_web_core_next.py
 * holds them to attention_core/next/ in Debian's chromium. A classic script, as core.js is.
 */
(function (root) {
  "use strict";

  const C = root.AttentionCore;
  if (!C) throw new Error("core-next.js needs core.js, loaded before it");
  const { sum, softmax, matmul, transpose, project, projections, scaleFor, causalMask, dotProductAttention,
    argmax, attendTokens } = C;

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

  Object.assign(C, /** @satisfies {AttentionCoreNext} */ ({ train, descent, sinusoidal, ropeAngles, rotate,
    attendPositioned, positionsStudy, onlineSoftmax, tiles }));
})(typeof globalThis !== "undefined" ? globalThis : this);
