/* The studio's page (issue 20): the lesson file's text in CodeMirror; on every edit (debounced) the
 * text goes to the server, which checks it with attention_core; its numbers are drawn by the
 * explorer's view (explorer.js, without its number fields: the server's numbers, not core.js's), its
 * frames arrive as server-sent events, the render buttons start the CLI's products.
 *
 * An ES module (the page is served over http): CodeMirror's packages come from node_modules through
 * the page's import map. The explorer's classic scripts load before it; the helpers it shares with them
 * ($, esc, the catalog look-up, the languages' names) are window.AL's (shared.js). Every request
 * carries the studio's token (the cookie the first page load set, and the Authorization header when the
 * address has ?token=).
 */
import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { StreamLanguage } from "@codemirror/language";
import { linter, lintGutter, setDiagnostics } from "@codemirror/lint";
import { toml } from "@codemirror/legacy-modes/mode/toml.js";
import { oneDark } from "@codemirror/theme-one-dark";

const token = new URLSearchParams(location.search).get("token");
const headers = token ? { Authorization: `token ${token}` } : {};
const DEBOUNCE_MS = 60; // keystroke to numbers well within 200 ms
const st = { lang: document.documentElement.lang, edit: 0, run: null, words: {}, editor: null,
  quiet: false, timer: null, started: false, sent: null };
const { $, esc } = window.AL;
const timings = (window.studioTimings = []); // ms from a keystroke to its numbers on screen (scripts/benchmark.py)
const w = window.AL.catalog(() => st.words, () => st.lang); // the studio's words (a missing one: shared.js)

async function api(method, path, body) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = typeof body === "string" ? "application/toml" : "application/json";
  }
  const r = await fetch(path, init);
  return { status: r.status, json: await r.json() };
}

/** The explorer's core, answered by the server's numbers: every context under every normalizer (its
 *  normalizers are AL.MODES, core.js's). */
function serverCore(page) {
  const byTokens = {};
  for (const [key, n] of Object.entries(page.passes)) byTokens[`${n.tokens.join("\u0000")}|${key.split("|")[1]}`] = n;
  return {
    attendTokens(_lesson, tokens, mode) {
      const n = byTokens[`${tokens.join("\u0000")}|${mode}`];
      if (!n) throw new Error(`the server sent no numbers for ${tokens.join(" ")} (${mode})`);
      return { ...n, hard: { choice: n.hard_choice, output: n.hard_output } };
    },
    hardLookup(att) {
      const weights = att.hard.choice.map((c) => att.tokens.map((_, j) => (j === c ? 1 : 0)));
      return { choice: att.hard.choice, weights, output: att.hard.output };
    },
  };
}

// -- the page's frame -----------------------------------------------------------------------------
function frame(path) {
  const langs = Object.keys(st.words).map((l) =>
    `<option value="${l}"${l === st.lang ? " selected" : ""}>${esc(window.AL.langName(l))}</option>`);
  const opts = (name, values) => values.map((v) => `<option value="${v}">${esc(w(`${name}_${v}`))}</option>`).join("");
  $("#studio").innerHTML = `
    <header class="studio-bar"><h1 id="title"></h1><span class="file">${esc(w("file"))}: <code>${esc(path)}</code></span>
      <span id="status" role="status"></span>
      <button type="button" id="save" title="${esc(w("save_hint"))}">${esc(w("save"))}</button></header>
    <div id="disk" class="disk" role="alert" hidden></div>
    <div class="columns">
      <section class="editor-box"><div id="editor"></div><div id="problem" role="alert" hidden></div></section>
      <section class="views"><h2>${esc(w("numbers"))}</h2><main id="app"></main></section>
    </div>
    <section class="frames-box"><h2>${esc(w("frames"))}</h2><p id="frames-status" role="status"></p><div id="strips"></div></section>
    <section class="render-box"><h2>${esc(w("render"))}</h2>
      <form id="render-form">
        <label>${esc(w("product"))} <select name="product">${opts("product", ["lesson", "html", "pptx", "handout"])}</select></label>
        <label>${esc(w("quality"))} <select name="quality">${opts("quality", ["low", "medium", "high"])}</select></label>
        <label>${esc(w("language"))} <select name="lang">${langs.join("")}</select></label>
        <label>${esc(w("voice"))} <select name="voice">${opts("voice", ["none", "draft", "neural"])}</select></label>
        <button type="submit" id="render">${esc(w("start"))}</button>
      </form><ul id="renders"></ul></section>`;
}

// -- the editor -------------------------------------------------------------------------------------
function diagnostics(view, error) {
  if (!error) return [];
  const n = Math.min(Math.max(error.line || 1, 1), view.state.doc.lines);
  const line = view.state.doc.line(n);
  return [{ from: line.from, to: Math.max(line.to, line.from), severity: "error", message: error.message }];
}

function showProblem(error) {
  const view = st.editor;
  view.dispatch(setDiagnostics(view.state, diagnostics(view, error)));
  const box = $("#problem");
  box.hidden = !error;
  box.innerHTML = error ? `<strong>${esc(error.line ? w("line", { line: error.line }) : "")}</strong> ` +
    `${esc(error.message)}<br><span class="hint">${esc(w("invalid"))}</span>` : "";
  box.dataset.line = error && error.line ? error.line : "";
}

function showSaved(saved) {
  $("#status").textContent = w(saved ? "saved" : "unsaved");
  $("#status").className = saved ? "saved" : "unsaved";
}

/** The editor; on a dark palette (its color-scheme, from style.luminance) CodeMirror's One Dark theme. */
function startEditor(text, palette) {
  const theme = palette.scheme === "dark" ? [oneDark] : [];
  st.editor = new EditorView({
    doc: text,
    parent: $("#editor"),
    extensions: [basicSetup, ...theme, EditorView.lineWrapping, StreamLanguage.define(toml), lintGutter(),
      linter(null),
      keymap.of([{ key: "Mod-s", preventDefault: true, run: () => { save(); return true; } }]),
      EditorView.updateListener.of((u) => { if (u.docChanged && !st.quiet) { st.keyAt = performance.now(); schedule(); } })],
  });
}

function setText(text) {
  st.quiet = true;
  st.editor.dispatch({ changes: { from: 0, to: st.editor.state.doc.length, insert: text } });
  st.quiet = false;
}

function schedule() {
  clearTimeout(st.timer);
  st.timer = setTimeout(send, DEBOUNCE_MS);
}

/** The editor's text to the server; its numbers (or its problem) back. Only the newest answer counts. */
async function send() {
  const text = st.editor.state.doc.toString();
  st.sent = text;
  let r;
  try { r = await api("PUT", "/api/lesson", text); } catch { return offline(); }
  if (st.sent !== text) return; // a newer text is on its way
  showSaved(r.json.saved);
  if (r.status === 422) return showProblem(r.json.error);
  showProblem(null);
  st.edit = r.json.edit;
  newRun(r.json.run);
  Explorer.replace(r.json.page, serverCore(r.json.page));
  document.body.dataset.edit = st.edit; // for tests and the benchmark: the numbers on the page are this edit's
  const keyAt = st.keyAt;
  requestAnimationFrame(() => timings.push(performance.now() - keyAt)); // keystroke to the frame drawn
}

async function save() {
  let r;
  try { r = await api("POST", "/api/save", st.editor.state.doc.toString()); } catch { return offline(); }
  if (r.status === 200) showSaved(r.json.saved);
}

function offline() {
  $("#problem").hidden = false;
  $("#problem").textContent = w("offline");
}

// -- frames -----------------------------------------------------------------------------------------
function newRun(run) {
  if (run === null || run === undefined) return;
  st.run = run;
  $("#frames-status").textContent = "";
}

function stripHtml(scene) {
  return `<div class="strip" data-scene="${esc(scene.id)}" data-title="${esc(scene.title)}" data-stale="${scene.stale}"><h3>${esc(scene.title)}` +
    ` <span class="state"></span></h3><div class="thumbs"></div></div>`;
}

function onPlan(d) {
  if (d.run !== st.run && st.run !== null) return;
  st.run = d.run;
  const have = [...document.querySelectorAll(".strip")].map((e) => e.dataset.scene).join();
  if (have !== d.scenes.map((s) => s.id).join()) $("#strips").innerHTML = d.scenes.map(stripHtml).join("");
  for (const s of d.scenes) document.querySelector(`.strip[data-scene="${CSS.escape(s.id)}"]`).dataset.stale = s.stale;
  st.total = d.scenes.filter((s) => s.stale).length;
  st.drawn = 0;
}

function onFrames(d) {
  if (d.run !== st.run) return;
  const strip = document.querySelector(`.strip[data-scene="${CSS.escape(d.scene)}"]`);
  if (!strip) return;
  strip.querySelector(".thumbs").innerHTML = d.steps.map((s, i) => {
    const src = `/files/${encodeURI(s.frame)}?run=${d.run}`;
    return `<figure data-n="${i + 1}"${d.drawn ? ' class="new"' : ""}><a href="${src}" target="_blank" rel="noopener"><img src="${src}" width="160" height="90" ` +
      `alt="${esc(`${i + 1}. ${s.step}: ${s.narration}`)}" title="${esc(s.narration)}"></a>` +
      `<figcaption>${i + 1}. ${esc(s.step)}</figcaption></figure>`;
  }).join("");
  strip.dataset.run = d.run;
  strip.dataset.drawn = d.drawn;
  strip.querySelector(".state").textContent = d.drawn ? w("redrawn", { seconds: d.seconds }) : w("fresh");
  if (d.drawn) $("#frames-status").textContent = w("drawn", { n: ++st.drawn, total: st.total });
}

/** A step's frame, as soon as a worker has drawn it (its scene's files come when the scene is done). */
function onStep(d) {
  if (d.run !== st.run) return;
  const strip = document.querySelector(`.strip[data-scene="${CSS.escape(d.scene)}"]`);
  if (!strip) return;
  const thumbs = strip.querySelector(".thumbs");
  let fig = thumbs.querySelector(`figure[data-n="${d.n}"]`) || thumbs.children[d.n - 1];
  if (!fig) {
    thumbs.insertAdjacentHTML("beforeend", `<figure data-n="${d.n}"><a target="_blank" rel="noopener"><img width="160" height="90"></a><figcaption></figcaption></figure>`);
    fig = thumbs.lastElementChild;
  }
  fig.dataset.n = d.n;
  fig.querySelector("img").src = d.frame;
  fig.querySelector("a").href = d.frame;
  fig.querySelector("figcaption").textContent = `${d.n}. ${d.step}`;
  fig.classList.add("new");
  strip.dataset.preview = d.run;
}

function onProgress(d) {
  const strip = document.querySelector(`.strip[data-scene="${CSS.escape(d.scene)}"]`);
  const title = strip ? strip.dataset.title : d.scene;
  if (d.run === st.run) $("#frames-status").textContent = w("drawing", { scene: title, step: d.step });
}

// -- renders ----------------------------------------------------------------------------------------
async function onRender(e) {
  e.preventDefault();
  const body = Object.fromEntries(new FormData(e.target).entries());
  const r = await api("POST", "/api/render", body);
  if (r.status !== 202) return showProblem(r.json.error);
  $("#renders").insertAdjacentHTML("afterbegin", `<li data-job="${r.json.job}"><progress max="1" value="0"></progress> ` +
    `<span class="what">${esc(w("started", { product: w(`product_${body.product}`) }))}</span></li>`);
}

function fileLinks(files) {
  const main = files.filter((f) => /(lesson\.[a-z0-9]+|index\.html|deck\.pptx|handout\.pdf)$/.test(f));
  return (main.length ? main : files.slice(0, 3)).map((f) => /\.(mp4|webm)$/.test(f)
    ? `<video controls preload="metadata" src="/files/${encodeURI(f)}"></video>`
    : `<a href="/files/${encodeURI(f)}" target="_blank" rel="noopener">${esc(w("open"))}: ${esc(f.split("/").pop())}</a>`).join(" ");
}

function onRenderEvent(d) {
  const li = document.querySelector(`#renders li[data-job="${d.job}"]`);
  if (!li) return;
  const product = w(`product_${d.product}`);
  li.dataset.state = d.state;
  if (d.state === "running" && d.total) {
    li.querySelector("progress").value = d.done / d.total;
    li.querySelector(".what").textContent = w("running", { product, done: d.done, total: d.total });
  } else if (d.state === "done") {
    li.querySelector("progress").value = 1;
    li.querySelector(".what").innerHTML = `${esc(w("done", { product }))} ${fileLinks(d.files)}`;
  } else if (d.state === "failed") {
    li.querySelector(".what").textContent = w("failed", { product, message: d.message });
  }
}

// -- the file on disk, other pages --------------------------------------------------------------------
function onFile(d) {
  const box = $("#disk");
  if (d.state === "replaced") {
    setText(d.text);
    showSaved(true);
    box.hidden = false;
    box.textContent = w("disk_replaced");
    refresh();
    return;
  }
  box.hidden = false;
  box.innerHTML = `${esc(w("disk_conflict"))} <button type="button" id="load-disk">${esc(w("load_disk"))}</button>` +
    ` <button type="button" id="keep-mine">${esc(w("keep_mine"))}</button>`;
  $("#load-disk").onclick = () => { box.hidden = true; setText(d.text); send(); };
  $("#keep-mine").onclick = () => { box.hidden = true; };
}

async function refresh() {
  const r = await api("GET", "/api/page");
  st.edit = r.json.edit;
  Explorer.replace(r.json.page, serverCore(r.json.page));
  const lesson = await api("GET", "/api/lesson");
  showProblem(lesson.json.error);
}

function listen() {
  const events = new EventSource(`/api/events${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  const on = (name, f) => events.addEventListener(name, (e) => f(JSON.parse(e.data)));
  on("plan", onPlan);
  on("frames", onFrames);
  on("progress", onProgress);
  on("step", onStep);
  on("idle", (d) => { if (d.run === st.run) $("#frames-status").textContent = w("idle"); });
  on("render", onRenderEvent);
  on("file", onFile);
  on("numbers", (d) => { if (d.edit > st.edit) { newRun(d.run); refresh(); } });
  on("fault", (d) => { if (d.run === st.run) $("#frames-status").textContent = d.message; });
  on("hello", () => {});
}

async function main() {
  const [lesson, page] = await Promise.all([api("GET", "/api/lesson"), api("GET", "/api/page")]);
  st.words = page.json.page.studio_words;
  st.edit = page.json.edit;
  frame(lesson.json.path);
  $("#title").textContent = w("page_title", { title: page.json.page.titles[st.lang] });
  document.title = $("#title").textContent;
  startEditor(lesson.json.text, page.json.page.palette);
  showSaved(lesson.json.saved);
  showProblem(lesson.json.error);
  Explorer.start(page.json.page, serverCore(page.json.page), { editable: false });
  $("#save").onclick = save;
  $("#render-form").onsubmit = onRender;
  listen();
  document.body.dataset.ready = "true";
}

main();
