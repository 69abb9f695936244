#!/usr/bin/env bash
# The test command (README, .ci/run): make or reuse .venv, install steplint with its
# test extras, then run the whole pytest suite on two workers.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]' 2>&1 | grep -v "^WARNING: Location" || true
# worksteal: a worker that runs out takes pending tests from the other, so no long tail runs on one worker alone.
exec .venv/bin/python -m pytest -n "${STEPLINT_TEST_WORKERS:-2}" --dist worksteal "$@"
