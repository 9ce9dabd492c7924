"""Bad input raises Python exceptions with the library's (or scipy's)
message and never crashes the interpreter."""
import numpy as np
import pytest

import portaflow

sp = pytest.importorskip("scipy.sparse")

G = sp.csr_matrix(np.array([[0, 5, 3], [0, 0, 2], [0, 0, 0]]))


def test_not_csr():
    with pytest.raises(TypeError, match="CSR format"):
        portaflow.maximum_flow(G.tocsc(), 0, 2)
    with pytest.raises(TypeError, match="CSR format"):
        portaflow.maximum_flow(G.toarray(), 0, 2)


def test_float_capacities():
    with pytest.raises(ValueError, match="capacities must be integers"):
        portaflow.maximum_flow(G.astype(float), 0, 2)
    with pytest.raises(ValueError, match="capacities must be integers"):
        portaflow.maximum_flow(([0], [1], [1.5]), 0, 1)


def test_not_square():
    with pytest.raises(ValueError, match="square"):
        portaflow.maximum_flow(sp.csr_matrix(np.ones((2, 3), dtype=int)), 0, 1)


def test_source_equals_sink():
    with pytest.raises(ValueError, match="source and sink vertices must differ"):
        portaflow.maximum_flow(G, 1, 1)


@pytest.mark.parametrize("s,t,which", [(-1, 2, "source"), (0, 3, "sink"), (7, 1, "source")])
def test_vertex_out_of_range(s, t, which):
    with pytest.raises(ValueError, match=f"{which} value .* must be between 0 and 2"):
        portaflow.maximum_flow(G, s, t)


def test_arc_out_of_range_names_the_arc():
    with pytest.raises(ValueError, match=r"arc 1: head 5 outside 0\.\.3"):
        portaflow.maximum_flow(([0, 1], [1, 5], [1, 1]), 0, 3, n_vertices=4)


def test_negative_capacity_names_the_entry():
    g = sp.csr_matrix(np.array([[0, 5, 3], [0, 0, -2], [0, 0, 0]]))
    with pytest.raises(ValueError,
                       match=r"entry 2 \(row 1, column 2\): capacity -2 outside 0\.\.2\^62"):
        portaflow.maximum_flow(g, 0, 2)


def test_bad_csr_arrays_are_refused():
    # Arrays scipy would not build, given to the matrix behind its back.
    g = sp.csr_matrix(np.array([[0, 5], [0, 0]]))
    g.indices[0] = 7
    with pytest.raises(ValueError, match=r"entry 0 \(row 0\): column 7 outside 0\.\.1"):
        portaflow.maximum_flow(g, 0, 1)
    g = sp.csr_matrix(np.array([[0, 5], [0, 0]]))
    g.indptr[1:] = 5  # indptr past the stored entries: never read
    with pytest.raises(ValueError, match="indptr ends at 5 but there are 1 indices"):
        portaflow.maximum_flow(g, 0, 1)
    g = sp.csr_matrix(np.array([[0, 5, 0], [3, 0, 0], [0, 0, 0]]))
    g.indptr[1] = 2
    g.indptr[2] = 1
    with pytest.raises(ValueError, match=r"CSR row 1: indptr decreases \(1 after 2\)"):
        portaflow.maximum_flow(g, 0, 1)


def test_bad_shapes_of_arc_arrays():
    with pytest.raises(ValueError, match="differ in length"):
        portaflow.maximum_flow(([0, 1], [1], [1, 1]), 0, 1)
    with pytest.raises(ValueError, match="1-d"):
        portaflow.maximum_flow(([[0, 1]], [[1, 2]], [[1, 1]]), 0, 1)
    with pytest.raises(ValueError, match="tails, heads"):
        portaflow.maximum_flow(([0, 1], [1, 2]), 0, 1)


def test_unknown_and_missing_backends():
    with pytest.raises(portaflow.DeviceError, match="unknown"):
        portaflow.maximum_flow(G, 0, 2, backend="tpu")
    with pytest.raises(TypeError):
        portaflow.maximum_flow(G, 0, 2, backend=3)
    with pytest.raises(ValueError):
        portaflow.maximum_flow(G, 0, 2, device=-2)


def test_floyd_warshall_bad_input():
    with pytest.raises(ValueError, match="square"):
        portaflow.floyd_warshall(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"head 4 outside 0\.\.2"):
        portaflow.floyd_warshall(([0], [4], [1.0]), n_vertices=3)


def test_library_still_works_after_errors():
    assert portaflow.maximum_flow(G, 0, 2).flow_value == 5


def test_read_dimacs(tmp_path):
    good = tmp_path / "g.max"
    good.write_text("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n")
    n, s, t, arcs = portaflow.read_dimacs(good)
    assert (n, s, t) == (3, 0, 2) and list(arcs[2]) == [5, 4]
    assert portaflow.maximum_flow(arcs, s, t, n_vertices=n).flow_value == 4
    bad = tmp_path / "bad.max"
    bad.write_text("p max 3 2\nn 1 s\nn 3 t\na 1 9 5\n")
    with pytest.raises(ValueError, match="bad.max:4:"):
        portaflow.read_dimacs(bad)
