#!/usr/bin/env bash
# Whole `portaflow solve` processes of several variants on one instance,
# the variants alternating run by run, to see where a process's wall time
# goes besides the read and the solve (start, device open, exit). Usage:
#   bench/wall.sh --bin BIN [--reps R] FILE VARIANT...
# A VARIANT is one word list: environment assignments (VAR=VALUE) first,
# then solve options, e.g. "PORTAFLOW_HYBRID=off" or "-b omp --hybrid off";
# "-" is plain `portaflow solve FILE`. Prints one markdown row per variant:
# wall time (min and median of R), and the median of the `c read_s` and
# `c solve_s` lines, and what is left (wall - read - solve).
set -uo pipefail
bin=build/portaflow reps=5
while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
  *) break ;;
  esac
done
file=${1:?usage: bench/wall.sh --bin BIN [--reps R] FILE VARIANT...}; shift
[ $# -gt 0 ] || { echo "wall.sh: no variants" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_one() { # VARIANT INDEX: one process, appends "wall read solve" to $tmp/INDEX
  local envs=() opts=() word
  for word in $1; do
    [ "$word" = - ] && continue
    if [[ $word == *=* && ${#opts[@]} -eq 0 ]]; then envs+=("$word"); else opts+=("$word"); fi
  done
  local t0 t1
  t0=$(date +%s.%N)
  env "${envs[@]}" "$bin" solve --no-progress "${opts[@]}" "$file" > "$tmp/out" 2>/dev/null
  t1=$(date +%s.%N)
  local r s
  r=$(awk '$1 == "c" && $2 == "read_s" {print $3}' "$tmp/out")
  s=$(awk '$1 == "c" && $2 == "solve_s" {print $3}' "$tmp/out")
  awk -v a="$t0" -v b="$t1" -v r="${r:-0}" -v s="${s:-0}" \
    'BEGIN { printf "%.4f %.4f %.4f\n", b - a, r, s }' >> "$tmp/$2"
}

for rep in $(seq "$reps"); do
  i=0
  for v in "$@"; do run_one "$v" "$i"; i=$((i + 1)); done
done

median() { sort -n | awk '{x[NR] = $1} END {print (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2}'; }
echo "| variant | wall min | wall median | read_s | solve_s | rest |"
echo "|---|---|---|---|---|---|"
i=0
for v in "$@"; do
  f=$tmp/$i
  wmin=$(cut -d' ' -f1 "$f" | sort -n | head -n 1)
  wmed=$(cut -d' ' -f1 "$f" | median)
  rmed=$(cut -d' ' -f2 "$f" | median)
  smed=$(cut -d' ' -f3 "$f" | median)
  rest=$(awk -v w="$wmed" -v r="$rmed" -v s="$smed" 'BEGIN { printf "%.4f", w - r - s }')
  echo "| \`$v\` | $wmin | $wmed | $rmed | $smed | $rest |"
  i=$((i + 1))
done
