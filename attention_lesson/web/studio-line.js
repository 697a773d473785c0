/* The selected step's narration line in the teacher's own words (the server's studio/line_api.py): the
 * line the step says, as a field (the text in use, its placeholders kept: the built-in line or the
 * teacher's own, the field says which); Save writes it into the lesson's words folder (the folder and the
 * lesson file's `words = "words"` made on the first edit) and the step is redrawn; the built-in line
 * comes back with Revert; the draft voice reads the line as the step was drawn with it.
 *
 * Nothing typed is lost: a line's unsaved text is kept (by its key) while other steps are looked at and
 * while the step is redrawn, and a refused line (a broken placeholder) stays in the field with the
 * reason under it. */

const { $, esc } = window.AL;

/** The line's functions, given the page's request helper, state, words, and its editor and run helpers. */
export function lineEditor(page) {
  const E = { ...page, L: { sel: null, line: null, drafts: {}, asked: 0, store: null } };
  return { form: () => form(E), start: (path) => start(E, path), show: (scene, n) => show(E, scene, n),
    onFrames: (d) => onFrames(E, d) };
}

/** The field, under the step's frame and narration. */
function form({ word, studio }) {
  return `<form id="line-form" class="line-form" data-state="wait" novalidate>
    <div class="line-head"><label for="line-text">${esc(word("line_label"))}</label>
      <span id="line-kind" class="line-kind"></span> <span id="line-hint" class="hint"></span></div>
    <textarea id="line-text" rows="1" lang="${esc(studio.lang)}" disabled
      aria-describedby="line-kind line-hint line-status"></textarea>
    <div class="line-buttons"><button type="submit" id="line-save" disabled>${esc(word("line_save"))}</button>
      <button type="button" id="line-revert" disabled>${esc(word("line_revert"))}</button>
      <button type="button" id="line-voice" disabled>${esc(word("line_voice"))}</button>
      <span id="line-status" role="status"></span></div>
    <div id="line-problem" role="alert" hidden></div>
    <audio id="line-audio" hidden></audio>
  </form>`;
}

const field = () => /** @type {HTMLTextAreaElement} */ ($("#line-text"));
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
const draftKey = (E, key) => `${E.studio.lang}|${key}`;

function problem({ word }, message) {
  const box = $("#line-problem");
  box.hidden = !message;
  box.innerHTML = message ? `<strong>${esc(word("line_refused"))}</strong> ${esc(message)}` : "";
}

/** The form for a line (null: the step not drawn yet; key null: a line that is no catalog line). */
function fill(E, line) {
  const { L, word } = E;
  L.line = line;
  const editable = Boolean(line && line.key);
  $("#line-form").dataset.state = !line ? "wait" : editable ? (line.own ? "own" : "builtin") : "fixed";
  field().disabled = !editable;
  field().value = editable ? (L.drafts[draftKey(E, line.key)] ?? line.text) : (line ? line.said : "");
  button("#line-save").disabled = !editable;
  button("#line-revert").disabled = !editable || !line.own;
  button("#line-voice").disabled = !line;
  $("#line-kind").textContent = !line ? word("line_wait") : !editable ? word("line_fixed")
    : line.own ? word("line_own", { file: line.file }) : word("line_builtin");
  fit();
  const names = editable ? line.placeholders.map((p) => `{${p}}`).join(" ") : "";
  $("#line-hint").textContent = names ? word("line_takes", { names }) : "";
}

/** The field as tall as its text (a long line on a phone wraps onto several rows). */
function fit() {
  const f = field();
  f.style.height = "auto";
  f.style.height = `${f.scrollHeight + 2}px`;
}

/** The line of step n of `scene` (a new selection, the scene drawn again: what was said of the last
 *  save is done). */
async function show(E, scene, n) {
  keep(E);
  $("#line-status").textContent = "";
  E.L.sel = { scene, n };
  const asked = ++E.L.asked;
  let r;
  try { r = await E.api("GET", `/api/line?scene=${encodeURIComponent(scene)}&n=${n}`); } catch { return; }
  if (asked !== E.L.asked) return; // a newer selection came meanwhile
  fill(E, r.status === 200 && r.json.drawn ? r.json : null);
}

/** The field's text, kept by its line's key (and language) while it differs from the line in use: in
 *  the tab's session storage too, so a new language's page (a reload) finds it. */
function keep(E) {
  const { L } = E;
  if (!L.line || !L.line.key || field().disabled) return;
  if (field().value !== L.line.text) L.drafts[draftKey(E, L.line.key)] = field().value;
  else delete L.drafts[draftKey(E, L.line.key)];
  store(E);
}

function store({ L }) {
  try { sessionStorage.setItem(L.store, JSON.stringify(L.drafts)); } catch { /* storage off: kept in the page */ }
}

/** A line typed and not saved: the browser asks before the page goes (not for a new language's page). */
function unsaved({ L }) {
  return Boolean(L.line && L.line.key && !field().disabled && field().value !== L.line.text);
}

/** A scene's frames drawn: the selected step's line again (its text as the step now says it). */
function onFrames(E, d) {
  const { sel } = E.L;
  if (sel && d.scene === sel.scene && d.run === E.studio.run) show(E, sel.scene, sel.n);
}

async function save(E, e) {
  e.preventDefault();
  const { L } = E;
  if (!L.line || !L.line.key) return;
  const key = L.line.key;
  const text = field().value;
  L.drafts[draftKey(E, key)] = text;
  store(E);
  const r = await E.api("PUT", "/api/line", { key, text });
  if (r.status !== 200) return problem(E, r.json.error.message);
  problem(E, null);
  delete L.drafts[draftKey(E, key)];
  store(E);
  fill(E, { ...L.line, text, own: true, file: r.json.file });
  // a line that leaves out a placeholder is saved, with its warning after the word that it is
  const saved = E.word("line_saved", { file: r.json.file });
  $("#line-status").textContent = r.json.warning ? `${saved} ${r.json.warning}` : saved;
  changed(E, r.json);
}

async function revert(E) {
  const { L } = E;
  if (!L.line || !L.line.key) return;
  const key = L.line.key;
  const r = await E.api("POST", "/api/line/revert", { key });
  if (r.status !== 200) return problem(E, r.json.error.message);
  problem(E, null);
  delete L.drafts[draftKey(E, key)];
  store(E);
  fill(E, { ...L.line, text: L.line.builtin, own: false });
  $("#line-status").textContent = E.word("line_reverted");
  changed(E, r.json);
}

/** A line written: the lesson file's new text in the editor (its first edit named the folder), and
 *  the new run's frames. */
function changed({ setText, showSaved, newRun }, d) {
  if (d.lesson !== null && d.lesson !== undefined) {
    setText(d.lesson);
    showSaved(d.saved);
  }
  newRun(d.run);
  $("#line-status").dataset.run = String(d.run);
}

async function voice({ L, api, word }) {
  if (!L.sel) return;
  const r = await api("POST", "/api/line/voice", L.sel);
  if (r.status !== 200) return void ($("#line-status").textContent = r.status === 409 ? word("line_voice_wait")
    : r.json.error.message);
  const audio = /** @type {HTMLAudioElement} */ ($("#line-audio"));
  audio.src = `/files/${encodeURI(r.json.audio)}`;
  audio.play().catch(() => {}); // the press is the gesture that lets it play
}

/** Start the form; `path` the lesson file's (its lines' unsaved texts are kept under it). */
function start(E, path) {
  const { L } = E;
  L.store = `attention-lesson studio lines: ${path}`;
  try { L.drafts = JSON.parse(sessionStorage.getItem(L.store) || "{}") || {}; } catch { L.drafts = {}; }
  window.addEventListener("beforeunload", (e) => {
    keep(E);
    if (E.studio.leaving || !unsaved(E)) return;
    e.preventDefault();
    e.returnValue = "";
  });
  $("#line-form").onsubmit = (e) => save(E, e);
  $("#line-revert").onclick = () => revert(E);
  $("#line-voice").onclick = () => voice(E);
  field().addEventListener("input", () => { fit(); keep(E); });
  window.addEventListener("resize", fit); // a narrower window wraps the line onto more rows
  field().addEventListener("keydown", (e) => { // Ctrl/⌘+Enter saves the line
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) save(E, e);
  });
  fill(E, null);
}
