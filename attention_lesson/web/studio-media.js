/* The studio's videos: Play on the selected step (its clip, drawn alone first when the scene is not
 * drawn as a video yet: studio/clips.py), and the render form's jobs with where their files are. */

import * as timeline from "./studio-timeline.js";

const { $, esc } = window.AL;

/** The page's media functions, given the page's request helper, state, words and problem line. */
export function media(page) {
  return { play: () => play(page), onClip: (d) => onClip(page, d), stopPlaying: () => stopPlaying(page),
    onRender: (e) => onRender(page, e), onRenderEvent: (d) => onRenderEvent(page, d) };
}

/** Play the selected step's clip (the scene drawn as a video at the studio's quality, a clip a step):
 *  at once when it is drawn, else when its `clip` event comes (the step alone is drawn first). */
async function play(M) {
  const { api, studio, showProblem } = M;
  const sel = timeline.selected();
  if (!sel) return;
  if (studio.editing) { // an edit not answered yet: the press waits for its text's clip (studio.js newRun)
    stopPlaying(M);
    studio.playing = { ...sel };
    return waiting(M, sel.n);
  }
  const video = /** @type {HTMLVideoElement} */ ($("#preview-video"));
  if (!video.hidden && video.getAttribute("src") && studio.playing?.scene === sel.scene && studio.playing.n === sel.n) {
    video.currentTime = 0; // this step's clip is on screen: from its start again
    return void video.play().catch(() => {});
  }
  const press = (studio.playing = { ...sel }); // this press (a later one, or an edit, replaces it)
  waiting(M, sel.n);
  const r = await api("POST", `/api/clip?scene=${encodeURIComponent(sel.scene)}&n=${sel.n}`);
  if (studio.playing !== press) return; // a new selection or an edit came meanwhile
  if (r.status !== 200) {
    waiting(M, null);
    return showProblem(r.json.error);
  }
  studio.clipRun = r.json.run; // the clip events of this text's run only
  if (r.json.ready) onClip(M, r.json);
}

/** The Play button says what it waits for (step n drawn as a video), or is Play again (n null). */
function waiting({ word }, n) {
  const button = $("#play");
  button.textContent = n === null ? word("play") : word("play_waiting", { n });
  button.setAttribute("aria-busy", String(n !== null));
  button.dataset.waiting = n === null ? "" : String(n);
}

function onClip(M, d) {
  const { studio, word } = M;
  const sel = studio.playing;
  if (!sel || d.scene !== sel.scene || (d.n && d.n !== sel.n)) return; // d.n: one step's clip
  if (d.run !== studio.clipRun) return; // a clip of an older text (its request was cancelled by an edit)
  waiting(M, null);
  if (!d.ready) return void ($("#frames-status").textContent = d.message || word("state_failed"));
  const src = `/files/${encodeURI(d.n ? d.clips[0] : d.clips[sel.n - 1] || d.clips[0])}`;
  const video = /** @type {HTMLVideoElement} */ ($("#preview-video"));
  if (!video.hidden && video.getAttribute("src")) return; // a clip of this step plays already
  video.src = src;
  video.hidden = false;
  $("#preview-img").hidden = true;
  $("#frames-status").textContent = "";
  video.play().catch(() => {}); // a press on Play is the gesture that lets it start
}

/** Back to the step's frame (a new selection, a new edit). */
function stopPlaying(M) {
  M.studio.playing = null;
  waiting(M, null);
  const video = /** @type {HTMLVideoElement} */ ($("#preview-video"));
  video.pause();
  video.removeAttribute("src");
  video.hidden = true;
  $("#preview-img").hidden = false;
}

async function onRender({ api, word }, e) {
  e.preventDefault();
  const body = Object.fromEntries([...new FormData(e.target).entries()].filter(([, v]) => v !== ""));
  const r = await api("POST", "/api/render", body);
  if (r.status !== 202) { // a render refused (a words folder that cannot give its language): said in the
    // render list, not as the lesson text's problem (the text is fine)
    const said = word("failed", { product: word(`product_${body.product}`), message: r.json.error.message });
    $("#renders").insertAdjacentHTML("afterbegin", `<li data-state="failed"><span class="what">${esc(said)}</span></li>`);
    return;
  }
  $("#renders").insertAdjacentHTML("afterbegin", `<li data-job="${r.json.job}"><progress max="1" value="0"></progress> ` +
    `<span class="what">${esc(word("started", { product: word(`product_${body.product}`) }))}</span></li>`);
}

function fileLinks(word, files) {
  const main = files.filter((f) => /(lesson\.[a-z0-9]+|index\.html|deck\.pptx|handout\.pdf)$/.test(f));
  const where = (f) => `<code class="where">media/${esc(f)}</code>`; // where the file is, on this machine
  return (main.length ? main : files.slice(0, 3)).map((f) => /\.(mp4|webm)$/.test(f)
    ? `<video controls preload="metadata" src="/files/${encodeURI(f)}"></video> ${where(f)}`
    : `<a href="/files/${encodeURI(f)}" target="_blank" rel="noopener">${esc(word("open"))}: ` +
      `${esc(f.split("/").pop())}</a> ${where(f)}`).join(" ");
}

function onRenderEvent({ word }, d) {
  const li = /** @type {HTMLElement} */ (document.querySelector(`#renders li[data-job="${d.job}"]`));
  if (!li) return;
  const product = word(`product_${d.product}`);
  li.dataset.state = d.state;
  if (d.state === "running" && d.total) {
    li.querySelector("progress").value = d.done / d.total;
    li.querySelector(".what").textContent = word("running", { product, done: d.done, total: d.total });
  } else if (d.state === "done") {
    li.querySelector("progress").value = 1;
    li.querySelector(".what").innerHTML = `${esc(word("done", { product }))} ${fileLinks(word, d.files)}`;
  } else if (d.state === "failed") {
    li.querySelector(".what").textContent = word("failed", { product, message: d.message });
  }
}
