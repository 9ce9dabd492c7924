#!/usr/bin/env python3
"""The table of bench/session.sh: for each instance, fraction and backend,
the median warm solve (batches 1..K) against the median cold solve of the
same batches (graph rebuilt and uploaded, zero flow, device open), the
update cost (apply + pages uploaded) against a rebuild + full upload, the
update throughput, and for the long stream the device memory per live arc
at the first and the last batch.

Usage: bench/session_report.py DIR   (the .jsonl files session.sh wrote)"""
import glob
import json
import os
import statistics
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench/out/session"
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
        base = os.path.basename(path)[: -len(".jsonl")]
        if base.startswith("long_"):
            continue
        name_f_backend, mode = base.rsplit("_", 1)
        name_f, backend = name_f_backend.rsplit("_", 1)
        name, fraction = name_f.rsplit("_", 1)
        runs.setdefault((name, fraction, backend), {})[mode] = load(path)
    print("| instance | arcs changed per batch | backend | first (cold) solve s | warm solve s |"
          " cold solve s | cold / warm | apply + upload s (warm) | rebuild + upload s (cold) |"
          " rebuild / apply | arc updates per s | values equal |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for (name, fraction, backend), modes in sorted(runs.items()):
        warm = modes.get("warm", [])
        cold = modes.get("cold", [])
        if not warm:
            continue
        first = warm[0]["solve_s"]
        w = [r for r in warm if r["batch"] > 0]
        c = [r for r in cold if r["batch"] > 0]
        warm_s = median([r["solve_s"] for r in w])
        cold_s = median([r["solve_s"] for r in c])
        apply_w = median([r["apply_s"] + r["upload_s"] for r in w])
        apply_c = median([r["apply_s"] + r["upload_s"] for r in c])
        updates = median([r["updates"] for r in w])
        rate = updates / apply_w if apply_w > 0 else float("nan")
        equal = "yes" if c and [r["value"] for r in w] == [r["value"] for r in c] else (
            "-" if not c else "NO")
        ratio = cold_s / warm_s if c and warm_s > 0 else float("nan")
        rebuild = apply_c / apply_w if c and apply_w > 0 else float("nan")
        print(f"| {name} | {float(fraction):.3%} ({updates:.0f}) | {backend} | {first:.4f} |"
              f" {warm_s:.5f} | {cold_s:.4f} | {ratio:.1f}x | {apply_w:.5f} | {apply_c:.4f} |"
              f" {rebuild:.1f}x | {rate:.3g} | {equal} |")
    longs = sorted(glob.glob(os.path.join(out, "long_*.jsonl")))
    if longs:
        print()
        print("| long stream | backend | batches | device bytes first | last |"
              " bytes per live arc first | last | slots first | last | recompactions |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for path in longs:
            rows = load(path)
            if not rows:
                continue
            a, b = rows[0], rows[-1]
            backend = os.path.basename(path)[: -len("_warm.jsonl")].rsplit("_", 1)[1]
            print(f"| rlg_512x1024, 0.1% a batch | {backend} | {b['batch']} |"
                  f" {a['device_bytes']} | {b['device_bytes']} |"
                  f" {a['device_bytes'] / a['live_arcs']:.1f} |"
                  f" {b['device_bytes'] / b['live_arcs']:.1f} | {a['slots']} | {b['slots']} |"
                  f" {b['recompactions']} |")


if __name__ == "__main__":
    main()
