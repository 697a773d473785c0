/* The studio's render form: what to render (the lesson video, the decks, the handout), in which language
 * (every built-in one and the lesson's words folder's, the server's list), at which quality, with which
 * voice (each choice naming who speaks the render's language and what it can); the context, normalizer
 * and theme are the page's (its one bar), said under the form. */

const { $, esc } = window.AL;
const VOICE_LANGS = ["zh", "en", "ja"]; // the languages whose voices the catalogs describe

/** The form's functions, given the page's state, words and its `options(name, values)` helper. */
export function renderForm(page) {
  return { form: () => form(page), showLangs: (data, onchange) => showLangs(page, data, onchange),
    sync: () => sync(page) };
}

/** The form: what, in which language (the page's first), at which quality, with which voice. */
function form({ word, options }) {
  return `<form id="render-form">
      <label>${esc(word("product"))} <select name="product">${options("product", ["lesson", "html", "pptx", "handout"])}</select></label>
      <label>${esc(word("language"))} <select name="lang" id="render-lang"></select></label>
      <label>${esc(word("quality"))} <select name="quality">${options("quality", ["low", "medium", "high"])}</select></label>
      <label>${esc(word("voice"))} <select name="voice" id="render-voice"></select></label>
      <button type="submit" id="render">${esc(word("start"))}</button>
    </form><p id="render-with" class="hint"></p><ul id="renders" aria-live="polite"></ul>`;
}

/** The language choices, from the page's data (a words folder named since: a new page), each named in
 *  itself, the page's chosen. */
function showLangs({ studio }, data, onchange) {
  const select = /** @type {HTMLSelectElement} */ ($("#render-lang"));
  const chosen = select.value || studio.lang;
  select.innerHTML = (data.render_langs || [studio.lang]).map((l) =>
    `<option value="${esc(l)}" lang="${esc(l)}"${l === studio.lang ? " selected" : ""}>${esc(window.AL.langName(l))}</option>`).join("");
  select.value = (data.render_langs || []).includes(chosen) ? chosen : studio.lang;
  select.onchange = onchange;
}

/** The voice choices for a render language, each naming who speaks and what it can (the draft voice in
 *  Japanese names each kanji in English): voice_<v>_<lang> where the catalogs describe the language. */
function showVoices({ word }, lang) {
  const select = /** @type {HTMLSelectElement} */ ($("#render-voice"));
  const chosen = select.value || "none";
  select.innerHTML = ["none", "draft", "neural"].map((v) => {
    const key = v !== "none" && VOICE_LANGS.includes(lang) ? `voice_${v}_${lang}` : `voice_${v}`;
    return `<option value="${v}"${v === chosen ? " selected" : ""}>${esc(word(key))}</option>`;
  }).join("");
}

/** The form says the page's choices: its voices for the chosen language, and what the render takes from
 *  the page's bar. */
function sync(page) {
  const { studio, word } = page;
  const lang = /** @type {HTMLSelectElement} */ ($("#render-lang")).value || studio.lang;
  showVoices(page, lang);
  $("#render-with").textContent = word("render_with", { lang: window.AL.langName(lang),
    context: (studio.labels || {})[studio.context] || studio.context || "", mode: word(`mode_${studio.mode}`),
    theme: word(`theme_${studio.theme}`) });
}
