#!/usr/bin/env bash
# From a fresh clone: install dependencies, build, run every test suite:
# the Check suites (meson test), the install check of the C library
# (scripts/check-install.sh) and the Python package's tests (a virtual
# environment in build/pyenv with numpy, scipy, networkx and pytest from
# PyPI, the package installed into it with pip, then pytest).
# Backends without a device here (CUDA on a machine with no GPU) are
# reported as SKIP. The last line sums all three: N passed, N failed, N skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
bash scripts/build.sh || exit 1
[ -d /usr/local/cuda/bin ] && export PATH="$PATH:/usr/local/cuda/bin"
meson test -C build --print-errorlogs --num-processes 2 2>&1 | tee build/test-summary.log
status=${PIPESTATUS[0]}
count() { awk -v k="$1" '$1 == k {print $2}' build/test-summary.log | tail -n 1; }
passed=$(count Ok:) failed=$(( $(count Fail:) + $(count Timeout:) )) skipped=$(count Skipped:)

if bash scripts/check-install.sh build; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)) status=1
fi

# The Python package. pip reuses build/py-build between runs.
python=${PYTHON:-python3}
venv=build/pyenv
pytest_log=build/pytest.log
: >"$pytest_log"
if { [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"; } &&
   "$venv/bin/pip" install -q numpy scipy networkx pytest meson-python meson ninja &&
   "$venv/bin/pip" install -q --no-build-isolation --config-settings=build-dir="$PWD/build/py-build" . ; then
  (cd tests/python && "../../$venv/bin/python" -m pytest -q -p no:cacheprovider .) 2>&1 |
    tee "$pytest_log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  # pytest's closing line: "527 passed, 3 skipped, 1 failed in 60.1s"
  summary=$(tail -n 1 "$pytest_log")
  py_count() { echo "$summary" | grep -o "[0-9]* $1" | awk '{s += $1} END {print s + 0}'; }
  passed=$((passed + $(py_count passed)))
  failed=$((failed + $(py_count failed) + $(py_count error)))
  skipped=$((skipped + $(py_count skipped)))
  [ -n "$(echo "$summary" | grep -E '[0-9]+ (passed|failed|error)')" ] || { failed=$((failed + 1)); status=1; }
else
  echo "test.sh: could not set up the Python environment or install the package" >&2
  failed=$((failed + 1)) status=1
fi
echo "${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped"
exit "$status"
