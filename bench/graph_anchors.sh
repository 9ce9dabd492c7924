#!/usr/bin/env bash
# The analytics anchors (issue 21): portaflow bfs, sssp and tc on each
# backend against GAPBS (the GAP Benchmark Suite, built from its public
# source in .peers/gapbs for this benchmark only) on the identical graphs.
#
#   bench/graph_anchors.sh [--graphs "kron:22 kron:24 grid:4096"] [--backends "cuda opencl omp"]
#                          [--algs "bfs sssp tc"] [--threads 16] [--reps 3] [--bin build-gpu/portaflow]
#                          [--gapbs .peers/gapbs] [--work /tmp/pf_graph_anchors] [--out DIR]
#
# Graphs: kron:S is `gen kron S --edgefactor 16 --weights 1:255` (Graph500's
# Kronecker parameters, undirected, simple), grid:W a W x W 4-neighbour
# lattice with weights 1:255, road:W a W x W road-like graph; each written
# once in portaflow's binary form (kept in --work across calls) and, by
# bench/graph_sg, as GAPBS's .sg/.wsg of the same arrays, so both read the
# same graph without parsing text. file:NAME is a real graph: the undirected
# edge list $REAL_GRAPHS/NAME.txt (ids from 0, as SNAP ships them; default
# .peers/graphs), unweighted (sssp: every edge weighs 1), turned into the
# binary form by graph_sg --from-edges. Both start from the same root (the
# first vertex with an arc; GAPBS -r).
#
# Per graph, algorithm and engine: the median over --reps whole processes
# of portaflow's kernel time (the algorithm's steps on a device already
# open, graph already uploaded) and of the whole command (process start to
# exit: reading, device start, upload, download included); GAPBS's average
# trial time over --reps trials in one process (its kernel time; its read
# and build times are not in it) and its whole process. TEPS: edges
# traversed (the undirected edges out of reached vertices, as portaflow's
# JSON reports them, the same for both) per second of kernel time; tc:
# edges of the simple graph per second. GAPBS sssp runs with each delta of
# GAPBS_DELTAS (default "2 32 512": its own suite uses 2 on kron) and keeps
# the best; portaflow sssp likewise with PF_DELTAS (default "auto"). The table: $OUT/graph_anchors.md, rows also appended to
# graph_anchors.csv (earlier calls' rows kept, so graphs may be split over
# calls); per-level BFS data (bfs --stats --json) for bench/graph_plot.py:
# graph_levels_GRAPH_ENGINE.json. Needs python3 (JSON fields) and g++.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

graphs="kron:22 kron:24 grid:4096"
backends="cuda opencl omp"
algs="bfs sssp tc"
threads=16
reps=3
bin=build-gpu/portaflow
gapbs=.peers/gapbs
work=/tmp/pf_graph_anchors
out=${OUT:-bench/out}
while [ $# -gt 0 ]; do
  case $1 in
  --graphs) graphs=$2; shift 2 ;;
  --backends) backends=$2; shift 2 ;;
  --algs) algs=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  --bin) bin=$2; shift 2 ;;
  --gapbs) gapbs=$2; shift 2 ;;
  --work) work=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "graph_anchors.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
[ -x "$bin" ] || bin=build/portaflow
sg=$(dirname "$bin")/bench/graph_sg
for need in "$bin" "$sg"; do
  [ -x "$need" ] || { echo "graph_anchors.sh: $need not built" >&2; exit 1; }
done
mkdir -p "$out" "$work"
log=$out/graph_anchors.log
csv=$out/graph_anchors.csv
[ -f "$csv" ] || echo "graph,algorithm,engine,kernel_s,whole_s,edges,mteps,note" > "$csv"

# GAPBS, built once per tree (its Makefile: -O3 -fopenmp).
have_gapbs=0
if [ -f "$gapbs/Makefile" ]; then
  if make -C "$gapbs" -j"$threads" bfs sssp tc >> "$log" 2>&1; then
    have_gapbs=1
  else
    echo "GAPBS did not build (see $log): its rows are left out" >&2
  fi
else
  echo "no GAPBS tree at $gapbs: its rows are left out" >&2
fi

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "nan")}'; }
json_field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }

# room_for NAME: whether $work's disk and the host's memory can take the
# graph. Per arc (both directions of an edge): 12 bytes in portaflow's
# binary form (head, int64 weight) and 12 in GAPBS's .sg + .wsg on disk;
# about 40 bytes of memory at the generator's peak (kron:24, 2^24 vertices
# x 16 x 2 = 537M arcs: 13 GB of disk, 21 GB of memory).
room_for() {
  local family=${1%%:*} size=${1#*:} arcs
  case $family in
  kron) arcs=$(( (1 << size) * 32 )) ;;
  grid) arcs=$(( size * size * 4 )) ;;
  road) arcs=$(( size * size * 3 )) ;;
  *) return 0 ;;
  esac
  local disk_kb mem_kb
  disk_kb=$(df -Pk "$work" | awk 'NR == 2 {print $4}')
  mem_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  if [ ! -s "$work/${1/:/_}.bin" ] && [ "${disk_kb:-0}" -lt $(( arcs * 24 / 1024 )) ]; then
    echo "graph_anchors.sh: $1 needs about $(( arcs * 24 >> 30 )) GiB under $work, $(( ${disk_kb:-0} >> 20 )) GiB free" >&2
    return 1
  fi
  if [ "${mem_kb:-0}" -lt $(( arcs * 40 / 1024 )) ]; then
    echo "graph_anchors.sh: $1 needs about $(( arcs * 40 >> 30 )) GiB of memory, $(( ${mem_kb:-0} >> 20 )) GiB available" >&2
    return 1
  fi
}

# make_graph NAME: the binary form, the GAPBS files and the root.
make_graph() {
  local name=$1 family=${1%%:*} size=${1#*:} base=$work/${1/:/_}
  room_for "$name" || return 1
  if [ ! -s "$base.bin" ]; then
    case $family in
    kron) "$bin" gen kron "$size" --edgefactor 16 --weights 1:255 --format bin -o "$base.bin" ;;
    grid) "$bin" gen grid2d "$size" "$size" --weights 1:255 --format bin -o "$base.bin" ;;
    road) "$bin" gen road "$size" "$size" --format bin -o "$base.bin" ;;
    file) "$sg" --from-edges "${REAL_GRAPHS:-.peers/graphs}/$size.txt" "$base.bin" ;;
    *) echo "unknown graph $name" >&2; return 1 ;;
    esac || return 1
  fi
  if [ ! -s "$base.root" ]; then
    "$sg" "$base.bin" "$base.sg" "$base.wsg" | awk '/^root/ {print $2}' > "$base.root" || return 1
  fi
}

row() { # graph alg engine kernel whole edges note
  local mteps
  mteps=$(awk -v e="$6" -v k="$4" 'BEGIN {printf "%.1f", (k > 0 ? e / k / 1e6 : 0)}')
  echo "$1,$2,$3,$4,$5,$6,$mteps,$7" >> "$csv"
  printf '%-10s %-5s %-8s kernel %10.6f s  whole %9.3f s  %10s MTEPS  %s\n' "$1" "$2" "$3" "$4" "$5" "$mteps" "$7" | tee -a "$log"
}

# portaflow ALG on BACKEND: reps whole processes; medians. sssp: once per
# delta of PF_DELTAS (default "auto": portaflow's own choice), the best kept.
run_portaflow() {
  local name=$1 alg=$2 backend=$3
  if [ "$alg" != sssp ]; then
    run_portaflow_once "$name" "$alg" "$backend" auto
    return
  fi
  local d best="" line
  for d in ${PF_DELTAS:-auto}; do
    line=$(run_portaflow_once "$name" "$alg" "$backend" "$d" --quiet) || continue
    if [ -z "$best" ] || awk -v a="${line%%,*}" -v b="${best%%,*}" 'BEGIN {exit !(a < b)}'; then
      best=$line
    fi
  done
  [ -n "$best" ] && IFS=, read -r k w e note <<< "$best" && row "$name" "$alg" "$backend" "$k" "$w" "$e" "$note"
}

# One delta (or none): the row, or with --quiet "kernel,whole,edges,note".
run_portaflow_once() {
  local name=$1 alg=$2 backend=$3 delta=$4 quiet=${5:-} base=$work/${1/:/_} root kernels=() wholes=() edges=0 json
  root=$(cat "$base.root")
  json=$out/graph_${alg}_${name/:/_}_$backend.json
  local args=("$alg" --json -b "$backend" -t "$threads" --zero-based)
  [ "$alg" != tc ] && args+=(--stats --source "$root")
  [ "$delta" != auto ] && args+=(--delta "$delta")
  for ((r = 0; r < reps; r++)); do
    local t0 t1
    t0=$(now)
    if ! "$bin" "${args[@]}" "$base.bin" > "$json" 2>> "$log"; then
      echo "portaflow $alg -b $backend on $name failed (see $log)" >> "$log"
      echo "portaflow $alg -b $backend on $name failed (see $log)" >&2
      return 1
    fi
    t1=$(now)
    kernels+=("$(json_field "$json" "['times']['kernel']")")
    wholes+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  done
  if [ "$alg" = tc ]; then
    edges=$(json_field "$json" "['edges']")
  else
    edges=$(json_field "$json" "['edges_traversed']")
    [ "$alg" = bfs ] && cp "$json" "$out/graph_levels_${name/:/_}_$backend.json"
  fi
  echo "$edges" > "$base.$alg.edges"
  local k w note=""
  k=$(printf '%s\n' "${kernels[@]}" | median)
  w=$(printf '%s\n' "${wholes[@]}" | median)
  [ "$delta" != auto ] && note="delta $delta"
  if [ -n "$quiet" ]; then
    echo "$k,$w,$edges,$note"
  else
    row "$name" "$alg" "$backend" "$k" "$w" "$edges" "$note"
  fi
}

# GAPBS ALG: one process of reps trials (its "Average Time"), best delta for sssp.
run_gapbs() {
  local name=$1 alg=$2 base=$work/${1/:/_} root best="" best_whole="" note="" file
  root=$(cat "$base.root")
  file=$base.sg
  [ "$alg" = sssp ] && file=$base.wsg
  local deltas="-"
  [ "$alg" = sssp ] && deltas=${GAPBS_DELTAS:-2 32 512}
  for d in $deltas; do
    local args=(-f "$file" -n "$reps") t0 t1 avg
    [ "$alg" != tc ] && args+=(-r "$root")
    [ "$d" != - ] && args+=(-d "$d")
    t0=$(now)
    avg=$(OMP_NUM_THREADS=$threads "$gapbs/$alg" "${args[@]}" 2>> "$log" | tee -a "$log" |
          awk '/Average Time:/ {print $3}')
    t1=$(now)
    [ -n "$avg" ] || { echo "GAPBS $alg on $name failed (see $log)" | tee -a "$log"; continue; }
    if [ -z "$best" ] || awk -v a="$avg" -v b="$best" 'BEGIN {exit !(a < b)}'; then
      best=$avg
      best_whole=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
      note=$([ "$d" != - ] && echo "delta $d")
    fi
  done
  [ -n "$best" ] && row "$name" "$alg" "gapbs" "$best" "$best_whole" "$(cat "$base.$alg.edges" 2>/dev/null || echo 0)" "$note"
}

{
  echo "graph_anchors: $(date -u +%FT%TZ), $(nproc) CPUs, threads $threads, reps $reps"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  "$bin" --version
} | tee -a "$log"
for name in $graphs; do
  make_graph "$name" || { echo "could not make $name" | tee -a "$log"; continue; }
  for alg in $algs; do
    for backend in $backends; do
      run_portaflow "$name" "$alg" "$backend"
    done
    [ "$have_gapbs" = 1 ] && run_gapbs "$name" "$alg"
  done
done

# The table of every row so far, with each engine's ratio to GAPBS (kernel).
python3 - "$csv" > "$out/graph_anchors.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
gapbs = {(r["graph"], r["algorithm"]): float(r["kernel_s"]) for r in rows if r["engine"] == "gapbs"}
print("| graph | algorithm | engine | kernel s | whole command s | MTEPS (kernel) | GAPBS kernel / this | note |")
print("|---|---|---|---:|---:|---:|---:|---|")
for r in rows:
    g = gapbs.get((r["graph"], r["algorithm"]))
    k = float(r["kernel_s"])
    ratio = f"{g / k:.2f}x" if g and k > 0 else ""
    print(f"| {r['graph']} | {r['algorithm']} | {r['engine']} | {k:.6f} | {float(r['whole_s']):.3f} "
          f"| {r['mteps']} | {ratio} | {r['note']} |")
EOF
cat "$out/graph_anchors.md"
