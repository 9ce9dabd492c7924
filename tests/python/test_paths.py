"""floyd_warshall against scipy on random graphs, on every backend:
identical distances for integer weights (close for reals), valid
predecessor matrices, scipy's conventions for dense/sparse input,
undirected and unweighted graphs, and negative cycles."""
import numpy as np
import pytest

import portaflow

sp = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


def check_predecessors(dense_w, dist, pred):
    """Every predecessor chain from i to j walks arcs whose weights sum to dist[i, j]."""
    n = len(dist)
    for i in range(n):
        for j in range(n):
            if i == j or not np.isfinite(dist[i, j]):
                assert pred[i, j] == -9999
                continue
            total, v, steps = 0.0, j, 0
            while v != i:
                u = pred[i, v]
                assert u >= 0 and steps < n
                total += dense_w[u, v]
                v, steps = u, steps + 1
            assert np.isclose(total, dist[i, j])


def random_weights(rng, n, density, low, high):
    w = rng.integers(low, high, size=(n, n)).astype(float)
    w[w == 0] = 1  # 0 means "no edge" in dense input
    w *= rng.random((n, n)) < density
    return w


@pytest.mark.parametrize("seed", range(40))
def test_random_dense_graphs_match_scipy(backend, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    w = random_weights(rng, n, float(rng.uniform(0.1, 0.6)), 1, 50)
    directed = bool(seed % 2)
    want = csgraph.floyd_warshall(w, directed=directed)
    dist, pred = portaflow.floyd_warshall(w, directed=directed, return_predecessors=True,
                                          backend=backend)
    assert np.array_equal(dist, want)
    arcs = np.where(w == 0, np.inf, w)
    check_predecessors(arcs if directed else np.minimum(arcs, arcs.T), dist, pred)


def test_negative_weights_without_cycles(backend):
    rng = np.random.default_rng(5)
    n = 20
    w = np.triu(random_weights(rng, n, 0.4, -20, 20), 1)  # a DAG: no cycles
    assert np.array_equal(portaflow.floyd_warshall(w, backend=backend),
                          csgraph.floyd_warshall(w))


def test_real_weights_close_to_scipy(backend):
    rng = np.random.default_rng(7)
    w = rng.uniform(0.5, 10.0, size=(25, 25)) * (rng.random((25, 25)) < 0.3)
    got = portaflow.floyd_warshall(w, backend=backend)
    want = csgraph.floyd_warshall(w)
    assert np.array_equal(np.isinf(got), np.isinf(want))
    assert np.allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-5)


def test_sparse_input_explicit_zero_is_an_edge(backend):
    g = sp.csr_matrix((np.array([0.0, 4.0]), (np.array([0, 1]), np.array([1, 2]))),
                      shape=(3, 3))
    got = portaflow.floyd_warshall(g, backend=backend)
    assert np.array_equal(got, csgraph.floyd_warshall(g))
    assert got[0, 1] == 0 and got[0, 2] == 4


def test_unweighted_and_undirected(backend):
    w = np.array([[0, 5, 0, 0], [0, 0, 7, 0], [0, 0, 0, 9], [0, 0, 0, 0]], float)
    for kwargs in ({"unweighted": True}, {"directed": False}, {"directed": False,
                                                               "unweighted": True}):
        assert np.array_equal(portaflow.floyd_warshall(w, backend=backend, **kwargs),
                              csgraph.floyd_warshall(w, **kwargs))


def test_negative_cycle_raises(backend):
    w = np.array([[0, 1, 0], [0, 0, -3], [1, 0, 0]], float)
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.floyd_warshall(w)
    with pytest.raises(portaflow.NegativeCycleError, match="negative cycle"):
        portaflow.floyd_warshall(w, backend=backend)
