#!/usr/bin/env python3
"""The table of bench/hybrid.sh: one row per instance, whole-process wall
seconds of every engine (min of the runs), the auto run's backend and
switches, auto against the fastest single engine (cuda, opencl, omp, seq)
and against hi_pr. Usage: hybrid_report.py hybrid.csv"""
import csv
import sys

SINGLE = ["cuda", "opencl", "omp", "seq"]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    instances, engines, cells = [], [], {}
    for r in rows:
        if r["instance"] not in instances:
            instances.append(r["instance"])
        if r["engine"] not in engines:
            engines.append(r["engine"])
        cells[r["instance"], r["engine"]] = r
    head = ["instance"] + engines + ["auto ran", "switches", "fastest single", "auto / fastest",
                                     "hi_pr / auto"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in instances:
        line = [name]
        for e in engines:
            line.append(cells.get((name, e), {}).get("wall_s", "") or "-")
        auto = cells.get((name, "auto"), {})
        line += [auto.get("backend", "") or "-", auto.get("switches", "") or "-"]
        singles = [(number(cells[name, e]["wall_s"]), e) for e in SINGLE
                   if (name, e) in cells and number(cells[name, e]["wall_s"]) is not None]
        a = number(auto.get("wall_s"))
        if singles and a:
            t, e = min(singles)
            line += [f"{e} {t:.3f}", f"{a / t:.2f}"]
        else:
            line += ["-", "-"]
        h = number(cells.get((name, "hi_pr"), {}).get("wall_s"))
        line.append(f"{h / a:.1f}x" if h and a else "-")
        print("| " + " | ".join(line) + " |")
    print()
    print("Seconds: wall time of the whole `portaflow solve` process (parsing, device start),"
          " min of the runs; auto = plain `portaflow solve FILE`; an engine alone ="
          " `--backend NAME --hybrid off`; NAME+seq = `--backend NAME --hybrid on`;"
          " switches: the auto run's (its --json).")


if __name__ == "__main__":
    main()
