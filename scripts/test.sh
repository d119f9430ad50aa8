#!/usr/bin/env bash
# Install (if needed) and run every check: ruff, mypy (strict on workbench/core), the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
echo "== ruff" && .venv/bin/ruff check workbench tests
echo "== mypy" && .venv/bin/mypy
echo "== pytest" && .venv/bin/pytest -q "$@"
