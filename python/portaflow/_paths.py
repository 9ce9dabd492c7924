"""floyd_warshall with scipy.sparse.csgraph's conventions, over the C
library's all-pairs shortest paths."""
import numpy as np

from . import _graphs
from ._flow import _backend_name, _device_index
from ._portaflow import apsp as _apsp


def _dense_arcs(graph, null_value):
    """Arcs of a dense matrix: entries that are not null_value, inf or nan."""
    dense = np.asarray(graph, dtype=np.float64)
    if dense.ndim != 2 or dense.shape[0] != dense.shape[1]:
        raise ValueError("graph must be specified as a square matrix.")
    keep = np.isfinite(dense) & (dense != null_value)
    tails, heads = np.nonzero(keep)
    return dense.shape[0], tails.astype(np.int64), heads.astype(np.int64), dense[keep]


def _weighted_arcs(csgraph, n_vertices, null_value):
    if _graphs.is_sparse(csgraph):
        csr = csgraph.tocsr()
        n, tails, heads, weights = _graphs.csr_arcs(csr)
        weights = np.asarray(weights, dtype=np.float64)
        keep = ~np.isnan(weights) & ~np.isinf(weights)  # scipy: inf = no edge
        return n, tails[keep], heads[keep], weights[keep]
    if isinstance(csgraph, tuple):
        n, tails, heads, weights = _graphs.arrays_arcs(csgraph, n_vertices, "weights")
        return n, tails, heads, np.asarray(weights, dtype=np.float64)
    return _dense_arcs(csgraph, null_value)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, *, backend="auto", device=None, n_vertices=None,
                   null_value=0):
    """All-pairs shortest paths, as ``scipy.sparse.csgraph.floyd_warshall``:
    a float64 distance matrix with ``inf`` where there is no path, and with
    ``return_predecessors`` a matrix of predecessors (int32, -9999 for
    none). Dense input: entries equal to ``null_value`` (0), inf and nan are
    not edges; sparse input: every stored entry but inf/nan is an edge
    (explicit zeros too); or a tuple ``(tails, heads, weights)``.
    ``overwrite`` is accepted for compatibility (the input is never changed).
    Integer weights are exact; real weights are solved in float32 (relative
    error about 1e-6). A negative cycle raises ``NegativeCycleError``."""
    del overwrite
    n, tails, heads, weights = _weighted_arcs(csgraph, n_vertices, null_value)
    if unweighted:
        weights = np.ones_like(weights)
    if not directed:
        tails, heads = np.concatenate([tails, heads]), np.concatenate([heads, tails])
        weights = np.concatenate([weights, weights])
    tails = np.ascontiguousarray(tails, dtype=np.int64)
    heads = np.ascontiguousarray(heads, dtype=np.int64)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    out = _apsp(int(n), tails, heads, weights, _backend_name(backend), _device_index(device),
                bool(return_predecessors))
    if return_predecessors:
        return out["dist"], out["predecessors"]
    return out["dist"]
