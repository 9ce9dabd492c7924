"""portaflow.Session: a max-flow graph that changes, solved again warm from
the previous flow on a device kept open (the C library's pf_session_*)."""
import threading

import numpy as np

from . import _graphs, _portaflow
from ._flow import _backend_name, _device_index, _terminals

# The update kinds apply() takes, by name.
_KINDS = {
    "capacity": _portaflow.UPDATE_CAP,
    "add": _portaflow.UPDATE_ADD,
    "delete": _portaflow.UPDATE_DEL,
    "add_vertices": _portaflow.UPDATE_ADDV,
    "source": _portaflow.UPDATE_SOURCE,
    "sink": _portaflow.UPDATE_SINK,
}
# How many values follow the name in each update tuple.
_ARITY = {"capacity": 2, "add": 3, "delete": 1, "add_vertices": 1, "source": 1, "sink": 1}


class SessionResult:
    """What ``Session.solve`` returns: ``flow_value``; ``arc_flow`` (flow
    per arc id, 0 on deleted arcs) when the session was opened with
    ``flow=True``; ``source_side`` (bool per vertex) when opened with
    ``cut=True``; ``backend``, ``device`` and ``times`` (seconds)."""

    def __init__(self, out):
        self.flow_value = int(out["value"])
        self.arc_flow = out["arc_flow"]
        self.source_side = out["source_side"]
        self.backend = out["backend"]
        self.device = out["device"]
        self.times = out["times"]

    def __repr__(self):
        return f"SessionResult with value of {self.flow_value} ({self.backend})"


def _int_column(values, what):
    arr = _graphs.int64_vector(values, what)
    return arr


def _session_arcs(graph, n_vertices):
    """(n, tails, heads, capacities) as int64 arrays from a CSR matrix or a
    (tails, heads, capacities) tuple; arc k of a CSR matrix is entry k."""
    if _graphs.is_sparse(graph):
        n, indptr, indices, data, _ = _graphs.csr_capacities(graph)
        tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr.astype(np.int64)))
        return n, tails, indices.astype(np.int64), data.astype(np.int64)
    n, tails, heads, caps, _ = _graphs.flow_arcs(graph, n_vertices)
    return n, tails, heads, caps


class Session:
    """A max-flow problem that changes: open it on a graph, change it in
    batches, solve again; each solve starts from the last flow, on a device
    the session keeps open.

    ``graph``: a scipy.sparse CSR matrix of capacities (arc k = stored
    entry k) or a ``(tails, heads, capacities)`` tuple of 0-based arrays.
    ``backend``, ``device``: as ``maximum_flow``. ``flow``, ``cut``: what
    every solve returns besides the value. Arc ids run in input order;
    added arcs take the next ids (a deleted arc's id is never reused).
    Each method below is one batch, all or nothing: a bad entry raises
    ValueError with the library's message ("update K: ...") and changes
    nothing. Use as a context manager, or call ``close()``."""

    def __init__(self, graph, source, sink, *, backend="auto", device=None, flow=True,
                 cut=False, n_vertices=None):
        if not _portaflow.has_sessions:
            raise NotImplementedError("this portaflow build has no sessions")
        n, tails, heads, caps = _session_arcs(graph, n_vertices)
        source, sink = _terminals(n, source, sink)
        self._lock = threading.Lock()
        self._handle = _portaflow.session_open(n, source, sink, tails, heads, caps,
                                               _backend_name(backend), _device_index(device),
                                               bool(flow), bool(cut))

    # ---- counts ----------------------------------------------------------

    @property
    def n_vertices(self):
        return self.stats()["vertices"]

    @property
    def n_arcs(self):
        """Arc ids handed out so far (deleted ones included)."""
        return self.stats()["arcs"]

    def stats(self):
        """The library's session statistics as a dict (batches, updates,
        solves, warm_solves, apply_seconds, solve_seconds, device_bytes,
        host_bytes, live_arcs, cold_reason, vertices, arcs, ...)."""
        with self._lock:
            return _portaflow.session_stats(self._live())

    # ---- changes -----------------------------------------------------------

    def set_capacities(self, arc_ids, capacities):
        ids = _int_column(arc_ids, "arc_ids")
        caps = _int_column(capacities, "capacities")
        if len(ids) != len(caps):
            raise ValueError(f"arc_ids and capacities differ in length ({len(ids)}, {len(caps)})")
        zeros = np.zeros(len(ids), np.int64)
        self._apply_columns(np.full(len(ids), _portaflow.UPDATE_CAP, np.int64), ids, zeros, caps)

    def add_arcs(self, tails, heads, capacities):
        """Adds arcs; returns their ids (int64 array)."""
        t = _int_column(tails, "tails")
        h = _int_column(heads, "heads")
        c = _int_column(capacities, "capacities")
        if not len(t) == len(h) == len(c):
            raise ValueError(
                f"tails, heads and capacities differ in length ({len(t)}, {len(h)}, {len(c)})")
        return self._apply_columns(np.full(len(t), _portaflow.UPDATE_ADD, np.int64), t, h, c)

    def delete_arcs(self, arc_ids):
        ids = _int_column(arc_ids, "arc_ids")
        zeros = np.zeros(len(ids), np.int64)
        self._apply_columns(np.full(len(ids), _portaflow.UPDATE_DEL, np.int64), ids, zeros,
                            zeros)

    def add_vertices(self, count):
        """Adds ``count`` vertices; returns their ids (int64 array)."""
        count = int(count)
        with self._lock:
            first = _portaflow.session_stats(self._live())["vertices"]
            self._apply_locked(np.array([_portaflow.UPDATE_ADDV], np.int64),
                               np.array([count], np.int64), np.zeros(1, np.int64),
                               np.zeros(1, np.int64))
        return np.arange(first, first + count, dtype=np.int64)

    def apply(self, updates):
        """One batch of updates, all or nothing, each a tuple:
        ``("capacity", arc, capacity)``, ``("add", tail, head, capacity)``,
        ``("delete", arc)``, ``("add_vertices", count)``, ``("source", v)``,
        ``("sink", v)``. Returns the ids of the arcs the batch added, in
        order (int64 array)."""
        rows = []
        for k, update in enumerate(updates):
            if not isinstance(update, (tuple, list)) or not update:
                raise ValueError(f"update {k}: expected a tuple such as ('capacity', arc, value)")
            name = update[0]
            if name not in _KINDS:
                raise ValueError(f"update {k}: unknown kind {name!r} "
                                 f"(one of {', '.join(_KINDS)})")
            if len(update) != 1 + _ARITY[name]:
                raise ValueError(f"update {k}: {name!r} takes {_ARITY[name]} value(s)")
            values = []
            for x in update[1:]:
                if isinstance(x, (bool, np.bool_)) or int(x) != x:
                    raise ValueError(f"update {k}: {x!r} is not an integer")
                values.append(int(x))
            if name == "add":
                rows.append((_KINDS[name], values[0], values[1], values[2]))
            elif name == "capacity":
                rows.append((_KINDS[name], values[0], 0, values[1]))
            else:
                rows.append((_KINDS[name], values[0], 0, 0))
        cols = np.array(rows, dtype=np.int64).reshape(-1, 4).T
        return self._apply_columns(*(np.ascontiguousarray(c) for c in cols))

    def _apply_columns(self, kinds, a, b, caps):
        with self._lock:
            return self._apply_locked(kinds, a, b, caps)

    def _apply_locked(self, kinds, a, b, caps):
        handle = self._live()
        first = _portaflow.session_stats(handle)["arcs"]
        _portaflow.session_apply(handle, kinds, a, b, caps)
        added = int(np.count_nonzero(kinds == _portaflow.UPDATE_ADD))
        return np.arange(first, first + added, dtype=np.int64)

    # ---- solving and closing ---------------------------------------------------

    def solve(self):
        """Max flow of the graph as it is now, warm from the last flow; the
        GIL is released and Ctrl-C interrupts it."""
        with self._lock:
            return SessionResult(_portaflow.session_solve(self._live()))

    # ---- searching the graph as it is -----------------------------------------

    def _search_source(self, source):
        n = self.n_vertices
        if isinstance(source, (bool, np.bool_)) or not isinstance(source, (int, np.integer)):
            raise TypeError(f"source must be a vertex id (an integer), not {type(source).__name__}")
        if not 0 <= source < n:
            raise ValueError(f"source {source} is outside 0..{n - 1}")
        return int(source)

    def bfs(self, source):
        """Hop counts from ``source`` over the graph as it is now (its live
        arcs, tail -> head; deleted arcs not): ``(dist, parent)``, int32
        arrays over every vertex, -1 where unreached; ``parent[v]`` the
        smallest-id vertex one hop nearer, the source's itself. It runs on
        the session's backend and device, over the session's own graph (no
        rebuild); the flow is left as it was."""
        src = self._search_source(source)
        with self._lock:
            dist, parent, _ = _portaflow.session_search(self._live(), src, False)
        return dist, parent

    def shortest_paths(self, source):
        """Shortest-path lengths from ``source`` with the arcs' capacities as
        lengths, over the graph as it is now: a float64 array over every
        vertex, ``inf`` where unreached. As ``bfs``, on the session's own
        graph and device; the flow is left as it was."""
        src = self._search_source(source)
        with self._lock:
            dist, _, _ = _portaflow.session_search(self._live(), src, True)
        return dist

    def close(self):
        """Releases the device and the session's memory (again: nothing)."""
        with self._lock:
            if self._handle is not None:
                _portaflow.session_close(self._handle)
                self._handle = None

    def _live(self):
        if self._handle is None:
            raise ValueError("the session is closed")
        return self._handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self._handle is None else f"{self.n_vertices} vertices"
        return f"portaflow.Session ({state})"
