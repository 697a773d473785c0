/* The explorer's state, and the small helpers every part of the explorer reads it with (explorer.js
 * says what the parts are). AL.state holds:
 *   data: what data.js gave (or the studio's server): lesson, words, titles, palette, claims, start;
 *   S: the page's state: lang, context, query (an index into the context's tokens), mode, mask
 *      ("causal" or null: the lesson's, or the what-if switch's), head (the head shown, with several
 *      heads: a key of data.lesson.heads; else null), and the numbers as the student changed them
 *      (vocab; w_q, w_k, w_v of a lesson of one head; heads {key: {w_q, w_k, w_v}} and w_o of several);
 *   core: what computes (AttentionCore, or the studio's numbers from its server);
 *   editable: whether the page edits its numbers (the explorer) or only shows them (the studio);
 *   controls: whether the page has its own language, context, normalizer and mask switches (the
 *      explorer) or its host chooses them (the studio's bar, through Explorer.view);
 * and the words in S.lang, numbers as shown, the context's tokens, the dimensions' names.
 */
(function (AL) {
  "use strict";

  const MATRICES = ["w_q", "w_k", "w_v"];
  const data = {};
  const S = {};
  const state = { MATRICES, data, S, core: null, editable: true, controls: true };

  const copy = (m) => JSON.parse(JSON.stringify(m));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  /** The page's words in its language (the explorer's catalog and the scenes' common_* words). */
  const word = AL.catalog(() => data.words, () => S.lang);

  /** A catalog line as HTML: its text escaped, its fields given as HTML (a number with its data-value). */
  function wordHtml(key, fields) {
    const marks = Object.fromEntries(Object.keys(fields).map((f) => [f, `\u0000${f}\u0000`]));
    return AL.esc(word(key, marks)).replace(/\u0000(\w+)\u0000/g, (_, f) => fields[f]);
  }

  function fmt(x) {
    const places = data.places;
    if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf"; // as Python writes them
    // from 1e5 on: scientific notation, "1.23e5", as every table writes it (attention_core/magnitudes.py)
    if (Math.abs(x) >= 1e5) return x.toExponential(places).replace("e+", "e");
    const shown = Math.abs(x) < 0.5 * 10 ** -places ? 0 : x; // never "-0.00"
    return shown.toFixed(places);
  }

  /** A number as shown: rounded on screen, its full value in data-value. */
  const num = (x, cls = "num") => `<span class="${cls}" data-value="${x}">${fmt(x)}</span>`;

  const tokens = () => data.lesson.contexts[S.context];
  const sentence = (ctx) => data.lesson.contexts[ctx].join(" ");
  const contextLabel = (ctx) => (data.lesson.context_labels[ctx] || {})[S.lang] || ctx;
  /** The query a context starts with: the lesson's focus, or its first token. */
  const focusIndex = () => Math.max(0, tokens().indexOf(data.lesson.focus));

  /** The lesson's names of n dimensions in S.lang, or 1..n. */
  function dimNames(n) {
    const names = data.lesson.dimensions[S.lang];
    return names && names.length === n ? names : Array.from({ length: n }, (_, i) => `${i + 1}`);
  }

  /** Whether the lesson has several heads ([heads] and W_O), and a head's name in S.lang. */
  const hasHeads = () => Boolean(data.lesson.heads);
  const headName = (key) => {
    const h = (data.lesson.heads || []).find((x) => x.key === key);
    return h ? h.names[S.lang] || key : key;
  };

  /** The numbers the page computes with, as core.attendTokens takes them (with several heads: every
   *  head's, the lesson's own W's the focus head's, and W_O), the mask of the page's switch, and what
   *  core.picture reads besides (the contexts, the focus, the [geometry] table's axes), and the
   *  [training], [positions] and [tiling] tables core.train, positionsStudy and tiles read. */
  function lessonNow() {
    const L = data.lesson;
    const base = { vocab: S.vocab, contexts: L.contexts, focus: L.focus, geometry: L.geometry || {},
      mask: S.mask, training: L.training, positions: L.positions, tiling: L.tiling };
    if (!hasHeads()) return { ...base, w_q: S.w_q, w_k: S.w_k, w_v: S.w_v };
    const heads = L.heads.map((h) => ({ key: h.key, ...S.heads[h.key] }));
    return { ...base, ...S.heads[L.focus_head], heads, w_o: S.w_o, focus_head: L.focus_head };
  }

  /** The pass of a context's tokens the views show: the page's normalizer and mask, the head shown. */
  const attendNow = (toks = tokens()) => state.core.attendTokens(lessonNow(), toks, S.mode, null, S.head);

  /** S's numbers back to the lesson's. */
  function resetNumbers() {
    const L = data.lesson;
    if (!hasHeads()) {
      Object.assign(S, copy({ vocab: L.vocab, w_q: L.w_q, w_k: L.w_k, w_v: L.w_v }));
      return;
    }
    const heads = Object.fromEntries(L.heads.map((h) => [h.key, { w_q: h.w_q, w_k: h.w_k, w_v: h.w_v }]));
    Object.assign(S, copy({ vocab: L.vocab, heads, w_o: L.w_o }));
  }

  /** The switches a lesson starts with: its own mask, its focus head. */
  function resetSwitches() {
    S.mask = data.lesson.mask || null;
    S.head = hasHeads() ? data.lesson.focus_head : null;
    S.step = null; // the training step shown: null, the last
  }

  AL.state = Object.assign(state, { same, word, wordHtml, fmt, num, tokens, sentence, contextLabel, focusIndex,
    dimNames, hasHeads, headName, lessonNow, attendNow, resetNumbers, resetSwitches });
})(window.AL);
