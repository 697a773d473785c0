/* The studio's page: the lesson file's text in CodeMirror; on every edit (debounced) the
 * text goes to the server, which checks it with attention_core; its numbers are drawn by the
 * explorer's view (explorer.js, without its number fields: the server's numbers, not core.js's), its
 * frames arrive as server-sent events, the render buttons start the CLI's products.
 *
 * An ES module (the page is served over http): CodeMirror is one module in the package
 * (vendor/codemirror.js, built by scripts/vendor.sh). The explorer's classic scripts load before it; the helpers it shares with them
 * ($, esc, the catalog look-up, the languages' names) are window.AL's (shared.js). Every request
 * carries the studio's token (the cookie the first page load set, and the Authorization header when the
 * address has ?token=).
 */
import {
  basicSetup, EditorView, keymap, HighlightStyle, StreamLanguage, syntaxHighlighting, tags, linter, lintGutter,
  setDiagnostics, toml, oneDark,
} from "./vendor/codemirror.js";
import * as timeline from "./studio-timeline.js";
import { media } from "./studio-media.js";
import { serverCore } from "./studio-numbers.js";
import { fileGuards } from "./studio-file.js";
import { lineEditor } from "./studio-line.js";
import { renderForm } from "./studio-render.js";

const token = new URLSearchParams(location.search).get("token");
const headers = token ? { Authorization: `token ${token}` } : {};
const DEBOUNCE_MS = 30; // keystroke to numbers within 100 ms: the newest answer counts, older ones are dropped
const studio = { lang: document.documentElement.lang, edit: 0, run: null, words: {}, editor: null,
  quiet: false, timer: null, started: false, sent: null, leaving: false };
const { $, esc } = window.AL;
const timings = (window.studioTimings = []); // ms from a keystroke to its numbers on screen (scripts/benchmark.py)
const word = window.AL.catalog(() => studio.words, () => studio.lang); // the studio's words (a missing one: shared.js)

async function api(method, path, body) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = typeof body === "string" ? "application/toml" : "application/json";
  }
  const r = await fetch(path, init);
  return { status: r.status, json: await r.json() };
}

const { play, onClip, stopPlaying, onRender, onRenderEvent } = media({ api, studio, word, showProblem }); // videos
const { onFile, offerRecovery, revert, guardLeaving } = fileGuards({ api, studio, word, setText, send, showSaved,
  refresh });
const stepLine = lineEditor({ api, studio, word, setText, showSaved, newRun }); // the step's narration, in own words
const render = renderForm({ studio, word, options: (...a) => options(...a) }); // what to render, and how

// -- the page's frame -----------------------------------------------------------------------------
const options = (name, values, chosen) => values.map((v) =>
  `<option value="${esc(v)}"${v === chosen ? " selected" : ""}>${esc(word(`${name}_${v}`))}</option>`).join("");

function langOptions() {
  return Object.keys(studio.words).map((l) =>
    `<option value="${l}"${l === studio.lang ? " selected" : ""}>${esc(window.AL.langName(l))}</option>`).join("");
}

/** The page's one set of choices, over the tabs: the language, context, normalizer and theme of the frames,
 *  the numbers and the renders alike (the render form starts at the page's language and may take another
 *  the page has no words for: a words folder's). */
function viewBar() {
  return `<div class="view-bar" role="group" aria-label="${esc(word("view"))}">
      <label>${esc(word("language"))} <select id="view-lang">${langOptions()}</select></label>
      <label>${esc(word("context"))} <select id="view-context" class="context-choice"></select></label>
      <label>${esc(word("mode"))} <select id="view-mode">${options("mode", window.AL.MODES, studio.mode)}</select></label>
      <label>${esc(word("theme"))} <select id="view-theme">${options("theme", ["dark", "light"], studio.theme)}</select></label>
    </div>`;
}

function stage() {
  return `<section id="stage" class="stage" aria-label="${esc(word("preview"))}">
      <figure class="preview"><img id="preview-img" alt="" width="854" height="480">
        <video id="preview-video" controls playsinline preload="auto" hidden></video>
        <figcaption><button type="button" id="play">${esc(word("play"))}</button>
          <span id="preview-caption"></span></figcaption></figure>
      <p id="narration" class="narration" lang="${studio.lang}"></p>
      ${stepLine.form()}
      <p id="frames-status" role="status"></p>
      <div id="timeline" class="timeline" role="group" aria-label="${esc(word("timeline"))}"></div>
    </section>`;
}

function frame(path) {
  const tab = (id, on) => `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}"` +
    ` aria-selected="${on}" tabindex="${on ? 0 : -1}">${esc(word(`tab_${id}`))}</button>`;
  $("#studio").innerHTML = `
    <header class="studio-bar"><h1 id="title"></h1><span class="file">${esc(word("file"))}: <code>${esc(path)}</code></span>
      <span id="status" role="status"></span>
      <button type="button" id="save" title="${esc(word("save_hint"))}">${esc(word("save"))}</button>
      <button type="button" id="revert">${esc(word("revert"))}</button></header>
    <div id="recovery" class="disk" role="alert" hidden></div>
    <div id="disk" class="disk" role="alert" hidden></div>
    <div class="workspace">
      <section class="editor-box" aria-label="${esc(word("editor"))}"><div id="editor"></div>
        <div id="problem" role="alert" hidden></div></section>
      <section class="side">${viewBar()}<div class="tabs" role="tablist">${tab("frames", true)}${tab("numbers", false)}` +
    `${tab("render", false)}</div>
        <div id="panel-frames" role="tabpanel" aria-labelledby="tab-frames">${stage()}</div>
        <div id="panel-numbers" role="tabpanel" aria-labelledby="tab-numbers" hidden><main id="app"></main></div>
        <div id="panel-render" role="tabpanel" aria-labelledby="tab-render" hidden>${render.form()}</div>
      </section>
    </div>`;
}

/** The tabs of the side: Frames (the stage), Numbers (the explorer's views), Render; ←/→ between them. */
function startTabs() {
  const tabs = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".tabs [role=tab]"))];
  const show = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(`#${t.getAttribute("aria-controls")}`).hidden = !on;
    }
    if (studio.started) Explorer.layout(); // a table wider than its box is measured once it is shown (axe)
    tab.focus();
  };
  for (const t of tabs) {
    t.onclick = () => show(t);
    t.onkeydown = (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (step) show(tabs[(tabs.indexOf(t) + step + tabs.length) % tabs.length]);
    };
  }
}

/** The context choices (the lesson's: their labels and sentences), in the page's bar. */
function contextChoices(page) {
  if (!page || !page.lesson) return;
  const names = Object.keys(page.lesson.contexts);
  const label = (c) => (page.lesson.context_labels[c] || {})[studio.lang] || c;
  const sel = /** @type {HTMLSelectElement} */ ($("#view-context"));
  const keep = sel.value || studio.context;
  studio.labels = Object.fromEntries(names.map((c) => [c, label(c)]));
  sel.innerHTML = names.map((c) => `<option value="${esc(c)}"${c === keep ? " selected" : ""}>` +
    `${esc(label(c))}: ${esc(page.lesson.contexts[c].join(" "))}</option>`).join("");
}

/** The page's language, context, normalizer or theme changed (its one bar): the frames follow (the
 *  server redraws what that changes), and so do the numbers' views; a new language is the whole page's
 *  (it loads again in it: the editor's text is the server's, nothing is lost). */
async function setView(change) {
  if (Object.entries(change).every(([k, v]) => studio[k] === v)) return;
  if (change.lang && studio.timer) { clearTimeout(studio.timer); await send(); } // the last keys typed go first
  Object.assign(studio, change);
  const r = await api("POST", "/api/view", { context: studio.context, mode: studio.mode, theme: studio.theme,
    lang: studio.lang });
  if (r.status !== 200) return showProblem(r.json.error);
  if (change.lang) {
    studio.leaving = true; // nothing to ask: the server holds the text
    return location.reload();
  }
  newRun(r.json.run);
  syncView();
  if (studio.started) Explorer.view({ context: studio.context, mode: studio.mode });
}

function startView() {
  $("#view-lang").onchange = (e) => setView({ lang: /** @type {HTMLSelectElement} */ (e.target).value });
  $("#view-context").onchange = (e) => setView({ context: /** @type {HTMLSelectElement} */ (e.target).value });
  $("#view-mode").onchange = (e) => setView({ mode: /** @type {HTMLSelectElement} */ (e.target).value });
  $("#view-theme").onchange = (e) => setView({ theme: /** @type {HTMLSelectElement} */ (e.target).value });
}

// -- the editor -------------------------------------------------------------------------------------
/** The editor's line of a problem (its first line when the problem names none or one past the end). */
function problemLine(view, error) {
  return view.state.doc.line(Math.min(Math.max(error.line || 1, 1), view.state.doc.lines));
}

function diagnostics(view, error) {
  if (!error) return [];
  const line = problemLine(view, error);
  return [{ from: line.from, to: Math.max(line.to, line.from), severity: "error", message: error.message }];
}

function showProblem(error) {
  const view = studio.editor;
  view.dispatch(setDiagnostics(view.state, diagnostics(view, error)));
  const box = $("#problem");
  box.hidden = !error;
  box.innerHTML = error ? `<strong>${esc(error.line ? word("line", { line: error.line }) : "")}</strong> ` +
    `${esc(error.message)}<br><span class="hint">${esc(word(studio.started ? "invalid" : "invalid_first"))}</span>` : "";
  box.dataset.line = error && error.line ? error.line : "";
}

/** A file that fails check, opened: the cursor on its problem's line, in view; no frame until it passes. */
function brokenStart(error) {
  const line = problemLine(studio.editor, error);
  studio.editor.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: "center" }) });
  $("#preview-caption").textContent = word("invalid_first");
}

function showSaved(saved) {
  $("#status").textContent = word(saved ? "saved" : "unsaved");
  $("#status").className = saved ? "saved" : "unsaved";
}

/** Comments in the text's own colour, a little dimmed: One Dark's grey (#7d8799) is 4.45:1 on its
 *  background, under WCAG AA's 4.5:1 for text (axe-core). */
const readable = syntaxHighlighting(HighlightStyle.define([{ tag: tags.comment, color: "var(--dim)" }]));

/** The editor; on a dark palette (its color-scheme, from style.luminance) CodeMirror's One Dark theme. */
function startEditor(text, palette) {
  const theme = palette.scheme === "dark" ? [readable, oneDark] : [readable];
  studio.editor = new EditorView({
    doc: text,
    parent: $("#editor"),
    extensions: [basicSetup, ...theme, EditorView.lineWrapping, StreamLanguage.define(toml), lintGutter(),
      linter(null), EditorView.contentAttributes.of({ "aria-label": word("editor") }),
      keymap.of([{ key: "Mod-s", preventDefault: true, run: () => { save(); return true; } }]),
      EditorView.updateListener.of((u) => { if (u.docChanged && !studio.quiet) { studio.keyAt = performance.now(); studio.editing = true; schedule(); } })],
  });
}

function setText(text) {
  studio.quiet = true;
  studio.editor.dispatch({ changes: { from: 0, to: studio.editor.state.doc.length, insert: text } });
  studio.quiet = false;
}

function schedule() {
  clearTimeout(studio.timer);
  studio.timer = setTimeout(send, DEBOUNCE_MS);
}

/** The editor's text to the server; its numbers (or its problem) back. Only the newest answer counts. */
async function send() {
  const text = studio.editor.state.doc.toString();
  studio.sent = text;
  let r;
  const sel = timeline.selected(); // the step on screen: its scene drawn first, its clip ahead
  const focus = sel ? `?focus=${encodeURIComponent(sel.scene)}&n=${sel.n}` : "";
  try { r = await api("PUT", `/api/lesson${focus}`, text); } catch { return offline(); }
  if (studio.sent !== text) return; // a newer text is on its way
  studio.editing = studio.editor.state.doc.toString() !== text; // typed on since: that text is answered later
  showSaved(r.json.saved);
  if (r.status === 422) {
    if (studio.playing && !studio.editing) stopPlaying(); // a press waiting for this text: it has no clip
    return showProblem(r.json.error);
  }
  showProblem(null);
  studio.edit = r.json.edit;
  newRun(r.json.run);
  showNumbers(r.json.page);
  document.body.dataset.edit = String(studio.edit); // for tests and the benchmark: the numbers on the page are this edit's
  const keyAt = studio.keyAt;
  requestAnimationFrame(() => timings.push(performance.now() - keyAt)); // keystroke to the frame drawn
}

async function save() {
  let r;
  try { r = await api("POST", "/api/save", studio.editor.state.doc.toString()); } catch { return offline(); }
  if (r.status === 200) showSaved(r.json.saved);
}

function offline() {
  $("#problem").hidden = false;
  $("#problem").textContent = word("offline");
}

// -- frames -----------------------------------------------------------------------------------------
/** A new run (an edit, a new choice): a clip playing is of the old text and stops; a press on Play still
 *  waiting (made just before the edit's answer) asks again, for the new text's clip (drawn ahead). */
function newRun(run) {
  if (run === null || run === undefined) return;
  const pending = studio.playing && $("#preview-video").hidden;
  if (studio.playing) stopPlaying();
  studio.run = run;
  $("#frames-status").textContent = word("stale_now");
  if (pending) play();
}

function onProgress(d) {
  timeline.onProgress(d);
  const scene = (studio.titles || {})[d.scene] || d.scene;
  const step = timeline.stepName((studio.scenes || {})[d.scene], d.step);
  if (d.run === studio.run) $("#frames-status").textContent = word("drawing", { scene, step });
}

function onPlan(d) {
  studio.run = d.run;
  studio.titles = Object.fromEntries(d.scenes.map((s) => [s.id, s.title]));
  studio.scenes = Object.fromEntries(d.scenes.map((s) => [s.id, s]));
  studio.total = d.scenes.filter((s) => s.stale).length;
  studio.drawn = 0;
  timeline.onPlan(d);
}

function onFrames(d) {
  timeline.onFrames(d);
  stepLine.onFrames(d);
  if (d.run === studio.run && d.drawn) $("#frames-status").textContent = word("drawn", { n: ++studio.drawn, total: studio.total });
}

// -- the file on disk, other pages --------------------------------------------------------------------
async function refresh() {
  const r = await api("GET", "/api/page");
  studio.edit = r.json.edit;
  showNumbers(r.json.page);
  const lesson = await api("GET", "/api/lesson");
  showProblem(lesson.json.error);
}

function listen() {
  const events = new EventSource(`/api/events${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  const on = (name, f) => events.addEventListener(name, (e) => f(JSON.parse(e.data)));
  on("plan", onPlan);
  on("frames", onFrames);
  on("progress", onProgress);
  on("step", timeline.onStep);
  on("idle", (d) => { if (d.run === studio.run) $("#frames-status").textContent = word("idle"); });
  on("render", onRenderEvent);
  on("clip", onClip);
  on("file", onFile);
  on("numbers", (d) => { if (d.edit > studio.edit) { newRun(d.run); refresh(); } });
  on("fault", (d) => {
    timeline.onFault(d);
    if (d.run === studio.run) $("#frames-status").textContent = d.message;
  });
  on("hello", () => {});
}

/** The numbers' views of a page that passed: started the first time (a broken file opens without). */
function showNumbers(page) {
  if (page) render.showLangs(page, syncView);
  if (!page || page.broken) return;
  showTitle(page); // a broken file opened under its file's name: now the lesson's title
  contextChoices(page);
  if (!studio.started) {
    Explorer.start(page, serverCore(page), { editable: false, controls: false });
    studio.started = true;
    studio.context = Explorer.state.context;
    syncView();
  } else {
    Explorer.replace(page, serverCore(page));
  }
}

function showTitle(page) {
  $("#title").textContent = word("page_title", { title: page.titles[studio.lang] });
  document.title = $("#title").textContent;
}

/** The bar shows the page's choices; the render form says them. */
function syncView() {
  if (studio.context) /** @type {HTMLSelectElement} */ ($("#view-context")).value = studio.context;
  /** @type {HTMLSelectElement} */ ($("#view-mode")).value = studio.mode;
  render.sync();
}

/** The step on screen moved (a click, a key, the first plan): the server draws its scene first. */
function onSelect(scene, n) {
  stopPlaying();
  stepLine.show(scene, n);
  clearTimeout(studio.focusTimer);
  studio.focusTimer = setTimeout(() => api("POST", "/api/focus", { scene, n }).catch(() => {}), 100);
}

async function main() {
  const [lesson, page] = await Promise.all([api("GET", "/api/lesson"), api("GET", "/api/page")]);
  const data = page.json.page;
  Object.assign(studio, { words: data.studio_words, edit: page.json.edit, mode: data.start ? data.start.mode : "scaled",
    theme: data.theme || (data.palette.scheme === "light" ? "light" : "dark") });
  frame(lesson.json.path);
  showTitle(data);
  startEditor(lesson.json.text, data.palette);
  window.studio = { editor: studio.editor }; // CodeMirror's view, for tests and the benchmark
  studio.editor.scrollDOM.tabIndex = 0; // its scroll region takes focus, to scroll by keys (axe: a contenteditable
  // inside does not count as focusable content)
  showSaved(lesson.json.saved);
  showProblem(lesson.json.error);
  if (data.broken && lesson.json.error) brokenStart(lesson.json.error);
  timeline.startStage(word, onSelect, lesson.json.path);
  $("#play").onclick = play;
  stepLine.start(lesson.json.path);
  startTabs();
  startView();
  showNumbers(data);
  syncView();
  offerRecovery(lesson.json);
  $("#save").onclick = save;
  $("#revert").onclick = revert;
  $("#render-form").onsubmit = onRender;
  guardLeaving();
  listen();
  document.body.dataset.ready = "true";
}

main();
