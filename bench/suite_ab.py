#!/usr/bin/env python3
"""Before/after table of two bench/suite.sh CSVs (bench/gpu/run.sh suite-ab).

Usage: suite_ab.py BASE_CSV NEW_CSV
Prints one markdown row per (instance, backend) present in both: the median
solve time of each side, new/base, and whether the flow values agree. The
latest row of an (instance, solver) pair counts, as in suite_report.py.
"""
import csv
import sys


def latest_rows(path):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("kind") == "backend":
                rows[(row["instance"], row["solver"])] = row
    return rows


def seconds(row):
    try:
        return float(row["solve_s"]) if row["status"] == "ok" else None
    except (KeyError, ValueError):
        return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, new = latest_rows(sys.argv[1]), latest_rows(sys.argv[2])
    print("| instance | backend | base solve_s | new solve_s | new/base | values |")
    print("|---|---|---:|---:|---:|---|")
    ratios = []
    for key in sorted(base.keys() & new.keys()):
        b, n = seconds(base[key]), seconds(new[key])
        same = "equal" if base[key]["value"] == new[key]["value"] else "DIFFER"
        ratio = f"{n / b:.3f}" if b and n else ""
        if b and n:
            ratios.append(n / b)
        print(f"| {key[0]} | {key[1]} | {base[key]['solve_s'] if b else base[key]['status']} "
              f"| {new[key]['solve_s'] if n else new[key]['status']} | {ratio} | {same} |")
    if ratios:
        product = 1.0
        for r in ratios:
            product *= r
        print(f"\ngeometric mean new/base over {len(ratios)} pairs: "
              f"{product ** (1 / len(ratios)):.3f}")


if __name__ == "__main__":
    main()
