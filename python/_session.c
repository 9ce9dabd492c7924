/* portaflow._portaflow's sessions (portaflow.Session): a pf_session in a
 * capsule, opened from arc arrays, changed by batches of updates given as
 * columns (kind, a, b, capacity), solved warm with the GIL released and
 * Ctrl-C watched as a one-off solve is. Library errors, a refused batch's
 * "update K: ..." included, become exceptions with the library's message. */
#include "_portaflow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CAPSULE_NAME "portaflow.session"

/* What the capsule holds: the session and what its copied options point
 * to (the backend name, the watch), which must live as long. */
typedef struct py_session {
    pf_session *session;
    char *backend;
    pf_py_signal_watch watch;
} py_session;

/* Closes the session (the device released), without the GIL where
 * `release_gil` (not in a destructor: it may run at interpreter exit). */
static void close_session(py_session *ps, int release_gil)
{
    pf_session *s = ps->session;
    ps->session = NULL;
    if (!s)
        return;
    if (!release_gil) {
        pf_session_close(s);
        return;
    }
    Py_BEGIN_ALLOW_THREADS
    pf_session_close(s);
    Py_END_ALLOW_THREADS
}

static void free_session_capsule(PyObject *capsule)
{
    py_session *ps = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (!ps)
        return;
    close_session(ps, 0);
    free(ps->backend);
    free(ps);
}

/* The open session in a capsule; else an exception and NULL. */
static py_session *open_session_of(PyObject *capsule)
{
    py_session *ps = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (ps && !ps->session) {
        PyErr_SetString(PyExc_ValueError, "the session is closed");
        return NULL;
    }
    return ps;
}

/* The open session of a call whose one argument is its capsule. */
static py_session *open_session_arg(PyObject *args)
{
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule))
        return NULL;
    return open_session_of(capsule);
}

/* session_open(n, source, sink, tails, heads, capacities, backend, device,
 *              want_flow, want_cut) -> capsule */
static PyObject *py_session_open(PyObject *self, PyObject *args)
{
    (void)self;
    pf_py_flow_args a;
    if (pf_py_parse_flow_args(args, &a))
        return NULL;
    py_session *ps = calloc(1, sizeof *ps);
    if (!ps || (a.backend && !(ps->backend = strdup(a.backend)))) {
        free(ps);
        return PyErr_NoMemory();
    }
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = ps->backend;
    opt.device_index = a.device;
    opt.want_flow = a.want_flow;
    opt.want_cut = a.want_cut;
    opt.cancel = pf_py_poll_signals;
    opt.cancel_data = &ps->watch;
    pf_status st;
    int rc;
    pf_py_watch_start(&ps->watch);
    Py_BEGIN_ALLOW_THREADS
    pf_network *net =
        pf_network_from_arrays(a.n, a.source, a.sink, a.m, a.tails, a.heads, a.caps, 0, &st);
    rc = net ? pf_session_open(net, &opt, &ps->session, &st) : st.code;
    pf_network_free(net);
    Py_END_ALLOW_THREADS
    PyObject *capsule = rc ? NULL : PyCapsule_New(ps, CAPSULE_NAME, free_session_capsule);
    if (!capsule) {
        int interrupted = ps->watch.interrupted && PyErr_Occurred();
        if (ps->session)
            pf_session_close(ps->session);
        free(ps->backend);
        free(ps);
        if (rc && !interrupted)
            pf_py_raise_status(&st);
        return NULL;
    }
    return capsule;
}

/* Column k of an int64 vector of `len` elements. */
static int64_t column_at(PyObject *v, npy_intp k)
{
    return ((const int64_t *)PyArray_DATA((PyArrayObject *)v))[k];
}

/* The pf_update of row k: kind, then a = arc, tail or count, b = head,
 * c = capacity, as portaflow/_session.py lays a batch out. */
static pf_update update_of(int64_t kind, int64_t a, int64_t b, int64_t c)
{
    pf_update u = {.kind = (int)kind, .capacity = c};
    if (kind == PF_UPDATE_CAP || kind == PF_UPDATE_DEL)
        u.arc = a;
    else if (kind == PF_UPDATE_ADDV)
        u.count = a;
    else
        u.tail = a;
    u.head = b;
    return u;
}

/* session_apply(capsule, kinds, a, b, capacities): one batch, all or
 * nothing; returns None. */
static PyObject *py_session_apply(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *capsule, *cols[4];
    if (!PyArg_ParseTuple(args, "OOOOO", &capsule, &cols[0], &cols[1], &cols[2], &cols[3]))
        return NULL;
    py_session *ps = open_session_of(capsule);
    if (!ps)
        return NULL;
    static const char *names[] = {"kinds", "a", "b", "capacities"};
    npy_intp len[4];
    for (int k = 0; k < 4; k++)
        if (pf_py_check_vector(cols[k], NPY_INT64, names[k], &len[k]))
            return NULL;
    if (len[1] != len[0] || len[2] != len[0] || len[3] != len[0])
        return PyErr_Format(PyExc_ValueError, "update columns differ in length");
    pf_update *batch = PyMem_Malloc(((size_t)len[0] + 1) * sizeof *batch);
    if (!batch)
        return PyErr_NoMemory();
    for (npy_intp k = 0; k < len[0]; k++)
        batch[k] = update_of(column_at(cols[0], k), column_at(cols[1], k), column_at(cols[2], k),
                             column_at(cols[3], k));
    pf_status st;
    int64_t bad = -1;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = pf_session_apply(ps->session, batch, (int64_t)len[0], &bad, &st);
    Py_END_ALLOW_THREADS
    PyMem_Free(batch);
    if (rc)
        return pf_py_raise_status(&st);
    Py_RETURN_NONE;
}

/* session_solve(capsule) -> dict: value, arc_flow, source_side (None
 * where the session was opened without them), backend, device, times. */
static PyObject *py_session_solve(PyObject *self, PyObject *args)
{
    (void)self;
    py_session *ps = open_session_arg(args);
    if (!ps)
        return NULL;
    pf_solution sol;
    pf_status st;
    int rc;
    npy_intp m = (npy_intp)pf_session_arcs(ps->session);
    npy_intp n = (npy_intp)pf_session_vertices(ps->session);
    pf_py_watch_start(&ps->watch);
    Py_BEGIN_ALLOW_THREADS
    rc = pf_session_solve(ps->session, &sol, &st);
    Py_END_ALLOW_THREADS
    if (rc) {
        if (ps->watch.interrupted && PyErr_Occurred())
            return NULL; /* KeyboardInterrupt (or what the handler raised) */
        return pf_py_raise_status(&st);
    }
    PyObject *flow = sol.arc_flow ? pf_py_adopt_vector(m, NPY_INT64, sol.arc_flow) : Py_None;
    sol.arc_flow = NULL;
    PyObject *side = sol.source_side ? pf_py_adopt_vector(n, NPY_BOOL, sol.source_side)
                                     : Py_None;
    sol.source_side = NULL;
    PyObject *times = pf_py_times_dict(&sol.times);
    PyObject *out = NULL;
    if (flow && side && times)
        out = Py_BuildValue("{s:L,s:O,s:O,s:s,s:s,s:O}", "value", (long long)sol.value,
                            "arc_flow", flow, "source_side", side, "backend", sol.backend,
                            "device", sol.device, "times", times);
    if (flow != Py_None)
        Py_XDECREF(flow);
    if (side != Py_None)
        Py_XDECREF(side);
    Py_XDECREF(times);
    pf_solution_free(&sol);
    return out;
}

/* The distances of a session search as one array: BFS hops (int32, -1
 * unreached) as they are, shortest-path lengths as float64 (inf
 * unreached), whatever the network's capacities. Takes the buffers. */
static PyObject *search_distances(pf_bfs_solution *b, pf_sssp_solution *d, int shortest)
{
    if (!shortest) {
        PyObject *dist = pf_py_adopt_vector((npy_intp)b->vertices, NPY_INT32, b->dist);
        b->dist = NULL;
        return dist;
    }
    if (!d->dist_f) {
        d->dist_f = malloc((size_t)(d->vertices ? d->vertices : 1) * sizeof *d->dist_f);
        if (!d->dist_f)
            return PyErr_NoMemory();
        for (int64_t v = 0; v < d->vertices; v++)
            d->dist_f[v] = d->dist_i[v] == INT64_MAX ? INFINITY : (double)d->dist_i[v];
    }
    PyObject *dist = pf_py_adopt_vector((npy_intp)d->vertices, NPY_FLOAT64, d->dist_f);
    d->dist_f = NULL;
    return dist;
}

/* session_search(capsule, source, shortest) -> (dist, parent or None,
 * backend): a BFS with parents, or shortest paths with the capacities as
 * lengths, of the session's graph as it is now (pf_session_bfs,
 * pf_session_sssp); the GIL released and Ctrl-C watched. */
static PyObject *py_session_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *capsule;
    long long source;
    int shortest;
    if (!PyArg_ParseTuple(args, "OLp", &capsule, &source, &shortest))
        return NULL;
    py_session *ps = open_session_of(capsule);
    if (!ps)
        return NULL;
    pf_analytics_options opt;
    pf_analytics_options_init(&opt);
    opt.parents = !shortest;
    opt.cancel = pf_py_poll_signals;
    opt.cancel_data = &ps->watch;
    pf_bfs_solution b = {0};
    pf_sssp_solution d = {0};
    pf_status st;
    int rc;
    pf_py_watch_start(&ps->watch);
    Py_BEGIN_ALLOW_THREADS
    rc = shortest ? pf_session_sssp(ps->session, source, &opt, &d, &st)
                  : pf_session_bfs(ps->session, source, &opt, &b, &st);
    Py_END_ALLOW_THREADS
    if (rc) {
        if (ps->watch.interrupted && PyErr_Occurred())
            return NULL;
        return pf_py_raise_status(&st);
    }
    char backend[sizeof b.backend];
    memcpy(backend, shortest ? d.backend : b.backend, sizeof backend);
    PyObject *dist = search_distances(&b, &d, shortest);
    PyObject *parent = Py_None;
    if (dist && !shortest) {
        parent = pf_py_adopt_vector((npy_intp)b.vertices, NPY_INT32, b.parent);
        b.parent = NULL;
    }
    pf_bfs_solution_free(&b);
    pf_sssp_solution_free(&d);
    if (!dist || !parent) {
        Py_XDECREF(dist);
        return NULL;
    }
    return Py_BuildValue(shortest ? "(NOs)" : "(NNs)", dist, parent, backend);
}

/* session_stats(capsule) -> dict of pf_session_stats, plus vertices and
 * arcs (ids handed out). */
static PyObject *py_session_stats(PyObject *self, PyObject *args)
{
    (void)self;
    py_session *ps = open_session_arg(args);
    if (!ps)
        return NULL;
    pf_session_stats s;
    memset(&s, 0, sizeof s);
    pf_session_get_stats(ps->session, &s);
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:d,s:d,s:K,s:K,s:L,s:s,s:L,s:L}",
                         "batches", (long long)s.batches, "updates", (long long)s.updates,
                         "solves", (long long)s.solves, "warm_solves", (long long)s.warm_solves,
                         "recompactions", (long long)s.recompactions, "slots",
                         (long long)s.slots, "apply_seconds", s.apply_seconds, "solve_seconds",
                         s.solve_seconds, "device_bytes", (unsigned long long)s.device_bytes,
                         "host_bytes", (unsigned long long)s.host_bytes, "live_arcs",
                         (long long)s.live_arcs, "cold_reason",
                         s.cold_reason, "vertices",
                         (long long)pf_session_vertices(ps->session), "arcs",
                         (long long)pf_session_arcs(ps->session));
}

static PyObject *py_session_close(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule))
        return NULL;
    py_session *ps = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (!ps)
        return NULL;
    close_session(ps, 1);
    Py_RETURN_NONE;
}

PyMethodDef pf_py_session_methods[] = {
    {"session_open", py_session_open, METH_VARARGS, "Opens a session on arc arrays (internal)."},
    {"session_apply", py_session_apply, METH_VARARGS,
     "Applies one batch of updates, given as columns (internal)."},
    {"session_solve", py_session_solve, METH_VARARGS, "Solves a session warm (internal)."},
    {"session_stats", py_session_stats, METH_VARARGS, "A session's statistics (internal)."},
    {"session_search", py_session_search, METH_VARARGS,
     "BFS or shortest paths over a session's graph as it is (internal)."},
    {"session_close", py_session_close, METH_VARARGS, "Closes a session (internal)."},
    {NULL, NULL, 0, NULL},
};
