#!/usr/bin/env bash
# Create .venv and install the workbench with everything it needs. Idempotent: when the
# installed set matches pyproject.toml it returns at once.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
stamp=".venv/.installed-$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "installing Scoring Workbench into .venv (first time: about a minute)…" >&2
  # The CPU build of torch first: any other torch request pulls a CUDA build of several GB.
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "torch==2.13.0"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[embed,gui,dev]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
