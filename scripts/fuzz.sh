#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, in
# ./build-fuzz) and runs each for SECONDS (default 10), one after another.
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]     (default: every target)
# Each target first replays its committed corpus and regression inputs,
# then fuzzes from them with its dictionary; new inputs go to
# build-fuzz/corpus/TARGET (kept between runs), a crash's input to
# build-fuzz/artifacts/. Prints one line per target (executions, coverage)
# and exits 1 if any target crashed, leaked, hit UBSan or timed out.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift $(( $# > 0 ? 1 : 0 ))
[[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: bash scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2; }

if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz -Dbuildtype=debugoptimized \
    -Dfuzz=enabled -Dcuda=disabled -Dopencl=disabled -Dpeers=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link >build-fuzz-setup.log 2>&1 ||
    { cat build-fuzz-setup.log; exit 1; }
  mv build-fuzz-setup.log build-fuzz/setup.log
fi
ninja -C build-fuzz build.ninja >/dev/null 2>&1 # the target list of the current tree
all_targets=$(cd build-fuzz && ninja -t targets all | sed -n 's|^tests/fuzz/\(fuzz_[a-z_]*\):.*|\1|p' | sort -u)
targets=("$@")
((${#targets[@]})) || read -r -a targets <<<"$(echo $all_targets)"
ninja -C build-fuzz "${targets[@]/#/tests/fuzz/}" >build-fuzz/ninja.log 2>&1 ||
  { cat build-fuzz/ninja.log; exit 1; }

# Which dictionary each target mutates with.
dict_of() {
  case $1 in
    fuzz_dimacs|fuzz_solve_*) echo dimacs ;;
    fuzz_session) echo bytes ;;
    fuzz_apsp_*) echo apsp ;;
    fuzz_*) echo "${1#fuzz_}" ;;
  esac
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export OMP_NUM_THREADS=2
failed=0
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  exe=build-fuzz/tests/fuzz/$t
  work=build-fuzz/corpus/$t
  log=build-fuzz/$t.log
  mkdir -p "$work"
  seeds=(tests/fuzz/corpus/$t)
  [ -d tests/fuzz/regressions/$t ] && seeds+=(tests/fuzz/regressions/$t)
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -dict="tests/fuzz/$(dict_of "$t").dict" \
    -artifact_prefix=build-fuzz/artifacts/"$t"- "$work" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
  if [ "$rc" -eq 0 ]; then
    printf 'fuzz %-16s ok     %9s runs in %ss, %s\n' "$t" "${runs:-?}" "$seconds" "$cov"
  else
    failed=1
    printf 'fuzz %-16s FAILED (exit %s), log %s:\n' "$t" "$rc" "$log"
    grep -E 'ERROR|SUMMARY|fuzz: |runtime error|Test unit written' "$log" | head -n 20
  fi
done
exit "$failed"
