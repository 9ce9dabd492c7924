#!/usr/bin/env bash
# Solves each instance with each backend (one process per solve, a time
# limit per solve, answers verified) and prints a markdown table row per
# run: instance, backend, value, solve time and phases, rounds, relabels.
# Usage: bench/solve_matrix.sh BINARY "BACKEND[:DEVICE][=ENV=VAL,...] ..." LIMIT_S FILE...
# e.g. bench/solve_matrix.sh build/portaflow "cuda omp seq cuda=PORTAFLOW_FOLLOW=0" 120 a.max
set -uo pipefail
bin=$1; backends=$2; limit=$3; shift 3
printf '| instance | backend | env | value | solve_s | upload_s | push_relabel_s | global_relabel_s | phase2_s | rounds | global_relabels | device_MiB |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for file in "$@"; do
  for spec in $backends; do
    backend=${spec%%=*}; envs=""
    [ "$spec" != "$backend" ] && envs=${spec#*=}
    device_args=(); device=""
    case $backend in *:*) device=${backend#*:}; backend=${backend%%:*}; device_args=(--device "$device") ;; esac
    out=$(env ${envs//,/ } timeout "$limit" "$bin" solve --backend "$backend" "${device_args[@]}" \
          --verify --no-progress "$file" 2>&1)
    rc=$?
    name=$(basename "$file" .max)
    if [ $rc -ne 0 ]; then
      why=$([ $rc -eq 124 ] && echo "timeout ${limit}s" || echo "exit $rc: $(echo "$out" | tail -n 1)")
      printf '| %s | %s | %s | FAILED (%s) |\n' "$name" "$spec" "$envs" "$why"
      continue
    fi
    echo "$out" | awk -v name="$name" -v be="$backend${device:+:$device}" -v envs="$envs" '
      /^s / {value=$2}
      /^c solve_s/ {solve=$3}
      /^c times/ {for (i=3; i<NF; i+=2) t[$i]=$(i+1)}
      /^c rounds/ {rounds=$3; grs=$5; mib=$7/1048576}
      END {printf "| %s | %s | %s | %s | %.4f | %.4f | %.4f | %.4f | %.4f | %s | %s | %.1f |\n",
           name, be, envs, value, solve, t["upload_s"], t["push_relabel_s"], t["global_relabel_s"],
           t["phase2_s"], rounds, grs, mib}'
  done
done
