// The studio's editor: what attention_lesson/web/studio.js uses of CodeMirror 6, bundled into one ES
// module (attention_lesson/web/vendor/codemirror.js) by scripts/vendor.sh, so the wheel carries it and
// nothing at run time needs node_modules.
export { basicSetup } from "codemirror";
export { EditorView, keymap } from "@codemirror/view";
export { HighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
export { tags } from "@lezer/highlight";
export { linter, lintGutter, setDiagnostics } from "@codemirror/lint";
export { toml } from "@codemirror/legacy-modes/mode/toml";
export { oneDark } from "@codemirror/theme-one-dark";
