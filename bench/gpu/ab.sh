#!/usr/bin/env bash
# A/B of two source trees in one GPU-machine call, so that both see the same
# host (H100 host timings drift by up to 40% between calls). Prepare the
# other tree here, then carry it:
#   git archive REV | (mkdir -p bench/out/alt-src && tar -x -C bench/out/alt-src)
#   device run, carry ["bench/out/alt-src", ".deps"]:
#   bash bench/gpu/ab.sh SET BACKEND REPS SPEC...
# Builds the working tree (setup.sh, build-gpu) and the carried one
# (build-alt, OpenMP only: the GPU backends need no second copy for host
# A/Bs), then for each instance and SPEC (VAR=V[,VAR=V...] or -) runs
# `portaflow solve --backend BACKEND` with PORTAFLOW_TRACE=1 REPS times,
# alternating alt and new; prints each run's trace, phase and value lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${OUT:-bench/out}
alt=bench/out/alt-src
mkdir -p "$out"
[ -d "$alt" ] || { echo "ab.sh: no $alt (see the top of this script)" >&2; exit 2; }
bash bench/gpu/setup.sh > "$out/setup.log" 2>&1 || { tail -n 25 "$out/setup.log"; exit 1; }
(cd "$alt" && { [ -f build-alt/build.ninja ] ||
  meson setup build-alt -Dcuda=disabled -Dopencl=disabled -Dopenmp=enabled >/dev/null; } &&
  ninja -C build-alt >/dev/null) || { echo "ab.sh: the alt tree does not build" >&2; exit 1; }
set_name=$1 backend=$2 reps=$3; shift 3
mapfile -t files < <(bash bench/instances.sh build-gpu/portaflow "$set_name")
for f in "${files[@]}"; do
  for spec in "$@"; do
    envs=(PORTAFLOW_TRACE=1)
    [ "$spec" != - ] && IFS=, read -r -a more <<<"$spec" && envs+=("${more[@]}")
    for ((r = 1; r <= reps; r++)); do
      for side in alt new; do
        bin=build-gpu/portaflow
        [ $side = alt ] && bin=$alt/build-alt/portaflow
        echo "## $(basename "$f" .max) $backend $spec $side run $r"
        env "${envs[@]}" timeout 120 "$bin" solve --backend "$backend" --no-progress "$f" 2>&1 |
          grep -E '^portaflow trace: omp|^c (solve_s|times|rounds)|^s '
      done
    done
  done
done | tee "$out/ab_${set_name//[^a-z0-9_]/_}_$backend.log"
