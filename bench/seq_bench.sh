#!/bin/sh
# The sequential engine against the installed CPU peers (Boost push-relabel
# and Boykov-Kolmogorov, LEMON Preflow, libmaxflow BK) on RMFGEN and
# Washington RLG instances. Prints a markdown table on stdout, progress on
# stderr.
#
# usage: bench/seq_bench.sh [--build DIR] [--dir DIR] [--large] [--reps K]
#                           [--peers "NAME ..."] [--timeout SECONDS]
#
#   --build DIR    meson build directory holding portaflow and
#                  bench/bench_peers (default: build)
#   --dir DIR      where instance files go (default: bench/instances)
#   --large        add RMFGEN 128x128 and RLG 2048x2048
#   --reps K       median of K timed runs after one warm-up (default 3)
#   --peers LIST   peers to run (default: boost_pr boost_bk lemon_preflow
#                  maxflow_bk); "" runs seq only
#   --timeout S    per peer and instance, all runs together (default 900);
#                  a peer past it shows as "> S", one not built as "n/a"
#
# seq's time is portaflow's `c solve_s` (residual graph build, both phases;
# file reading excluded) with --verify, so it computes a full flow and a cut
# as the peers do and every answer is checked. Peers' times exclude building
# their graphs. Instances are generated once (portaflow gen, seed 1) and
# reused. SEQ_BENCH_INSTANCES="name|gen args" lines replace the list.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=build
dir="$root/bench/instances"
large=0
reps=3
peers="boost_pr boost_bk lemon_preflow maxflow_bk"
limit=900

while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --large) large=1; shift ;;
        --reps) reps=$2; shift 2 ;;
        --peers) peers=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
                   exit 0 ;;
        *) echo "seq_bench: unknown argument '$1' (see --help)" >&2; exit 1 ;;
    esac
done

case $build in /*) ;; *) build="$root/$build" ;; esac
portaflow="$build/portaflow"
bench_peers="$build/bench/bench_peers"
[ -x "$portaflow" ] || { echo "seq_bench: no $portaflow (build first)" >&2; exit 1; }
if [ -n "$peers" ] && [ ! -x "$bench_peers" ]; then
    echo "seq_bench: no $bench_peers (Boost/LEMON/maxflow headers missing?); seq only" >&2
    peers=""
fi
mkdir -p "$dir"

# name|gen arguments
instances="rmf_24x192|rmf 24 192 --c1 1 --c2 10000
rmf_64x64|rmf 64 64 --c1 1 --c2 10000
rlg_512x1024|rlg 512 1024 --cap 10000
rlg_1024x1024|rlg 1024 1024 --cap 10000"
if [ -n "${SEQ_BENCH_INSTANCES:-}" ]; then
    instances=$SEQ_BENCH_INSTANCES
elif [ "$large" = 1 ]; then
    instances="$instances
rmf_128x128|rmf 128 128 --c1 1 --c2 10000
rlg_2048x2048|rlg 2048 2048 --cap 10000"
fi

median() { # the middle of the numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# seq: one warm-up, then the median of $reps runs. Prints "VALUE SECONDS".
run_seq() {
    times=""
    value=""
    i=0
    while [ $i -le "$reps" ]; do
        out=$("$portaflow" solve --backend seq --verify --no-progress "$1") || return 1
        value=$(printf '%s\n' "$out" | awk '$1 == "s" { print $2 }')
        t=$(printf '%s\n' "$out" | awk '$1 == "c" && $2 == "solve_s" { print $3 }')
        [ $i -gt 0 ] && times="$times$t
"
        i=$((i + 1))
    done
    printf '%s %s\n' "$value" "$(printf '%s' "$times" | median)"
}

header="| instance | n | m | seq (s)"
rule="|---|---:|---:|---:"
for p in $peers; do
    header="$header | $p (s)"
    rule="$rule|---:"
done
table="$header | values equal |
$rule|---|"

printf '%s\n' "$instances" | {
    while IFS='|' read -r name gen; do
        file="$dir/$name.max"
        if [ ! -s "$file" ]; then
            echo "seq_bench: generating $name" >&2
            # shellcheck disable=SC2086 # gen holds separate arguments
            "$portaflow" gen $gen --seed 1 -o "$file.tmp" && mv "$file.tmp" "$file"
        fi
        nm=$(awk '$1 == "p" { print $3, $4; exit }' "$file")
        n=${nm% *}
        m=${nm#* }

        echo "seq_bench: $name: seq" >&2
        if seq_result=$(run_seq "$file") && [ -n "$seq_result" ]; then
            values=${seq_result% *}
            row="| $name | $n | $m | ${seq_result#* }"
        else
            values=""
            row="| $name | $n | $m | failed"
        fi
        for p in $peers; do
            echo "seq_bench: $name: $p" >&2
            status=0
            line=$(timeout "$limit" "$bench_peers" "$file" --only "$p" --reps "$reps") ||
                status=$?
            line=$(printf '%s\n' "$line" | awk '$1 == "peer" { print $4, $6 }')
            if [ -n "$line" ]; then
                values="$values ${line% *}"
                row="$row | ${line#* }"
            elif [ "$status" = 124 ]; then
                row="$row | > $limit"
            else
                row="$row | n/a"
            fi
        done
        # Over the answers that came back; seq's "failed" makes it "no".
        # shellcheck disable=SC2086 # one answer per word
        equal=$(printf '%s\n' $values | sort -u | awk 'END { print NR == 1 ? "yes" : "no" }')
        table="$table
$row | $equal |"
    done
    printf '%s\n' "$table"
}
