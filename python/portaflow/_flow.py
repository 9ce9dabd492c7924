"""maximum_flow and minimum_cut with scipy.sparse.csgraph's and networkx's
conventions, over the C library's array API."""
import time

import numpy as np

from . import _graphs
from ._portaflow import solve as _solve


class MaximumFlowResult:
    """What ``maximum_flow`` returns: as scipy's result (``flow_value``,
    ``flow``: the antisymmetric flow matrix, CSR), plus ``arc_flow`` (flow
    per input arc, input order), ``backend``, ``device`` and ``times``
    (seconds: the library's phases, ``convert`` for the Python side).
    ``flow`` is built on first access (it costs a sparse transpose), so a
    caller that needs only the value or ``arc_flow`` does not pay for it."""

    def __init__(self, flow_value, arc_flow, backend, device, times, matrix_parts):
        self.flow_value = flow_value
        self.arc_flow = arc_flow
        self.backend = backend
        self.device = device
        self.times = times
        self._matrix_parts = matrix_parts
        self._flow = None

    @property
    def flow(self):
        if self._flow is None and self._matrix_parts is not None:
            self._flow = _graphs.flow_matrix(*self._matrix_parts)
            self._matrix_parts = None
        return self._flow

    def __repr__(self):
        return f"MaximumFlowResult with value of {self.flow_value} ({self.backend})"


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


def _run(csgraph, source, sink, backend, device, n_vertices, want_flow, want_cut):
    t0 = time.perf_counter()
    n, tails, heads, caps, as_array = _graphs.flow_arcs(csgraph, n_vertices)
    if n < 2:
        raise ValueError(f"graph has {n} vertices: needs at least 2")
    source = _graphs.vertex_index(source, n, "source")
    sink = _graphs.vertex_index(sink, n, "sink")
    if source == sink:
        raise ValueError("source and sink vertices must differ")
    t1 = time.perf_counter()
    out = _solve(n, source, sink, tails, heads, caps, _backend_name(backend),
                 _device_index(device), want_flow, want_cut)
    t2 = time.perf_counter()
    return n, tails, heads, as_array, out, t1 - t0, t2


def maximum_flow(csgraph, source, sink, *, backend="auto", device=None, n_vertices=None):
    """Maximum flow from ``source`` to ``sink``.

    ``csgraph``: a square ``scipy.sparse`` CSR matrix or array of integer
    capacities (as ``scipy.sparse.csgraph.maximum_flow``), or a tuple
    ``(tails, heads, capacities)`` of 0-based arc arrays (vertex count
    ``n_vertices``, else the largest id + 1). ``backend``: "auto", "seq",
    "omp", "opencl" or "cuda"; ``device``: that backend's device index.
    The GIL is released while solving; Ctrl-C interrupts the solve."""
    n, tails, heads, as_array, out, convert_in, t_solved = _run(
        csgraph, source, sink, backend, device, n_vertices, True, False)
    arc_flow = out["arc_flow"]
    times = dict(out["times"])
    times["build"] = out["build"]
    times["convert"] = convert_in + (time.perf_counter() - t_solved)
    structure = csgraph if _graphs.is_sparse(csgraph) else None
    return MaximumFlowResult(int(out["value"]), arc_flow, out["backend"], out["device"], times,
                             (n, tails, heads, arc_flow, as_array, structure))


def minimum_cut(csgraph, source, sink, *, backend="auto", device=None, n_vertices=None,
                return_arrays=False):
    """Minimum ``source``-``sink`` cut, as ``networkx.minimum_cut``:
    ``(cut_value, (reachable, non_reachable))`` with the two sides as sets
    of vertex ids (``return_arrays=True``: sorted int64 arrays instead).
    Inputs as ``maximum_flow``."""
    _, _, _, _, out, _, _ = _run(csgraph, source, sink, backend, device, n_vertices, False, True)
    side = out["source_side"]
    reachable = np.flatnonzero(side)
    non_reachable = np.flatnonzero(~side)
    if not return_arrays:
        reachable, non_reachable = set(reachable.tolist()), set(non_reachable.tolist())
    return int(out["value"]), (reachable, non_reachable)
