#!/usr/bin/env python3
"""portaflow from Python against the Python max-flow peers, on the suite
instances (bench/instances.sh), in one markdown table.

Peers: scipy.sparse.csgraph.maximum_flow (dinic, edmonds_karp), networkx
preflow_push, OR-Tools SimpleMaxFlow and PyMaxflow (Boykov-Kolmogorov; on
the 4-connected grid2d instances, built with its grid API). A peer that is
not installed is left out with a note. Each peer runs in a fresh process
(spawned, so no state is shared) under a time limit; its time is the solve
call only, the graph already in the peer's own structure (scipy: a CSR
matrix; networkx: a DiGraph; OR-Tools: arcs added; PyMaxflow: the grid
built), except pymaxflow_whole: PyMaxflow's graph built from the grid's
weight arrays inside the clock too, as portaflow's call builds its own
graph from the CSR arrays. portaflow runs in this process: `maximum_flow(csr, s, t,
backend=B)` from the same CSR matrix scipy gets, timed whole (wall) with
its flow matrix (scipy's result holds one too), with the library's own
solve time and the Python-side share beside it: wall minus the library's
time, i.e. the network built from the CSR arrays, the flow matrix from
the engine's end on, and the rest of the call (the flow matrix's
structure, read off the residual graph on a thread beside the engine
where the engine leaves cores free, is shown but not added). Since work
beside the solve can slow the solve itself, the note also holds a
value-only call on the same arrays (no flows, no matrix) and the whole
call's time against it, and a call with the arc flows but no matrix (the
flows alone cost the engines' flow recovery) and the whole call against
that: what the flow matrix adds. Every value is checked against the others.

Usage:
  bench/python_peers.py [--bin build/portaflow] [--instances rlg_1024x1024,grid2d_2048,FILE.max]
                        [--backends auto,cuda,seq] [--peers all] [--reps 3]
                        [--limit 600] [--out FILE.md]

On a machine without internet, install the wheels first (pip download on
a machine with it, same Python version and platform, into .whl/, which git
ignores): numpy scipy networkx ortools PyMaxflow (ortools pulls absl-py,
protobuf, immutabledict, pandas, and their dependencies), plus meson-python,
meson, ninja, pyproject-metadata, packaging for `pip install .` of portaflow.
Then, from the repository root:
  python3 -m pip install --no-index --find-links .whl meson-python pyproject-metadata \
      ortools PyMaxflow
  PATH=$PATH:/usr/local/cuda/bin python3 -m pip install --no-index --no-build-isolation .
  python3 bench/python_peers.py --bin build-gpu/portaflow \
      --instances rlg_1024x1024,grid2d_2048 --backends auto,cuda,opencl,seq --out table.md
"""
import argparse
import multiprocessing as mp
import os
import subprocess
import sys
import time

import numpy as np

import portaflow

PEERS = ["scipy_dinic", "scipy_edmonds_karp", "networkx_preflow_push", "ortools", "pymaxflow",
         "pymaxflow_whole"]


# ---- peers: each runs in a spawned child -----------------------------------

def load(path):
    n, s, t, (tails, heads, caps) = portaflow.read_dimacs(path)
    return n, s, t, tails, heads, caps


def csr_of(n, tails, heads, caps):
    import scipy.sparse as sp
    csr = sp.coo_matrix((caps.astype(np.int32), (tails, heads)), shape=(n, n)).tocsr()
    csr.sum_duplicates()
    csr.setdiag(0)  # self-loops carry no flow; scipy refuses none, but keep it clean
    csr.eliminate_zeros()
    return csr


def peer_scipy(method, n, s, t, tails, heads, caps, name):
    from scipy.sparse.csgraph import maximum_flow
    csr = csr_of(n, tails, heads, caps)
    start = time.perf_counter()
    value = maximum_flow(csr, s, t, method=method).flow_value
    return time.perf_counter() - start, int(value)


def peer_networkx(n, s, t, tails, heads, caps, name):
    import networkx as nx
    from networkx.algorithms.flow import preflow_push
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    merged = {}
    for u, v, c in zip(tails.tolist(), heads.tolist(), caps.tolist()):
        if u != v:
            merged[(u, v)] = merged.get((u, v), 0) + c
    g.add_edges_from((u, v, {"capacity": c}) for (u, v), c in merged.items())
    start = time.perf_counter()
    value = nx.maximum_flow_value(g, s, t, flow_func=preflow_push)
    return time.perf_counter() - start, int(value)


def peer_ortools(n, s, t, tails, heads, caps, name):
    from ortools.graph.python import max_flow
    smf = max_flow.SimpleMaxFlow()
    smf.add_arcs_with_capacity(tails, heads, caps)
    start = time.perf_counter()
    status = smf.solve(s, t)
    took = time.perf_counter() - start
    if status != smf.OPTIMAL:
        raise RuntimeError(f"OR-Tools status {status}")
    return took, int(smf.optimal_flow())


def grid_side(name):
    """(w, h) of a 4-connected grid2d instance name (grid2d_2048: 2048 x 2048)."""
    if not name.startswith("grid2d_"):
        return None
    dims = name[len("grid2d_"):].split("x")
    return (int(dims[0]), int(dims[-1]))


def peer_pymaxflow(n, s, t, tails, heads, caps, name, whole=False):
    """PyMaxflow on the grid's own arrays (right, down and terminal weights,
    derived from the arcs before the clock, as an image's user holds them):
    its maxflow() alone, or (whole) with its graph built from those arrays
    inside the clock, as portaflow's time holds the build of its graph."""
    import maxflow
    w, h = grid_side(name)
    pixels = w * h
    right = np.zeros(pixels, np.int64)
    down = np.zeros(pixels, np.int64)
    src_cap = np.zeros(pixels, np.int64)
    sink_cap = np.zeros(pixels, np.int64)
    inner = (tails < pixels) & (heads < pixels)
    it, ih, ic = tails[inner], heads[inner], caps[inner]
    is_right = ih == it + 1
    is_down = ih == it + w
    np.add.at(right, it[is_right], ic[is_right])  # p -> q and q -> p are equal
    np.add.at(down, it[is_down], ic[is_down])
    from_source = (tails == s) & (heads < pixels)
    to_sink = (heads == t) & (tails < pixels)
    np.add.at(src_cap, heads[from_source], caps[from_source])
    np.add.at(sink_cap, tails[to_sink], caps[to_sink])
    start = time.perf_counter()
    g = maxflow.Graph[int](pixels, 2 * pixels)
    ids = g.add_grid_nodes((h, w))
    east = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0]])
    south = np.array([[0, 0, 0], [0, 0, 0], [0, 1, 0]])
    g.add_grid_edges(ids, weights=right.reshape(h, w), structure=east, symmetric=True)
    g.add_grid_edges(ids, weights=down.reshape(h, w), structure=south, symmetric=True)
    g.add_grid_tedges(ids, src_cap.reshape(h, w), sink_cap.reshape(h, w))
    if not whole:
        start = time.perf_counter()
    value = g.maxflow()
    return time.perf_counter() - start, int(value)


PEER_FUNCS = {
    "scipy_dinic": lambda *a: peer_scipy("dinic", *a),
    "scipy_edmonds_karp": lambda *a: peer_scipy("edmonds_karp", *a),
    "networkx_preflow_push": peer_networkx,
    "ortools": peer_ortools,
    "pymaxflow": peer_pymaxflow,
    "pymaxflow_whole": lambda *a: peer_pymaxflow(*a, whole=True),
}

PEER_MODULES = {"scipy_dinic": "scipy", "scipy_edmonds_karp": "scipy",
                "networkx_preflow_push": "networkx", "ortools": "ortools.graph.python.max_flow",
                "pymaxflow": "maxflow", "pymaxflow_whole": "maxflow"}


def peer_child(peer, path, name, reps, queue):
    try:
        args = load(path) + (name,)
        best, value = None, None
        for _ in range(reps):
            took, value = PEER_FUNCS[peer](*args)
            best = took if best is None else min(best, took)
        queue.put(("ok", best, value))
    except Exception as exc:  # reported in the table, not raised
        queue.put(("error", f"{type(exc).__name__}: {exc}", None))


def run_peer(peer, path, name, reps, limit):
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=peer_child, args=(peer, path, name, reps, queue))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None, None, f"over the {limit:.0f} s limit"
    if queue.empty():
        return None, None, f"died (exit {proc.exitcode})"
    status, took, value = queue.get()
    return (took, value, "") if status == "ok" else (None, None, took)


def available(peer):
    try:
        __import__(PEER_MODULES[peer])
        return True
    except ImportError:
        return False


# ---- portaflow, in this process ------------------------------------------------

def backend_method(spec):
    """--backends entry BACKEND or BACKEND:METHOD as (backend, method)."""
    backend, _, method = spec.partition(":")
    return backend, method or "auto"


def run_portaflow(csr, s, t, spec, reps):
    """(wall, library seconds, result) of the best of reps calls, each
    timed with its flow matrix taken (scipy's result holds it too)."""
    backend, method = backend_method(spec)
    best = None
    for _ in range(reps):
        start = time.perf_counter()
        r = portaflow.maximum_flow(csr, s, t, backend=backend, method=method)
        r.flow  # noqa: B018 - built in the call from CSR input; taken here in any case
        wall = time.perf_counter() - start
        if best is None or wall < best[0]:
            best = (wall, r)
        del r
    wall, r = best
    lib = r.times["total"]
    return wall, lib, r


def best_solve_csr(csr, s, t, spec, reps, want_flow, matrix):
    """Wall seconds of the best of reps solves of the same CSR arrays
    through the extension's solve_csr, with arc flows or not and the
    flow matrix as `matrix` says (a CSR_* mode)."""
    from portaflow import _flow, _graphs, _portaflow
    backend, method = backend_method(spec)
    method = _flow._method_code(method)
    n, indptr, indices, data, _ = _graphs.csr_capacities(csr)
    best = None
    for _ in range(reps):
        start = time.perf_counter()
        _portaflow.solve_csr(n, s, t, indptr, indices, data, backend, -1, want_flow, False,
                             matrix, method)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def run_value_only(csr, s, t, backend, reps):
    """The value-only solve (no flows, no flow matrix, no cut): the solve
    alone, to hold the whole call against (work beside the solve slows it
    too)."""
    from portaflow import _portaflow
    return best_solve_csr(csr, s, t, backend, reps, False, _portaflow.CSR_SUM_REPEATS)


def run_flows_only(csr, s, t, backend, reps):
    """A solve with its arc flows and without the flow matrix: what the
    matrix adds to the flows scipy's result holds too."""
    from portaflow import _portaflow
    return best_solve_csr(csr, s, t, backend, reps, True, _portaflow.CSR_NO_MATRIX)


def python_side_note(wall, lib, r, alone=None, flows=None):
    """The library's time, what the call spent beside it, and the whole
    call against a value-only solve and a solve with flows, no matrix."""
    tm = r.times
    side = wall - lib
    share = 100 * side / lib if lib > 0 else 0.0
    parts = [f"build {tm.get('build', 0):.3f} s", f"flow matrix {tm.get('flow_matrix', 0):.3f} s"]
    if tm.get("flow_plan"):
        parts.append(f"its structure {tm['flow_plan']:.3f} s beside the solve")
    note = f"library {lib:.3f} s, Python side {share:.1f}% of it ({', '.join(parts)})"
    if alone:
        note += f"; value-only call {alone:.3f} s, whole call {100 * (wall - alone) / alone:+.1f}%"
    if flows:
        note += f"; flows without the matrix {flows:.3f} s, the matrix {100 * (wall - flows) / flows:+.1f}%"
    return note


# ---- the table -----------------------------------------------------------------

def instance_paths(binary, names):
    """Files named directly, then the suite instances (built if missing)."""
    files = [x for x in names if os.path.isfile(x)]
    suite = [x for x in names if not os.path.isfile(x)]
    if suite:
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run(["bash", os.path.join(here, "instances.sh"), binary] + suite,
                             check=True, capture_output=True, text=True).stdout
        files += [line for line in out.splitlines() if line.strip()]
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="build/portaflow", help="portaflow binary for instances.sh")
    ap.add_argument("--instances", default="rlg_1024x1024,grid2d_2048")
    ap.add_argument("--backends", default="auto",
                    help="comma-separated portaflow backends, each BACKEND or BACKEND:METHOD "
                         "(seq:push_relabel, seq:boykov_kolmogorov)")
    ap.add_argument("--peers", default="all", help="comma-separated: " + ",".join(PEERS))
    ap.add_argument("--reps", type=int, default=3, help="best of REPS runs")
    ap.add_argument("--limit", type=float, default=600, help="seconds per peer and instance")
    ap.add_argument("--out", help="also write the table here")
    args = ap.parse_args()

    peers = PEERS if args.peers == "all" else args.peers.split(",")
    backends = args.backends.split(",")
    lines = ["| instance | solver | seconds | value | note |", "|---|---|---:|---:|---|"]
    summary = []
    for path in instance_paths(args.bin, args.instances.split(",")):
        name = os.path.splitext(os.path.basename(path))[0]
        n, s, t, tails, heads, caps = load(path)
        print(f"{name}: {n} vertices, {len(tails)} arcs", file=sys.stderr)
        csr = csr_of(n, tails, heads, caps)
        values, times = {}, {}
        for peer in peers:
            if peer.startswith("pymaxflow") and grid_side(name) is None:
                continue  # only on 4-connected grids
            if not available(peer):
                lines.append(f"| {name} | {peer} | | | not installed |")
                continue
            took, value, note = run_peer(peer, path, name, args.reps, args.limit)
            print(f"  {peer}: {took} {value} {note}", file=sys.stderr)
            if took is not None:
                values[peer], times[peer] = value, took
            lines.append(f"| {name} | {peer} | {'' if took is None else f'{took:.3f}'} | "
                         f"{'' if value is None else value} | {note} |")
        for backend in backends:
            try:
                wall, lib, r = run_portaflow(csr, s, t, backend, args.reps)
                alone = run_value_only(csr, s, t, backend, args.reps)
                flows = run_flows_only(csr, s, t, backend, args.reps)
            except portaflow.DeviceError as exc:
                lines.append(f"| {name} | portaflow {backend} | | | {exc} |")
                continue
            ran = ([r.backend] if backend.startswith("auto") else []) + \
                ([r.method] if r.method != "push_relabel" or ":" in backend else [])
            label = f"portaflow {backend}" + (f" ({', '.join(ran)})" if ran else "")
            values[label], times[label] = r.flow_value, wall
            lines.append(f"| {name} | {label} | {wall:.3f} | {r.flow_value} | "
                         f"{python_side_note(wall, lib, r, alone, flows)} |")
            print(f"  {label}: {wall:.3f} s", file=sys.stderr)
        if len(set(values.values())) > 1:
            summary.append(f"- {name}: VALUES DIFFER: {values}")
        general = [times[p] for p in times if p.startswith(("scipy", "networkx", "ortools"))]
        for label in [k for k in times if k.startswith("portaflow")]:
            parts = [f"- {name}, {label}:"]
            if general:
                parts.append(f"{min(general) / times[label]:.3g}x the fastest of scipy, "
                             "networkx, OR-Tools")
            if "pymaxflow" in times:
                parts.append(f"{times['pymaxflow'] / times[label]:.3g}x PyMaxflow's maxflow()")
            if "pymaxflow_whole" in times:
                parts.append(f"{times['pymaxflow_whole'] / times[label]:.3g}x PyMaxflow with its "
                             "graph build")
            summary.append(" ".join(parts))
    table = "\n".join(lines + [""] + summary) + "\n"
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
