#!/usr/bin/env bash
# The Floyd-Warshall study's Table 1 on one machine: every variant of
# `portaflow apsp --variant` on the study's sizes (n = 64 .. 8362), float
# weights on a random graph, compute time in milliseconds (the Floyd-
# Warshall rounds alone, as `apsp` reports them on its "c times ms" line),
# beside the study's published column where it gives one.
#
#   bash bench/fw_study.sh [--bin PORTAFLOW] [--out DIR] [--cap S] [--budget S]
#                          [--total S] [--sizes "64 128 ..."] [--variants "seq:plain ..."]
#
# Time caps (so the whole table fits one 10-minute call): a variant stops
# at the first n whose predicted time (the last measured one, if at least
# 0.2 s, scaled by (n/n_last)^3) passes --cap seconds (default 25), or once
# its runs so far have used --budget seconds (default 60); the table then
# says "over cap". A run that fails says "n/a", its reason under the table.
# Once the whole study has run --total seconds (default 420), the runs left
# say "over total" (so a GPU call's 10 minutes hold setup, this and more).
# Every run is also killed after 3 x --cap. Output: DIR/fw_study.md (the
# table), DIR/fw_study.csv (n, variant, ms or the reason none; for
# bench/fw_plot.py) and DIR/fw_study.log (every run's c lines).
set -uo pipefail

bin=build/portaflow
out=bench/out
cap=25
budget=60
total=420
sizes="64 128 214 532 1080 2000 5000 8362"
# backend:variant[:simd width]; the study's names are in study_name below.
variants="seq:plain seq:simd:8 seq:simd:16 seq:blocked omp:plain omp:simd omp:blocked \
cuda:per-k cuda:blocked opencl:per-k opencl:blocked"
# Peak memory bandwidth for the per-k bound (H100 SXM HBM3: 3.35 TB/s).
peak_bw=${FW_STUDY_PEAK_BW:-3.35e12}

while [ $# -gt 0 ]; do
  case $1 in
  --bin) bin=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --cap) cap=$2; shift 2 ;;
  --budget) budget=$2; shift 2 ;;
  --total) total=$2; shift 2 ;;
  --sizes) sizes=$2; shift 2 ;;
  --variants) variants=$2; shift 2 ;;
  *) echo "fw_study.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
[ -x "$bin" ] || { echo "fw_study.sh: $bin is not an executable portaflow" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The study's column for a variant, and its published n = 8362 time (ms).
study_name() {
  case $1 in
  seq:plain) echo "Normal" ;; seq:simd:8) echo "Vec8" ;; seq:simd:16) echo "Vec16" ;;
  omp:plain) echo "OpenMP" ;; omp:simd) echo "Vec+OpenMP" ;; omp:blocked) echo "BlockOpenMP" ;;
  cuda:per-k) echo "CUDA" ;; *) echo "" ;;
  esac
}
study_8362() {
  case $1 in
  seq:plain) echo 6085038 ;; seq:simd:16) echo 452683 ;; omp:simd) echo 376512 ;;
  omp:blocked) echo 2097657 ;; cuda:per-k) echo 77726 ;; *) echo "" ;;
  esac
}

# One random graph per n: 8 arcs a vertex, real weights in [1, 1000].
for n in $sizes; do
  "$bin" gen sp "$n" --arcs $((8 * n)) --real --seed 7 -o "$tmp/g$n.gr" || exit 1
done

study_start=$(date +%s)
csv="$out/fw_study.csv"
log="$out/fw_study.log"
echo "n,variant,ms,note" >"$csv"
: >"$log"
for spec in $variants; do
  IFS=: read -r backend variant width <<<"$spec"
  args=(apsp --backend "$backend" --variant "$variant" --type f32 --stats)
  [ -n "$width" ] && args+=(--simd-width "$width")
  spent=0 last_n="" last_s=""
  for n in $sizes; do
    if [ $(($(date +%s) - study_start)) -gt "${total%.*}" ]; then
      echo "$n,$spec,,over total" >>"$csv"
      continue
    fi
    if [ -n "$last_s" ]; then
      over=$(awk -v t="$last_s" -v a="$last_n" -v b="$n" -v cap="$cap" -v spent="$spent" \
               -v budget="$budget" 'BEGIN { p = t >= 0.2 ? t * (b / a) ^ 3 : 0; print (p > cap || spent > budget) ? 1 : 0 }')
      if [ "$over" = 1 ]; then
        echo "$n,$spec,,over cap" >>"$csv"
        continue
      fi
    fi
    # Killed after 3 x cap, or when the study's total (plus 30 s) is up.
    limit=$((3 * ${cap%.*} + 5))
    left=$((${total%.*} + 30 - ($(date +%s) - study_start)))
    [ "$left" -lt "$limit" ] && limit=$left
    start=$(date +%s.%N)
    text=$(timeout "$limit" "$bin" "${args[@]}" "$tmp/g$n.gr" 2>&1)
    rc=$?
    spent=$(awk -v s="$spent" -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print s + b - a }')
    { echo "## $spec n=$n exit $rc"; grep -E '^c (backend|variant|read)|^portaflow' <<<"$text"; } >>"$log"
    compute_ms=$(sed -n 's/^c times ms: .*compute \([0-9.]*\),.*/\1/p' <<<"$text")
    if [ $rc -ne 0 ] || [ -z "$compute_ms" ]; then
      why=$(grep -m1 '^portaflow' <<<"$text" | tr ',' ';' | cut -c1-120)
      [ $rc -eq 124 ] && why="killed after $limit s"
      echo "$n,$spec,,${why:-exit $rc}" >>"$csv"
      # Not built or no device: the larger n will not do better.
      [ $rc -ne 124 ] && break
      continue
    fi
    note=$(sed -n 's/^c variant //p' <<<"$text" | tr ',' ';')
    echo "$n,$spec,$compute_ms,$note" >>"$csv"
    last_n=$n last_s=$(awk -v ms="$compute_ms" 'BEGIN { print ms / 1000 }')
  done
done

# ---- the table ----------------------------------------------------------
{
  echo "# Floyd-Warshall study, Table 1 reproduced (ms, compute only)"
  echo
  echo "Machine: $(hostname), $(nproc) CPU threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  command -v nvidia-smi >/dev/null && echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo "Command: bash bench/fw_study.sh --cap $cap --budget $budget (float weights, 8n random arcs, seed 7)."
  echo "The study's columns (in brackets) ran on different hardware: compare the shape, not the digits."
  echo "\"over cap\": that variant stopped at the largest n that fitted the time caps (--cap $cap s a run,"
  echo "--budget $budget s a variant); \"over total\": the study had used its --total $total s."
  echo "Whole study: $(($(date +%s) - study_start)) s."
  echo
  header="| n |"
  rule="|---:|"
  for spec in $variants; do
    name=$(study_name "$spec")
    header+=" ${spec} |"
    rule+="---:|"
    if [ -n "$(study_8362 "$spec")" ]; then
      header+=" [study $name] |"
      rule+="---:|"
    fi
  done
  echo "$header"
  echo "$rule"
  for n in $sizes; do
    row="| $n |"
    for spec in $variants; do
      cell=$(awk -F, -v n="$n" -v s="$spec" '$1 == n && $2 == s {
               print ($3 != "" ? $3 : $4 ~ /^over / ? $4 : "n/a") }' "$csv")
      row+=" ${cell:-} |"
      published=$(study_8362 "$spec")
      if [ -n "$published" ]; then
        [ "$n" = 8362 ] && row+=" $published |" || row+=" |"
      fi
    done
    echo "$row"
  done
  echo
  awk -F, 'NR > 1 && $3 == "" && $4 !~ /^over / { printf "- n/a: %s at n = %s: %s\n", $2, $1, $4 }' "$csv"
  awk -F, 'NR > 1 && $3 != "" && $4 != "" && !seen[$2]++ { printf "- %s ran as: %s\n", $2, $4 }' "$csv"
  echo
  echo "Study column names: seq:plain = Normal, seq:simd:8 = Vec8, seq:simd:16 = Vec16, omp:plain = OpenMP,"
  echo "omp:simd = Vec+OpenMP, omp:blocked = BlockOpenMP, cuda:per-k = CUDA (its published times: n = 8362 only)."
  echo
  echo "## Per-k CUDA against its memory-bandwidth bound"
  echo
  echo "Each step k reads and writes every element of the n_pad x n_pad float matrix once"
  echo "(n_pad = n rounded up to 32): bound = n * 2 * n_pad^2 * 4 B / peak, peak = $peak_bw B/s."
  echo
  echo "| n | cuda:per-k ms | bound ms | bound / measured | cuda:blocked ms | per-k / blocked |"
  echo "|---:|---:|---:|---:|---:|---:|"
  for n in $sizes; do
    awk -F, -v n="$n" -v bw="$peak_bw" '
      $1 == n && $2 == "cuda:per-k" { perk = $3 }
      $1 == n && $2 == "cuda:blocked" { blocked = $3 }
      END {
        if (perk == "") exit
        pad = int((n + 31) / 32) * 32
        bound = n * 2 * pad * pad * 4 / bw * 1000
        ratio = blocked != "" && blocked > 0 ? sprintf("%.1fx", perk / blocked) : ""
        printf "| %d | %s | %.1f | %.2f | %s | %s |\n", n, perk, bound, bound / perk, blocked, ratio
      }' "$csv"
  done
} >"$out/fw_study.md"
cat "$out/fw_study.md"
