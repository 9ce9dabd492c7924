"""maximum_flow and minimum_cut against scipy and networkx on hundreds of
random graphs, on every backend this machine has: equal values, valid
flows (antisymmetric, within capacities, conserved) and valid cuts."""
import numpy as np
import pytest

import portaflow
from conftest import random_csr

sp = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")
nx = pytest.importorskip("networkx")

GRAPHS = 120  # per backend


def check_flow(cap_dense, flow, value, s, t):
    f = flow.toarray()
    assert np.array_equal(f, -f.T), "flow matrix not antisymmetric"
    assert np.all(f <= cap_dense), "flow over capacity"
    net_out = f.sum(axis=1)
    inner = np.ones(len(f), bool)
    inner[[s, t]] = False
    assert np.all(net_out[inner] == 0), "flow not conserved"
    assert net_out[s] == value and net_out[t] == -value


def check_cut(cap_dense, value, sides, s, t):
    reach, non_reach = sides
    n = len(cap_dense)
    assert s in reach and t in non_reach
    assert reach | non_reach == set(range(n)) and not reach & non_reach
    r, q = sorted(reach), sorted(non_reach)
    assert cap_dense[np.ix_(r, q)].sum() == value


@pytest.mark.parametrize("seed", range(GRAPHS))
def test_random_graphs_match_scipy_and_networkx(backend, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    g = random_csr(rng, n, float(rng.uniform(0.05, 0.5)))
    s, t = (int(v) for v in rng.choice(n, 2, replace=False))
    want = csgraph.maximum_flow(g, s, t).flow_value
    got = portaflow.maximum_flow(g, s, t, backend=backend)
    assert got.flow_value == want
    assert got.backend == backend
    cap = g.toarray().astype(np.int64)
    check_flow(cap, got.flow, want, s, t)
    value, sides = portaflow.minimum_cut(g, s, t, backend=backend)
    assert value == want
    check_cut(cap, value, sides, s, t)
    if seed % 4 == 0:  # networkx is slow: a quarter of the graphs
        G = nx.from_scipy_sparse_array(g, create_using=nx.DiGraph, edge_attribute="capacity")
        assert nx.maximum_flow_value(G, s, t) == value


def test_parallel_arcs_and_explicit_zeros(backend):
    # Duplicate (i, j) entries in the CSR structure: capacities add up.
    data = np.array([3, 4, 0, 5, 2], dtype=np.int64)
    indices = np.array([1, 1, 2, 2, 2])
    indptr = np.array([0, 3, 5, 5])
    g = sp.csr_matrix((data, indices, indptr), shape=(3, 3))
    got = portaflow.maximum_flow(g, 0, 2, backend=backend)
    assert got.flow_value == 7
    assert got.flow.toarray()[0, 1] == 7


def test_csr_array_in_csr_array_out(backend):
    g = sp.csr_array(np.array([[0, 5, 3], [0, 0, 2], [0, 0, 0]]))
    got = portaflow.maximum_flow(g, 0, 2, backend=backend)
    assert got.flow_value == 5
    assert isinstance(got.flow, sp.csr_array)
    assert isinstance(portaflow.maximum_flow(sp.csr_matrix(g), 0, 2).flow, sp.csr_matrix)


def test_arc_arrays_input(backend):
    tails, heads, caps = [0, 0, 1, 1, 2], [1, 2, 2, 3, 3], [3, 2, 1, 2, 3]
    got = portaflow.maximum_flow((tails, heads, caps), 0, 3, backend=backend)
    assert got.flow_value == 5
    assert list(got.arc_flow) == [3, 2, 1, 2, 3]
    value, (reach, non_reach) = portaflow.minimum_cut((tails, heads, caps), 0, 3,
                                                      backend=backend, return_arrays=True)
    # The canonical cut: the source side is what cannot reach the sink.
    assert value == 5 and list(reach) == [0, 1, 2] and list(non_reach) == [3]
    # An isolated extra vertex given through n_vertices.
    assert portaflow.maximum_flow((tails, heads, caps), 0, 3, n_vertices=9).flow_value == 5


def test_values_past_32_bits(backend):
    big = 3 * 10**12
    got = portaflow.maximum_flow(([0, 0, 1, 2], [1, 2, 3, 3], [big, big, big, big]), 0, 3,
                                 backend=backend)
    assert got.flow_value == 2 * big


def test_result_carries_timings():
    g = sp.csr_matrix(np.array([[0, 5], [0, 0]]))
    got = portaflow.maximum_flow(g, 0, 1, backend="seq")
    assert got.times["total"] >= 0 and got.times["convert"] >= 0
    assert "device" in dir(got) and "MaximumFlowResult with value of 5" in repr(got)


def segmentation_csr(rng, w, h):
    """A 4-connected w x h grid with one or two terminal arcs per pixel:
    the shape auto answers with Boykov-Kolmogorov on seq."""
    n = w * h + 2
    s, t = n - 2, n - 1
    ids = np.arange(w * h).reshape(h, w)
    pairs = [(ids[:, :-1], ids[:, 1:]), (ids[:, 1:], ids[:, :-1]),
             (ids[:-1, :], ids[1:, :]), (ids[1:, :], ids[:-1, :])]
    tails = [a.ravel() for a, _ in pairs]
    heads = [b.ravel() for _, b in pairs]
    kind = rng.integers(0, 3, w * h)  # 0: from the source, 1: to the sink, 2: both
    pix = np.arange(w * h)
    tails += [np.full(np.sum(kind != 1), s), pix[kind != 0]]
    heads += [pix[kind != 1], np.full(np.sum(kind != 0), t)]
    tails, heads = np.concatenate(tails), np.concatenate(heads)
    caps = rng.integers(0, 60, len(tails))
    return sp.csr_matrix((caps, (tails, heads)), shape=(n, n)), s, t


@pytest.mark.parametrize("seed", range(30))
def test_methods_match_scipy(seed):
    rng = np.random.default_rng(1000 + seed)
    if seed % 2:
        g, s, t = segmentation_csr(rng, int(rng.integers(1, 20)), int(rng.integers(1, 20)))
    else:
        n = int(rng.integers(2, 40))
        g = random_csr(rng, n, float(rng.uniform(0.05, 0.5)))
        s, t = (int(v) for v in rng.choice(n, 2, replace=False))
    want = csgraph.maximum_flow(g, s, t).flow_value
    cap = g.toarray().astype(np.int64)
    sides = []
    for method in ("push_relabel", "boykov_kolmogorov"):
        got = portaflow.maximum_flow(g, s, t, backend="seq", method=method)
        assert got.flow_value == want and got.method == method
        check_flow(cap, got.flow, want, s, t)
        value, cut = portaflow.minimum_cut(g, s, t, backend="seq", method=method)
        assert value == want
        check_cut(cap, value, cut, s, t)
        sides.append(cut)
    assert sides[0] == sides[1], "the methods' canonical cuts differ"


def test_auto_method_on_a_segmentation():
    g, s, t = segmentation_csr(np.random.default_rng(7), 40, 30)
    got = portaflow.maximum_flow(g, s, t)
    assert got.backend == "seq" and got.method == "boykov_kolmogorov"
    assert got.flow_value == csgraph.maximum_flow(g, s, t).flow_value
    assert portaflow.maximum_flow(g, s, t, backend="seq", method="auto").method == \
        "boykov_kolmogorov"
    assert portaflow.maximum_flow(g, s, t, method="bk").method == "boykov_kolmogorov"


def test_bad_methods():
    g = sp.csr_matrix(np.array([[0, 5], [0, 0]]))
    with pytest.raises(ValueError, match="dinic"):
        portaflow.maximum_flow(g, 0, 1, method="dinic")
    with pytest.raises(ValueError, match="push-relabel only"):
        portaflow.maximum_flow(g, 0, 1, backend="omp", method="boykov_kolmogorov")
