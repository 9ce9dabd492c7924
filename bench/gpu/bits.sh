#!/usr/bin/env bash
# 64- against 32-bit residuals and excess (PORTAFLOW_CAP_BITS) per instance
# and backend, through bench_solve (in-process warm-up, median of REPS):
# one markdown table with solve and push/relabel times, the device memory
# and its bytes per residual arc (two per input arc), and the 32/64 time
# ratio. A width a device or graph cannot take shows its refusal.
#   bench/gpu/bits.sh BUILD_DIR REPS LIMIT_S "BACKENDS" FILE...
set -uo pipefail
build=$1 reps=$2 limit=$3 backends=$4
shift 4
echo "| instance | backend | bits | solve_s | push_relabel_s | global_relabel_s | device_MiB | B/arc | 32/64 solve |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  name=$(basename "$f" .max)
  for b in $backends; do
    base=""
    for bits in 64 32; do
      out=$(PORTAFLOW_CAP_BITS=$bits "$build/bench/bench_solve" "$f" --backend "$b" --reps "$reps" \
            --once 10 --limit "$limit" 2>&1)
      arcs=$(awk '$1 == "file" { for (i = 2; i < NF; i++) if ($i == "arcs") print $(i + 1) }' <<<"$out")
      line=$(grep -E '^result|^timeout|^failed|rror' <<<"$out" | tail -n 1)
      row=$(awk -v name="$name" -v b="$b" -v bits="$bits" -v arcs="${arcs:-0}" -v base="$base" '
        $1 == "result" {
          for (i = 2; i < NF; i += 2) r[$i] = $(i + 1)
          ratio = base > 0 ? sprintf("%.3f", r["solve_s"] / base) : ""
          printf "| %s | %s | %s | %s | %s | %s | %.1f | %.2f | %s |\n", name, b, bits, r["solve_s"],
            r["push_relabel_s"], r["global_relabel_s"], r["device_bytes"] / 1048576,
            (arcs > 0 ? r["device_bytes"] / (2 * arcs) : 0), ratio
          next }
        { printf "| %s | %s | %s | %s |\n", name, b, bits, $0 }' <<<"$line")
      echo "$row"
      [ "$bits" = 64 ] && base=$(awk -F'|' '{ gsub(/ /, "", $5); print $5 }' <<<"$row")
    done
  done
done
