/* The explorer's inputs (a part of the explorer; see explorer.js): a number field per entry of X and of
 * each W, a slider per matrix for the field last focused, and the marks of the entries edited. Only the
 * explorer has them; the studio edits the lesson's text instead.
 */
(function (AL) {
  "use strict";

  const { $, esc } = AL;
  const { MATRICES, data, S, w, tokens, dimNames } = AL.state;

  function inputCell(matrix, r, c, value, label) {
    return `<td><input type="number" step="any" inputmode="decimal" data-matrix="${matrix}" data-r="${r}"` +
      ` data-c="${c}" value="${value}" aria-label="${esc(label)}"></td>`;
  }

  /** rows: [{name, values, key}] where key names the state's row (a token of vocab, or a W's row). */
  function editableTable(id, caption, matrix, rows, cols) {
    const head = `<tr><th></th>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>`;
    const short = caption.split(":")[0];
    const body = rows.map(({ name, values, key }) => `<tr><th scope="row">${esc(name)}</th>` +
      values.map((v, c) => inputCell(matrix, key, c, v, `${short} ${name}, ${cols[c]}`)).join("") +
      "</tr>").join("");
    const slider = `<label class="slider"><span class="slider-label">${esc(w("slider_none"))}</span>` +
      `<input type="range" data-for="${matrix}" min="-3" max="3" step="0.01" value="0" disabled></label>`;
    return `<section class="box" id="${id}"><h3>${esc(caption)} <span class="edited-count"></span></h3>` +
      `<div class="scroll"><table class="matrix edit">${head}${body}</table></div>${slider}</section>`;
  }

  /** X's rows of the context's tokens (each once), then W_Q, W_K and W_V. */
  function inputsHtml() {
    const inNames = dimNames(data.lesson.w_q.length);
    const seen = tokens().filter((t, i, all) => all.indexOf(t) === i);
    const xRows = seen.map((t) => ({ name: t, values: S.vocab[t], key: t }));
    const x = editableTable("edit-x", w("x"), "x", xRows, inNames);
    const ws = MATRICES.map((m) => {
      const cols = m === "w_v" ? dimNames(S[m][0].length) : S[m][0].map((_, j) => `${j + 1}`);
      const rows = S[m].map((values, r) => ({ name: inNames[r], values, key: r }));
      return editableTable(`edit-${m}`, `${w(m)} (${w("w_hint")})`, m, rows, cols);
    });
    return [x, ...ws].join("");
  }

  /** A field's row in S and its column. */
  function cellOf(input) {
    const { matrix, r, c } = input.dataset;
    return matrix === "x" ? [S.vocab[r], Number(c)] : [S[matrix][Number(r)], Number(c)];
  }

  /** A field's value in the lesson. */
  function lessonValue(input) {
    const { matrix, r, c } = input.dataset;
    return matrix === "x" ? data.lesson.vocab[r][c] : data.lesson[matrix][r][c];
  }

  /** After an edit: the fields' edited marks and counts, and every field of the same entry. */
  function markEdited() {
    for (const box of document.querySelectorAll("#inputs .box")) {
      let n = 0;
      for (const input of box.querySelectorAll("input[type=number]")) {
        const [row, c] = cellOf(input);
        if (Number(input.value) !== row[c] && document.activeElement !== input) input.value = row[c];
        const edited = row[c] !== lessonValue(input);
        input.classList.toggle("edited", edited);
        n += edited ? 1 : 0;
      }
      $(".edited-count", box).textContent = n ? `(${w("edited")}: ${n})` : "";
    }
  }

  /** The box's slider now moves this field. */
  function bindSlider(input) {
    const box = input.closest(".box");
    const slider = $("input[type=range]", box);
    const span = Math.max(3, Math.ceil(2 * Math.abs(lessonValue(input))));
    Object.assign(slider, { min: -span, max: span, disabled: false });
    slider.value = Number(input.value);
    slider.target = input;
    const label = w("slider", { cell: input.getAttribute("aria-label") });
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

  AL.inputs = { inputsHtml, markEdited, bindSlider, setEntry };
})(window.AL);
