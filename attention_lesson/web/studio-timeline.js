/* The studio's stage: the selected step's frame, large, with its narration and timing, and under it the
 * timeline: every scene a block on one row, its steps segments as wide as they last (steps' times from
 * the frames' index), each in one state: fresh (up to date), stale (its inputs changed, not redrawn
 * yet), drawing or failed (its reason in its title). The states follow the server's events from the
 * moment of the edit: `plan` (which scenes are stale), `progress` (a step begun), `step` (a step's frame
 * drawn), `frames` (a scene done), `fault` (a scene failed).
 *
 * The plan names each scene's steps' count (from its source), so every step has its segment, stale, from
 * the first event on: the page opens on the first step of the first scene, or on the step selected last
 * time (kept in the browser, by lesson file), and says "step n of N" right before a step is drawn.
 * A scene's block is named by its short name (the catalog's `short`), its whole title in its tooltip.
 *
 * Keyboard: the timeline is one tab stop (a roving tabindex); ←/→ the previous/next step, Home/End the
 * first/last. The selection survives redraws: a redrawn step replaces what is shown.
 */
const { $, esc } = window.AL;
const T = { scenes: [], steps: {}, state: {}, reason: {}, sel: null, run: null, w: null, onSelect: null,
  memory: null };

/** Start the stage: `word` the studio's words, `onSelect(scene, n)` told when the selection moves (not when
 *  a first selection is made: then too, once the plan has come), `memory` the key the selection is kept
 *  under in the browser (the lesson file's path). */
export function startStage(word, onSelect, memory = null) {
  T.word = word;
  T.onSelect = onSelect;
  T.memory = memory ? `attention-lesson studio step: ${memory}` : null;
  $("#timeline").addEventListener("click", (e) => {
    const seg = /** @type {HTMLElement} */ (/** @type {Element} */ (e.target).closest(".seg"));
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

/** A step not drawn yet (only its place is known): as wide as a second, no frame, no name. */
const unknown = (state) => ({ seconds: 1, narration: "", state });

/** A new run's plan: every scene in order, with as many steps as it has; the stale ones (and each of
 *  their steps) stale at once. The first plan selects the step to show. */
export function onPlan(d) {
  T.run = d.run;
  T.scenes = d.scenes;
  for (const s of d.scenes) {
    T.state[s.id] = s.stale ? "stale" : "fresh";
    const steps = (T.steps[s.id] = T.steps[s.id] || []);
    while (steps.length < (s.steps || 0)) steps.push(unknown("stale"));
    for (const step of steps) step.state = s.stale || !step.src ? "stale" : "fresh";
  }
  if (!T.sel || !T.scenes.some((s) => s.id === T.sel.scene)) return select(...firstStep());
  draw();
}

/** The step the page opens on: the one selected last time, if the lesson still has it, else the first
 *  step of the first scene. */
function firstStep() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(T.memory) || "null"); } catch { kept = null; }
  const scene = kept && T.scenes.find((s) => s.id === kept.scene);
  if (scene && Number.isInteger(kept.n) && kept.n >= 1 && kept.n <= (T.steps[scene.id] || []).length) {
    return [kept.scene, kept.n];
  }
  return T.scenes.length ? [T.scenes[0].id, 1] : [null, 1];
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
  while (steps.length < d.n - 1) steps.push(unknown("stale"));
  steps[d.n - 1] = { ...(steps[d.n - 1] || unknown()), step: d.step, state: "fresh", src: d.frame };
  draw();
}

export function onFault(d) {
  if (d.run !== T.run || !d.scene) return;
  T.state[d.scene] = "failed";
  T.reason[d.scene] = d.message;
  for (const s of T.steps[d.scene] || []) if (s.state !== "fresh") s.state = "failed";
  draw();
}

/** A step's name for people (the catalog's, by its id), else its id. */
export const stepName = (scene, step) => (scene && scene.names && scene.names[step]) || step;

function segment(scene, s, n) {
  const on = T.sel && T.sel.scene === scene.id && T.sel.n === n;
  const name = s.step ? `: ${stepName(scene, s.step)}` : "";
  const label = `${scene.title}, ${T.word("step_n", { n })}${name} (${T.word(`state_${s.state}`)})`;
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
    `${esc(scene.short || scene.title)}</div><div class="segs" role="tablist" aria-label="${esc(scene.title)}">` +
    `${segs}</div></div>`;
}

/** The timeline and the preview, from the state. */
function draw() {
  const focused = document.activeElement && document.activeElement.closest("#timeline");
  $("#timeline").innerHTML = T.scenes.map(block).join("");
  document.body.dataset.timeline = T.scenes.map((s) => `${s.id}:${T.state[s.id]}`).join(" ");
  if (focused) focusSelected();
  preview();
}

function focusSelected() {
  const seg = /** @type {HTMLElement} */ (document.querySelector("#timeline .seg[aria-selected=true]"));
  if (seg) seg.focus();
}

/** Select a step (from a click, a key or the first plan): the preview follows, the browser keeps it. */
export function select(scene, n, byUser = false) {
  T.sel = scene === null ? null : { scene, n };
  draw();
  if (byUser) focusSelected();
  if (T.sel && T.memory) {
    try { localStorage.setItem(T.memory, JSON.stringify(T.sel)); } catch { /* storage off: not kept */ }
  }
  if (T.sel && T.onSelect) T.onSelect(scene, n);
}

function preview() {
  const img = /** @type {HTMLImageElement} */ ($("#preview-img"));
  const steps = T.sel ? T.steps[T.sel.scene] || [] : [];
  const s = T.sel ? steps[T.sel.n - 1] : null;
  const scene = T.sel ? T.scenes.find((x) => x.id === T.sel.scene) : null;
  $("#stage").dataset.state = s ? s.state : "empty";
  if (!s || !scene) {
    img.removeAttribute("src");
    $("#preview-caption").textContent = T.word("no_frame");
    $("#narration").textContent = "";
    return;
  }
  if (!s.src) img.removeAttribute("src");
  else if (img.getAttribute("src") !== s.src) img.src = s.src;
  const named = stepName(scene, s.step);
  img.alt = s.step ? `${scene.title}, ${T.word("step_n", { n: T.sel.n })}: ${named}. ${s.narration || ""}` : "";
  $("#preview-caption").textContent = caption(scene, steps, s) + ` · ${T.word(`state_${s.state}`)}`;
  $("#narration").textContent = s.narration || "";
  $("#stage").dataset.scene = scene.id;
  $("#stage").dataset.n = T.sel.n;
}

/** "Scene · step n of N: name · 1.5 s, from 3.0 s"; without "from" while a step before it is not drawn
 *  yet, and for a step never drawn (its name and length not known yet) "Scene · step n of N". */
function caption(scene, steps, s) {
  const fields = { scene: scene.title, n: T.sel.n, total: steps.length };
  if (!s.step) return T.word("step_of_new", fields);
  const before = steps.slice(0, T.sel.n - 1);
  const start = before.reduce((a, x) => a + (x.seconds || 0), 0);
  const key = before.every((x) => x.step) ? "step_of" : "step_of_part";
  return T.word(key, { ...fields, step: stepName(scene, s.step), seconds: (s.seconds || 0).toFixed(1), start: start.toFixed(1) });
}
