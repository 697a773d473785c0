#!/usr/bin/env bash
# Rebuild attention_lesson/web/vendor/ from the npm packages pinned in package-lock.json: the files the
# wheel carries so that nothing at run time needs node_modules or the network.
#   codemirror.js   the studio's editor: scripts/vendor/codemirror.js bundled by esbuild (one ES module),
#                   and its licence (codemirror.LICENSE)
#   reveal.js/      the reveal.js files an HTML deck copies beside its index.html (manim-slides' template
#                   names them), and reveal.js's licence
#   kokoro-js/      Kokoro-82M's voices the neural voice speaks with (voices/NAME.bin, raw floats, as
#                   kokoro-js ships them: the native Mandarin ones are on npm, not PyPI), its licence
#                   (Apache-2.0) and a NOTICE saying where they come from
#   versions.json   the packages and versions they were made from
# Run it after changing package.json (then commit the folder); tests/test_vendor.py checks that the
# folder is what this script makes of package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-attention_lesson/web/vendor}  # another folder: what the script would make (tests/test_vendor.py)
[ -f node_modules/.installed ] && [ node_modules/.installed -nt package-lock.json ] || {
  ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; }

# its first line, // @ts-nocheck, keeps the bundle out of the type check (attention_lesson/web/tsconfig.json,
# docs/web.md): studio.js still gets the types TypeScript infers for what it imports
node_modules/.bin/esbuild scripts/vendor/codemirror.js --bundle --format=esm --minify \
  --legal-comments=eof --log-level=warning --banner:js="// @ts-nocheck" --outfile="$OUT/codemirror.js"
install -m 644 node_modules/codemirror/LICENSE "$OUT/codemirror.LICENSE"  # MIT, every package it bundles

REVEAL_FILES=(dist/reveal.css dist/reveal.js dist/theme/black.css dist/theme/white.css
              dist/plugin/highlight/zenburn.css dist/plugin/notes.js dist/plugin/markdown.js LICENSE)
mkdir -p "$OUT"; rm -rf "$OUT/reveal.js"
for f in "${REVEAL_FILES[@]}"; do
  install -D -m 644 "node_modules/reveal.js/$f" "$OUT/reveal.js/$f"
done

# the voices attention_lesson/pipeline/voice/kokoro.py names (VENDORED), chosen by the ear (docs/voices.md):
# two native Mandarin speakers and the English one
KOKORO_VOICES=(zm_yunjian zf_xiaoxiao af_heart)
rm -rf "$OUT/kokoro-js"
for v in "${KOKORO_VOICES[@]}"; do
  install -D -m 644 "node_modules/kokoro-js/voices/$v.bin" "$OUT/kokoro-js/voices/$v.bin"
done
install -m 644 node_modules/kokoro-js/LICENSE "$OUT/kokoro-js/LICENSE"
KOKORO_VERSION=$(node -p 'require("./node_modules/kokoro-js/package.json").version')
cat > "$OUT/kokoro-js/NOTICE" <<EOF
Kokoro-82M voices: ${KOKORO_VOICES[*]}
Copied unchanged from the npm package kokoro-js ${KOKORO_VERSION} (voices/NAME.bin: 510 x 256
little-endian float32 style vectors) by scripts/vendor.sh.
Kokoro-82M (https://huggingface.co/hexgrad/Kokoro-82M) and kokoro-js are by hexgrad, with Xenova,
under the Apache License 2.0: see LICENSE in this folder.
EOF

node -e '
const lock = require("./package-lock.json").packages;
const names = Object.keys(lock).filter(k => /node_modules\/(@codemirror|@lezer|@marijn|codemirror|crelt|style-mod|w3c-keyname|reveal\.js|kokoro-js)/.test(k) && !lock[k].dev);
const out = Object.fromEntries(names.sort().map(k => [k.replace(/^node_modules\//, ""), lock[k].version]));
process.stdout.write(JSON.stringify(out, null, 1) + "\n");' > "$OUT/versions.json"
echo "vendor: $(du -sh "$OUT" | cut -f1) in $OUT"
