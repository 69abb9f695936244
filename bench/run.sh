#!/usr/bin/env bash
# The benchmark, from a clean clone: make bench/.env (steplint as a snapshot, ruff, flake8,
# Fixit, libcst), generate the corpora under bench/corpus, time everything interleaved.
#   bash bench/run.sh                 # the full run (minutes)
#   bash bench/run.sh --with-fixit    # also Fixit (slow)
#   bash bench/run.sh --quick         # a smoke run (seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x bench/.env/bin/python ]; then
  "$python" -m venv bench/.env
fi
bench/.env/bin/python -m pip install --quiet --disable-pip-version-check --upgrade \
  ".[lsp]" "ruff>=0.4" "flake8>=7" "fixit>=2.1" "libcst>=1.1" 2>&1 | grep -v "^WARNING: Location" || true
exec bench/.env/bin/python bench/run.py --bin bench/.env/bin "$@"
