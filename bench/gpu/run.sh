#!/usr/bin/env bash
# The recipe for a GPU-machine run (see bench/README.md). Every stage starts
# with setup.sh (ICD loader, NVIDIA ICD file, build into build-gpu).
#   bench/gpu/run.sh tests                 full test suite + compute-sanitizer
#   bench/gpu/run.sh matrix SET "BACKENDS" LIMIT_S   instances x backends table
#   bench/gpu/run.sh compare SET [REPEAT]  portaflow compare on each instance
#   bench/gpu/run.sh apsp "BACKENDS" "SIZES" [REPS [bench_apsp options]]
#                                          APSP suites, then bench_apsp
#   bench/gpu/run.sh apsp-check            compute-sanitizer on the CUDA APSP
#       kernels, phase-3 variants (PF_CUDA_FW_VARIANT 0-3) at n=16384, and
#       the other kinds (int64, float, next hops) at n=8192 on both GPU backends
#   bench/gpu/run.sh suite ONLY [REPS] [LIMIT_S] [suite.sh options]
#       the benchmark suite (bench/suite.sh) on ONLY (sets or instance names,
#       comma-separated); CSV and table in $OUT/suite/. Rows of earlier suite
#       calls on this machine (while it stays warm) are carried forward, so
#       the latest call's suite.csv holds them all. No plot here (no
#       matplotlib): bench/suite_report.py makes it from the fetched CSVs.
#   bench/gpu/run.sh suite-ab ONLY BACKENDS [REPS [LIMIT_S]]
#       before/after on one warm machine: builds the tree carried in .base
#       (`git archive BASE | tar -x -C .base`, git-ignored) into build-base,
#       then, instance by instance, runs bench/suite.sh on the base build and
#       on build-gpu with the same options (peers none); CSVs and one table
#       (suite_ab.md: median solve time base, new, new/base) in $OUT/suite-ab.
#   bench/gpu/run.sh sweep SET "BACKENDS" "VAR=V1 V2 ..." [REPS [LIMIT_S]]
#       each instance x backend x value of one environment variable through
#       bench_solve (in-process warm-up, median of REPS): one table row each
#   bench/gpu/run.sh trace SET BACKEND SPEC...
#       one `portaflow solve` per instance and SPEC with PORTAFLOW_TRACE=1;
#       SPEC is VAR=V[,VAR=V...] or - for none: the trace and phase lines
#   bench/gpu/run.sh bits [SET [REPS [LIMIT_S [BACKENDS]]]]
#       max-flow with 64- and 32-bit residuals (PORTAFLOW_CAP_BITS) on each
#       instance (default: all, 3 reps, 60 s, "cuda opencl"): median solve and
#       push/relabel times, device memory and its bytes per residual arc, and
#       32/64 ratios; one markdown table (bits_SET.md). Under 8 minutes on
#       the H100 for the whole suite.
#   bench/gpu/run.sh fw-study [CAP_S [BUDGET_S [TOTAL_S]]]
#       the Floyd-Warshall study's Table 1 (bench/fw_study.sh: every
#       --variant on n = 64 .. 8362, float): fw_study.md/.csv/.log in $OUT;
#       a variant stops at the n whose predicted time passes CAP_S (60) or
#       once its runs used BUDGET_S (90); the study stops at TOTAL_S (400).
#       Then `portaflow apsp --stats` at n = 16384, int32, three times as
#       whole processes (apsp_16384_whole.log). Starts with compute-sanitizer
#       memcheck on `--variant per-k` (n = 300, with and without --paths).
#       Fits one 10-minute call on a warm build; the plot is made here
#       afterwards (bench/fw_plot.py, matplotlib).
#   bench/gpu/run.sh apsp-whole [REPS]
#       `portaflow apsp --stats` at n = 16384, int32, as whole processes
#       (REPS, default 3, on auto = cuda; once on opencl): the statistics
#       are summed on the device (fw_stats), so download is only their
#       partials. Before it: the apsp_stats suite on cuda, compute-sanitizer
#       memcheck on the fw_stats kernel (n = 300, int32 and int64), and the
#       16384 "s" lines against those of --verify (matrix downloaded, host
#       sums). Log: apsp_whole.log. A few minutes on a warm build.
#   bench/gpu/run.sh hybrid [SET [REPS [LIMIT_S [ENGINES]]]]
#       issue 19: whole `portaflow solve` processes, min of REPS (2), for
#       auto (the hybrid), each engine alone (--hybrid off; default
#       "auto cuda opencl omp seq") and hi_pr where HIPR=path is set, on SET
#       (default device: the issue's RMFGEN/RLG instances; DIMACS files of
#       the original generators may be given instead as HYBRID_FILES="f1 f2
#       ..."): bench/hybrid.sh's table with the switches per instance
#       (hybrid_SET.md) and a trace + --json per instance for
#       bench/hybrid_plot.py (run here afterwards: SVG).
#   bench/gpu/run.sh graph [GRAPHS [BACKENDS [REPS [ALGS]]]]
#       the analytics anchors (bench/graph_anchors.sh): portaflow bfs, sssp
#       and tc on BACKENDS (default "cuda opencl omp", 16 threads) against
#       GAPBS (16 threads, built from the carried .peers/gapbs) on GRAPHS
#       (default "kron:22 grid:4096"; "kron:24" in a call of its own: each
#       graph is generated once per warm machine, in /tmp/pf_graph_anchors);
#       table and per-level JSON in $OUT/graph/ (graph_anchors.csv keeps the
#       rows of earlier calls). ALGS: "bfs sssp tc" (default) or a part, to
#       split a big graph over calls. Plot here: bench/graph_plot.py.
#   bench/gpu/run.sh session [INSTANCES [BACKENDS [BATCHES [EXTRA]]]]
#       sessions (bench/session.sh): warm re-solves against cold ones over one
#       update stream per fraction (0.1%, 1%), the 1000-arc floor, and with
#       EXTRA=--long the 1000-batch memory stream; the first call of a warm
#       machine also runs the session, steps, devcheck and dyn suites on cuda
#       and opencl and compute-sanitizer on two CUDA sessions (memcheck on
#       --verify and cut only, initcheck on cut only). Table:
#       $OUT/session/session.md.
# Logs and tables go to $OUT (the device tool brings them back) or ./bench/out.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${OUT:-bench/out}
mkdir -p "$out"
bash bench/gpu/setup.sh 2>&1 | tee "$out/setup.log" | tail -n 25
bin=build-gpu/portaflow
stage=$1; shift
case $stage in
graph)
  mkdir -p "$out/graph"
  # On the first call of a warm machine: the suite and compute-sanitizer
  # on the analytics kernels (small graphs, each command verified).
  if [ ! -f /tmp/pf_graph_anchors/graph_anchors.csv ]; then
  small=$(mktemp -d)
  "$bin" gen kron 12 --weights 1:255 --format bin -o "$small/k.bin"
  "$bin" gen random 3000 20000 --weights 1:50 -o "$small/r.gr"
  "$bin" gen road 60 40 --format dimacs -o "$small/road.gr"
  sed 's/^a \([0-9]*\) \([0-9]*\) \([0-9]*\)$/a \1 \2 \3.5/' "$small/r.gr" > "$small/real.gr"
  for f in k.bin r.gr road.gr real.gr; do
    for cmd in "bfs --parents" sssp tc; do
      compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" $cmd --verify -b cuda "$small/$f" \
        > "$out/graph/sanitizer_${cmd%% *}_$f.log" 2>&1
      echo "compute-sanitizer $cmd $f: exit $?, $(grep 'ERROR SUMMARY' "$out/graph/sanitizer_${cmd%% *}_$f.log" | tail -n 1)"
    done
  done
  for backend in cuda opencl; do
    build-gpu/tests/test_graph $backend > "$out/graph/test_graph_$backend.log" 2>&1
    echo "test_graph $backend: exit $?, $(grep -E 'Checks' "$out/graph/test_graph_$backend.log")"
  done
  fi
  [ -f /tmp/pf_graph_anchors/graph_anchors.csv ] && cp /tmp/pf_graph_anchors/graph_anchors.csv "$out/graph/"
  bash bench/graph_anchors.sh --bin "$bin" --graphs "${1:-kron:22 grid:4096}" \
    --backends "${2:-cuda opencl omp}" --reps "${3:-3}" --algs "${4:-bfs sssp tc}" \
    --threads 16 --out "$out/graph"
  cp "$out/graph/graph_anchors.csv" /tmp/pf_graph_anchors/
  ;;
tests)
  meson test -C build-gpu --print-errorlogs --num-processes 4 2>&1 | tee "$out/tests.log" | grep -E "^ *[0-9]+/|Ok:|Fail:|Skipped:"
  small=$(mktemp --suffix=.max)
  "$bin" gen rlg 64 48 --seed 3 -o "$small"
  "$bin" gen rmf 8 12 --seed 3 -o "${small%.max}_rmf.max"
  for tool in memcheck racecheck synccheck initcheck; do
    for f in "$small" "${small%.max}_rmf.max"; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$bin" solve --backend cuda --verify --flow --cut "$f" \
        > "$out/sanitizer_${tool}_$(basename "$f").log" 2>&1
      echo "compute-sanitizer $tool $(basename "$f"): exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_${tool}_$(basename "$f").log" | tail -n 1)"
    done
  done
  # The steps suite deliberately makes an allocation fail; API errors are
  # expected there, memory errors are not.
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 build-gpu/tests/test_steps cuda > "$out/sanitizer_steps.log" 2>&1
  echo "compute-sanitizer memcheck test_steps cuda: exit $?"
  ;;
matrix)
  set_name=$1 backends=$2 limit=$3
  mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name")
  bash bench/solve_matrix.sh "$bin" "$backends" "$limit" "${files[@]}" | tee "$out/matrix_${set_name}.md"
  ;;
compare)
  set_name=$1 repeat=${2:-3}
  mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name")
  for f in "${files[@]}"; do
    "$bin" compare --repeat "$repeat" "$f" 2>&1 | tee -a "$out/compare_${set_name}.md"
    echo | tee -a "$out/compare_${set_name}.md"
  done
  ;;
apsp)
  backends=$1 sizes=$2 reps=${3:-2}
  shift $(( $# < 3 ? $# : 3 ))
  suites=()
  for b in cuda opencl omp; do suites+=("fwsteps-$b" "apsp-$b"); done
  meson test -C build-gpu --print-errorlogs "${suites[@]}" apsp-seq 2>&1 | tee "$out/apsp_tests.log" | grep -E "^ *[0-9]+/|Ok:|Fail:|Skipped:"
  build-gpu/bench/bench_apsp --backends "$backends" --sizes "$sizes" --reps "$reps" "$@" | tee "$out/apsp.md"
  ;;
apsp-check)
  sp=$(mktemp --suffix=.gr)
  "$bin" gen sp 300 --negative --seed 5 -o "$sp"
  for tool in memcheck racecheck synccheck initcheck; do
    for paths in "" --paths; do
      log="$out/sanitizer_apsp_${tool}${paths}.log"
      compute-sanitizer --tool $tool --error-exitcode 9 "$bin" apsp --backend cuda --verify --stats $paths "$sp" > "$log" 2>&1
      echo "compute-sanitizer $tool apsp $paths: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)"
    done
  done
  for v in 0 1 2 3; do
    echo "PF_CUDA_FW_VARIANT=$v"
    PF_CUDA_FW_VARIANT=$v build-gpu/bench/bench_apsp --backends cuda --sizes 16384 --reps 3 | tail -n 1
  done | tee "$out/apsp_variants.md"
  for kind in i64 f32; do
    build-gpu/bench/bench_apsp --backends "cuda opencl" --sizes 8192 --reps 2 --type $kind | tail -n 2
  done | tee "$out/apsp_kinds.md"
  # Next hops: integer weights get the w*n+1 tie-break, which needs int64 here.
  build-gpu/bench/bench_apsp --backends "cuda opencl" --sizes 8192 --reps 2 --type i64 --paths \
    | tail -n 2 | tee -a "$out/apsp_kinds.md"
  ;;
suite-ab)
  only=$1 backends=$2 reps=${3:-3} limit=${4:-120}
  [ -f .base/meson.build ] || { echo "suite-ab: no .base tree carried" >&2; exit 2; }
  [ -f build-base/build.ninja ] ||
    meson setup build-base .base -Dcuda=enabled -Dopencl=enabled -Dopenmp=enabled >/dev/null
  ninja -C build-base >/dev/null || exit 1
  ab=$out/suite-ab
  mkdir -p "$ab/base" "$ab/new"
  for name in $(bash bench/instances.sh --list ${only//,/ }); do
    for side in base new; do
      build=build-gpu; [ $side = base ] && build=build-base
      bash bench/suite.sh --build "$build" --out "$ab/$side" --only "$name" --reps "$reps" \
        --limit "$limit" --backends "$backends" --peers none --no-png >> "$ab/suite_ab.log" 2>&1
    done
  done
  python3 bench/suite_ab.py "$ab/base/suite.csv" "$ab/new/suite.csv" | tee "$ab/suite_ab.md"
  ;;
suite)
  only=${1:-all} reps=${2:-3} limit=${3:-120}
  shift $(($# < 3 ? $# : 3))
  keep=bench/out/suite
  mkdir -p "$out/suite" "$keep"
  same=0
  [ "$out/suite" -ef "$keep" ] && same=1
  [ $same = 0 ] && [ -s "$keep/suite.csv" ] && cp "$keep/suite.csv" "$out/suite/suite.csv"
  bash bench/suite.sh --build build-gpu --out "$out/suite" --only "$only" --reps "$reps" \
    --limit "$limit" --no-png "$@" 2>&1 | tee "$out/suite_${only//[^a-z0-9_]/_}.log"
  rc=${PIPESTATUS[0]}
  [ $same = 0 ] && cp "$out/suite/suite.csv" "$keep/suite.csv"
  exit "$rc"
  ;;
sweep)
  set_name=$1 backends=$2 var=${3%%=*} values=${3#*=} reps=${4:-3} limit=${5:-60}
  mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name")
  {
    echo "| instance | backend | $var | value | solve_s | setup_s | upload_s | push_relabel_s | global_relabel_s | phase2_s | rounds | global_relabels | host_pushes |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for f in "${files[@]}"; do
      for b in $backends; do
        for v in $values; do
          line=$(env "$var=$v" build-gpu/bench/bench_solve "$f" --backend "$b" --reps "$reps" \
                 --once 10 --limit "$limit" 2>&1 | grep -E '^result|^timeout|rror' | tail -n 1)
          awk -v name="$(basename "$f" .max)" -v b="$b" -v v="$v" '
            $1 == "result" { for (i = 2; i < NF; i += 2) r[$i] = $(i + 1)
              printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, b, v,
                r["value"], r["solve_s"], r["setup_s"], r["upload_s"], r["push_relabel_s"],
                r["global_relabel_s"], r["phase2_s"], r["rounds"], r["global_relabels"], r["host_pushes"]; next }
            { printf "| %s | %s | %s | %s |\n", name, b, v, $0 }' <<<"$line"
        done
      done
    done
  } | tee "$out/sweep_${set_name//[^a-z0-9_]/_}_${var}.md"
  ;;
trace)
  set_name=$1 backend=$2; shift 2
  mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name")
  for f in "${files[@]}"; do
    for spec in "$@"; do
      envs=(PORTAFLOW_TRACE=1)
      [ "$spec" != - ] && IFS=, read -r -a more <<<"$spec" && envs+=("${more[@]}")
      echo "## $(basename "$f" .max) $backend $spec"
      env "${envs[@]}" timeout 120 "$bin" solve --backend "$backend" --no-progress "$f" 2>&1 |
        grep -E '^portaflow trace|^c (solve_s|times|rounds|device)|^s '
    done
  done | tee "$out/trace_${set_name//[^a-z0-9_]/_}_$backend.log"
  ;;
bits)
  set_name=${1:-all} reps=${2:-3} limit=${3:-60} backends=${4:-cuda opencl}
  mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name")
  bash bench/gpu/bits.sh build-gpu "$reps" "$limit" "$backends" "${files[@]}" |
    tee "$out/bits_${set_name//[^a-z0-9_]/_}.md"
  ;;
fw-study)
  cap=${1:-60} budget=${2:-90} total=${3:-400}
  # The per-k kernel under memcheck first (small: one launch per k).
  sp=$(mktemp --suffix=.gr)
  "$bin" gen sp 300 --negative --seed 5 -o "$sp"
  for paths in "" --paths; do
    log="$out/sanitizer_perk_memcheck${paths}.log"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" apsp --backend cuda --variant per-k \
      --verify --stats $paths "$sp" > "$log" 2>&1
    echo "compute-sanitizer memcheck per-k $paths: exit $?, $(grep -E 'ERROR SUMMARY' "$log" | tail -n 1)"
  done
  rm -f "$sp"
  bash bench/fw_study.sh --bin "$bin" --out "$out" --cap "$cap" --budget "$budget" --total "$total"
  g=$(mktemp --suffix=.gr)
  "$bin" gen sp 16384 --seed 3 -o "$g"
  TIMEFORMAT="whole process %R s"
  for rep in 1 2 3; do
    { time "$bin" apsp --stats "$g"; } 2>&1
  done | grep -E '^c (backend|variant|read|times|write)|^whole' | tee "$out/apsp_16384_whole.log"
  rm -f "$g"
  ;;
apsp-whole)
  reps=${1:-3}
  meson test -C build-gpu --print-errorlogs apsp_stats-cuda 2>&1 | grep -E "^ *[0-9]+/"
  sp=$(mktemp --suffix=.gr)
  "$bin" gen sp 300 --negative --seed 5 -o "$sp"
  for type in i32 i64; do
    log="$out/sanitizer_fw_stats_memcheck_$type.log"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" apsp --backend cuda --type $type \
      --stats "$sp" > "$log" 2>&1
    echo "compute-sanitizer memcheck fw_stats $type: exit $?, $(grep -E 'ERROR SUMMARY' "$log" | tail -n 1)"
  done
  rm -f "$sp"
  g=$(mktemp --suffix=.gr)
  "$bin" gen sp 16384 --seed 3 -o "$g"
  TIMEFORMAT="whole process %R s"
  {
    for rep in $(seq "$reps"); do
      { time "$bin" apsp --stats "$g"; } 2>&1
    done
    { time "$bin" apsp --backend opencl --stats "$g"; } 2>&1
  } | grep -E '^c (backend|variant|read|times|write)|^s |^whole' | tee "$out/apsp_whole.log"
  fast=$("$bin" apsp --stats "$g" | grep '^s ')
  slow=$("$bin" apsp --stats --verify "$g" | grep '^s ')
  if [ "$fast" = "$slow" ]; then echo "s lines: device sums = host sums"; else
    echo "s lines DIFFER: device [$fast] host [$slow]"; fi | tee -a "$out/apsp_whole.log"
  rm -f "$g"
  ;;
hybrid)
  set_name=${1:-device} reps=${2:-2} limit=${3:-120} engines=${4:-auto cuda opencl omp seq}
  if [ -n "${HYBRID_FILES:-}" ]; then read -r -a files <<<"$HYBRID_FILES"; else
    mapfile -t files < <(bash bench/instances.sh "$bin" "$set_name"); fi
  meson test -C build-gpu --print-errorlogs hybrid-cuda hybrid-opencl 2>&1 | tee "$out/hybrid_tests.log" |
    grep -E "^ *[0-9]+/|Ok:|Fail:"
  bash bench/hybrid.sh --bin "$bin" --out "$out/hybrid_${set_name//[^a-z0-9_]/_}" --reps "$reps" \
    --limit "$limit" --engines "$engines" "${files[@]}"
  ;;
session)
  # Sessions (bench/session.sh): the suites on the GPU backends and
  # compute-sanitizer on a CUDA session (first call of a warm machine),
  # then warm against cold on INSTANCES for BACKENDS.
  instances=${1:-rmf_64x64} backends=${2:-cuda opencl omp seq} batches=${3:-5} extra=${4:-}
  if [ ! -f /tmp/pf_session_checked ]; then
    meson test -C build-gpu --print-errorlogs session-cuda session-opencl steps-cuda \
      steps-opencl devcheck-cuda devcheck-opencl dyn 2>&1 |
      tee "$out/session_tests.log" | grep -E "^ *[0-9]+/|Ok:|Fail:"
    small=$(mktemp -d)
    "$bin" gen rlg 12 20 > "$small/g.max"
    "$bin" gen updates "$small/g.max" --fraction 0.02 --batches 20 --mix cap,add,del,addv \
      -o "$small/u.upd"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" session --verify -b cuda \
      "$small/g.max" "$small/u.upd" > "$out/session_sanitizer.log" 2>&1
    echo "compute-sanitizer session: exit $?, $(grep 'ERROR SUMMARY' "$out/session_sanitizer.log")"
    # Cut only: covered deficits and the sparse transfers both ways.
    compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" session -b cuda \
      "$small/g.max" "$small/u.upd" > "$out/session_sanitizer_cut.log" 2>&1
    echo "compute-sanitizer cut-only session: exit $?, $(grep 'ERROR SUMMARY' "$out/session_sanitizer_cut.log")"
    # Every device value read was written first (the read-back's snapshots).
    compute-sanitizer --tool initcheck --error-exitcode 9 "$bin" session -b cuda \
      "$small/g.max" "$small/u.upd" > "$out/session_initcheck.log" 2>&1
    echo "compute-sanitizer initcheck session: exit $?, $(grep 'ERROR SUMMARY' "$out/session_initcheck.log")"
    touch /tmp/pf_session_checked
  fi
  read -r -a names <<<"$instances"
  bash bench/session.sh --bin "$bin" --out "$out/session" --backends "$backends" \
    --batches "$batches" $extra "${names[@]}"
  ;;
*) echo "unknown stage $stage" >&2; exit 1 ;;
esac
