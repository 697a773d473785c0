#!/usr/bin/env bash
# Install whatever is missing, and nothing else: Debian/Ubuntu system packages manim needs, then a
# virtual environment (.venv) with the project and its test tools, then reveal.js (node_modules) for the
# HTML slide decks. Quick when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# cairo/pango headers + pkg-config (manim's pycairo/manimpango), a CJK font for the Chinese text,
# LaTeX with dvisvgm for MathTex, ffmpeg for joining clips, GIF palettes, ProRes and audio, espeak-ng for
# the offline draft voice, chromium for the tests that click through an HTML slide deck (driven by
# Playwright; it never downloads a browser), zbar-tools for the tests that read the handout's QR code
# back from its printed page (zbarimg; ~13 MB with its ImageMagick libraries).
APT_PACKAGES=(
  libcairo2-dev libpango1.0-dev pkg-config
  fonts-noto-cjk
  texlive-latex-base texlive-latex-recommended texlive-fonts-recommended dvisvgm
  ffmpeg
  espeak-ng
  poppler-utils
  chromium
  zbar-tools
)
python3 -m venv --help >/dev/null 2>&1 || APT_PACKAGES+=(python3-venv)
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(npm)  # reveal.js for the HTML decks, from npm

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

stamp=.venv/.installed
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing the project into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,studio,voice]'
  touch "$stamp"
fi

# reveal.js (pinned in package.json / package-lock.json), copied beside every HTML deck; CodeMirror for
# the studio; axe-core for the accessibility tests (tests/axe.py injects node_modules/axe-core/axe.min.js)
node_stamp=node_modules/.installed
if [ ! -f node_modules/reveal.js/dist/reveal.js ] || [ ! -f node_modules/axe-core/axe.min.js ] \
   || [ ! -f "$node_stamp" ] || [ package-lock.json -nt "$node_stamp" ]; then
  echo "setup: installing the browser assets (reveal.js, CodeMirror, axe-core) into node_modules"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$node_stamp"
fi
