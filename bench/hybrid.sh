#!/usr/bin/env bash
# The hybrid against its parts (bench/NOTES.md 35): whole `portaflow solve`
# processes (wall time, parsing and device start included), min of REPS
# runs, the compared engines of an instance always in the same call:
#   auto      plain `portaflow solve FILE` (auto's choice; the hybrid is opt-in)
#   NAME      `--backend NAME --hybrid off` (the engine alone), for each of
#             ENGINES that is not auto; seq is `--backend seq` (its method by the
#             network's shape), seq-pr `--backend seq --method push-relabel`; NAME+seq is
#             `--backend NAME --hybrid on` (the hybrid of an explicit backend)
#   hi_pr     HIPR=path to a hi_pr binary (it reads DIMACS on stdin), if given
# Then one more run per instance, auto's backend with `--hybrid on`,
# PORTAFLOW_TRACE=1 and --json, for the plot (bench/hybrid_plot.py: active
# vertices over time, engine shaded).
# Usage:
#   bench/hybrid.sh --bin BIN --out DIR [--reps N] [--limit S]
#                   [--engines "auto cuda opencl omp seq"] FILE...
# Writes DIR/hybrid.csv, DIR/hybrid.md (one table, with the number of
# switches of the auto run and auto's ratio to the fastest single engine),
# DIR/trace_NAME.log and DIR/trace_NAME.json.
set -uo pipefail
bin=build/portaflow out=bench/out/hybrid reps=2 limit=300
engines="auto cuda opencl omp seq"
files=()
while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  --limit) limit=$2; shift 2 ;;
  --engines) engines=$2; shift 2 ;;
  -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
  -*) echo "hybrid.sh: unknown option $1" >&2; exit 1 ;;
  *) files+=("$1"); shift ;;
  esac
done
[ ${#files[@]} -gt 0 ] || { echo "hybrid.sh: no instance files" >&2; exit 1; }
mkdir -p "$out"
csv=$out/hybrid.csv
echo "instance,engine,wall_s,value,backend,switches" > "$csv"

# Wall seconds of one command (stdout to $2), or "timeout"/"failed".
wall() {
  local sink=$1; shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$sink" 2>> "$out/errors.log"
  rc=$?
  t1=$(date +%s.%N)
  if [ $rc = 124 ]; then echo timeout; elif [ $rc != 0 ]; then echo failed; else
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'; fi
}

json_field() { # FILE FIELD: a number or string field of portaflow's --json
  sed -n "s/.*\"$2\":\"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p" "$1" | head -n 1
}

for f in "${files[@]}"; do
  name=$(basename "$f"); name=${name%.gz}; name=${name%.*}
  for e in $engines; do
    best=""
    value="" backend="" switches=""
    for rep in $(seq "$reps"); do
      res=$out/.last.json
      case $e in
      auto) t=$(wall "$res" "$bin" solve --json --no-progress "$f") ;;
      seq) t=$(wall "$res" "$bin" solve --backend seq --json --no-progress "$f") ;;
      seq-pr) t=$(wall "$res" "$bin" solve --backend seq --method push-relabel --json --no-progress "$f") ;;
      *+seq) t=$(wall "$res" "$bin" solve --backend "${e%+seq}" --hybrid on --json --no-progress "$f") ;;
      *) t=$(wall "$res" "$bin" solve --backend "$e" --hybrid off --json --no-progress "$f") ;;
      esac
      case $t in timeout|failed) best=$t; break ;; esac
      if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
        best=$t
        value=$(json_field "$res" value)
        backend=$(json_field "$res" backend)
        switches=$(grep -o '"to":"' "$res" | wc -l)
        grep -q '"hybrid":true' "$res" && backend="$backend (hybrid)" || switches=""
      fi
    done
    echo "$name,$e,$best,$value,$backend,$switches" >> "$csv"
    echo "$name $e $best s (value $value, $backend, switches ${switches:--})" >&2
  done
  if [ -n "${HIPR:-}" ]; then
    best=""
    for rep in $(seq "$reps"); do
      t0=$(date +%s.%N)
      if [[ $f == *.gz ]]; then
        timeout "$limit" bash -c 'gzip -dc "$1" | "$2" > /dev/null' _ "$f" "$HIPR"
      else
        timeout "$limit" "$HIPR" < "$f" > /dev/null
      fi
      rc=$?
      t1=$(date +%s.%N)
      [ $rc = 0 ] || { best=failed; break; }
      t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
      if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$name,hi_pr,$best,,hi_pr," >> "$csv"
  fi
  PORTAFLOW_TRACE=1 timeout "$limit" "$bin" solve --hybrid on --json --no-progress "$f" \
    > "$out/trace_$name.json" 2> "$out/trace_$name.log"
done
rm -f "$out/.last.json"
python3 "$(dirname "$0")/hybrid_report.py" "$csv" | tee "$out/hybrid.md"
