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


_CSR_INTS = (np.dtype(np.int32), np.dtype(np.int64))


def csr_capacities(csgraph):
    """(n, indptr, indices, data, keep_repeats) of a square integer CSR
    matrix, as the extension takes them: the matrix's own arrays where they
    are int32 or int64 already (no copy), else converted. keep_repeats:
    whether the flow matrix keeps repeated entries as scipy does for an
    int32 matrix (scipy converts any other dtype, which sums them)."""
    if csgraph.format != "csr":
        raise TypeError("graph must be in CSR format")
    if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("graph must be specified as a square matrix.")
    data = csgraph.data
    if not np.issubdtype(data.dtype, np.integer):
        raise ValueError("graph capacities must be integers")
    indptr, indices = csgraph.indptr, csgraph.indices
    if indptr.dtype != indices.dtype or indptr.dtype not in _CSR_INTS:
        indptr, indices = indptr.astype(np.int64), indices.astype(np.int64)
    keep_repeats = data.dtype == np.int32
    if data.dtype not in _CSR_INTS:  # int8/16 and unsigned kinds
        data = data.astype(np.int32 if data.dtype.itemsize < 4 else np.int64)
    return (csgraph.shape[0], np.ascontiguousarray(indptr), np.ascontiguousarray(indices),
            np.ascontiguousarray(data), keep_repeats)


def flow_arcs(csgraph, n_vertices):
    """(n, tails, heads, capacities, as_array) of a (tails, heads,
    capacities) tuple for maximum_flow/minimum_cut; as_array says whether
    a sparse result should be a csr_array. CSR input: csr_capacities."""
    if is_sparse(csgraph):
        raise AssertionError("CSR input goes through csr_capacities")
    if isinstance(csgraph, tuple):
        n, tails, heads, caps = arrays_arcs(csgraph, n_vertices, "capacities")
        if caps.size and not np.issubdtype(caps.dtype, np.integer):
            raise ValueError("graph capacities must be integers")
        return n, tails, heads, np.ascontiguousarray(caps, dtype=np.int64), True
    raise TypeError("graph must be in CSR format (a scipy.sparse CSR matrix or array) "
                    "or a (tails, heads, capacities) tuple of arrays")


def csr_result(n, parts, as_array):
    """A CSR matrix (csr_array if as_array) over (indptr, indices, data)
    that the extension built in scipy's canonical form (sorted columns,
    no repeats): taken as they are, no copy and no re-check."""
    indptr, indices, data = parts
    kind = _sparse.csr_array if as_array else _sparse.csr_matrix
    matrix = kind((data, indices, indptr), shape=(n, n), copy=False)
    matrix.has_sorted_indices = True
    matrix.has_canonical_format = True
    return matrix


def flow_matrix(n, tails, heads, arc_flow, as_array):
    """scipy's flow matrix of an arc-array input: F[i, j] = flow i->j minus
    flow j->i (antisymmetric), at every arc's and reverse arc's position."""
    if _sparse is None:
        return None
    rows = np.concatenate([tails, heads])
    cols = np.concatenate([heads, tails])
    vals = np.concatenate([arc_flow, -arc_flow])
    csr = _sparse.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    csr.sum_duplicates()
    return _sparse.csr_array(csr) if as_array else csr
