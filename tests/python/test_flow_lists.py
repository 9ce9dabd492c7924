"""The flow matrix read off the solve's residual lists (pf_solve_csr_flow)
is scipy's: the same structure and a valid flow of scipy's value, whose
entries are the call's own arc flows summed (F[u, v] = flow u->v minus flow
v->u). On inputs with (u,v) and (v,u) both, repeated positions (kept, as
scipy keeps an int32 matrix's, or summed), self-loops, empty rows, ids from 1 (row 0 empty), int32 and int64 indices, on every
backend, and large enough for the library's threads."""
import numpy as np
import pytest

import portaflow
from portaflow import _graphs, _portaflow

from test_flow_matrix import check_like_scipy

sp = pytest.importorskip("scipy.sparse")


def csr_from_arcs(n, tails, heads, caps, dtype=np.int32, index_dtype=np.int32, shuffle=None):
    """A CSR matrix straight from arc arrays, every arc an entry (repeats
    and order within a row as given, or shuffled by the generator)."""
    tails, heads, caps = (np.asarray(x) for x in (tails, heads, caps))
    order = np.argsort(tails, kind="stable")
    if shuffle is not None:
        order = np.lexsort((shuffle.random(len(tails)), tails))
    indptr = np.searchsorted(tails[order], np.arange(n + 1)).astype(index_dtype)
    g = sp.csr_matrix((caps[order].astype(dtype), heads[order].astype(index_dtype), indptr),
                      shape=(n, n))
    g.indices, g.indptr = heads[order].astype(index_dtype), indptr
    return g


def paired_arcs(rng, n, m, repeats=False, self_loops=False):
    """m random arcs, about half with their reverse arc too."""
    tails = rng.integers(0, n, m)
    heads = rng.integers(0, n, m)
    if not self_loops:
        heads = np.where(heads == tails, (heads + 1) % n, heads)
    back = rng.random(m) < 0.5
    tails, heads = np.concatenate([tails, heads[back]]), np.concatenate([heads, tails[back]])
    if not repeats:
        _, first = np.unique(tails * n + heads, return_index=True)
        tails, heads = tails[np.sort(first)], heads[np.sort(first)]
    return tails, heads, rng.integers(0, 40, len(tails))


def solve_raw(g, s, t, backend="seq"):
    """The extension's dict for a CSR input, with the matrix."""
    n, indptr, indices, data, keep = _graphs.csr_capacities(g)
    repeats = _portaflow.CSR_KEEP_REPEATS if keep else _portaflow.CSR_SUM_REPEATS
    return _portaflow.solve_csr(n, s, t, indptr, indices, data, backend, -1, True, False, repeats)


def check_against_arc_flows(g, got, s, t):
    """F is the call's own arc flows, summed per position, antisymmetric
    (sparse: the graphs on threads are too large for dense checks), and
    those flows are a flow of the call's value."""
    n = g.shape[0]
    rows = np.repeat(np.arange(n), np.diff(g.indptr))
    flow = got.arc_flow
    want = sp.coo_matrix((np.concatenate([flow, -flow]),
                          (np.concatenate([rows, g.indices]), np.concatenate([g.indices, rows]))),
                         shape=(n, n)).tocsr()
    diff = (got.flow.astype(np.int64) - want).tocsr()
    diff.eliminate_zeros()
    assert diff.nnz == 0
    assert np.all(flow >= 0) and np.all(flow <= np.where(rows == g.indices, 0, g.data))
    net = np.asarray(got.flow.sum(axis=1)).ravel()
    inner = np.ones(n, bool)
    inner[[s, t]] = False
    assert np.all(net[inner] == 0) and net[s] == got.flow_value == -net[t]


def check(g, s, t, backend="seq", from_lists=True, like_scipy=True):
    if like_scipy:
        got, _ = check_like_scipy(g, s, t, backend)
    else:
        got = portaflow.maximum_flow(g, s, t, backend=backend)
        want = portaflow.maximum_flow(g, s, t, backend="seq")
        assert got.flow_value == want.flow_value
        assert np.array_equal(got.flow.indptr, want.flow.indptr)
        assert np.array_equal(got.flow.indices, want.flow.indices)
    check_against_arc_flows(g, got, s, t)
    assert solve_raw(g, s, t, backend)["matrix_from_residual"] is from_lists
    return got


@pytest.mark.parametrize("seed", range(12))
def test_both_directions(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 40))
    g = csr_from_arcs(n, *paired_arcs(rng, n, 3 * n), shuffle=rng)
    if seed % 2:
        g = sp.csr_array(g)
    check(g, 0, n - 1)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("seed", range(6))
def test_repeated_positions(seed, dtype):
    # int32: kept as scipy keeps them (max(p, q) entries); int64: summed.
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(3, 25))
    tails, heads, caps = paired_arcs(rng, n, 4 * n, repeats=True)
    tails, heads = np.concatenate([tails, tails[:n]]), np.concatenate([heads, heads[:n]])
    caps = np.concatenate([caps, caps[:n]])
    g = csr_from_arcs(n, tails, heads, caps, dtype=dtype, shuffle=rng)
    check(g, 0, n - 1)


@pytest.mark.parametrize("seed", range(6))
def test_self_loops(seed):
    # Self-loops have no residual arcs: their diagonal entries (as many as
    # scipy keeps) come from the input's rows, with value 0.
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(3, 25))
    tails, heads, caps = paired_arcs(rng, n, 3 * n, repeats=bool(seed % 2), self_loops=True)
    tails, heads, caps = np.append(tails, 1), np.append(heads, 1), np.append(caps, 5)
    g = csr_from_arcs(n, tails, heads, caps, dtype=np.int64 if seed % 3 else np.int32,
                      shuffle=rng)
    check(g, 0, n - 1)
    assert got_diagonal(g, 0, n - 1)[1] == 0


def got_diagonal(g, s, t):
    """The flow matrix's diagonal: stored at (1, 1), value 0."""
    f = portaflow.maximum_flow(g, s, t, backend="seq").flow
    row = slice(f.indptr[1], f.indptr[2])
    assert 1 in f.indices[row]
    return f.indices[row], f.toarray().diagonal()[1]


def test_empty_rows_and_ids_from_one():
    # A graph numbered from 1: row 0 empty, and rows of isolated vertices.
    rng = np.random.default_rng(7)
    tails, heads, caps = paired_arcs(rng, 30, 60)
    keep = (tails % 5 != 3) & (heads % 5 != 3)
    g = csr_from_arcs(31, tails[keep] + 1, heads[keep] + 1, caps[keep])
    assert np.diff(g.indptr)[0] == 0 and (np.diff(g.indptr) == 0).sum() >= 6
    got = check(g, 1, 30)
    assert got.flow.indptr[1] == 0
    # The source row empty: no flow, the structure still scipy's.
    check(csr_from_arcs(4, [1, 2], [2, 3], [5, 5]), 0, 3)


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_index_dtypes(index_dtype):
    rng = np.random.default_rng(8)
    g = csr_from_arcs(50, *paired_arcs(rng, 50, 200, repeats=True), index_dtype=index_dtype,
                      shuffle=rng)
    assert g.indices.dtype == index_dtype
    check(g, 0, 49)


def test_grid_on_threads(backend):
    # Every arc's reverse present; far past the threaded threshold.
    from conftest import grid_arcs
    rng = np.random.default_rng(9)
    n, s, t, (tails, heads, caps) = grid_arcs(120, rng)
    g = csr_from_arcs(n, tails, heads, caps)
    got = check(g, s, t, backend, like_scipy=False)
    assert got.times["flow_matrix"] >= 0 and got.times["flow_plan"] >= 0


def test_messy_large_on_threads(backend):
    rng = np.random.default_rng(10)
    n = 4000
    g = csr_from_arcs(n, *paired_arcs(rng, n, 60000, repeats=True), shuffle=rng)
    check(g, 0, n - 1, backend, like_scipy=False)


def test_interrupted_solve_leaves_the_next_one_right():
    # A solve that fails (bad input) after the lists' builder may have run,
    # then a good one: nothing of the first shows in the second.
    rng = np.random.default_rng(11)
    g = csr_from_arcs(300, *paired_arcs(rng, 300, 1500))
    bad = g.copy()
    bad.data = bad.data.copy()
    bad.data[-1] = -1
    with pytest.raises(ValueError, match="capacity -1"):
        portaflow.maximum_flow(bad, 0, 299, backend="seq")
    check(g, 0, 299)


def test_flows_without_the_matrix():
    # The benchmark's baseline: the same arc flows (seq), no matrix.
    rng = np.random.default_rng(12)
    g = csr_from_arcs(200, *paired_arcs(rng, 200, 800))
    n, indptr, indices, data, _ = _graphs.csr_capacities(g)
    out = _portaflow.solve_csr(n, 0, 199, indptr, indices, data, "seq", -1, True, False,
                               _portaflow.CSR_NO_MATRIX)
    assert out["matrix"] is None and not out["matrix_from_residual"]
    full = solve_raw(g, 0, 199)
    assert out["value"] == full["value"]
    assert np.array_equal(out["arc_flow"], full["arc_flow"])
