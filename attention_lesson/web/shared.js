/* What the explorer's and the studio's scripts share: the DOM look-up, HTML escaping, the catalog
 * look-up, the languages' names, the normalizers and style.py's contrast rule.
 *
 * A classic script, not an ES module: the explorer opens from file://, where Chromium loads no module
 * scripts. It defines window.AL, the one namespace the explorer's parts add themselves to (AL.state,
 * AL.url, AL.views, AL.inputs, AL.exporter; explorer.js) and the studio's module reads. It comes after
 * core.js (the normalizers are core.js's MODES) and before every other script of the page.
 */
(function (root) {
  "use strict";

  if (!root.AttentionCore) throw new Error("shared.js needs core.js, loaded before it");

  const $ = (sel, el = document) => el.querySelector(sel);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** The normalizers a page offers: the core's, in its order. */
  const MODES = root.AttentionCore.MODES;

  /** Each language's name in itself, for the language buttons and menus: the built-in ones', else the
   *  browser's name of the language in that language (fr: "Français"), else its code. */
  const LANG_NAMES = { zh: "中文", en: "English", ja: "日本語" };
  function langName(lang) {
    if (LANG_NAMES[lang]) return LANG_NAMES[lang];
    try {
      const name = new Intl.DisplayNames([lang], { type: "language" }).of(lang);
      return name && name !== lang ? name.charAt(0).toLocaleUpperCase(lang) + name.slice(1) : lang;
    } catch (e) {
      return lang; // not a code the browser knows
    }
  }

  // -- the catalog --------------------------------------------------------------------------------
  /* A missing word (a key the catalog lacks, or a {field} of its text the caller did not give) does not
   * stop the page: a student's page must not go blank for one word, so the key (or the {field}) is shown
   * in its place. It is also recorded in AL.missing and said once on the console as a warning, so a test
   * catches it: the explorer's tests fail on any console warning and require AL.missing to be empty
   * after visiting every view in both languages. */
  const missing = [];

  function miss(what) {
    if (missing.includes(what)) return;
    missing.push(what);
    console.warn(`attention-lesson: no word for ${what}`);
  }

  /** word(key, fields) for the catalogs tables() ({lang: {key: text}}) in the language lang(): the key's
   *  text with its {field}s filled in from fields. */
  function catalog(tables, lang) {
    return (key, fields = {}) => {
      const l = lang();
      const text = (tables()[l] || {})[key];
      if (typeof text !== "string") {
        miss(`${l}: ${key}`);
        return key;
      }
      return text.replace(/\{(\w+)\}/g, (whole, f) => {
        if (f in fields) return String(fields[f]);
        miss(`${l}: ${key} {${f}}`);
        return whole;
      });
    };
  }

  // -- colour: style.py's luminance, contrast and text_on ------------------------------------------
  /** "#rrggbb" -> [r, g, b], each 0 to 255. */
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

  /** WCAG 2 relative luminance of [r, g, b]. */
  function luminance(c) {
    const lin = c.map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }

  /** WCAG 2 contrast ratio of two [r, g, b] colours, 1 to 21. */
  function contrast(a, b) {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  }

  /** Of the inks ("#rrggbb"), the one with the highest contrast on the fill [r, g, b] (ties: the first). */
  const inkOn = (fill, inks) =>
    inks.reduce((best, ink) => (contrast(fill, rgb(ink)) > contrast(fill, rgb(best)) ? ink : best));

  root.AL = { $, esc, MODES, LANG_NAMES, langName, catalog, missing, rgb, luminance, contrast, inkOn };
})(typeof globalThis !== "undefined" ? globalThis : this);
