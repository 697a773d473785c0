/* The explorer's export (a part of the explorer; see explorer.js): the lesson with the student's numbers
 * as a lesson file (TOML), downloaded.
 *
 * The download is the lesson file's own text (data.text, which outputs/explorer.py writes into data.js)
 * with only the numbers the student changed rewritten where they stand: the teacher's comments, the
 * order, the spacing and the way every other number is written stay as they were, so the download
 * differs from the file loaded in those numbers alone. No TOML library does that here: tomlkit (Python,
 * comment-keeping) does not run in an offline page, and the JavaScript ones (@iarna/toml, smol-toml)
 * parse to plain objects and stringify a new file, without the comments (their issues 22 and 17: not
 * supported, "not meant for complete preservation of documents"). The page needs much less: where
 * each number of [vocab], [projections] and (several heads) [heads.<key>] is written. locate() reads that much TOML and keeps places;
 * the export checks that it found every number the page edits and that each is the lesson's (the text is
 * the lesson the page was made from), else it writes the file anew (freshToml: the lesson's keys, no
 * comments, a first line saying so). Everything but the numbers is the lesson's own either way, so the
 * file passes `attention-lesson check`.
 */
(function (AL) {
  "use strict";

  const { MATRICES, data, S } = AL.state;

  // -- where the numbers are: a small TOML reader that keeps places ---------------------------------
  /* Enough TOML for a lesson file, read as tomllib reads it: [tables] (dotted too), keys bare, quoted or
   * dotted, the four kinds of strings, comments, arrays over many lines (comments between items, a
   * trailing comma), inline tables, every form of number. A number's path is its keys and array indices,
   * ["projections", "w_q", 3, 0]. What it does not read (an array of tables, a date) throws SyntaxError.
   * r is the reader: { text, i } (i: where it is). */
  const BARE = /[A-Za-z0-9_-]+/y;
  const SCALAR = /[^\s,\]}#]+/y;
  const NUMBER = /^(?:0x[\dA-Fa-f_]+|0o[0-7_]+|0b[01_]+|[+-]?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d[\d_]*)?)$/;
  const WORD = /^(?:true|false|[+-]?inf|[+-]?nan)$/;
  const ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\u001b", '"': '"', "\\": "\\" };
  const HEX_DIGITS = { u: 4, U: 8, x: 2 };

  function fail(r, what) {
    throw new SyntaxError(`the lesson's text, at character ${r.i}: expected ${what}`);
  }

  function match(r, re) {
    re.lastIndex = r.i;
    const m = re.exec(r.text);
    if (!m) fail(r, String(re));
    r.i = re.lastIndex;
    return m[0];
  }

  /** Spaces and tabs; with lines, also line ends and comments. */
  function blank(r, lines) {
    const t = r.text;
    for (;;) {
      const c = t[r.i];
      if (c === " " || c === "\t" || (lines && (c === "\n" || c === "\r"))) r.i++;
      else if (lines && c === "#") while (r.i < t.length && t[r.i] !== "\n") r.i++;
      else return;
    }
  }

  /** After a key's value or a table's name: nothing but a comment to the end of the line. */
  function endOfLine(r) {
    blank(r, false);
    if (r.text[r.i] === "#") while (r.i < r.text.length && r.text[r.i] !== "\n") r.i++;
    if (r.i < r.text.length && r.text[r.i] !== "\n" && r.text[r.i] !== "\r") fail(r, "the end of the line");
  }

  /** A basic string, "...", r.i on its opening quote: its value. */
  function basic(r) {
    const t = r.text;
    let s = "";
    for (r.i++; ;) {
      const c = t[r.i++];
      if (c === '"') return s;
      if (c === undefined || c === "\n") fail(r, "a closing quote");
      if (c !== "\\") {
        s += c;
      } else if (t[r.i] in ESCAPES) {
        s += ESCAPES[t[r.i++]];
      } else if (t[r.i] in HEX_DIGITS) {
        const n = HEX_DIGITS[t[r.i++]];
        s += String.fromCodePoint(parseInt(t.slice(r.i, r.i + n), 16));
        r.i += n;
      } else fail(r, "an escape");
    }
  }

  /** A multi-line string, """...""" or '''...''' (q the quote), skipped: a key is never one. */
  function multiline(r, q) {
    const t = r.text;
    for (r.i += 3; r.i < t.length; r.i++) {
      if (q === '"' && t[r.i] === "\\") r.i++;
      else if (t.startsWith(q.repeat(3), r.i)) {
        let end = r.i + 3;
        while (t[end] === q && end < r.i + 5) end++; // up to two quotes just before the closing three
        r.i = end;
        return null;
      }
    }
    return fail(r, "the end of a multi-line string");
  }

  /** A string of any kind at r.i: its value (null for a multi-line one). */
  function string(r) {
    const t = r.text;
    const q = t[r.i];
    if (t.startsWith(q.repeat(3), r.i)) return multiline(r, q);
    if (q === '"') return basic(r);
    const end = t.indexOf("'", r.i + 1);
    const line = t.indexOf("\n", r.i + 1);
    if (end < 0 || (line >= 0 && line < end)) fail(r, "a closing quote");
    const s = t.slice(r.i + 1, end);
    r.i = end + 1;
    return s;
  }

  /** A key, dotted or not: its parts. */
  function key(r) {
    const parts = [];
    for (;;) {
      blank(r, false);
      const c = r.text[r.i];
      parts.push(c === '"' || c === "'" ? string(r) : match(r, BARE));
      blank(r, false);
      if (r.text[r.i] !== ".") return parts;
      r.i++;
    }
  }

  /** key = value, in the table whose path is table. */
  function keyValue(r, table, found) {
    const k = key(r);
    if (r.text[r.i] !== "=") fail(r, "=");
    r.i++;
    blank(r, false);
    value(r, [...table, ...k], found);
  }

  /** A value at r.i: its numbers' places into found (a path's JSON -> [start, end]). */
  function value(r, path, found) {
    const c = r.text[r.i];
    if (c === "[") return array(r, path, found);
    if (c === "{") return inlineTable(r, path, found);
    if (c === '"' || c === "'") return void string(r);
    const start = r.i;
    const word = match(r, SCALAR);
    if (NUMBER.test(word)) found.set(JSON.stringify(path), [start, r.i]);
    else if (!WORD.test(word)) fail(r, `a value (not ${word})`);
    return undefined;
  }

  function array(r, path, found) {
    r.i++;
    for (let n = 0; ; n++) {
      blank(r, true);
      if (r.text[r.i] === "]") break;
      value(r, [...path, n], found);
      blank(r, true);
      if (r.text[r.i] === ",") r.i++;
      else if (r.text[r.i] !== "]") fail(r, "a comma or ]");
    }
    r.i++;
  }

  function inlineTable(r, path, found) {
    r.i++;
    blank(r, false);
    if (r.text[r.i] === "}") {
      r.i++;
      return;
    }
    for (;;) {
      keyValue(r, path, found);
      blank(r, false);
      const c = r.text[r.i++];
      if (c === "}") return;
      if (c !== ",") fail(r, "a comma or }");
    }
  }

  /** Where every number of a lesson file's text is: Map(JSON of its path -> [start, end]). */
  function locate(text) {
    const r = { text, i: 0 };
    const found = new Map();
    let table = [];
    for (;;) {
      blank(r, true);
      if (r.i >= text.length) return found;
      if (text[r.i] === "[") {
        if (text[r.i + 1] === "[") fail(r, "a table (a lesson has no array of tables)");
        r.i++;
        table = key(r);
        if (text[r.i++] !== "]") fail(r, "]");
      } else keyValue(r, table, found);
      endOfLine(r);
    }
  }

  // -- the download: the file's text with the student's numbers -------------------------------------
  /** [path, the lesson's matrix, the student's] of every W the page edits: [projections] w_q, w_k, w_v,
   *  or (several heads) each head's in [heads.<key>] and [projections] w_o. */
  function weightTables() {
    const L = data.lesson;
    if (!L.heads) return MATRICES.map((m) => [["projections", m], L[m], S[m]]);
    const heads = L.heads.flatMap((h) => MATRICES.map((m) => [["heads", h.key, m], h[m], S.heads[h.key][m]]));
    return [...heads, [["projections", "w_o"], L.w_o, S.w_o]];
  }

  /** [path, the lesson's value, the student's] of every number the page edits: X's rows, then the W's. */
  function entries() {
    const L = data.lesson;
    const out = [];
    for (const [t, row] of Object.entries(L.vocab)) {
      row.forEach((x, c) => out.push([["vocab", t, c], x, S.vocab[t][c]]));
    }
    for (const [path, was, now] of weightTables()) {
      was.forEach((row, r) => row.forEach((x, c) => out.push([[...path, r, c], x, now[r][c]])));
    }
    return out;
  }

  /** A number as the file writes it: JavaScript's shortest form, which TOML reads back as the same
   *  number, with ".0" where the teacher wrote a float and the new value is whole. */
  function numberText(x, old) {
    const s = String(x);
    return /[.eE]/.test(s) || !/[.eE]/.test(old) ? s : `${s}.0`;
  }

  /** text with the student's numbers in place of the lesson's; null when it is not the lesson's text (a
   *  number the page edits is not found, or is not the lesson's) or is TOML the reader does not read. */
  function editedText(text) {
    let found;
    try {
      found = locate(text);
    } catch (e) {
      if (e instanceof SyntaxError) return null;
      throw e;
    }
    const changes = [];
    for (const [path, was, now] of entries()) {
      const place = found.get(JSON.stringify(path));
      if (!place || Number(text.slice(...place).replace(/_/g, "")) !== was) return null;
      if (now !== was) changes.push([place, numberText(now, text.slice(...place))]);
    }
    changes.sort((a, b) => b[0][0] - a[0][0]); // from the end: the places before stay where they are
    return changes.reduce((t, [[start, end], s]) => t.slice(0, start) + s + t.slice(end), text);
  }

  // -- the file written anew (when the page has no text of the lesson it can edit) ------------------
  const str = (s) => JSON.stringify(s); // a TOML basic string: JSON's escapes are TOML's
  const arr = (xs) => `[${xs.map((x) => (typeof x === "number" ? String(x) : str(x))).join(", ")}]`;

  /** "key = value" for each entry of table; key(k) writes the key (bare, or quoted by str). */
  /** @type {(table: object, value: (v: any) => string, key?: (k: string) => string) => string[]} */
  const lines = (table, value, key = String) =>
    Object.entries(table || {}).map(([k, v]) => `${key(k)} = ${value(v)}`);
  const inline = (table) => `{ ${lines(table, str).join(", ")} }`;

  /** A TOML table's text, or "" when it has no lines. */
  const section = (name, body) => (body.length ? `\n[${name}]\n${body.join("\n")}\n` : "");

  const matrix = (m) => `[\n${m.map((r) => `  ${arr(r)},`).join("\n")}\n]`;

  /** The W's tables written anew: [projections], or each [heads.<key>] (its names, its W's) and W_O. */
  function weightSections() {
    const L = data.lesson;
    if (!L.heads) return [section("projections", MATRICES.map((m) => `${m} = ${matrix(S[m])}`))];
    const heads = L.heads.map((h) => section(`heads.${/^[A-Za-z0-9_-]+$/.test(h.key) ? h.key : str(h.key)}`,
      [...lines(h.names, str), ...MATRICES.map((m) => `${m} = ${matrix(S.heads[h.key][m])}`)]));
    return [...heads, section("projections", [`w_o = ${matrix(S.w_o)}`])];
  }

  /** The lesson with S's numbers, written anew from its keys (no comments: the lesson's text could not
   *  be edited, so the first lines say so). */
  function freshToml() {
    const L = data.lesson;
    const out = [`# Exported from the attention-lesson explorer (lesson file: ${data.source}).`];
    if (data.text) out.push("# Written anew: the lesson file's comments could not be kept.");
    if (L.lang) out.push(`lang = ${str(L.lang)}`);
    out.push(`focus = ${str(L.focus)}`);
    if (L.mask) out.push(`mask = ${str(L.mask)}`);
    if (L.heads) out.push(`focus_head = ${str(L.focus_head)}`);
    if (L.author) out.push(`author = ${str(L.author)}`);
    out.push(section("title", lines(L.title, str)));
    const dimensions = section("dimensions", lines(L.dimensions, arr));
    if (dimensions) out.push(dimensions);
    out.push(section("vocab", lines(S.vocab, arr, str)));
    out.push(...weightSections());
    const value = (v) => (typeof v === "number" ? String(v) : str(v));
    for (const name of ["training", "positions", "tiling"]) if (L[name]) out.push(section(name, lines(L[name], value)));
    for (const [lang, said] of Object.entries(L.narration)) {
      out.push(section(`narration.${lang}`, lines(said, str)));
    }
    out.push(section("contexts", lines(L.contexts, arr, str)));
    const labels = section("context_labels", lines(L.context_labels, inline, str));
    if (labels) out.push(labels);
    return out.join("\n");
  }

  /** The lesson file to download: its own text with the student's numbers, or written anew. */
  function lessonToml() {
    const edited = data.text ? editedText(data.text) : null;
    return edited === null ? freshToml() : edited;
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

  AL.exporter = { lessonToml, exportLesson, locate, freshToml };
})(window.AL);
