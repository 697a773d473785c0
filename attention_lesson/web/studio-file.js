/* The studio's file, so that nothing typed is lost: the file changed by another editor (replaced, or in
 * conflict with unsaved edits here), the edits a stopped studio kept (restore or discard), Revert to
 * saved, and the browser asking before a page with unsaved edits goes. */

const { $, esc } = window.AL;

/** The page's file functions, given its request helper, words and the editor's text helpers. */
export function fileGuards(page) {
  return {
    onFile: (d) => onFile(page, d),
    offerRecovery: (lesson) => offerRecovery(page, lesson),
    revert: () => revert(page),
    guardLeaving: () => guardLeaving(page),
  };
}

/** The file changed on disk: its text here (no unsaved edits), or the choice between the two. */
function onFile({ word, setText, send, showSaved, refresh }, d) {
  const box = $("#disk");
  box.hidden = false;
  if (d.state === "replaced") {
    setText(d.text);
    showSaved(true);
    box.textContent = word("disk_replaced");
    return refresh();
  }
  box.innerHTML = `${esc(word("disk_conflict"))} <button type="button" id="load-disk">${esc(word("load_disk"))}</button>` +
    ` <button type="button" id="keep-mine">${esc(word("keep_mine"))}</button>`;
  $("#load-disk").onclick = () => { box.hidden = true; setText(d.text); send(); };
  $("#keep-mine").onclick = () => { box.hidden = true; };
}

/** Edits the last session kept (the studio stopped with them unsaved): restore them or let them go. */
function offerRecovery({ api, word, setText, send }, lesson) {
  if (!lesson.recovery) return;
  const box = $("#recovery");
  box.hidden = false;
  box.innerHTML = `${esc(word("recovery", { path: lesson.recovery_path }))} <button type="button" id="restore">` +
    `${esc(word("restore"))}</button> <button type="button" id="discard">${esc(word("discard"))}</button>`;
  $("#restore").onclick = () => { box.hidden = true; setText(lesson.recovery); send(); };
  $("#discard").onclick = async () => { box.hidden = true; await api("POST", "/api/recovery/discard"); };
}

async function revert({ api, setText, send }) {
  const r = await api("GET", "/api/lesson");
  setText(r.json.disk);
  send();
}

function guardLeaving({ studio }) {
  window.addEventListener("beforeunload", (e) => {
    if (studio.leaving || $("#status").className !== "unsaved") return; // leaving: a new language's page
    e.preventDefault();
    e.returnValue = ""; // the browser asks before the page with unsaved edits goes
  });
}
