"""maximum_flow and minimum_cut with scipy.sparse.csgraph's and networkx's
conventions, over the C library's array API."""
import time

import numpy as np

from . import _graphs, _portaflow
from ._portaflow import solve as _solve
from ._portaflow import solve_csr as _solve_csr


class MaximumFlowResult:
    """What ``maximum_flow`` returns: as scipy's result (``flow_value``,
    ``flow``: the antisymmetric flow matrix, CSR, with scipy's structure:
    the input's entries and its transpose's, explicit zeros included), plus
    ``arc_flow`` (flow per input arc or stored entry, input order),
    ``backend``, ``device``, ``method`` (the algorithm that ran:
    "push_relabel" or "boykov_kolmogorov") and ``times`` (seconds: the library's phases;
    ``build`` the network from the arrays and ``flow_matrix`` the flow
    matrix from the engine's end on, both in C; ``flow_plan`` the flow
    matrix's structure where it was made during the solve, read off the
    residual graph on a thread beside the engine (not beside the omp
    backend, which keeps every core busy: there it is part of
    ``flow_matrix``); ``convert`` the rest of the call). From a CSR input
    the flow matrix is built in C with the solve; from arc arrays, on
    first access to ``flow``."""

    def __init__(self, flow_value, arc_flow, backend, device, times, flow=None,
                 matrix_parts=None, method="push_relabel"):
        self.flow_value = flow_value
        self.arc_flow = arc_flow
        self.backend = backend
        self.device = device
        self.method = method
        self.times = times
        self._flow = flow
        self._matrix_parts = matrix_parts

    @property
    def flow(self):
        if self._flow is None and self._matrix_parts is not None:
            self._flow = _graphs.flow_matrix(*self._matrix_parts)
            self._matrix_parts = None
        return self._flow

    def __repr__(self):
        return f"MaximumFlowResult with value of {self.flow_value} ({self.backend})"


# enum pf_maxflow_method (portaflow.h), by the names this package takes.
_METHODS = {"auto": 0, "push_relabel": 1, "boykov_kolmogorov": 2, "bk": 2}


def _method_code(method):
    if method is None:
        return 0
    code = _METHODS.get(method) if isinstance(method, str) else None
    if code is None:
        raise ValueError(f"method {method!r}: use 'auto', 'push_relabel' or 'boykov_kolmogorov'"
                         " (scipy's 'dinic' and 'edmonds_karp' are not among portaflow's)")
    return code


def _method_name(name):
    return name.replace("-", "_")


def _device_index(device):
    if device is None:
        return -1
    index = int(device)
    if index < 0:
        raise ValueError(f"device index {device!r} must be >= 0")
    return index


def _backend_name(backend):
    if backend is None:
        return "auto"
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string, not {backend!r}")
    return backend


def _terminals(n, source, sink):
    if n < 2:
        raise ValueError(f"graph has {n} vertices: needs at least 2")
    source = _graphs.vertex_index(source, n, "source")
    sink = _graphs.vertex_index(sink, n, "sink")
    if source == sink:
        raise ValueError("source and sink vertices must differ")
    return source, sink


def _run(csgraph, source, sink, backend, device, n_vertices, want_flow, want_cut, method=None):
    """(n, out, as_array, arcs, convert seconds): the extension's result
    dict; arcs is (tails, heads) for an arc-array input, None for CSR."""
    t0 = time.perf_counter()
    backend, device = _backend_name(backend), _device_index(device)
    method = _method_code(method)
    if _graphs.is_sparse(csgraph):
        n, indptr, indices, data, keep_repeats = _graphs.csr_capacities(csgraph)
        source, sink = _terminals(n, source, sink)
        as_array = not isinstance(csgraph, _graphs._sparse.spmatrix)
        t1 = time.perf_counter()
        repeats = _portaflow.CSR_KEEP_REPEATS if keep_repeats else _portaflow.CSR_SUM_REPEATS
        out = _solve_csr(n, source, sink, indptr, indices, data, backend, device, want_flow,
                         want_cut, repeats, method)
        return n, out, as_array, None, t1 - t0
    n, tails, heads, caps, as_array = _graphs.flow_arcs(csgraph, n_vertices)
    source, sink = _terminals(n, source, sink)
    t1 = time.perf_counter()
    out = _solve(n, source, sink, tails, heads, caps, backend, device, want_flow, want_cut,
                 method)
    return n, out, as_array, (tails, heads), t1 - t0


def maximum_flow(csgraph, source, sink, *, backend="auto", device=None, n_vertices=None,
                 method="auto"):
    """Maximum flow from ``source`` to ``sink``.

    ``csgraph``: a square ``scipy.sparse`` CSR matrix or array of integer
    capacities (as ``scipy.sparse.csgraph.maximum_flow``), or a tuple
    ``(tails, heads, capacities)`` of 0-based arc arrays (vertex count
    ``n_vertices``, else the largest id + 1). ``backend``: "auto", "seq",
    "omp", "opencl" or "cuda"; ``device``: that backend's device index.
    ``method``: "auto" (push-relabel, but Boykov-Kolmogorov on seq for a
    network shaped like a segmentation, where auto then takes seq),
    "push_relabel" or "boykov_kolmogorov" (seq only). A CSR matrix's int32/int64 arrays are read in place, not copied. The
    flow matrix has scipy's structure and dtype (int32; int64 only where a
    flow does not fit int32, where scipy's would overflow). The GIL is
    released while solving; Ctrl-C interrupts the solve."""
    t_start = time.perf_counter()
    n, out, as_array, arcs, _ = _run(csgraph, source, sink, backend, device, n_vertices, True,
                                     False, method)
    times = dict(out["times"])
    times["build"] = out["build"]
    times["flow_matrix"] = out["flow_matrix"]
    times["flow_plan"] = out["flow_plan"]
    flow, parts = None, None
    if out["matrix"] is not None:
        flow = _graphs.csr_result(n, out["matrix"], as_array)
    elif arcs is not None:
        parts = (n, arcs[0], arcs[1], out["arc_flow"], as_array)
    # Whatever of the call the library's own timers do not cover.
    in_c = times["total"] + times["build"] + times["flow_matrix"]
    times["convert"] = max(0.0, time.perf_counter() - t_start - in_c)
    return MaximumFlowResult(int(out["value"]), out["arc_flow"], out["backend"], out["device"],
                             times, flow, parts, _method_name(out["method"]))


def minimum_cut(csgraph, source, sink, *, backend="auto", device=None, n_vertices=None,
                return_arrays=False, method="auto"):
    """Minimum ``source``-``sink`` cut, as ``networkx.minimum_cut``:
    ``(cut_value, (reachable, non_reachable))`` with the two sides as sets
    of vertex ids (``return_arrays=True``: sorted int64 arrays instead).
    Inputs as ``maximum_flow``."""
    _, out, _, _, _ = _run(csgraph, source, sink, backend, device, n_vertices, False, True,
                           method)
    side = out["source_side"]
    reachable = np.flatnonzero(side)
    non_reachable = np.flatnonzero(~side)
    if not return_arrays:
        reachable, non_reachable = set(reachable.tolist()), set(non_reachable.tolist())
    return int(out["value"]), (reachable, non_reachable)
