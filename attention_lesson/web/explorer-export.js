/* The explorer's export (a part of the explorer; see explorer.js): the lesson with the student's numbers
 * as a lesson file (TOML), downloaded. Everything but the numbers (title, dimensions' names, narration,
 * contexts and their labels) is the lesson's own, so the file passes `attention-lesson check`.
 */
(function (AL) {
  "use strict";

  const { MATRICES, data, S } = AL.state;

  const str = (s) => JSON.stringify(s); // a TOML basic string: JSON's escapes are TOML's
  const arr = (xs) => `[${xs.map((x) => (typeof x === "number" ? String(x) : str(x))).join(", ")}]`;

  /** "key = value" for each entry of table; key(k) writes the key (bare, or quoted by str). */
  const lines = (table, value, key = String) =>
    Object.entries(table || {}).map(([k, v]) => `${key(k)} = ${value(v)}`);
  const inline = (table) => `{ ${lines(table, str).join(", ")} }`;

  /** A TOML table's text, or "" when it has no lines. */
  const section = (name, body) => (body.length ? `\n[${name}]\n${body.join("\n")}\n` : "");

  const matrix = (m) => `[\n${S[m].map((r) => `  ${arr(r)},`).join("\n")}\n]`;

  function lessonToml() {
    const L = data.lesson;
    const out = [`# Exported from the attention-lesson explorer (lesson file: ${data.source}).`,
      `focus = ${str(L.focus)}`];
    if (L.author) out.push(`author = ${str(L.author)}`);
    out.push(section("title", lines(L.title, str)));
    const dimensions = section("dimensions", lines(L.dimensions, arr));
    if (dimensions) out.push(dimensions);
    out.push(section("vocab", lines(S.vocab, arr, str)));
    out.push(section("projections", MATRICES.map((m) => `${m} = ${matrix(m)}`)));
    for (const [lang, said] of Object.entries(L.narration)) {
      out.push(section(`narration.${lang}`, lines(said, str)));
    }
    out.push(section("contexts", lines(L.contexts, arr, str)));
    const labels = section("context_labels", lines(L.context_labels, inline, str));
    if (labels) out.push(labels);
    return out.join("\n");
  }

  /** lessonToml() as <source>-explored.toml, through a link clicked and removed. */
  function exportLesson() {
    const blob = new Blob([lessonToml()], { type: "application/toml" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${data.source.replace(/\.toml$/, "")}-explored.toml`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  AL.exporter = { lessonToml, exportLesson };
})(window.AL);
