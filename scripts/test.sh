#!/usr/bin/env bash
# Install (if needed) and run every check: ruff, mypy (strict on workbench/core), the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
echo "== ruff" && .venv/bin/ruff check workbench tests
echo "== mypy" && .venv/bin/mypy
# one worker per core, at most 4 (each file's tests stay in one worker: --dist loadfile);
# WORKBENCH_TEST_WORKERS=0 runs them in this process, as plain pytest does
workers="${WORKBENCH_TEST_WORKERS:-$(nproc 2>/dev/null || echo 1)}"
[ "$workers" -gt 4 ] && workers=4
[ "$workers" -le 1 ] && workers=0
echo "== pytest ($workers workers)" && .venv/bin/pytest -q -n "$workers" --dist loadfile "$@"
