"""The flow matrix of a CSR input is scipy's: the same indptr and indices
(the input's entries and its transpose's, sorted, explicit zeros, repeats
and the diagonal as scipy keeps them), scipy's int32 values (int64 only
past int32, where scipy's overflow), and a valid flow of scipy's value; on inputs that are
not canonical (unsorted, repeated, explicit zeros, self-loops), of every
integer dtype, as csr_matrix and csr_array, with int32 and int64 indices,
and large enough for the library's threads."""
import numpy as np
import pytest

import portaflow

sp = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


def messy_csr(rng, n, entries, dtype=np.int32, index_dtype=np.int32):
    """A CSR matrix straight from arrays: columns unsorted within rows,
    repeated entries, explicit zeros and diagonal entries among them."""
    rows = np.sort(rng.integers(0, n, entries))
    cols = rng.integers(0, n, entries)
    caps = rng.integers(0, 30, entries)
    indptr = np.searchsorted(rows, np.arange(n + 1)).astype(index_dtype)
    g = sp.csr_matrix((caps.astype(dtype), cols.astype(index_dtype), indptr), shape=(n, n))
    # scipy's constructor may pick its own index dtype: force the one asked for.
    g.indices, g.indptr = cols.astype(index_dtype), indptr
    return g


def check_valid(g, flow, value, s, t):
    f = flow.toarray().astype(np.int64)
    cap = g.toarray().astype(np.int64)  # repeats summed
    np.fill_diagonal(cap, 0)
    assert np.array_equal(f, -f.T), "not antisymmetric"
    assert np.all(f <= cap), "over capacity"
    net = f.sum(axis=1)
    inner = np.ones(len(f), bool)
    inner[[s, t]] = False
    assert np.all(net[inner] == 0) and net[s] == value and net[t] == -value


def check_like_scipy(g, s, t, backend="seq"):
    want = csgraph.maximum_flow(g, s, t)
    got = portaflow.maximum_flow(g, s, t, backend=backend)
    assert got.flow_value == want.flow_value
    assert type(got.flow) is type(want.flow)
    assert np.array_equal(got.flow.indptr, want.flow.indptr)
    assert np.array_equal(got.flow.indices, want.flow.indices)
    assert got.flow.has_canonical_format
    check_valid(g, got.flow, want.flow_value, s, t)
    return got, want


@pytest.mark.parametrize("seed", range(40))
def test_structure_equals_scipy_on_messy_inputs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    g = messy_csr(rng, n, int(rng.integers(0, 4 * n)))
    if seed % 2:
        g = sp.csr_array(g)
    s, t = (int(v) for v in rng.choice(n, 2, replace=False))
    got, want = check_like_scipy(g, s, t)
    assert got.flow.dtype == want.flow.dtype == np.int32


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64])
def test_every_integer_dtype(dtype):
    rng = np.random.default_rng(3)
    g = messy_csr(rng, 12, 60, dtype=dtype)
    got, want = check_like_scipy(g, 0, 11)
    assert got.flow.dtype == want.flow.dtype == np.int32


def test_int64_indices_read_in_place():
    rng = np.random.default_rng(4)
    g = messy_csr(rng, 20, 90, dtype=np.int64, index_dtype=np.int64)
    assert g.indices.dtype == np.int64
    check_like_scipy(g, 0, 19)


def test_repeats_past_int32_get_int64_values():
    big = 2**31 - 1
    g = sp.csr_matrix((np.array([big, big, big, big], np.int32), np.array([1, 1, 2, 2]),
                       np.array([0, 2, 4, 4])), shape=(3, 3))
    got = portaflow.maximum_flow(g, 0, 2, backend="seq")
    assert got.flow_value == 2 * big
    assert got.flow.dtype == np.int64
    assert got.flow[0, 1] == 2 * big and got.flow[1, 0] == -2 * big


def test_large_graph_on_threads(backend):
    # Past the library's threaded threshold (65536 entries).
    rng = np.random.default_rng(5)
    n = 3000
    g = messy_csr(rng, n, 90000)
    got, _ = check_like_scipy(g, 0, n - 1, backend)
    assert got.arc_flow.shape == (g.nnz,)
    assert got.times["flow_matrix"] >= 0 and got.times["build"] >= 0


def test_input_is_not_changed():
    rng = np.random.default_rng(6)
    g = messy_csr(rng, 15, 70)
    before = (g.indptr.copy(), g.indices.copy(), g.data.copy())
    portaflow.maximum_flow(g, 0, 14)
    assert all(np.array_equal(a, b) for a, b in zip(before, (g.indptr, g.indices, g.data)))
