#!/usr/bin/env bash
# Builds the Check suites once with ASan + UBSan (in ./build-asan) and runs
# them on the CPU engines (seq, omp), leaks checked. OpenCL is left out of
# this build: PoCL under ASan reports its own leaks and uninstrumented
# accesses, which say nothing about portaflow; CUDA needs a GPU. So are the
# C++ peers (Boost, LEMON, BK): the plain suite compares against them, and
# compiling them instrumented costs CI minutes.
#   bash scripts/sanitize.sh [meson test arguments]
# Exits 1 if the build fails or any suite fails (a sanitizer report aborts
# the test that triggered it).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build-asan/build.ninja ]; then
  meson setup build-asan -Dbuildtype=debugoptimized -Dcuda=disabled -Dopencl=disabled -Dpeers=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false >build-asan-setup.log 2>&1 ||
    { cat build-asan-setup.log; exit 1; }
  mv build-asan-setup.log build-asan/setup.log
fi
echo "sanitize: OpenCL and CUDA suites skipped (not built under ASan: PoCL is not instrumented)"
# Only what the suites run: the test executables and the CLI they call
# (build.ninja first, so that the list is that of the current tree).
ninja -C build-asan build.ninja >/dev/null 2>&1
targets=$(cd build-asan && ninja -t targets all | sed -n 's|^\(tests/test_[a-z0-9_]*\):.*|\1|p' | sort -u)
ninja -C build-asan portaflow $targets >build-asan/ninja.log 2>&1 ||
  { tail -n 40 build-asan/ninja.log; exit 1; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export OMP_NUM_THREADS=2
meson test -C build-asan --no-rebuild --print-errorlogs --num-processes 2 \
  --timeout-multiplier 3 "$@" >build-asan/test.log 2>&1
status=$?
grep -E '^ *[0-9]+/[0-9]+ ' build-asan/test.log | grep -vE " OK |SKIP" | awk '!seen[$0]++' || true
grep -E '^(Ok|Fail|Skipped|Timeout):' build-asan/test.log | tr '\n' ' '
echo
[ "$status" -eq 0 ] || echo "sanitize: FAILED, log build-asan/test.log"
exit $(( status != 0 ))
