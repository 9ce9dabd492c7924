#!/usr/bin/env bash
# From a fresh clone: install dependencies, build, run every test suite.
# Backends without a device here (CUDA on a machine with no GPU) are
# reported as SKIP by meson.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
bash scripts/build.sh || exit 1
meson test -C build --print-errorlogs --num-processes 2 2>&1 | tee build/test-summary.log
status=${PIPESTATUS[0]}
count() { awk -v k="$1" '$1 == k {print $2}' build/test-summary.log | tail -n 1; }
echo "$(count Ok:) passed, $(( $(count Fail:) + $(count Timeout:) )) failed, $(count Skipped:) skipped"
exit "$status"
