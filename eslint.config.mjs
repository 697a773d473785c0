// The pages' scripts held to the Python's caps (tests/test_function_length.py): a module at most 400
// lines, a function at most 40, at most 7 parameters. `make test` runs it on attention_lesson/web (the
// vendored CodeMirror and reveal.js are not ours). The studio's parts are ES modules, the explorer's
// classic scripts that share the `AL` namespace (docs/web.md).
const caps = {
  "max-lines": ["error", {max: 400}],
  "max-lines-per-function": ["error", {max: 40}],
  "max-params": ["error", 7],
};

export default [
  {ignores: ["attention_lesson/web/vendor/**"]},
  {files: ["attention_lesson/web/*.js"], languageOptions: {ecmaVersion: 2022, sourceType: "script"},
   rules: caps},
  {files: ["attention_lesson/web/studio*.js", "attention_lesson/web/explorer-next.js"],
   languageOptions: {sourceType: "module"}},
];
