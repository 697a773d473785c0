/* The studio's stage: the selected step's frame, large, with its narration and timing, and under it the
 * timeline: every scene a block on one row, its steps segments as wide as they last (steps' times from
 * the frames' index), each in one state: fresh (up to date), stale (its inputs changed, not redrawn
 * yet), drawing or failed (its reason in its title). The states follow the server's events from the
 * moment of the edit: `plan` (which scenes are stale), `progress` (a step begun), `step` (a step's frame
 * drawn), `frames` (a scene done), `fault` (a scene failed).
 *
 * Keyboard: the timeline is one tab stop (a roving tabindex); ←/→ the previous/next step, Home/End the
 * first/last. The selection survives redraws: a redrawn step replaces what is shown.
 */
const { $, esc } = window.AL;
const T = { scenes: [], steps: {}, state: {}, reason: {}, sel: null, run: null, w: null, onSelect: null };

/** Start the stage: `w` the studio's words, `onSelect(scene)` told when the selection moves. */
export function startStage(w, onSelect) {
  T.w = w;
  T.onSelect = onSelect;
  $("#timeline").addEventListener("click", (e) => {
    const seg = e.target.closest(".seg");
    if (seg) select(seg.dataset.scene, +seg.dataset.n, true);
  });
  $("#timeline").addEventListener("keydown", onKey);
}

export const selected = () => T.sel;

function flat() {
  return T.scenes.flatMap((s) => (T.steps[s.id] || []).map((_, i) => [s.id, i + 1]));
}

function onKey(e) {
  const all = flat();
  if (!all.length) return;
  const at = T.sel ? all.findIndex(([s, n]) => s === T.sel.scene && n === T.sel.n) : -1;
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const [scene, n] = all[Math.max(0, Math.min(all.length - 1, to))];
  select(scene, n, true);
}

/** A new run's plan: every scene in order; the stale ones (and each of their steps) stale at once. */
export function onPlan(d) {
  T.run = d.run;
  T.scenes = d.scenes;
  for (const s of d.scenes) {
    T.state[s.id] = s.stale ? "stale" : "fresh";
    for (const step of T.steps[s.id] || []) step.state = s.stale ? "stale" : "fresh";
  }
  draw();
}

/** A scene's steps, drawn or unchanged: their frames, narration and lengths; all fresh. */
export function onFrames(d) {
  if (d.run !== T.run) return;
  T.steps[d.scene] = d.steps.map((s) => ({ ...s, state: "fresh",
    src: `/files/${encodeURI(s.frame)}?run=${d.run}` }));
  T.state[d.scene] = "fresh";
  delete T.reason[d.scene];
  draw();
}

/** A step begun: it and its scene are drawing. */
export function onProgress(d) {
  if (d.run !== T.run) return;
  T.state[d.scene] = "drawing";
  const steps = T.steps[d.scene] || [];
  const step = steps.find((s) => s.step === d.step && s.state !== "fresh");
  if (step) step.state = "drawing";
  draw();
}

/** A step's frame drawn (before its scene is done): shown at once if it is the one selected. The steps
 * before it that no event has told of yet (a piece of the scene drawn by another worker, a first run)
 * stand as not drawn yet: the list has no holes for find() and for...of to meet as undefined. */
export function onStep(d) {
  if (d.run !== T.run) return;
  const steps = (T.steps[d.scene] = T.steps[d.scene] || []);
  while (steps.length < d.n - 1) steps.push({ seconds: 1, narration: "", state: "stale" });
  steps[d.n - 1] = { ...(steps[d.n - 1] || { seconds: 1, narration: "" }), step: d.step, state: "fresh",
    src: d.frame };
  draw();
}

export function onFault(d) {
  if (d.run !== T.run || !d.scene) return;
  T.state[d.scene] = "failed";
  T.reason[d.scene] = d.message;
  for (const s of T.steps[d.scene] || []) if (s.state !== "fresh") s.state = "failed";
  draw();
}

function segment(scene, s, n) {
  const on = T.sel && T.sel.scene === scene.id && T.sel.n === n;
  const label = `${scene.title}, ${T.w("step_n", { n })}: ${s.step} (${T.w(`state_${s.state}`)})`;
  return `<button type="button" class="seg" role="tab" data-scene="${esc(scene.id)}" data-n="${n}"` +
    ` data-state="${s.state}" aria-selected="${on}" tabindex="${on ? 0 : -1}" style="flex-grow:${s.seconds || 1}"` +
    ` aria-label="${esc(label)}" title="${esc(label)}"></button>`;
}

const length = (id) => (T.steps[id] || []).reduce((a, s) => a + (s.seconds || 1), 0);

/** A scene not drawn yet is as wide as the drawn ones are on average. */
function typical() {
  const known = T.scenes.map((s) => length(s.id)).filter((x) => x > 0);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
}

function block(scene) {
  const steps = T.steps[scene.id] || [];
  const total = length(scene.id) || typical();
  const state = T.state[scene.id] || "stale";
  const why = T.reason[scene.id] ? `: ${T.reason[scene.id]}` : "";
  // a scene not drawn yet: one placeholder, whose click selects its first step (shown once drawn)
  const segs = steps.length ? steps.map((s, i) => segment(scene, s, i + 1)).join("")
    : `<span class="seg empty" data-scene="${esc(scene.id)}" data-n="1" data-state="${state}"></span>`;
  return `<div class="block" data-scene="${esc(scene.id)}" data-state="${state}" style="flex-grow:${total}"` +
    ` title="${esc(scene.title + why)}"><div class="name"><span class="dot" aria-hidden="true"></span>` +
    `${esc(scene.title)}</div><div class="segs" role="tablist" aria-label="${esc(scene.title)}">${segs}</div></div>`;
}

/** The timeline and the preview, from the state. */
function draw() {
  if (!T.sel && flat().length) [T.sel] = flat().map(([scene, n]) => ({ scene, n }));
  const focused = document.activeElement && document.activeElement.closest("#timeline");
  $("#timeline").innerHTML = T.scenes.map(block).join("");
  document.body.dataset.timeline = T.scenes.map((s) => `${s.id}:${T.state[s.id]}`).join(" ");
  if (focused) focusSelected();
  preview();
}

function focusSelected() {
  const seg = document.querySelector("#timeline .seg[aria-selected=true]");
  if (seg) seg.focus();
}

/** Select a step (from a click, a key or a restored selection): the preview follows. */
export function select(scene, n, byUser = false) {
  T.sel = { scene, n };
  draw();
  if (byUser) focusSelected();
  if (T.onSelect) T.onSelect(scene);
}

function preview() {
  const img = $("#preview-img");
  const steps = T.sel ? T.steps[T.sel.scene] || [] : [];
  const s = T.sel ? steps[T.sel.n - 1] : null;
  const scene = T.sel ? T.scenes.find((x) => x.id === T.sel.scene) : null;
  $("#stage").dataset.state = s ? s.state : "empty";
  if (!s || !scene) {
    img.removeAttribute("src");
    $("#preview-caption").textContent = T.w("no_frame");
    $("#narration").textContent = "";
    return;
  }
  if (s.src && img.getAttribute("src") !== s.src) img.src = s.src;
  img.alt = `${scene.title}, ${T.w("step_n", { n: T.sel.n })}: ${s.step}. ${s.narration || ""}`;
  const start = steps.slice(0, T.sel.n - 1).reduce((a, x) => a + (x.seconds || 0), 0);
  $("#preview-caption").textContent = T.w("step_of", { scene: scene.title, n: T.sel.n, total: steps.length,
    step: s.step, seconds: (s.seconds || 0).toFixed(1), start: start.toFixed(1) }) +
    ` · ${T.w(`state_${s.state}`)}`;
  $("#narration").textContent = s.narration || "";
  $("#stage").dataset.scene = scene.id;
  $("#stage").dataset.n = T.sel.n;
}
