"""Input conversion: scipy CSR matrices and (tails, heads, values) arrays to
the contiguous int64/float64 arc arrays that the extension takes."""
import numpy as np

try:  # SciPy is optional: only sparse inputs and sparse results need it.
    import scipy.sparse as _sparse
except ImportError:  # pragma: no cover - exercised where scipy is absent
    _sparse = None


def is_sparse(obj):
    return _sparse is not None and _sparse.issparse(obj)


def vertex_index(value, n, what):
    """A vertex id as a Python int, checked against 0..n-1 (scipy's message)."""
    try:
        index = int(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be an integer vertex id, not {value!r}") from None
    if index != value:
        raise TypeError(f"{what} must be an integer vertex id, not {value!r}")
    if index < 0 or index >= n:
        raise ValueError(f"{what} value ({index}) must be between 0 and {n - 1}")
    return index


def csr_arcs(csgraph):
    """(n, tails, heads, data) of a square CSR matrix, data as stored."""
    if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("graph must be specified as a square matrix.")
    n = csgraph.shape[0]
    indptr = np.asarray(csgraph.indptr, dtype=np.int64)
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    heads = np.ascontiguousarray(csgraph.indices, dtype=np.int64)
    return n, tails, heads, np.asarray(csgraph.data)


def int64_vector(values, what):
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a 1-d array, not of shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.floor(arr) == arr):
            pass  # integral floats, e.g. from a list with a float in it
        else:
            raise ValueError(f"{what} must be integers")
    return np.ascontiguousarray(arr, dtype=np.int64)


def arrays_arcs(graph, n_vertices, what):
    """(n, tails, heads, values) from a (tails, heads, values) triple."""
    if len(graph) != 3:
        raise ValueError("an arc list is (tails, heads, " + what + ")")
    tails = int64_vector(graph[0], "tails")
    heads = int64_vector(graph[1], "heads")
    values = np.asarray(graph[2])
    if values.ndim != 1:
        raise ValueError(f"{what} must be a 1-d array, not of shape {values.shape}")
    if not (len(tails) == len(heads) == len(values)):
        raise ValueError(
            f"tails, heads and {what} differ in length ({len(tails)}, {len(heads)}, {len(values)})")
    if n_vertices is None:
        n_vertices = int(max(tails.max(initial=-1), heads.max(initial=-1))) + 1
    return int(n_vertices), tails, heads, values


def flow_arcs(csgraph, n_vertices):
    """(n, tails, heads, capacities, as_array) for maximum_flow/minimum_cut;
    as_array says whether a sparse result should be a csr_array."""
    if is_sparse(csgraph):
        if csgraph.format != "csr":
            raise TypeError("graph must be in CSR format")
        if not np.issubdtype(csgraph.dtype, np.integer):
            raise ValueError("graph capacities must be integers")
        n, tails, heads, caps = csr_arcs(csgraph)
        as_array = not isinstance(csgraph, _sparse.spmatrix)
        return n, tails, heads, np.ascontiguousarray(caps, dtype=np.int64), as_array
    if isinstance(csgraph, tuple):
        n, tails, heads, caps = arrays_arcs(csgraph, n_vertices, "capacities")
        if caps.size and not np.issubdtype(caps.dtype, np.integer):
            raise ValueError("graph capacities must be integers")
        return n, tails, heads, np.ascontiguousarray(caps, dtype=np.int64), True
    raise TypeError("graph must be in CSR format (a scipy.sparse CSR matrix or array) "
                    "or a (tails, heads, capacities) tuple of arrays")


def flow_matrix(n, tails, heads, arc_flow, as_array, csr_input=None):
    """scipy's flow matrix: F[i, j] = flow i->j minus flow j->i
    (antisymmetric). From a CSR input its structure is reused (no sort)."""
    if _sparse is None:
        return None
    if csr_input is not None:
        forward = _sparse.csr_matrix((arc_flow, csr_input.indices, csr_input.indptr),
                                     shape=(n, n))
        csr = (forward - forward.T).tocsr()
    else:
        rows = np.concatenate([tails, heads])
        cols = np.concatenate([heads, tails])
        vals = np.concatenate([arc_flow, -arc_flow])
        csr = _sparse.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    csr.sum_duplicates()
    return _sparse.csr_array(csr) if as_array else csr
