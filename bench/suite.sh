#!/usr/bin/env bash
# The benchmark suite of issue 6 in one command: builds the instances
# (bench/instances.sh, seed 1, cached), runs every backend and every
# installed peer on each, checks that all flow values agree, appends one CSV
# row per (instance, backend or peer) to OUT/suite.csv, then writes the
# report (bench/suite_report.py: OUT/suite.md, and OUT/suite.png).
#
# usage: bench/suite.sh [--build DIR] [--out DIR] [--only "SET|NAME ..."]
#                       [--backends "B[:DEV] ..."] [--peers "NAME ..."|none]
#                       [--reps K] [--limit S] [--limit-for "NAME=S ..."]
#                       [--once S] [--threads T]
#                       [--peer-jobs J] [--no-png] [--no-report]
#
#   --build DIR     meson build holding portaflow, bench/bench_solve and
#                   bench/bench_peers (default: build in the checkout)
#   --out DIR       where suite.csv (appended to), suite.md and suite.png go
#                   (default: bench/out/suite)
#   --only LIST     instance sets or names of bench/instances.sh (default all)
#   --backends LIST seq omp opencl cuda, a device as opencl:1, or none
#                   (default: seq and every backend `portaflow backends` finds)
#   --peers LIST    boost_pr boost_bk lemon_preflow maxflow_bk (the default,
#                   those built), or none
#   --reps K        timed runs after one warm-up; the median is kept (3)
#   --limit S       per solve, warm-up included: a solve past it is cut off
#                   and recorded as "timeout" (default 300)
#   --limit-for L   other limits for some backends or peers, e.g.
#                   "boost_pr=200 seq=60" (the CSV keeps each row's limit)
#   --once S        a warm-up longer than S seconds is the only measurement,
#                   shown as "1 run" (default 5)
#   --threads T     OpenMP threads (default: the runtime's, all cores)
#   --peer-jobs J   peer runs (one core each) J at a time, after all backend
#                   runs (default 1: alone; the CSV keeps J, the table says
#                   so when it is above 1)
#   --no-png        the table only (the plot needs matplotlib, see the report)
#   --no-report     the CSV only
#
# Backends are timed in one process each (bench_solve: warm-up and timed
# runs in the same process, every answer verified); solve time is
# pf_solution.times.total (residual build, device open, upload, phases,
# download; file parsing excluded), upload also apart. Peers' times exclude
# building their graphs (bench_peers). Exit: 0; 1 usage or a run failed;
# 3 the flow values disagree.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$root/bench/out/suite
only=all
backends=""
peers="boost_pr boost_bk lemon_preflow maxflow_bk"
reps=3
default_limit=300
limit_for=""
once=5
threads=""
jobs=1
report=1
png=1

die() { echo "suite: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --only) only=$2; shift 2 ;;
  --backends) backends=$2; shift 2 ;;
  --peers) peers=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  --limit) default_limit=$2; shift 2 ;;
  --limit-for) limit_for=$2; shift 2 ;;
  --once) once=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --peer-jobs) jobs=$2; shift 2 ;;
  --no-png) png=0; shift ;;
  --no-report) report=0; shift ;;
  -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $reps =~ ^[0-9]+$ && $reps -ge 1 ]] || die "--reps takes a positive count"
[[ $default_limit =~ ^[0-9]+$ && $default_limit -ge 1 ]] || die "--limit takes whole seconds"
for pair in $limit_for; do
  [[ $pair =~ ^[a-z0-9_:]+=[0-9]+$ && ${pair#*=} -ge 1 ]] || die "--limit-for takes NAME=SECONDS words, not '$pair'"
done
[[ $jobs =~ ^[0-9]+$ && $jobs -ge 1 ]] || die "--peer-jobs takes a positive count"
[ "$peers" = none ] && peers=""

# Paths given are from where the script was called; then it works in root.
build=$(realpath -m "$build")
out=$(realpath -m "$out")
cd "$root" || exit 1
portaflow=$build/portaflow
bench_solve=$build/bench/bench_solve
bench_peers=$build/bench/bench_peers
{ [ -x "$portaflow" ] && [ -x "$bench_solve" ]; } || die "no $portaflow or $bench_solve (build first: bash scripts/build.sh)"
case $backends in
none) backends="" ;;
"") # seq, then what `portaflow backends` lists as available, best last.
  found=$("$portaflow" backends 2>/dev/null | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')
  backends=seq
  for b in omp opencl cuda; do
    grep -qx "$b" <<<"$found" && backends="$backends $b"
  done ;;
esac
if [ -n "$peers" ] && [ ! -x "$bench_peers" ]; then
  echo "suite: no $bench_peers (install the peers: bash scripts/deps.sh, then rebuild); peers shown as n/a" >&2
fi

mkdir -p "$out"
csv=$out/suite.csv
columns="stamp,machine,instance,n,m,kind,solver,status,value,runs,solve_s,upload_s,setup_s"
columns="$columns,push_relabel_s,global_relabel_s,phase2_s,download_s,rounds,global_relabels"
columns="$columns,device_bytes,read_s,times,reps,limit_s,once_s,jobs,device,note"
if [ ! -s "$csv" ]; then
  echo "$columns" >"$csv"
elif [ "$(head -n 1 "$csv")" != "$columns" ]; then
  die "$csv has other columns (an older suite?): move it away"
fi

clean() { # free text for a CSV field: no commas, quotes or newlines
  tr ',"\n' ";' " <<<"$1" | sed 's/ *$//'
}
cpu=$(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
machine=$(clean "$(hostname): $(nproc) x $cpu${gpu:+; $gpu}")

# ROW: appends one CSV line (limit: the caller's, see limit_of). Arguments: instance n m kind solver status,
# then "key value" words (bench_solve's / bench_peers' result line), device
# text and a note. One write per line, so peers running at once can append.
row() {
  local instance=$1 n=$2 m=$3 kind=$4 solver=$5 status=$6 fields=$7 device=$8 note=$9
  local line
  line=$(awk -v fields="$fields" -v cols="value runs solve_s upload_s setup_s push_relabel_s global_relabel_s phase2_s download_s rounds global_relabels device_bytes read_s times" '
    BEGIN {
      k = split(fields, f, " ")
      for (i = 1; i < k; i += 2) v[f[i]] = f[i + 1]
      c = split(cols, name, " ")
      for (i = 1; i <= c; i++) printf "%s%s", (i > 1 ? "," : ""), v[name[i]]
    }')
  printf '%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ),$machine,$instance,$n,$m,$kind,$solver,$status,$line,$reps,$limit,$once,$jobs,$(clean "$device"),$(clean "$note")" >>"$csv"
}

limit_of() { # SOLVER: its --limit-for, else --limit
  local pair
  for pair in $limit_for; do
    [ "${pair%=*}" = "$1" ] && { echo "${pair#*=}"; return; }
  done
  echo "$default_limit"
}

# Each runner shadows limit (row() records it) and sets an outer guard
# only: the programs enforce the limit per solve themselves.
run_backend() { # FILE NAME N M SPEC
  local file=$1 name=$2 n=$3 m=$4 spec=$5 backend=${5%%:*} args=() output rc result
  local limit guard
  limit=$(limit_of "$spec")
  guard=$((limit * (reps + 1) + 120))
  [[ $spec == *:* ]] && args+=(--device "${spec#*:}")
  [ -n "$threads" ] && args+=(--threads "$threads")
  echo "suite: $name: $spec" >&2
  output=$(timeout -k 10 "$guard" "$bench_solve" "$file" --backend "$backend" "${args[@]}" \
    --reps "$reps" --once "$once" --limit "$limit" 2>&1)
  rc=$?
  read_s=$(awk '$1 == "file" { print $NF }' <<<"$output")
  result=$(grep '^result ' <<<"$output")
  if [ $rc -eq 0 ] && [ -n "$result" ]; then
    fields=${result#result }
    row "$name" "$n" "$m" backend "$spec" ok "${fields%% device *} read_s $read_s" \
      "${result#* device }" ""
  elif [ $rc -eq 124 ]; then
    row "$name" "$n" "$m" backend "$spec" timeout "read_s $read_s" "" "a solve ran past ${limit}s"
    echo "suite: $name: $spec: timeout (${limit}s)" >&2
  else
    row "$name" "$n" "$m" backend "$spec" failed "" "" "exit $rc: $(tail -n 1 <<<"$output")"
    echo "suite: FAILED: $name: $spec: exit $rc: $(tail -n 3 <<<"$output")" >&2
    failed=1
  fi
}

run_peer() { # FILE NAME N M PEER (runs in the background with --peer-jobs)
  local file=$1 name=$2 n=$3 m=$4 peer=$5 output rc line
  local limit guard
  limit=$(limit_of "$peer")
  guard=$((limit * (reps + 1) + 120))
  output=$(timeout -k 10 "$guard" "$bench_peers" "$file" --only "$peer" --reps "$reps" \
    --once "$once" --limit "$limit" 2>&1)
  rc=$?
  line=$(awk -v p="$peer" '$1 == "peer" && $2 == p && $3 == "value"' <<<"$output")
  if [ $rc -eq 0 ] && [ -n "$line" ]; then
    row "$name" "$n" "$m" peer "$peer" ok "${line#peer "$peer" }" "host CPU, 1 thread" ""
  elif [ $rc -eq 124 ]; then
    row "$name" "$n" "$m" peer "$peer" timeout "" "" "a solve ran past ${limit}s"
  else # not built here, or skipped (libmaxflow beyond 2^53)
    row "$name" "$n" "$m" peer "$peer" n/a "" "" "exit $rc: $(tail -n 1 <<<"$output")"
  fi
  [ $rc -eq 124 ] && line="timeout (${limit}s)"
  echo "suite: $name: $peer: ${line:-exit $rc}" >&2
}

# Flow values of one instance, from the latest row of each solver (this
# call's or an earlier one's) that has one: prints the disagreement and
# returns 1 if there is one.
check_values() { # NAME
  awk -F, -v name="$1" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["instance"] == name { latest[$col["solver"]] = $col["status"] == "ok" ? $col["value"] : "" }
    END {
      for (s in latest) if (latest[s] != "") {
        v = latest[s]; who[v] = who[v] " " s
        if (!(v in seen)) { seen[v] = 1; count++ }
      }
      if (count <= 1) exit 0
      print "suite: !!!!!!!! VALUES DISAGREE on " name " !!!!!!!!"
      for (v in who) print "suite:   value " v ":" who[v]
      exit 1
    }' "$csv" >&2
}

list=$(bash bench/instances.sh "$portaflow" "$only") || die "could not build the instances"
mapfile -t files <<<"$list"
names=() sizes=()
for file in "${files[@]}"; do
  names+=("$(basename "$file" .max)")
  sizes+=("$(awk '$1 == "p" { print $3, $4; exit }' "$file")")
done
failed=0 disagree=0

# Backends alone, one after the other (omp takes every core, the GPU ones
# a core and the device).
for i in "${!files[@]}"; do
  for spec in $backends; do
    # shellcheck disable=SC2086 # sizes[i] is "n m"
    run_backend "${files[i]}" "${names[i]}" ${sizes[i]} "$spec"
  done
done
# Then the peers, --peer-jobs at a time, over all instances.
running=0
for i in "${!files[@]}"; do
  for peer in $peers; do
    echo "suite: ${names[i]}: $peer" >&2
    # shellcheck disable=SC2086
    run_peer "${files[i]}" "${names[i]}" ${sizes[i]} "$peer" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
      wait -n
      running=$((running - 1))
    fi
  done
done
wait
for name in "${names[@]}"; do
  check_values "$name" || disagree=1
done

if [ "$report" = 1 ]; then
  report_args=(--out "$out")
  [ "$png" = 1 ] || report_args+=(--no-png)
  python3 bench/suite_report.py "${report_args[@]}" "$csv"
  case $? in 0) ;; 3) disagree=1 ;; *) failed=1 ;; esac
fi
echo "suite: results in $out (suite.csv$([ "$report" = 1 ] && echo ", suite.md")$([ "$report$png" = 11 ] && echo ", suite.png"))" >&2
[ "$disagree" = 0 ] || { echo "suite: !!!!!!!! flow values disagree (see above) !!!!!!!!" >&2; exit 3; }
[ "$failed" = 0 ] || exit 1
exit 0
