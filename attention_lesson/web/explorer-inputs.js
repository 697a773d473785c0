/* The explorer's inputs (a part of the explorer; see explorer.js): a number field per entry of X and of
 * each W (with several heads: the shown head's W's, and W_O), a slider per matrix for the field last
 * focused, and the marks of the entries edited. Only the
 * explorer has them; the studio edits the lesson's text instead.
 */
(function (AL) {
  "use strict";

  const { $, esc } = AL;
  const { MATRICES, data, S, word, tokens, dimNames, hasHeads, headName } = AL.state;

  /** A number field; head: the head whose W it edits (a lesson of several heads), else "". */
  function inputCell(matrix, r, c, value, label, head) {
    const of = head ? ` data-head="${esc(head)}"` : "";
    return `<td><input type="number" step="any" inputmode="decimal" data-matrix="${matrix}"${of} ` +
      `data-r="${r}" data-c="${c}" value="${value}" aria-label="${esc(label)}"></td>`;
  }

  /** rows: [{name, values, key}] where key names the state's row (a token of vocab, or a W's row);
   *  short: the fields' names start with it (the caption's words before its colon by default). */
  function editableTable(id, caption, matrix, rows, cols, { head = "", short = caption.split(":")[0] } = {}) {
    const top = `<tr><th></th>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>`;
    const body = rows.map(({ name, values, key }) => `<tr><th scope="row">${esc(name)}</th>` +
      values.map((v, c) => inputCell(matrix, key, c, v, `${short} ${name}, ${cols[c]}`, head)).join("") +
      "</tr>").join("");
    const slider = `<label class="slider"><span class="slider-label">${esc(word("slider_none"))}</span>` +
      `<input type="range" data-for="${matrix}" min="-3" max="3" step="0.01" value="0" disabled></label>`;
    return `<section class="box edit-box" id="${id}"><h3>${esc(caption)} <span class="edited-count"></span>` +
      `</h3><div class="scroll"><table class="matrix edit">${top}${body}</table></div>${slider}</section>`;
  }

  /** X's rows of the context's tokens (each once). */
  function xHtml() {
    const seen = tokens().filter((t, i, all) => all.indexOf(t) === i);
    const xRows = seen.map((t) => ({ name: t, values: S.vocab[t], key: t }));
    return editableTable("edit-x", word("x"), "x", xRows, dimNames(Object.values(S.vocab)[0].length));
  }

  /** W_Q, W_K and W_V: the lesson's, or (several heads) the shown head's. */
  function weightsHtml() {
    const ws = hasHeads() ? S.heads[S.head] : S;
    const inNames = dimNames(ws.w_q.length);
    return MATRICES.map((m) => {
      const cols = m === "w_v" ? dimNames(ws[m][0].length) : ws[m][0].map((_, j) => `${j + 1}`);
      const rows = ws[m].map((values, r) => ({ name: inNames[r], values, key: r }));
      const hint = `(${word("w_hint")})`;
      if (!hasHeads()) return editableTable(`edit-${m}`, `${word(m)} ${hint}`, m, rows, cols);
      const head = headName(S.head);
      const short = `${word(m).split(":")[0]} (${head})`;
      return editableTable(`edit-${m}`, `${word("head_w", { w: word(m), head })} ${hint}`, m, rows, cols,
        { head: S.head, short });
    }).join("");
  }

  /** W_O (several heads): rows = the heads' outputs side by side, columns = the embedding's. */
  function woHtml() {
    const cols = dimNames(S.w_o[0].length);
    const names = data.lesson.heads.flatMap((h) => dimNames(h.w_v[0].length)
      .map((d) => word("w_o_row", { head: headName(h.key), i: d })));
    const rows = S.w_o.map((values, r) => ({ name: names[r], values, key: r }));
    return editableTable("edit-w_o", word("w_o", { n: cols.length }), "w_o", rows, cols, { short: "W_O" });
  }

  /** X's rows, then W_Q, W_K and W_V (a lesson of one head: all in one grid). */
  const inputsHtml = () => xHtml() + weightsHtml();

  /** The row in S of a field, or in the lesson (from = data.lesson). */
  function rowOf(input, from) {
    const { matrix, r, head } = input.dataset;
    if (matrix === "x") return from.vocab[r];
    if (matrix === "w_o") return from.w_o[Number(r)];
    if (!head) return from[matrix][Number(r)];
    return from === S ? S.heads[head][matrix][Number(r)]
      : from.heads.find((h) => h.key === head)[matrix][Number(r)];
  }

  /** A field's row in S and its column. */
  const cellOf = (input) => [rowOf(input, S), Number(input.dataset.c)];

  /** A field's value in the lesson. */
  const lessonValue = (input) => rowOf(input, data.lesson)[Number(input.dataset.c)];

  /** After an edit: the fields' edited marks and counts, and every field of the same entry. */
  function markEdited() {
    for (const box of document.querySelectorAll("#app .edit-box")) {
      let n = 0;
      for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("input[type=number]"))) {
        const [row, c] = cellOf(input);
        if (Number(input.value) !== row[c] && document.activeElement !== input) input.value = String(row[c]);
        const edited = row[c] !== lessonValue(input);
        input.classList.toggle("edited", edited);
        n += edited ? 1 : 0;
      }
      $(".edited-count", box).textContent = n ? `(${word("edited")}: ${n})` : "";
    }
  }

  /** The box's slider now moves this field. */
  function bindSlider(input) {
    const box = input.closest(".box");
    const slider = /** @type {Slider} */ ($("input[type=range]", box));
    const span = Math.max(3, Math.ceil(2 * Math.abs(lessonValue(input))));
    Object.assign(slider, { min: -span, max: span, disabled: false });
    slider.value = String(Number(input.value));
    slider.target = input;
    const label = word("slider", { cell: input.getAttribute("aria-label") });
    $(".slider-label", box).textContent = label;
    slider.setAttribute("aria-label", label);
  }

  /** A field's text into S; whether it was a number (else the field is marked invalid, S unchanged). */
  function setEntry(input, text) {
    const value = text.trim() === "" ? NaN : Number(text);
    input.setAttribute("aria-invalid", String(!Number.isFinite(value)));
    if (!Number.isFinite(value)) return false;
    const [row, c] = cellOf(input);
    row[c] = value;
    return true;
  }

  AL.inputs = { inputsHtml, xHtml, weightsHtml, woHtml, markEdited, bindSlider, setEntry };
})(window.AL);
