#!/usr/bin/env bash
# Install (if needed) and launch the workbench on a bundled sample corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/workbench demo "$@"
