/* The explorer's views of the lessons the lesson points to (a part of the explorer; see explorer.js), each
 * shown only for a lesson with its table, from core.js's train, positionsStudy and tiles (the studio: its
 * server's numbers) on the page's numbers, so an edit recomputes them:
 *   learning ([training]): the loss and the target's weight at every step of gradient descent on W_Q
 *     and W_K, a step slider over the query's weights, W_Q, W_K and their gradients at that step, and
 *     the hard argmax lookup beside it: its slopes are exactly zero, so nothing moves;
 *   positions ([positions]): the sentence and its reversal, the output rows without positions (each
 *     token's row follows it: equivariance) and with them (broken), the positions' table, the query's
 *     weights without and with; RoPE: every position shifted by 3, the same scores;
 *   tiles ([tiling]): the keys in blocks, m, α, l and o after each block for the query, o / l beside
 *     the full softmax's output, and the memory: n × block scores at once against n × n.
 * Every number carries its full value in data-value (explorer-views.js's rule).
 */
(function (AL) {
  "use strict";

  const { esc } = AL;
  const { data, S, word, wordHtml, fmt, num, tokens, dimNames, lessonNow } = AL.state;
  const { headRow, matrixHtml } = AL.views;

  const th = (text, attrs = 'scope="col"') => `<th ${attrs}>${esc(text)}</th>`;
  const vec = (xs, cls = "num") => `[${xs.map((x) => num(x, cls)).join(", ")}]`;
  const bar = (x, cls = "bar") => `<span class="${cls}" style="width:${(3 * Math.max(0, x)).toFixed(2)}em"></span>`;
  const modelNames = (d) => dimNames(d);
  /** A matrix with no query row marked (its rows are not the context's tokens). */
  const plainMatrix = (caption, rows, cols, m, cls) => `<h3 class="${cls}">${esc(caption)}</h3><div class="scroll">` +
    `<table class="matrix ${cls}">${headRow(cols)}${m.map((row, r) => `<tr>${th(rows[r], 'scope="row"')}` +
      `${row.map((x) => `<td>${num(x)}</td>`).join("")}</tr>`).join("")}</table></div>`;
  const kNames = (d) => Array.from({ length: d }, (_, j) => word("common_d_k_column", { i: j + 1 }));

  // -- learning ---------------------------------------------------------------------------------------
  /** The step shown: the page's choice, within the run (the last step at first). */
  const stepOf = (run) => Math.min(S.step === null || S.step === undefined ? run.steps.length - 1 : S.step,
    run.steps.length - 1);

  /** Every step's loss and the target's weight, bars beside them; the step shown marked. */
  function lossTableHtml(run, shown) {
    const top = Math.max(...run.steps.map((s) => s.loss)) || 1; // the largest loss: a bar of 6em
    const rows = run.steps.map((s, n) => `<tr data-step="${n}"${n === shown ? ' class="query"' : ""}>` +
      `${th(`${n}`, 'scope="row"')}<td class="bar-cell">${bar((2 * s.loss) / top)}${num(s.loss, "num loss")}</td>` +
      `<td class="bar-cell">${bar(s.weights[run.target_index])}${num(s.weights[run.target_index], "num target")}` +
      `</td><td>${num(s.angle, "num angle")}°</td></tr>`);
    const head = `<tr>${th(word("learn_step"))}${th(word("learn_loss"))}` +
      `${th(word("learn_target_weight", { target: run.target }))}${th(word("learn_angle"))}</tr>`;
    return `<h3>${esc(word("learn_steps"))}</h3><div class="scroll"><table class="scores learn-steps">` +
      `${head}${rows.join("")}</table></div>`;
  }

  /** The step slider, and at that step the query's weights, W_Q, W_K and their gradients. */
  function stepHtml(run, shown, toks) {
    const s = run.steps[shown];
    const slider = `<label class="slider step-slider"><span>${esc(word("learn_slider", { n: shown,
      total: run.steps.length - 1 }))}</span><input type="range" id="train-step" min="0" ` +
      `max="${run.steps.length - 1}" step="1" value="${shown}"></label>`;
    const pairs = toks.map((t, j) => `<span class="pair">${esc(t)} ${num(s.weights[j], "num step-weight")}</span>`);
    const dm = modelNames(s.w_q.length);
    const dk = kNames(s.w_q[0].length);
    return `${slider}<p class="weights" id="step-weights">${esc(word("learn_weights", { token: run.query }))}: ` +
      `${pairs.join(" ")}</p><div class="pairs learn-matrices">` +
      [["W_Q", s.w_q, "role-q"], ["W_K", s.w_k, "role-k"], ["∂loss/∂W_Q", s.grad_w_q, "role-q"],
        ["∂loss/∂W_K", s.grad_w_k, "role-k"]].map(([name, m, cls]) =>
        `<div>${plainMatrix(word("learn_matrix", { name, n: shown }), dm, dk, m, cls)}</div>`).join("") + "</div>";
  }

  /** The hard argmax lookup at the first step: its choice, and the target's weight's slopes. */
  function hardHtml(run, toks) {
    const h = run.hard;
    const rows = toks.map((t, j) => `<tr>${th(t, 'scope="row" class="role-k"')}` +
      `<td>${num(h.soft_slopes[j], "num soft-slope")}</td><td>${num(h.slopes[j], "num hard-slope")}</td></tr>`);
    const head = `<tr>${th(word("common_key"))}${th(word("learn_soft_slope"))}${th(word("learn_hard_slope"))}</tr>`;
    return `<h3>${esc(word("learn_hard", { choice: toks[h.choice] }))}</h3>` +
      `<p class="hint">${esc(word("learn_hard_explain", { target: run.target, weight: h.target_weight }))}</p>` +
      `<div class="scroll"><table class="matrix learn-slopes">${head}${rows.join("")}</table></div>`;
  }

  function learningHtml() {
    const lesson = lessonNow();
    const toks = tokens();
    const plan = lesson.training;
    const title = `<h2>${esc(word("learn_title", { query: plan.query, target: plan.target }))}</h2>` +
      `<p class="hint">${esc(word("learn_explain", { ...plan, rate: plan.learning_rate }))}</p>`;
    if (lesson.mask === "causal" && toks.indexOf(plan.target) > toks.indexOf(plan.query)) {
      return `${title}<p class="hint learn-hidden">${esc(word("learn_hidden", plan))}</p>`;
    }
    const run = AL.state.core.train(lesson, toks, S.mode);
    const shown = stepOf(run);
    const first = run.steps[0];
    const last = run.steps[run.steps.length - 1];
    const story = wordHtml(run.descent === "falls" ? "learn_story" : `learn_story_${run.descent}`, { before: num(first.loss), after: num(last.loss), target: esc(run.target),
      w0: num(first.weights[run.target_index]), w1: num(last.weights[run.target_index]) });
    return `${title}<p class="learn-story">${story}</p><div class="pairs learn-grid"><div>${lossTableHtml(run, shown)}` +
      `</div><div>${stepHtml(run, shown, toks)}</div></div>${hardHtml(run, toks)}`;
  }

  // -- positions --------------------------------------------------------------------------------------
  /** Each token's output row in the sentence and in its reversal, side by side, and the gap. */
  function followHtml(st, name, gap, id) {
    const n = st.order.length;
    const here = st[name];
    const there = st[`${name}_shuffled`];
    const rows = here.tokens.map((t, p) => `<tr${p === S.query ? ' class="query"' : ""}>${th(`${p}: ${t}`, 'scope="row"')}` +
      `<td>${vec(here.output[p], "num role-v")}</td><td>${vec(there.output[n - 1 - p], "num role-v")}</td></tr>`);
    const head = `<tr>${th(word("pos_token"))}${th(word("pos_sentence"))}${th(word("pos_reversed"))}</tr>`;
    const holds = gap < 1e-9;
    return `<h3>${esc(word(`pos_${name}`))}</h3><div class="scroll"><table class="scores pos-follow" id="${id}">` +
      `${head}${rows.join("")}</table></div><p class="${holds ? "holds" : "broken"}" data-holds="${holds}">` +
      `${wordHtml(holds ? "pos_follow" : "pos_broken", { gap: num(gap, "num gap") })}</p>`;
  }

  /** The positions' table: PE rows (sinusoidal) or RoPE's angles, one row per position. */
  function tableHtml(st) {
    const toks = st.with.tokens;
    const rows = toks.map((t, p) => `${p}: ${t}`);
    if (st.kind === "sinusoidal") {
      return matrixHtml(word("pos_pe", { base: String(st.base) }), rows, modelNames(st.pe[0].length), st.pe, "pos-table");
    }
    const pairs = st.angles[0].map((_, i) => word("pos_pair", { a: 2 * i + 1, b: 2 * i + 2 }));
    return matrixHtml(word("pos_angles", { base: String(st.base) }), rows, pairs, st.angles, "pos-table");
  }

  /** The query's weights without positions and with them. */
  function weightsHtml(st) {
    const i = S.query;
    const row = (name, w) => `<tr>${th(word(name), 'scope="row"')}${w[i].map((x) => `<td>${num(x)}</td>`).join("")}</tr>`;
    return `<h3>${esc(word("pos_weights", { token: st.with.tokens[i] }))}</h3><div class="scroll">` +
      `<table class="matrix pos-weights">${headRow(st.with.tokens, ' class="role-k"')}` +
      `${row("pos_without_short", st.without.weights)}${row("pos_with_short", st.with.weights)}</table></div>`;
  }

  /** RoPE: the scores with positions from 0 and from 3: the same, a score sees only the distance. */
  function shiftHtml(st) {
    if (st.kind !== "rope") return "";
    const toks = st.with.tokens;
    const m = st.with.scores.map((row, r) => [...row, ...st.shifted.scores[r]]);
    const cols = [...toks.map((t) => `${t} (0…)`), ...toks.map((t) => `${t} (${st.shift}…)`)];
    const holds = st.shift_gap < 1e-9;
    return matrixHtml(word("pos_shift", { shift: st.shift }), toks, cols, m, "pos-shift") +
      `<p class="${holds ? "holds" : "broken"}">${wordHtml("pos_shift_gap", { gap: num(st.shift_gap, "num gap") })}</p>`;
  }

  function positionsHtml() {
    const st = AL.state.core.positionsStudy(lessonNow(), tokens(), S.mode);
    const title = word(`pos_title_${st.kind}`);
    return `<h2>${esc(title)}</h2><p class="hint">${esc(word("pos_explain"))}</p><div class="pairs pos-grid">` +
      `<div>${followHtml(st, "without", st.without_gap, "pos-without")}</div>` +
      `<div>${followHtml(st, "with", st.with_gap, "pos-with")}</div></div>` +
      `<div class="pairs pos-grid"><div>${tableHtml(st)}</div><div>${weightsHtml(st)}</div></div>${shiftHtml(st)}`;
  }

  // -- tiles ------------------------------------------------------------------------------------------
  /** The keys in their blocks. */
  function blocksHtml(t, toks) {
    const blocks = t.spans.map(([lo, hi], b) => `<span class="block" data-block="${b}"><span class="block-name">` +
      `${esc(word("tile_block", { n: b + 1 }))}</span> ${toks.slice(lo, hi).map(esc).join(" ")}</span>`);
    return `<p class="blocks">${blocks.join("")}</p>`;
  }

  /** m, α, l and o for the query after each block. */
  function runningHtml(t, toks) {
    const i = S.query;
    const rows = t.spans.map(([lo, hi], b) => `<tr data-block="${b}">${th(toks.slice(lo, hi).join(" "), 'scope="row"')}` +
      `<td>${num(t.m[b][i], "num tile-m")}</td><td>${num(t.alpha[b][i], "num tile-alpha")}</td>` +
      `<td>${num(t.l[b][i], "num tile-l")}</td><td>${vec(t.o[b][i], "num tile-o")}</td></tr>`);
    const head = `<tr>${th(word("tile_keys"))}${th("m")}${th("α")}${th("l")}${th("o")}</tr>`;
    return `<h3>${esc(word("tile_running", { token: toks[i] }))}</h3>` +
      `<div class="scroll"><table class="scores tile-running">${head}${rows.join("")}</table></div>` +
      `<p class="hint">${esc(word("tile_rule"))}</p>`;
  }

  /** o / l after the last block beside the full softmax's output, and the memory. */
  function resultHtml(t, toks) {
    const i = S.query;
    const { tiled, full } = t.memory;
    const n = toks.length;
    const squares = (k, cls) => `<span class="mem ${cls}" style="width:${(6 * k) / full}em" aria-hidden="true"></span>`;
    return `<h3>${esc(word("tile_result", { token: toks[i] }))}</h3><p>${esc(word("tile_online"))} ` +
      `<span id="tile-output">${vec(t.output[i], "num role-v")}</span></p><p>${esc(word("tile_full"))} ` +
      `<span id="tile-full">${vec(t.full_output[i], "num role-v")}</span></p><p>` +
      `${wordHtml("tile_gap", { gap: num(t.gap, "num gap") })}</p><h3>${esc(word("tile_memory"))}</h3>` +
      `<p class="memory">${squares(tiled, "tiled")}${wordHtml("tile_memory_tiled", { n, block: Math.min(t.block, n),
        count: `<strong data-value="${tiled}">${tiled}</strong>` })}</p>` +
      `<p class="memory">${squares(full, "full")}${wordHtml("tile_memory_full", { n,
        count: `<strong data-value="${full}">${full}</strong>` })}</p>`;
  }

  function tilesHtml() {
    const toks = tokens();
    const t = AL.state.core.tiles(lessonNow(), toks, S.mode);
    return `<h2>${esc(word("tile_title", { block: t.block }))}</h2><p class="hint">${esc(word("tile_explain"))}</p>` +
      `${blocksHtml(t, toks)}<div class="pairs tile-grid"><div>${runningHtml(t, toks)}</div>` +
      `<div>${resultHtml(t, toks)}</div></div>`;
  }

  /** The boxes of the lesson's tables (none for a lesson without them). */
  function boxesHtml() {
    const L = data.lesson;
    return [["learning", L.training], ["positions", L.positions], ["tiles", L.tiling]]
      .filter(([, on]) => on).map(([id]) => `<section class="box wide next-box" id="${id}"></section>`).join("");
  }

  /** Every box of the lesson's tables, from the page's numbers. */
  function show() {
    const L = data.lesson;
    if (L.training) AL.views.morph(AL.$("#learning"), learningHtml());
    if (L.positions) AL.views.morph(AL.$("#positions"), positionsHtml());
    if (L.tiling) AL.views.morph(AL.$("#tiles"), tilesHtml());
  }

  AL.next = { boxesHtml, show };
})(window.AL);
