#!/usr/bin/env bash
# Sessions (issue 20; bench/NOTES.md has the predictions and results):
# `portaflow session --json` on each instance and backend, once warm and
# once with --cold (every batch from scratch: the graph rebuilt, uploaded,
# solved from zero flow, the device still open), over the same update
# stream (`portaflow gen updates`, mix cap,add,del, seed 1) for each
# fraction of arcs changed per batch. Also: a graph of about 1000 arcs,
# many batches (the per-solve floor), and with --long, a stream of 1000
# batches on RLG 512x1024 (device memory before and after).
# Usage:
#   bench/session.sh --bin BIN --out DIR [--backends "cuda opencl omp seq"]
#                    [--batches K] [--fractions "0.001 0.01"] [--long]
#                    [--limit S] INSTANCE...
# INSTANCE: a bench/instances.sh name (rmf_64x64, rlg_1024x1024,
# grid2d_2048, ...). Writes DIR/NAME_F_BACKEND_{warm,cold}
# .jsonl, and DIR/session.md (bench/session_report.py) at the end.
set -uo pipefail
bin=build/portaflow out=bench/out/session backends="cuda opencl omp seq"
batches=5 fractions="0.001 0.01" long=0 limit=600
names=()
while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --backends) backends=$2; shift 2 ;;
  --batches) batches=$2; shift 2 ;;
  --fractions) fractions=$2; shift 2 ;;
  --long) long=1; shift ;;
  --limit) limit=$2; shift 2 ;;
  -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
  -*) echo "session.sh: unknown option $1" >&2; exit 1 ;;
  *) names+=("$1"); shift ;;
  esac
done
mkdir -p "$out/graphs"
here=$(cd "$(dirname "$0")" && pwd)

# The graph file of an instance name (generated once into $out/graphs).
graph_of() {
  local name=$1 file=$out/graphs/$1.max
  if [ ! -s "$file" ]; then
    case $name in
    small_1000) "$bin" gen random 200 1000 --cap 100 > "$file" ;;
    *) bash "$here/instances.sh" "$bin" "$name" >/dev/null && cp "$here/instances/$name.max" "$file" ;;
    esac
  fi
  echo "$file"
}

# One session run: warm or cold, its JSON lines into a file.
run_session() {
  local graph=$1 updates=$2 backend=$3 mode=$4 dest=$5
  local extra=()
  [ "$mode" = cold ] && extra=(--cold)
  timeout "$limit" "$bin" session --json --backend "$backend" "${extra[@]}" "$graph" "$updates" \
    > "$dest" 2> "$dest.err"
  echo "$(basename "$dest"): exit $?, $(wc -l < "$dest") solves"
}

for name in "${names[@]}" small_1000; do
  graph=$(graph_of "$name")
  fr=$fractions k=$batches
  [ "$name" = small_1000 ] && fr=0.01 k=200
  for f in $fr; do
    updates=$out/graphs/${name}_$f.upd
    [ -s "$updates" ] || "$bin" gen updates "$graph" --fraction "$f" --batches "$k" --seed 1 \
      -o "$updates"
    for b in $backends; do
      for mode in warm cold; do
        [ "$name" = small_1000 ] && [ $mode = cold ] && continue
        run_session "$graph" "$updates" "$b" $mode "$out/${name}_${f}_${b}_$mode.jsonl"
      done
    done
  done
done

if [ $long = 1 ]; then
  graph=$(graph_of rlg_512x1024)
  updates=$out/graphs/rlg_512x1024_long.upd
  [ -s "$updates" ] || "$bin" gen updates "$graph" --fraction 0.001 --batches 1000 --seed 2 \
    -o "$updates"
  for b in $backends; do
    [ "$b" = seq ] && continue
    run_session "$graph" "$updates" "$b" warm "$out/long_rlg_512x1024_${b}_warm.jsonl"
  done
fi
python3 "$here/session_report.py" "$out" > "$out/session.md"
cat "$out/session.md"
