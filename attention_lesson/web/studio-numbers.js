/* The studio's numbers for the explorer's views: the server computes them (attention_core, session.py)
 * and sends them with every edit; this answers the explorer's core calls from them, so the page shows
 * exactly the core's numbers for the text being typed. */

/** The explorer's core, answered by the server's numbers: every context under every normalizer, with
 *  the lesson's own mask (session.passes: the studio shows the file's numbers, with no what-if), every
 *  head's (its normalizers are AL.MODES, core.js's). A masked score comes as null (JSON has no -inf): -Infinity here, as core.js. */
export function serverCore(page) {
  const byTokens = {};
  for (const n of Object.values(page.passes)) byTokens[passKey(n.tokens, n.mode, n.mask)] = n;
  const find = (lesson, tokens, mode, masked) => {
    const on = masked === null || masked === undefined ? lesson.mask === "causal" : masked;
    const n = byTokens[passKey(tokens, mode, on ? "causal" : null)];
    if (!n) throw new Error(`the server sent no numbers for ${tokens.join(" ")} (${mode})`);
    return n;
  };
  return {
    attendTokens(lesson, tokens, mode, masked = null, head = null) {
      const n = find(lesson, tokens, mode, masked);
      return pass(n, head === null || head === undefined || !n.heads ? n : n.heads[head]);
    },
    attendHeads(lesson, tokens, mode, masked = null) {
      const n = find(lesson, tokens, mode, masked);
      const keys = page.lesson.heads.map((h) => h.key);
      return { heads: keys.map((k) => pass(n, n.heads[k])), keys, concat: n.concat, w_o: n.w_o,
        output: n.multi_head_output };
    },
    /** numbers --json's training, positions and tiles (core.js's train, positionsStudy, tiles answer the
     *  same shapes), through the focus head; a tile's m null (nothing seen yet) is -Infinity here. */
    train: (lesson, tokens, mode, masked = null) => find(lesson, tokens, mode, masked).training,
    positionsStudy: (lesson, tokens, mode, masked = null) => find(lesson, tokens, mode, masked).positions,
    tiles(lesson, tokens, mode, masked = null) {
      const t = find(lesson, tokens, mode, masked).tiles;
      return { ...t, m: t.m.map((row) => row.map((x) => (x === null ? -Infinity : x))) };
    },
    hardLookup,
  };
}

/** The key of one pass of the server's numbers: its tokens, normalizer and mask. */
const passKey = (tokens, mode, mask) => `${tokens.join("\u0000")}|${mode}|${mask || "none"}`;

/** One head's pass (p: the numbers' own, or one of their heads) as core.attendTokens answers. */
const pass = (n, p) => ({ ...p, tokens: n.tokens, x: n.x, mode: n.mode,
  scaled: p.scaled.map((row) => row.map((s) => (s === null ? -Infinity : s))),
  mask: n.mask ? AttentionCore.causalMask(n.tokens.length) : null,
  hard: { choice: p.hard_choice, output: p.hard_output } });

function hardLookup(att) {
  const weights = att.hard.choice.map((c) => att.tokens.map((_, j) => (j === c ? 1 : 0)));
  return { choice: att.hard.choice, weights, output: att.hard.output };
}
