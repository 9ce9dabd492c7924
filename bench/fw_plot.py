#!/usr/bin/env python3
"""Log-log plot of bench/fw_study.sh's table: compute time (ms) against n,
one line per Floyd-Warshall variant, and the study's published n = 8362
times as open markers in the colour of the variant they correspond to.

    python3 bench/fw_plot.py FW_STUDY.CSV [-o OUT.png]

Needs matplotlib (Debian: python3-matplotlib)."""
import argparse
import csv
import sys
from collections import defaultdict

# The study's published times at n = 8362 (ms), by the variant they match
# (bench/fw_study.sh gives the mapping); other columns and sizes: none.
STUDY_8362 = {
    "seq:plain": ("Normal", 6085038),
    "seq:simd:16": ("Vec16", 452683),
    "omp:simd": ("Vec+OpenMP", 376512),
    "omp:blocked": ("BlockOpenMP", 2097657),
    "cuda:per-k": ("CUDA", 77726),
}


def read_times(path):
    """{variant: [(n, ms), ...]} for the runs that gave a time, in file order."""
    series = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("ms"):
                series[row["variant"]].append((int(row["n"]), float(row["ms"])))
    return series


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="fw_study.csv from bench/fw_study.sh")
    parser.add_argument("-o", "--out", default="fw_study.png", help="image to write")
    args = parser.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("fw_plot.py: matplotlib is not installed (Debian: python3-matplotlib)")
    series = read_times(args.csv)
    if not series:
        sys.exit(f"fw_plot.py: {args.csv}: no timed runs")
    fig, ax = plt.subplots(figsize=(9, 6))
    for variant, points in sorted(series.items()):
        points.sort()
        # Sub-millisecond runs would sit at log(0) if rounded: clamp at 1 us.
        line, = ax.plot([n for n, _ in points], [max(ms, 1e-3) for _, ms in points],
                        marker="o", label=variant)
        if variant in STUDY_8362:
            name, ms = STUDY_8362[variant]
            ax.plot([8362], [ms], marker="s", markerfacecolor="none", markersize=10,
                    color=line.get_color(), linestyle="none", label=f"study {name} (n=8362)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("vertices n")
    ax.set_ylabel("compute time (ms)")
    ax.set_title("Floyd-Warshall variants (float), portaflow vs the study's published times")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
