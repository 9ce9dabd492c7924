#!/usr/bin/env python3
"""Turns the suite's CSV file(s) (bench/suite.sh) into a markdown report and
a PNG plot.

usage: python3 bench/suite_report.py [--out DIR] [--no-png] [--title TEXT] [--note TEXT] CSV...

Several CSVs (the split calls of a GPU-machine run, each fetched from its
$OUT) make one result: of all rows for one (instance, backend or peer) the
latest counts. Writes DIR/suite.md (default: the first CSV's folder) and,
unless --no-png, DIR/suite.png: grouped bars per instance, one bar per
backend, the speedup over the fastest CPU peer on a log scale. The plot
needs matplotlib; where it is missing the script installs Debian's
python3-matplotlib with apt-get (sudo when not root) and runs again under
/usr/bin/python3. The table needs only the standard library.

Exit: 0; 1 usage or no plot; 3 the flow values of an instance disagree
(printed loudly; the table says DISAGREE).
"""
import argparse
import csv
import importlib.util
import os
import subprocess
import sys

BACKENDS = ["seq", "omp", "opencl", "cuda"]
PEERS = ["boost_pr", "boost_bk", "lemon_preflow", "maxflow_bk"]
ORDER = ["rmf_24x192", "rmf_64x64", "rmf_128x128", "rlg_512x1024", "rlg_1024x1024",
         "rlg_1024x1536", "ac_4000", "ak_20000", "grid2d_2048", "grid3d_128"]

# Issue 6's targets, H100 (seconds). OpenCL: 1.5x CUDA's.
CUDA_TARGET = {"rmf_24x192": 0.033, "rmf_64x64": 0.160, "rmf_128x128": 3.4,
               "rlg_512x1024": 0.060, "rlg_1024x1024": 0.310, "rlg_1024x1536": 0.650}
BEAT_PEERS = ["ac_4000", "ak_20000", "grid2d_2048", "grid3d_128"]  # GPU backends
OMP_BEATS_PEERS = ["rmf_128x128", "rlg_1024x1536"]
BYTES_PER_ARC, BYTES_PER_VERTEX = 32, 48


def ensure_matplotlib():
    """Imports matplotlib, installing Debian's package if it is missing."""
    if importlib.util.find_spec("matplotlib") is not None:
        return True
    system = "/usr/bin/python3"

    def system_has_it():
        return os.path.exists(system) and subprocess.call(
            [system, "-c", "import matplotlib"], stderr=subprocess.DEVNULL) == 0

    if os.path.realpath(sys.executable) != os.path.realpath(system) and system_has_it():
        os.execv(system, [system] + sys.argv)  # Debian's matplotlib is there
    print("suite_report: the plot needs matplotlib; installing Debian's python3-matplotlib "
          "(apt-get; pass --no-png to skip the plot)", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ok = subprocess.call(sudo + ["apt-get", "update", "-qq"], env=env) == 0 and \
        subprocess.call(sudo + ["apt-get", "install", "-y", "-qq", "python3-matplotlib"],
                        env=env) == 0
    if ok and system_has_it():
        os.execv(system, [system] + sys.argv)
    print("suite_report: NO PLOT: could not install python3-matplotlib "
          "(apt-get install python3-matplotlib, then run this again)", file=sys.stderr)
    return False


def read_rows(paths):
    """The latest row per (instance, kind, solver) over all files."""
    latest = {}
    for path in paths:
        with open(path, newline="") as f:
            for i, row in enumerate(csv.DictReader(f)):
                key = (row["instance"], row["kind"], row["solver"])
                stamp = (row["stamp"], path, i)
                if key not in latest or stamp[0] >= latest[key][0][0]:
                    latest[key] = (stamp, row)
    return [row for _, row in latest.values()]


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fmt_s(x):
    if x < 1:
        return f"{x:.4f}"
    if x < 10:
        return f"{x:.3f}"
    return f"{x:.2f}" if x < 100 else f"{x:.1f}"


class Instance:
    def __init__(self, name):
        self.name, self.n, self.m = name, 0, 0
        self.rows = {}  # solver -> row

    def ok(self, solver):
        row = self.rows.get(solver)
        return row if row and row["status"] == "ok" else None

    def time(self, solver):
        row = self.ok(solver)
        return num(row["solve_s"]) if row else None

    def fastest_peer(self):
        """(seconds, name, is_lower_bound) or None. A peer that timed out
        counts as its limit; if every peer timed out, the fastest is only a
        lower bound."""
        best = None
        for solver, row in self.rows.items():
            if row["kind"] != "peer":
                continue
            if row["status"] == "ok":
                cand = (num(row["solve_s"]), solver, False)
            elif row["status"] == "timeout":
                cand = (num(row["limit_s"]), solver, True)
            else:
                continue
            if best is None or cand[0] < best[0] or (cand[0] == best[0] and best[2]):
                best = cand
        return best

    def values(self):
        found = {}
        for solver, row in self.rows.items():
            if row["status"] == "ok":
                found.setdefault(row["value"], []).append(solver)
        return found


def cell(inst, solver):
    row = inst.rows.get(solver)
    if row is None:
        return "-"
    status = row["status"]
    if status == "timeout":
        return f"timeout (> {row['limit_s']} s)"
    if status != "ok":
        return status
    t = num(row["solve_s"])
    extra = []
    upload = num(row["upload_s"])
    if row["kind"] == "backend" and upload:
        extra.append(f"up {fmt_s(upload)}")
    if row["runs"] == "1":
        extra.append("1 run")
    return fmt_s(t) + (f" ({', '.join(extra)})" if extra else "")


def fit_bytes(points):
    """Least squares bytes = a * m + b * n over (m, n, bytes); None when
    the instances do not tell arcs from vertices apart."""
    smm = sum(m * m for m, n, b in points)
    snn = sum(n * n for m, n, b in points)
    smn = sum(m * n for m, n, b in points)
    smb = sum(m * b for m, n, b in points)
    snb = sum(n * b for m, n, b in points)
    det = smm * snn - smn * smn
    if len(points) < 2 or det <= 1e-9 * smm * snn:
        return None
    return (smb * snn - snb * smn) / det, (snb * smm - smb * smn) / det


def build_report(instances, solvers_b, solvers_p, rows, title, note):
    out = [f"# {title}", ""] + ([note, ""] if note else [])
    machines = sorted({r["machine"] for r in rows})
    stamps = sorted(r["stamp"] for r in rows)
    out.append("Machine: " + "; ".join(f"`{m}`" for m in machines) +
               (" (**rows from more than one machine**)" if len(machines) > 1 else ""))
    out.append(f"Rows: {len(rows)}, {stamps[0]} .. {stamps[-1]}; made by `bench/suite.sh`, "
               "this report by `bench/suite_report.py`.")
    devices = sorted({f"{r['solver']}: {r['device']}" for r in rows
                      if r["kind"] == "backend" and r["status"] == "ok"})
    out.append("Devices: " + "; ".join(devices) + ".")
    reps = sorted({r["reps"] for r in rows})
    once = sorted({r["once_s"] for r in rows})
    jobs = sorted({r["jobs"] for r in rows if r["kind"] == "peer"}, key=int)
    out += ["", f"Times in seconds: the median of {'/'.join(reps)} timed runs after one warm-up in the "
            f"same process; a warm-up longer than {'/'.join(once)} s is the only run "
            "(\"1 run\"). Backends (bench_solve): `pf_solution.times.total`, i.e. residual "
            "build, device open, host-to-device upload (also shown apart: \"up\"), both "
            "phases (a full flow and a cut), download; file parsing excluded; every answer "
            "verified by the certificate checker. Peers (bench_peers, one core): the "
            "algorithm alone, their graph build excluded. \"timeout\": a solve passed the "
            "per-solve limit and was cut off."]
    if any(j != "1" for j in jobs):
        out.append(f"Peers ran {'/'.join(jobs)} at a time (one core each), backends alone.")
    out.append("")

    # Times.
    head = ["instance", "n", "m", "value"] + solvers_b + solvers_p + ["fastest peer"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|---|---:|---:|---:|" + "---:|" * (len(solvers_b) + len(solvers_p)) + "---|")
    for inst in instances:
        values = inst.values()
        if len(values) > 1:
            value = "**DISAGREE**: " + "; ".join(f"{v} ({', '.join(sorted(s))})"
                                                 for v, s in sorted(values.items()))
        else:
            value = next(iter(values), "-")
        best = inst.fastest_peer()
        best_text = "-" if best is None else (
            f"every peer > {fmt_s(best[0])}" if best[2] else f"{best[1]} {fmt_s(best[0])}")
        cells = [cell(inst, s) for s in solvers_b + solvers_p]
        out.append(f"| {inst.name} | {inst.n} | {inst.m} | {value} | " + " | ".join(cells) +
                   f" | {best_text} |")

    # Speedups.
    out += ["", "Speedup over the fastest CPU peer (its time / the backend's; \">=\" where "
            "every peer timed out, so the peer's time is only a lower bound; \"<\" where the "
            "backend timed out):", ""]
    if solvers_b:
        out.append("| instance | " + " | ".join(solvers_b) + " |")
        out.append("|---|" + "---:|" * len(solvers_b))
    else:
        out.append("(no backend in these rows)")
    for inst in instances if solvers_b else []:
        best = inst.fastest_peer()
        cells = []
        for s in solvers_b:
            t = inst.time(s)
            row = inst.rows.get(s)
            if best is not None and not best[2] and row and row["status"] == "timeout":
                cells.append(f"< {best[0] / num(row['limit_s']):.2g}x")
            elif best is None or t is None or t <= 0:
                cells.append("-")
            else:
                cells.append(f"{'>= ' if best[2] else ''}{best[0] / t:.2f}x")
        out.append(f"| {inst.name} | " + " | ".join(cells) + " |")

    # Targets.
    start = len(out)
    out += ["", "Targets of issue 6 (set for an H100 and, for omp, 16 cores; judge them on "
            "that machine only):", "", "| instance | backend | target | measured | met |",
            "|---|---|---|---|---|"]
    for inst in instances:
        targets = []
        if inst.name in CUDA_TARGET:
            targets += [("cuda", CUDA_TARGET[inst.name]), ("opencl", 1.5 * CUDA_TARGET[inst.name])]
        if inst.name in BEAT_PEERS:
            targets += [("cuda", "peers"), ("opencl", "peers")]
        if inst.name in OMP_BEATS_PEERS:
            targets.append(("omp", "peers"))
        for backend, goal in targets:
            if not any(s.split(":")[0] == backend for s in solvers_b):
                continue
            spec = next(s for s in solvers_b if s.split(":")[0] == backend)
            t = inst.time(spec)
            best = inst.fastest_peer()
            row = inst.rows.get(spec)
            if goal == "peers":
                goal_text = "faster than every installed peer"
                missing = [p for p in PEERS if p not in inst.rows]
                if t is None or best is None:
                    met = "not measured"
                elif t >= best[0]:
                    met = "**no**"
                else:
                    met = f"yes ({len(PEERS) - len(missing)} of {len(PEERS)} peers run)" \
                        if missing else "yes"
            else:
                goal_text = f"<= {fmt_s(goal)} s"
                met = "not measured" if t is None else ("yes" if t <= goal else "**no**")
            if row is not None and row["status"] == "timeout":
                met = "**no** (timeout)"
            measured = "-" if t is None else f"{fmt_s(t)} s"
            out.append(f"| {inst.name} | {spec} | {goal_text} | {measured} | {met} |")
    if len(out) == start + 5:
        out[-2:] = ["(no target concerns these backends and instances)"]

    # Device memory.
    out += ["", f"Memory the solve holds on the device (`pf_solution.device_bytes`; for omp "
            f"host memory) against the budget of {BYTES_PER_ARC} bytes per arc + "
            f"{BYTES_PER_VERTEX} bytes per vertex (m input arcs, n vertices):", "",
            "| instance | backend | MiB | bytes / (32 m + 48 n) | within budget |",
            "|---|---|---:|---:|---|"]
    fits = {}
    start = len(out)
    for inst in instances:
        for s in solvers_b:
            row = inst.ok(s)
            b = num(row["device_bytes"]) if row else None
            if not b:
                continue
            budget = BYTES_PER_ARC * inst.m + BYTES_PER_VERTEX * inst.n
            fits.setdefault(s, []).append((inst.m, inst.n, b))
            out.append(f"| {inst.name} | {s} | {b / 1048576:.1f} | {b / budget:.2f} | "
                       f"{'yes' if b <= budget else '**no**'} |")
    if len(out) == start:
        out[-2:] = ["(no backend held device memory)"]
    out.append("")
    for s, points in fits.items():
        fit = fit_bytes(points)
        if fit is None:
            out.append(f"- {s}: too few instances to tell bytes per arc from bytes per vertex.")
            continue
        a, v = fit
        verdict = "within" if a <= BYTES_PER_ARC + 0.5 and v <= BYTES_PER_VERTEX + 0.5 else \
            "**over**"
        out.append(f"- {s}: {a:.1f} bytes per arc + {v:.1f} bytes per vertex (least squares "
                   f"over {len(points)} instances), {verdict} the {BYTES_PER_ARC} + "
                   f"{BYTES_PER_VERTEX} budget.")
    return "\n".join(out) + "\n"


def plot(instances, solvers_b, path, title, machines):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    names = [i.name for i in instances]
    width = 0.8 / max(1, len(solvers_b))
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(names) + 3), 5))
    for k, s in enumerate(solvers_b):
        xs, ys, hatch = [], [], []
        for x, inst in enumerate(instances):
            best, t = inst.fastest_peer(), inst.time(s)
            if best is None or not t:
                continue
            xs.append(x - 0.4 + width * (k + 0.5))
            ys.append(best[0] / t)
            hatch.append(best[2])
        # From 1 up or down, so that a slowdown reads as one.
        bars = ax.bar(xs, [y - 1 for y in ys], width, bottom=1, label=s)
        for bar, y, lower in zip(bars, ys, hatch):
            if lower:
                bar.set_hatch("//")
            ax.annotate(f"{'>=' if lower else ''}{y:.2g}x", (bar.get_x() + width / 2, y),
                        ha="center", va="bottom" if y >= 1 else "top", fontsize=7,
                        xytext=(0, 2 if y >= 1 else -2), textcoords="offset points")
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}x"))
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.margins(y=0.15)
    low, high = ax.get_ylim()
    if high / low < 30:  # under two decades: label the 2x, 3x, ... ticks too
        ax.yaxis.set_minor_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}x"))
        ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("speedup over the fastest CPU peer (log)")
    ax.set_title(f"{title}: {' + '.join(machines)}\n"
                 "(fastest peer's time / backend's; hatched: every peer timed out, a lower bound)",
                 fontsize=9)
    ax.legend()
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--no-png", action="store_true")
    ap.add_argument("--title", default="portaflow benchmark suite")
    ap.add_argument("--note", help="a paragraph under the title (commands, machine)")
    args = ap.parse_args()
    if not args.no_png and not ensure_matplotlib():
        args.no_png = "failed"
    rows = read_rows(args.csv)
    if not rows:
        print("suite_report: no rows", file=sys.stderr)
        return 1
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv[0]))
    os.makedirs(out_dir, exist_ok=True)

    by_name = {}
    for row in rows:
        inst = by_name.setdefault(row["instance"], Instance(row["instance"]))
        inst.n, inst.m = int(row["n"]), int(row["m"])
        inst.rows[row["solver"]] = row
    instances = sorted(by_name.values(),
                       key=lambda i: (ORDER.index(i.name) if i.name in ORDER else len(ORDER),
                                      i.name))
    present = {r["solver"] for r in rows}
    rank = {b: k for k, b in enumerate(BACKENDS)}
    solvers_b = sorted({r["solver"] for r in rows if r["kind"] == "backend"},
                       key=lambda s: (rank.get(s.split(":")[0], 9), s))
    solvers_p = [p for p in PEERS if p in present] + sorted(
        {r["solver"] for r in rows if r["kind"] == "peer"} - set(PEERS))

    text = build_report(instances, solvers_b, solvers_p, rows, args.title, args.note)
    md = os.path.join(out_dir, "suite.md")
    with open(md, "w") as f:
        f.write(text)
    print(text)
    print(f"suite_report: wrote {md}", file=sys.stderr)
    rc = 0
    if not args.no_png:
        png = os.path.join(out_dir, "suite.png")
        plot(instances, solvers_b, png, args.title, sorted({r["machine"] for r in rows}))
        print(f"suite_report: wrote {png}", file=sys.stderr)
    elif args.no_png == "failed":
        rc = 1
    bad = [i.name for i in instances if len(i.values()) > 1]
    if bad:
        print("suite_report: !!!!!!!! FLOW VALUES DISAGREE on " + ", ".join(bad) + " !!!!!!!!",
              file=sys.stderr)
        rc = 3
    return rc


if __name__ == "__main__":
    sys.exit(main())
