/* The explorer: the lesson's numbers as editable matrices, and everything computed from them
 * (Q, K, V, the query's scores term by term, the softmax weights, the value mix, the weight matrix, hard
 * beside soft lookup), recomputed on every edit by the page's core (AttentionCore, web/core.js); with
 * the causal mask (the lesson's, or the what-if switch's) and, for a lesson of several heads, a tab per
 * head and the heads together. The
 * studio shows the same views without the number fields, from its server's numbers.
 *
 * Classic scripts (the page opens from file://), loaded in this order after core.js and shared.js, each
 * a part adding itself to window.AL:
 *   explorer-state.js   AL.state: what data.js gave, the page's state, the helpers that read them
 *   explorer-url.js     AL.url: the state in the URL's hash, so a link or a reload gives the same page
 *   explorer-plane.js   AL.plane: attention as geometry, the query, keys and values as arrows (SVG)
 *   explorer-views.js   AL.views: the computed views, written into the page changing only what changed
 *   explorer-heads.js   AL.heads: a lesson of several heads: a tab per head, the heads together (W_O)
 *   explorer-next.js    AL.next: the learning, positions and tiles boxes of a lesson with those tables
 *   explorer-real.js    AL.real: a lesson with [real]: a real model's weights, by layer, head and query
 *   explorer-inputs.js  AL.inputs: the number fields, the sliders, the edited marks
 *   explorer-export.js  AL.exporter: the edited lesson as a lesson file
 *   explorer.js         this file: the page's frame and events, and the one global, Explorer (start,
 *                       replace, and view and layout for a page that hosts the views, the studio;
 *                       settled, timings, lessonToml and state for tests and scripts/benchmark.py)
 */
(function (root) {
  "use strict";

  const AL = root.AL;
  const { $, esc } = AL;
  const state = AL.state;
  const { data, S, word, tokens, sentence, contextLabel, focusIndex, resetNumbers, resetSwitches, hasHeads,
    headName } = state;
  const timings = []; // ms per update, for scripts/benchmark.py

  // -- the page's frame: controls and the boxes the views fill --------------------------------------
  /** The language, context, normalizer and mask switches (none when the hosting page chooses: the
   *  studio's one bar), and Reset and Export (the explorer's, whose numbers are edited). */
  function controlsHtml() {
    if (!state.controls) return "";
    const langs = Object.keys(data.words).map((l) => `<button type="button" data-lang="${l}" ` +
      `aria-pressed="${l === S.lang}">${esc(AL.langName(l))}</button>`);
    const contexts = Object.keys(data.lesson.contexts).map((c) => `<option value="${esc(c)}"` +
      `${c === S.context ? " selected" : ""}>${esc(contextLabel(c))}: ${esc(sentence(c))}</option>`);
    const modes = AL.MODES.map((m) => `<label class="choice"><input type="radio" name="mode" value="${m}"` +
      `${m === S.mode ? " checked" : ""}> ${esc(word(`common_mode_${m}`))}</label>`);
    const actions = `<div class="actions"><button type="button" id="reset">${esc(word("reset"))}</button>
      <button type="button" id="export">${esc(word("export"))}</button></div>`;
    const select = `<select id="context">${contexts.join("")}</select>`;
    const mask = `<div class="mask-switch"><label class="choice"><input type="checkbox" id="mask"` +
      `${S.mask ? " checked" : ""}> ${esc(word("mask"))}</label> <span id="whatif" class="whatif"></span></div>`;
    return `<div class="controls">
      <div role="group" aria-label="${esc(word("language"))}" class="langs">${langs.join("")}</div>
      <label class="field"><span>${esc(word("context"))}</span> ${select}</label>
      <fieldset class="modes"><legend>${esc(word("mode"))}</legend>${modes.join("")}</fieldset>
      ${mask}${state.editable ? actions : ""}</div>`;
  }

  const box = (id, extra = "") => `<section class="box" id="${id}" ${extra}></section>`;
  /** The computed boxes of one head (the lesson's, or the shown head's). */
  const computedHtml = () => `<div class="grid">${box("qkv")}${box("scores")}${box("plane")}${box("mix")}` +
    `${box("masked")}${box("matrix")}${box("lookup")}</div>`;

  /** A lesson of several heads: its X, then a tab per head over the head's W's and computed boxes, then
   *  the heads together (W_O's fields and the multi-head output). */
  function headsHtml() {
    const editable = state.editable;
    const inputs = editable ? `<h2>${esc(word("inputs"))}</h2><p class="hint">${esc(word("inputs_hint"))}</p>
      <div class="grid edit-grid" id="inputs"></div>` : "";
    const headInputs = editable ? '<div class="grid edit-grid" id="head-inputs"></div>' : "";
    const wo = editable ? '<div class="edit-grid" id="wo-input"></div>' : "";
    return `${inputs}<h2>${esc(word("heads"))}</h2><p class="hint">${esc(word("heads_hint"))}</p>
      ${AL.heads.tabsHtml()}
      <div id="head-panel" role="tabpanel" aria-labelledby="${AL.heads.tabId(S.head)}">${headInputs}
        <h2>${esc(word("head_computed", { head: headName(S.head) }))}</h2>${computedHtml()}</div>
      <div class="grid together">${wo}<section class="box wide" id="multihead"></section></div>`;
  }

  function frameHtml() {
    const editable = state.editable;
    const title = esc(word("page_title", { title: data.titles[S.lang] }));
    const intro = editable ? `<h1>${title}</h1><p class="intro">${esc(word("intro"))}</p>` : "";
    const inputs = `<h2>${esc(word("inputs"))}</h2><p class="hint">${esc(word("inputs_hint"))}</p>
      <div class="grid edit-grid" id="inputs"></div><h2>${esc(word("computed"))}</h2>`;
    return `<header>${intro}${controlsHtml()}
      <div id="note" role="status"></div></header>
      <section class="box wide" id="tokens"></section>
      ${box("claims", 'aria-live="polite"')}
      ${hasHeads() ? headsHtml() : `${editable ? inputs : ""}${computedHtml()}`}
      ${AL.next.boxesHtml()}${AL.real.boxHtml()}
      <footer>${esc(word(editable ? "footer" : "footer_server", { source: data.source }))}</footer>`;
  }

  // -- scroll cues: a table wider than its box scrolls inside it, and shows that it does ---------------
  const SCROLL_MARKS = ["tabindex", "role", "aria-label", "data-more"];

  /** A .scroll that scrolls sideways takes focus (the arrow keys scroll it; axe's scrollable-region-
   *  focusable), is a region named by its heading, and data-more names the sides where more of it is
   *  hidden: "right", "left" or "both" (explorer.css fades those edges). One that fits has none. */
  function markScroller(el) {
    const hidden = el.scrollWidth - el.clientWidth;
    if (hidden <= 1) {
      for (const name of SCROLL_MARKS) if (el.hasAttribute(name)) el.removeAttribute(name);
      return;
    }
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft < hidden - 1;
    const more = left && right ? "both" : left ? "left" : "right";
    if (el.dataset.more !== more) el.dataset.more = more;
    if (el.hasAttribute("tabindex")) return;
    const heading = el.previousElementSibling || (el.closest(".box") || el).querySelector("h2, h3");
    el.tabIndex = 0;
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", heading ? heading.textContent.trim() : "");
  }

  /** Every scroll region's marks (after a redraw, which drops them; a resize; fonts loaded). */
  const markScrollers = () => document.querySelectorAll("#app .scroll").forEach(markScroller);

  /** Recompute everything from the state and redraw what depends on it (the inputs stay). */
  function update() {
    const t0 = performance.now();
    AL.views.show(state.attendNow());
    AL.next.show();
    AL.real.show();
    AL.inputs.markEdited();
    markScrollers(); // reads the layout: after every write, so it is laid out once
    if (state.controls) AL.url.writeHash(); // a hosted page's choices are its host's, not the URL's
    timings.push(performance.now() - t0);
  }

  /** The whole page for the state (a new language or context), then the numbers. */
  function draw() {
    document.documentElement.lang = S.lang;
    if (state.editable) document.title = word("page_title", { title: data.titles[S.lang] });
    const note = $("#note") ? $("#note").innerHTML : "";
    $("#app").innerHTML = frameHtml();
    $("#note").innerHTML = note;
    if (state.editable) drawInputs();
    update();
  }

  /** The number fields: all in #inputs, or (several heads) X, the shown head's W's, and W_O apart. */
  function drawInputs() {
    if (!hasHeads()) {
      $("#inputs").innerHTML = AL.inputs.inputsHtml();
      return;
    }
    $("#inputs").innerHTML = AL.inputs.xHtml();
    $("#head-inputs").innerHTML = AL.inputs.weightsHtml();
    $("#wo-input").innerHTML = AL.inputs.woHtml();
  }

  /** Show another head (a tab clicked or moved to): the page redrawn for it, its tab focused. */
  function showHead(key) {
    S.head = key;
    draw();
    $(`#${AL.heads.tabId(key)}`).focus();
  }

  function showNote(bad) {
    const items = bad.map((b) => `<li>${esc(b)}</li>`).join("");
    $("#note").innerHTML = bad.length ? `<p>${esc(word("ignored"))}</p><ul>${items}</ul>` : "";
    $("#note").hidden = !bad.length;
  }

  // -- events ---------------------------------------------------------------------------------------
  function onClick(e) {
    const el = e.target.closest("button");
    if (!el) return;
    if (el.dataset.head !== undefined && el.getAttribute("role") === "tab") {
      showHead(el.dataset.head);
    } else if (el.dataset.query !== undefined) {
      S.query = Number(el.dataset.query);
      update();
    } else if (el.dataset.lang) {
      S.lang = el.dataset.lang;
      draw();
    } else if (el.id === "reset") {
      resetNumbers();
      update();
    } else if (el.id === "export") AL.exporter.exportLesson();
  }

  function onInput(e) {
    const el = e.target;
    if (el.dataset.real) {
      AL.real.choose(el.dataset.real, el.value);
      if (state.controls) AL.url.writeHash();
    } else if (el.id === "train-step") {
      S.step = Number(el.value);
      update();
    } else if (el.type === "number" && el.dataset.matrix) {
      if (AL.inputs.setEntry(el, el.value)) update();
      const slider = /** @type {Slider} */ ($("input[type=range]", el.closest(".box")));
      if (slider.target === el && Number.isFinite(Number(el.value))) slider.value = el.value;
    } else if (el.type === "range" && el.target) {
      el.target.value = el.value;
      if (AL.inputs.setEntry(el.target, el.value)) update();
    } else if (el.name === "mode") {
      S.mode = el.value;
      update();
    } else if (el.id === "mask") {
      S.mask = el.checked ? "causal" : null;
      update();
    } else if (el.id === "context") {
      S.context = el.value;
      S.query = focusIndex();
      draw();
    }
  }

  /** ←/→, Home and End on a head's tab move to another head. */
  function onKey(e) {
    if (e.target.getAttribute("role") !== "tab" || e.target.dataset.head === undefined) return;
    const key = AL.heads.keyTarget(e);
    if (key === null) return;
    e.preventDefault();
    showHead(key);
  }

  const isEntry = (el) => el.type === "number" && el.dataset.matrix;
  const onFocus = (e) => isEntry(e.target) && AL.inputs.bindSlider(e.target);
  const onBlur = (e) => isEntry(e.target) && AL.inputs.markEdited(); // the field shows the value in use

  // -- start ----------------------------------------------------------------------------------------
  /** The palette's colours as the stylesheet's custom properties, and --on-emphasis: the ink (black or
   *  white, style.text_on's rule) that reads best on the emphasis colour, the query row's label. */
  function palette() {
    const style = document.documentElement.style;
    for (const [name, value] of Object.entries(data.palette)) {
      if (typeof value === "string") style.setProperty(`--${name}`, value);
    }
    const p = data.palette;
    if (p.emphasis && p.ink_dark) {
      style.setProperty("--on-emphasis", AL.inkOn(AL.rgb(p.emphasis), [p.ink_dark, p.ink_light]));
    }
  }

  /** The state of the lesson's start, then of the hash (what does not fit is noted). */
  function load(hash) {
    resetNumbers();
    resetSwitches();
    Object.assign(S, data.start);
    S.query = focusIndex();
    const bad = state.controls ? AL.url.readHash(hash) : [];
    draw();
    showNote(bad);
  }

  /** Start the page: `given` is data.js's object (or the studio's), `core` what computes (AttentionCore,
   *  or the studio's numbers from the server); options.editable false shows the numbers without their
   *  fields (the studio edits the lesson's text instead); options.controls false, without the page's
   *  own switches: the page that hosts the views chooses (`view`), as the studio's one bar does. */
  function start(given, core, options = {}) {
    Object.assign(data, given);
    state.core = core;
    state.editable = options.editable !== false;
    state.controls = options.controls !== false;
    palette();
    const app = $("#app");
    app.addEventListener("click", onClick);
    app.addEventListener("input", onInput);
    app.addEventListener("keydown", onKey);
    app.addEventListener("focusin", onFocus);
    app.addEventListener("focusout", onBlur);
    const onScroll = (e) => e.target.classList?.contains("scroll") && markScroller(e.target);
    app.addEventListener("scroll", onScroll, true); // scroll does not bubble: caught on its way down
    window.addEventListener("resize", markScrollers);
    window.matchMedia(AL.plane.NARROW).addEventListener("change", update); // the plane's label size
    if (document.fonts) document.fonts.ready.then(markScrollers);
    window.addEventListener("hashchange", () => {
      if (state.controls && location.hash.slice(1) !== AL.url.hashOf()) load(location.hash);
    });
    load(location.hash);
  }

  /** What a page's frame is drawn from, besides its numbers. */
  const shape = (d) => JSON.stringify([d.lesson.contexts, d.lesson.dimensions, d.lesson.focus, d.titles,
    d.lesson.context_labels, d.lesson.w_q.length, d.lesson.w_q[0].length, d.lesson.w_v[0].length,
    d.lesson.mask || null, (d.lesson.heads || []).map((h) => [h.key, h.names, h.w_q[0].length,
      h.w_v[0].length]), d.lesson.focus_head || null]);

  /** A new lesson (the studio's editor changed it): its numbers, the page's choices kept where they
   *  still fit (the language, the context, the query, the normalizer). */
  function replace(given, core = state.core) {
    const keep = { lang: S.lang, context: S.context, mode: S.mode, query: S.query, head: S.head,
      mask: S.mask, step: S.step };
    const sameFrame = shape(data) === shape(given);
    const sameMask = (data.lesson.mask || null) === (given.lesson.mask || null);
    Object.assign(data, given);
    state.core = core;
    resetNumbers();
    resetSwitches();
    if (!sameMask) delete keep.mask; // the file's mask changed: the page shows it, not the old what-if
    if (!(data.lesson.heads || []).some((h) => h.key === keep.head)) delete keep.head;
    Object.assign(S, keep);
    if (!(S.context in data.lesson.contexts)) S.context = data.start.context;
    if (S.query >= tokens().length) S.query = focusIndex();
    if (sameFrame) update(); // only numbers changed: the elements stay, their text follows
    else draw();
  }

  /** The hosting page's choice of language, context or normalizer ({lang, context, mode}, any of
   *  them): the views follow (a context or language redraws the page, a normalizer only the numbers). */
  function view(change) {
    const redraw = (change.lang && change.lang !== S.lang) || (change.context && change.context !== S.context);
    if (change.lang && change.lang in data.words) S.lang = change.lang;
    if (change.context && change.context in data.lesson.contexts && change.context !== S.context) {
      S.context = change.context;
      S.query = focusIndex();
    }
    if (change.mode && AL.MODES.includes(change.mode)) S.mode = change.mode;
    if (redraw) draw();
    else update();
  }

  root.Explorer = { start, replace, view, layout: markScrollers, timings, lessonToml: AL.exporter.lessonToml, settled: AL.url.settled,
    state: S };
})(typeof globalThis !== "undefined" ? globalThis : this);
