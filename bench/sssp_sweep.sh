#!/usr/bin/env bash
# GPU SSSP against PORTAFLOW_SSSP_GROUP (issue 21): per graph, backend and
# value of the knob, the median kernel time of REPS whole `portaflow sssp`
# processes and the PORTAFLOW_TRACE line of the last one (steps, launches,
# readbacks, the group's runs and steps, buckets).
#
#   bench/sssp_sweep.sh [GRAPHS [BACKENDS [VALUES [REPS [BIN [WORK]]]]]]
#
# Defaults: "grid:4096", "cuda opencl", "0 256 1024 4096 16384 65536", 3,
# build-gpu/portaflow, /tmp/pf_graph_anchors. The graphs are
# bench/graph_anchors.sh's (its binary form and root in WORK): run that
# first on the same machine. Value 0 is the path without the group
# (batches of launches only). Each process may take 120 s (a run that
# hangs, as PORTAFLOW_SSSP_CL_GROUPS=1 would on a device that runs groups
# in turn, is a failed row). Table: $OUT/sssp_sweep.md; the traces in
# $OUT/sssp_sweep.log. Other knobs (PORTAFLOW_SSSP_CL_GROUPS) pass through
# the environment.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

graphs=${1:-grid:4096}
backends=${2:-cuda opencl}
values=${3:-0 256 1024 4096 16384 65536}
reps=${4:-3}
bin=${5:-build-gpu/portaflow}
work=${6:-/tmp/pf_graph_anchors}
out=${OUT:-bench/out}
[ -x "$bin" ] || { echo "sssp_sweep.sh: $bin not built" >&2; exit 1; }
mkdir -p "$out"
log=$out/sssp_sweep.log
table=$out/sssp_sweep.md

median() { sort -g | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "nan")}'; }
kernel_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['times']['kernel'])" "$1"; }

echo "sssp_sweep: $(date -u +%FT%TZ), reps $reps" | tee -a "$log"
{
  echo "| graph | backend | PORTAFLOW_SSSP_GROUP | kernel s (median) | checksum | trace |"
  echo "|---|---|---:|---:|---:|---|"
} > "$table"
json=$(mktemp)
for name in $graphs; do
  base=$work/${name/:/_}
  if [ ! -s "$base.bin" ] || [ ! -s "$base.root" ]; then
    echo "sssp_sweep.sh: $base.bin or .root missing: run bench/graph_anchors.sh --graphs $name first" | tee -a "$log" >&2
    continue
  fi
  root=$(cat "$base.root")
  for backend in $backends; do
    for value in $values; do
      kernels=()
      trace=""
      for ((r = 0; r < reps; r++)); do
        if ! PORTAFLOW_TRACE=1 PORTAFLOW_SSSP_GROUP=$value timeout 120 "$bin" sssp --json -b "$backend" \
            --zero-based --stats --source "$root" "$base.bin" > "$json" 2> "$json.err"; then
          echo "$name $backend $value: failed: $(tail -n 1 "$json.err")" | tee -a "$log"
          continue 2
        fi
        kernels+=("$(kernel_of "$json")")
        trace=$(grep 'portaflow trace: sssp' "$json.err" | tail -n 1)
      done
      sum=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('checksum', ''))" "$json")
      k=$(printf '%s\n' "${kernels[@]}" | median)
      echo "$name $backend group $value: kernel $k s (${kernels[*]}), checksum $sum; $trace" | tee -a "$log"
      echo "| $name | $backend | $value | $k | $sum | ${trace#portaflow trace: } |" >> "$table"
    done
  done
done
rm -f "$json" "$json.err"
cat "$table"
