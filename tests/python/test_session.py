"""portaflow.Session against a fresh scipy.sparse.csgraph.maximum_flow of
the modified graph, after every one of a few dozen random batches
(capacity changes, arcs added and deleted, vertices added), on every
backend this machine has: equal values, valid flows per arc id (deleted
arcs 0), cuts whose capacity is the value; refused batches change
nothing; errors carry the library's message. Skipped where the build has
no sessions."""
import numpy as np
import pytest

import portaflow
from conftest import random_csr

sp = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")

pytestmark = pytest.mark.skipif(
    portaflow.api_version < 4 or not portaflow.has_sessions,
    reason="this portaflow build has no sessions")

BATCHES = 30


class Mirror:
    """The session's graph kept in Python: arcs by id, deleted ones marked."""

    def __init__(self, n, tails, heads, caps):
        self.n = n
        self.tails = list(tails)
        self.heads = list(heads)
        self.caps = list(caps)
        self.live = [True] * len(self.tails)

    def csr(self):
        keep = np.flatnonzero(self.live)
        t = np.asarray(self.tails)[keep]
        h = np.asarray(self.heads)[keep]
        c = np.asarray(self.caps)[keep]
        loops = t != h
        m = sp.coo_matrix((c[loops], (t[loops], h[loops])), shape=(self.n, self.n))
        return m.tocsr().astype(np.int32)  # repeats summed


def scipy_value(mirror, s, t):
    return int(csgraph.maximum_flow(mirror.csr(), s, t).flow_value)


def check_solution(r, mirror, s, t):
    m = len(mirror.tails)
    flow = r.arc_flow
    assert len(flow) == m
    caps = np.asarray(mirror.caps)
    live = np.asarray(mirror.live)
    assert np.all(flow >= 0) and np.all(flow <= caps * live), "flow outside 0..capacity"
    assert np.all(flow[~live] == 0), "flow on a deleted arc"
    net = np.zeros(mirror.n, np.int64)
    np.add.at(net, np.asarray(mirror.tails), flow)
    np.subtract.at(net, np.asarray(mirror.heads), flow)
    inner = np.ones(mirror.n, bool)
    inner[[s, t]] = False
    assert np.all(net[inner] == 0), "flow not conserved"
    assert net[s] == r.flow_value
    side = r.source_side
    assert len(side) == mirror.n and side[s] and not side[t]
    tails, heads = np.asarray(mirror.tails), np.asarray(mirror.heads)
    crossing = side[tails] & ~side[heads] & live
    assert int(caps[crossing].sum()) == r.flow_value, "cut capacity is not the value"


def random_batch(rng, session, mirror, s, t):
    """A random batch as apply() takes it, and what it does to mirror."""
    updates, effects = [], []
    m = len(mirror.tails)
    for _ in range(int(rng.integers(1, 8))):
        what = rng.random()
        live = [i for i in range(m) if mirror.live[i]]
        if what < 0.4 and live:
            arc = int(rng.choice(live))
            cap = int(rng.integers(0, 30))
            updates.append(("capacity", arc, cap))
            effects.append(("cap", arc, cap))
        elif what < 0.7:
            u, v = (int(x) for x in rng.integers(0, mirror.n, 2))
            cap = int(rng.integers(1, 30))
            updates.append(("add", u, v, cap))
            effects.append(("add", u, v, cap))
        elif what < 0.9 and live:
            arc = int(rng.choice(live))
            if ("del", arc) in effects or any(e[0] == "cap" and e[1] == arc for e in effects):
                continue
            updates.append(("delete", arc))
            effects.append(("del", arc))
        else:
            k = int(rng.integers(1, 3))
            updates.append(("add_vertices", k))
            effects.append(("addv", k))
    return updates, effects


def apply_effects(mirror, effects):
    for e in effects:
        if e[0] == "cap":
            mirror.caps[e[1]] = e[2]
        elif e[0] == "add":
            mirror.tails.append(e[1])
            mirror.heads.append(e[2])
            mirror.caps.append(e[3])
            mirror.live.append(True)
        elif e[0] == "del":
            mirror.live[e[1]] = False
            mirror.caps[e[1]] = 0
        else:
            mirror.n += e[1]


def random_graph(rng):
    """A random graph of 8..29 vertices, its terminals, and its mirror (arc
    ids in the order the session numbers them: by row, then column)."""
    n = int(rng.integers(8, 30))
    g = random_csr(rng, n, 0.25)
    coo = g.tocoo()
    order = np.lexsort((coo.col, coo.row))
    return g, 0, n - 1, Mirror(n, coo.row[order], coo.col[order], coo.data[order])


@pytest.mark.parametrize("seed", range(3))
def test_warm_solves_match_fresh_scipy(backend, seed):
    rng = np.random.default_rng(100 + seed)
    g, s, t, mirror = random_graph(rng)
    with portaflow.Session(g, s, t, backend=backend, flow=True, cut=True) as session:
        first = session.solve()
        assert first.flow_value == scipy_value(mirror, s, t)
        check_solution(first, mirror, s, t)
        for _ in range(BATCHES):
            updates, effects = random_batch(rng, session, mirror, s, t)
            before = len(mirror.tails)
            added = session.apply(updates)
            apply_effects(mirror, effects)
            assert list(added) == list(range(before, len(mirror.tails)))
            assert session.n_vertices == mirror.n
            r = session.solve()
            assert r.flow_value == scipy_value(mirror, s, t), updates
            check_solution(r, mirror, s, t)


def test_methods_are_batches(backend):
    rng = np.random.default_rng(7)
    n, s, t, (tails, heads, caps) = 6, 0, 5, ([0, 0, 1, 2, 3, 4], [1, 2, 3, 4, 5, 5],
                                                 [5, 4, 3, 6, 9, 9])
    mirror = Mirror(n, tails, heads, caps)
    with portaflow.Session((np.array(tails), np.array(heads), np.array(caps)), s, t,
                           backend=backend, cut=True) as session:
        assert session.solve().flow_value == scipy_value(mirror, s, t) == 7
        session.set_capacities([2, 3], [8, 1])
        apply_effects(mirror, [("cap", 2, 8), ("cap", 3, 1)])
        assert session.solve().flow_value == scipy_value(mirror, s, t)
        new = session.add_vertices(2)
        assert list(new) == [6, 7]
        ids = session.add_arcs([0, 6, 7], [6, 7, 5], [10, 10, 4])
        assert list(ids) == [6, 7, 8]
        apply_effects(mirror, [("addv", 2), ("add", 0, 6, 10), ("add", 6, 7, 10),
                               ("add", 7, 5, 4)])
        r = session.solve()
        assert r.flow_value == scipy_value(mirror, s, t)
        check_solution(r, mirror, s, t)
        session.delete_arcs([0, 8])
        apply_effects(mirror, [("del", 0), ("del", 8)])
        r = session.solve()
        assert r.flow_value == scipy_value(mirror, s, t)
        check_solution(r, mirror, s, t)
        assert session.stats()["solves"] == 4
        del rng


def test_a_refused_batch_changes_nothing(backend):
    g = sp.csr_matrix(np.array([[0, 5, 3], [0, 0, 2], [0, 0, 0]], np.int32))
    with portaflow.Session(g, 0, 2, backend=backend) as session:
        value = session.solve().flow_value
        arcs = session.n_arcs
        with pytest.raises(ValueError, match="update 1"):
            session.apply([("capacity", 0, 1), ("capacity", 99, 1)])
        with pytest.raises(ValueError, match="update 1"):
            session.apply([("add", 0, 2, 7), ("add", 0, 7, 1)])
        with pytest.raises(ValueError):
            session.set_capacities([0], [-1])
        assert session.n_arcs == arcs
        assert session.solve().flow_value == value == 5
        session.delete_arcs([2])
        with pytest.raises(ValueError):
            session.delete_arcs([2])  # deleted already
        assert session.solve().flow_value == 3


def test_bad_calls_raise():
    g = sp.csr_matrix(np.array([[0, 5], [0, 0]], np.int32))
    with pytest.raises(ValueError, match="differ"):
        portaflow.Session(g, 0, 0)
    session = portaflow.Session(g, 0, 1, backend="seq")
    with pytest.raises(ValueError, match="unknown kind"):
        session.apply([("grow", 1)])
    with pytest.raises(ValueError, match="takes"):
        session.apply([("capacity", 0)])
    with pytest.raises(ValueError, match="differ in length"):
        session.set_capacities([0, 0], [1])
    assert session.solve().flow_value == 5
    session.close()
    session.close()  # again: nothing
    with pytest.raises(ValueError, match="closed"):
        session.solve()
    with pytest.raises(ValueError, match="closed"):
        session.add_arcs([0], [1], [1])


def test_ctrl_c_interrupts_a_session_solve(backend):
    import os
    import signal
    import threading
    import time

    from conftest import grid_arcs
    n, s, t, (tails, heads, caps) = grid_arcs(400, np.random.default_rng(1))
    session = portaflow.Session((tails, heads, caps), s, t, backend=backend, n_vertices=n)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        session.solve()
    except KeyboardInterrupt:
        pass
    else:
        try:  # the solve ended first: take the late signal here
            timer.join()
            time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        session.close()
        pytest.skip("the solve ended before the interrupt came (or is not cancellable)")
    timer.join()
    session.close()  # the device is released
    small = portaflow.Session(([0, 1], [1, 2], [4, 3]), 0, 2, backend=backend)
    assert small.solve().flow_value == 3
    small.close()


def test_memory_does_not_grow_across_sessions():
    import os

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    rng = np.random.default_rng(3)
    g = random_csr(rng, 60, 0.2)

    def cycle():
        with portaflow.Session(g, 0, 59, backend="seq", cut=True) as session:
            for _ in range(5):
                ids = session.add_arcs([0], [59], [1])
                session.set_capacities(ids, [2])
                session.solve()

    for _ in range(20):  # allocator pools warmed
        cycle()
    before = rss()
    for _ in range(300):
        cycle()
    grown = rss() - before
    assert grown < 4 << 20, f"RSS grew by {grown >> 10} KiB over 300 sessions"


def mirror_searches(mirror, source):
    """BFS hops with smallest-id parents, and shortest-path lengths with the
    capacities as lengths, over the mirror's live arcs (plain Python)."""
    import heapq
    out = [[] for _ in range(mirror.n)]
    for i, live in enumerate(mirror.live):
        if live:
            out[mirror.tails[i]].append((mirror.heads[i], mirror.caps[i]))
    hops = np.full(mirror.n, -1, np.int32)
    hops[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for u in frontier:
            for v, _ in out[u]:
                if hops[v] < 0:
                    hops[v] = hops[u] + 1
                    nxt.append(v)
        frontier = nxt
    parent = np.full(mirror.n, -1, np.int32)
    for u in range(mirror.n):
        for v, _ in out[u]:
            if hops[u] >= 0 and hops[v] == hops[u] + 1 and (parent[v] < 0 or u < parent[v]):
                parent[v] = u
    parent[source] = source
    dist = np.full(mirror.n, np.inf)
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in out[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return hops, parent, dist


@pytest.mark.parametrize("seed", range(2))
def test_searches_see_the_graph_as_it_is(backend, seed):
    """Session.bfs and Session.shortest_paths after every batch equal a
    search of the live arcs, and leave the next solve warm and right."""
    rng = np.random.default_rng(300 + seed)
    g, s, t, mirror = random_graph(rng)
    with portaflow.Session(g, s, t, backend=backend) as session:
        session.solve()
        for _ in range(BATCHES // 2):
            updates, effects = random_batch(rng, session, mirror, s, t)
            session.apply(updates)
            apply_effects(mirror, effects)
            source = int(rng.integers(0, mirror.n))
            hops, parent, dist = mirror_searches(mirror, source)
            got_hops, got_parent = session.bfs(source)
            assert got_hops.dtype == np.int32 and np.array_equal(got_hops, hops)
            assert np.array_equal(got_parent, parent)
            assert np.array_equal(session.shortest_paths(source), dist)
            assert session.solve().flow_value == scipy_value(mirror, s, t)
        assert session.stats()["warm_solves"] > 0
        with pytest.raises(ValueError, match="outside"):
            session.bfs(mirror.n)
        with pytest.raises(TypeError):
            session.shortest_paths(1.5)
