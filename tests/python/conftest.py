"""Shared fixtures of the Python tests: the backends this machine can run
and random graphs."""
import numpy as np
import pytest

import portaflow

BACKENDS = sorted({b["backend"] for b in portaflow.backends()})


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


def random_csr(rng, n, density, max_cap=20, dtype=np.int32):
    """A random square CSR matrix of capacities in 1..max_cap, no diagonal."""
    import scipy.sparse as sp
    dense = rng.integers(1, max_cap + 1, size=(n, n)) * (rng.random((n, n)) < density)
    np.fill_diagonal(dense, 0)
    return sp.csr_matrix(dense.astype(dtype))


def grid_arcs(width, rng):
    """A width x width 4-connected grid with random capacities, a source
    feeding the left column and a sink draining the right: (n, s, t, arcs)."""
    h = w = width
    n = w * h + 2
    s, t = n - 2, n - 1
    idx = np.arange(w * h).reshape(h, w)
    tails = np.concatenate([idx[:, :-1].ravel(), idx[:, 1:].ravel(), idx[:-1, :].ravel(),
                            idx[1:, :].ravel(), np.full(h, s), idx[:, -1]])
    heads = np.concatenate([idx[:, 1:].ravel(), idx[:, :-1].ravel(), idx[1:, :].ravel(),
                            idx[:-1, :].ravel(), idx[:, 0], np.full(h, t)])
    caps = rng.integers(1, 100, len(tails))
    return n, s, t, (tails, heads, caps)
