#!/usr/bin/env bash
# Install (if needed) and open the workbench window on a bundled sample corpus
# (or on the dataset given as an argument).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/workbench gui "$@"
