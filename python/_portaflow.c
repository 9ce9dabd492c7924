/* portaflow._portaflow: the CPython extension behind the Python package.
 *
 * Thin: takes contiguous NumPy arrays (the Python layer converts and
 * checks types; a CSR matrix's int32/int64 arrays come as they are),
 * builds the network with the array API, solves with the GIL released
 * and returns NumPy arrays over the library's buffers (no copy), scipy's
 * flow matrix included for CSR input. A solve in the main thread looks
 * for pending signals a few times a second through the library's cancel
 * callback, so Ctrl-C stops it with KeyboardInterrupt and the device is
 * released. Library errors become exceptions carrying the library's
 * message. */
#define PF_PY_IMPORTS_ARRAY /* this file imports NumPy's API table */
#include "_portaflow.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common/network.h" /* pf_network_view_csr, the library's own */

PyObject *pf_py_device_error, *pf_py_cancelled_error, *pf_py_negative_cycle_error;

/* Seconds between looks for pending signals during a solve. */
#define SIGNAL_POLL_S 0.05

/* ---- errors ------------------------------------------------------------ */

/* Raises the exception that fits st->code with the library's message. */
PyObject *pf_py_raise_status(const pf_status *st)
{
    PyObject *type = PyExc_RuntimeError;
    switch (st->code) {
    case PF_E_USAGE:
    case PF_E_INPUT:
        type = PyExc_ValueError;
        break;
    case PF_E_DEVICE:
        type = pf_py_device_error;
        break;
    case PF_E_NOMEM:
        type = PyExc_MemoryError;
        break;
    case PF_E_CANCELLED:
        type = pf_py_cancelled_error;
        break;
    default:
        break;
    }
    PyErr_SetString(type, st->message[0] ? st->message : "portaflow: unknown error");
    return NULL;
}

/* ---- Ctrl-C -------------------------------------------------------------- */

double pf_py_monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void pf_py_watch_start(pf_py_signal_watch *w)
{
    w->interrupted = 0;
    w->next_poll = pf_py_monotonic_s() + SIGNAL_POLL_S;
}

/* The library's cancel callback: called from the solving thread without
 * the GIL; takes it briefly to run Python's signal handlers (they run only
 * in the main thread; elsewhere this is a no-op). */
int pf_py_poll_signals(void *data)
{
    pf_py_signal_watch *w = data;
    double now = pf_py_monotonic_s();
    if (w->interrupted)
        return 1;
    if (now < w->next_poll)
        return 0;
    w->next_poll = now + SIGNAL_POLL_S;
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_CheckSignals() != 0)
        w->interrupted = 1;
    PyGILState_Release(gil);
    return w->interrupted;
}

/* ---- arrays -------------------------------------------------------------- */

/* A 1-d C-contiguous array of `type` (borrowed check, no conversion: the
 * Python layer converts). */
int pf_py_check_vector(PyObject *obj, int type, const char *what, npy_intp *len)
{
    if (!PyArray_Check(obj) || PyArray_NDIM((PyArrayObject *)obj) != 1 ||
        PyArray_TYPE((PyArrayObject *)obj) != type ||
        !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous 1-d array of %s", what,
                     type == NPY_INT64 ? "int64" : "float64");
        return -1;
    }
    *len = PyArray_DIM((PyArrayObject *)obj, 0);
    return 0;
}

int pf_py_check_arcs(PyObject *tails, PyObject *heads, PyObject *caps, npy_intp *m)
{
    npy_intp mt, mh, mc;
    if (pf_py_check_vector(tails, NPY_INT64, "tails", &mt) ||
        pf_py_check_vector(heads, NPY_INT64, "heads", &mh) ||
        pf_py_check_vector(caps, NPY_INT64, "capacities", &mc))
        return -1;
    if (mt != mh || mt != mc) {
        PyErr_Format(PyExc_ValueError,
                     "tails, heads and capacities differ in length (%zd, %zd, %zd)",
                     (Py_ssize_t)mt, (Py_ssize_t)mh, (Py_ssize_t)mc);
        return -1;
    }
    *m = mt;
    return 0;
}

static void free_capsule(PyObject *capsule)
{
    free(PyCapsule_GetPointer(capsule, "portaflow.buffer"));
}

/* An array over a buffer the library malloc'ed, without a copy: the array
 * owns it (freed with it). On failure the buffer is freed here. */
PyObject *pf_py_adopt_vector(npy_intp len, int type, void *data)
{
    PyObject *arr = PyArray_SimpleNewFromData(1, &len, type, data);
    PyObject *owner = arr ? PyCapsule_New(data, "portaflow.buffer", free_capsule) : NULL;
    if (!owner) {
        free(data);
        Py_XDECREF(arr);
        return NULL;
    }
    /* Steals owner even when it fails; the capsule then frees data. */
    if (PyArray_SetBaseObject((PyArrayObject *)arr, owner) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

PyObject *pf_py_times_dict(const pf_phase_times *t)
{
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d,s:d}", "total", t->total, "setup", t->setup,
                         "upload", t->upload, "push_relabel", t->push_relabel,
                         "global_relabel", t->global_relabel, "phase2", t->phase2,
                         "download", t->download);
}

/* ---- maximum flow ------------------------------------------------------- */

/* The solve's inputs and outputs, shared with the GIL-free part. The
 * network comes from arc arrays (tails set) or from a CSR matrix (indptr
 * set), whose flow matrix is then built too when want_matrix is set:
 * by pf_solve_csr_flow, which reads its structure off the solve's
 * residual graph. */
typedef struct flow_job {
    int64_t n, source, sink, m;
    const int64_t *tails, *heads, *caps;
    const void *indptr, *indices, *data;
    int index_size, data_size;
    int want_matrix, matrix_repeats; /* pf_csr_flow_matrix's repeats */
    pf_solve_options opt;
    pf_py_signal_watch watch;
    pf_solution sol;
    pf_csr_matrix matrix;
    pf_status st;
    int rc;
    double build_s, matrix_s, plan_s;
    int matrix_from_residual;
} flow_job;

static pf_network *build_network(flow_job *job)
{
    if (job->indptr) /* read in place by the solve: the caller holds the arrays */
        return pf_network_view_csr(job->n, job->source, job->sink, job->indptr, job->indices,
                                   job->index_size, job->data, job->data_size, &job->st);
    return pf_network_from_arrays(job->n, job->source, job->sink, job->m, job->tails,
                                  job->heads, job->caps, 0, &job->st);
}

/* A CSR job with its flow matrix: "build" is the arrays taken in,
 * "flow_plan" the matrix's structure where it was made beside the solve
 * (else it is part of "flow_matrix": the time from the engine's end to
 * the matrix). */
static void run_matrix_job(flow_job *job)
{
    pf_csr_flow_times times = {.struct_size = sizeof times};
    job->rc = pf_solve_csr_flow(job->n, job->source, job->sink, job->indptr, job->indices,
                                job->index_size, job->data, job->data_size,
                                job->matrix_repeats, &job->opt, &job->sol, &job->matrix, &times,
                                &job->st);
    job->build_s = times.network;
    job->matrix_s = times.after_solve;
    job->plan_s = times.beside ? times.structure : 0;
    job->matrix_from_residual = times.from_residual;
}

static void run_flow_job(flow_job *job)
{
    memset(&job->sol, 0, sizeof job->sol);
    memset(&job->matrix, 0, sizeof job->matrix);
    if (job->indptr && job->want_matrix) {
        run_matrix_job(job);
        return;
    }
    double t0 = pf_py_monotonic_s();
    pf_network *net = build_network(job);
    job->build_s = pf_py_monotonic_s() - t0;
    if (!net) {
        job->rc = job->st.code;
        return;
    }
    job->m = pf_network_arcs(net);
    job->rc = pf_solve(net, &job->opt, &job->sol, &job->st);
    pf_network_free(net);
}

static int int_type(int size) { return size == 4 ? NPY_INT32 : NPY_INT64; }

/* (indptr, indices, data) over the matrix's buffers, which the arrays take
 * over (m is left empty); None when there is no matrix. */
static PyObject *matrix_tuple(pf_csr_matrix *m)
{
    if (!m->indptr)
        Py_RETURN_NONE;
    PyObject *indptr =
        pf_py_adopt_vector((npy_intp)m->rows + 1, int_type(m->index_size), m->indptr);
    m->indptr = NULL;
    PyObject *indices =
        pf_py_adopt_vector((npy_intp)m->entries, int_type(m->index_size), m->indices);
    m->indices = NULL;
    PyObject *values = pf_py_adopt_vector((npy_intp)m->entries, int_type(m->value_size), m->values);
    m->values = NULL;
    PyObject *out = NULL;
    if (indptr && indices && values)
        out = PyTuple_Pack(3, indptr, indices, values);
    Py_XDECREF(indptr);
    Py_XDECREF(indices);
    Py_XDECREF(values);
    return out;
}

static PyObject *flow_result(flow_job *job, npy_intp m, npy_intp n)
{
    pf_solution *sol = &job->sol;
    /* The arrays take over the library's buffers (pf_solution_free then
     * frees nothing of them). */
    PyObject *flow = sol->arc_flow ? pf_py_adopt_vector(m, NPY_INT64, sol->arc_flow) : Py_None;
    sol->arc_flow = NULL;
    PyObject *side = sol->source_side ? pf_py_adopt_vector(n, NPY_BOOL, sol->source_side) : Py_None;
    sol->source_side = NULL;
    PyObject *times = pf_py_times_dict(&sol->times);
    PyObject *matrix = matrix_tuple(&job->matrix);
    PyObject *out = NULL;
    if (flow && side && times && matrix)
        out = Py_BuildValue("{s:L,s:O,s:O,s:s,s:s,s:O,s:s,s:d,s:d,s:d,s:O,s:O,s:L,s:L}", "value",
                            (long long)sol->value, "arc_flow", flow, "source_side", side,
                            "backend", sol->backend, "device", sol->device, "times", times,
                            "method", sol->method,
                            "build", job->build_s, "flow_matrix", job->matrix_s, "flow_plan",
                            job->plan_s, "matrix", matrix, "matrix_from_residual",
                            job->matrix_from_residual ? Py_True : Py_False, "rounds",
                            (long long)sol->pushes_rounds,
                            "global_relabels", (long long)sol->global_relabels);
    if (flow != Py_None)
        Py_XDECREF(flow);
    if (side != Py_None)
        Py_XDECREF(side);
    Py_XDECREF(times);
    Py_XDECREF(matrix);
    return out;
}

/* Runs the job without the GIL and turns its outcome into the result
 * dict or an exception. The caller's references keep the input arrays
 * alive for the call. */
static PyObject *run_and_report(flow_job *job, const char *backend, int device, int want_flow,
                                int want_cut, int method)
{
    pf_solve_options_init(&job->opt);
    job->opt.backend = backend;
    job->opt.method = method;
    job->opt.device_index = device;
    job->opt.want_flow = want_flow;
    job->opt.want_cut = want_cut;
    job->opt.cancel = pf_py_poll_signals;
    job->opt.cancel_data = &job->watch;
    pf_py_watch_start(&job->watch);
    Py_BEGIN_ALLOW_THREADS
    run_flow_job(job);
    Py_END_ALLOW_THREADS
    if (job->rc != PF_OK) {
        pf_solution_free(&job->sol);
        pf_csr_matrix_free(&job->matrix);
        if (job->watch.interrupted && PyErr_Occurred())
            return NULL; /* KeyboardInterrupt (or what the handler raised) */
        return pf_py_raise_status(&job->st);
    }
    PyObject *out = flow_result(job, (npy_intp)job->m, (npy_intp)job->n);
    pf_solution_free(&job->sol);
    pf_csr_matrix_free(&job->matrix);
    return out;
}

int pf_py_parse_flow_args(PyObject *args, pf_py_flow_args *a)
{
    PyObject *tails, *heads, *caps;
    a->method = PF_METHOD_AUTO;
    if (!PyArg_ParseTuple(args, "LLLOOOzipp|i", &a->n, &a->source, &a->sink, &tails, &heads,
                          &caps, &a->backend, &a->device, &a->want_flow, &a->want_cut,
                          &a->method) ||
        pf_py_check_arcs(tails, heads, caps, &a->m))
        return -1;
    a->tails = PyArray_DATA((PyArrayObject *)tails);
    a->heads = PyArray_DATA((PyArrayObject *)heads);
    a->caps = PyArray_DATA((PyArrayObject *)caps);
    return 0;
}

/* solve(n, source, sink, tails, heads, capacities, backend, device,
 *       want_flow, want_cut[, method]) -> dict; method: enum
 * pf_maxflow_method */
static PyObject *py_solve(PyObject *self, PyObject *args)
{
    (void)self;
    pf_py_flow_args a;
    if (pf_py_parse_flow_args(args, &a))
        return NULL;
    flow_job job = {.n = a.n, .source = a.source, .sink = a.sink, .m = a.m,
                    .tails = a.tails, .heads = a.heads, .caps = a.caps};
    return run_and_report(&job, a.backend, a.device, a.want_flow, a.want_cut, a.method);
}

/* A 1-d C-contiguous array of signed 4- or 8-byte integers; *size gets
 * the element size. */
static int check_int_vector(PyObject *obj, const char *what, npy_intp *len, int *size)
{
    PyArrayObject *arr = (PyArrayObject *)obj;
    if (!PyArray_Check(obj) || PyArray_NDIM(arr) != 1 || !PyArray_ISSIGNED(arr) ||
        (PyArray_ITEMSIZE(arr) != 4 && PyArray_ITEMSIZE(arr) != 8) ||
        !PyArray_IS_C_CONTIGUOUS(arr)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous 1-d array of int32 or int64",
                     what);
        return -1;
    }
    *len = PyArray_DIM(arr, 0);
    *size = (int)PyArray_ITEMSIZE(arr);
    return 0;
}

/* solve_csr's `repeats` for a solve with flows and no flow matrix. */
#define CSR_NO_MATRIX (-1)

/* solve_csr(n, source, sink, indptr, indices, data, backend, device,
 *           want_flow, want_cut, repeats[, method]) -> dict: the arrays of a CSR
 * matrix as they are (int32 or int64; indptr and indices of one type);
 * with want_flow, "matrix" holds scipy's flow matrix as (indptr, indices,
 * data), repeated entries as pf_csr_flow_matrix's `repeats` says, and
 * "matrix_from_residual" whether it was read off the residual lists;
 * else None. repeats = CSR_NO_MATRIX: the flows without the matrix (for
 * timing what the matrix adds). */
static PyObject *py_solve_csr(PyObject *self, PyObject *args)
{
    (void)self;
    long long n, source, sink;
    PyObject *indptr, *indices, *data;
    const char *backend;
    int device, want_flow, want_cut, repeats, method = PF_METHOD_AUTO;
    if (!PyArg_ParseTuple(args, "LLLOOOzippi|i", &n, &source, &sink, &indptr, &indices, &data,
                          &backend, &device, &want_flow, &want_cut, &repeats, &method))
        return NULL;
    npy_intp rows1, entries, values;
    int ptr_size, index_size, data_size;
    if (check_int_vector(indptr, "indptr", &rows1, &ptr_size) ||
        check_int_vector(indices, "indices", &entries, &index_size) ||
        check_int_vector(data, "data", &values, &data_size))
        return NULL;
    if (ptr_size != index_size)
        return PyErr_Format(PyExc_TypeError, "indptr and indices differ in type");
    if (n < 0 || rows1 != n + 1 || entries != values)
        return PyErr_Format(PyExc_ValueError,
                            "CSR arrays of %zd rows, %zd indices and %zd values for %lld vertices",
                            (Py_ssize_t)rows1 - 1, (Py_ssize_t)entries, (Py_ssize_t)values, n);
    /* The library reads indptr[n] entries: it must be what the arrays hold. */
    const void *ptr = PyArray_DATA((PyArrayObject *)indptr);
    long long last = index_size == 4 ? ((const int32_t *)ptr)[n] : ((const int64_t *)ptr)[n];
    if (last != (long long)entries)
        return PyErr_Format(PyExc_ValueError,
                            "CSR indptr ends at %lld but there are %zd indices", last,
                            (Py_ssize_t)entries);
    flow_job job = {.n = n, .source = source, .sink = sink, .m = entries,
                    .index_size = index_size, .data_size = data_size,
                    .want_matrix = want_flow && repeats != CSR_NO_MATRIX,
                    .matrix_repeats = repeats};
    job.indptr = PyArray_DATA((PyArrayObject *)indptr);
    job.indices = PyArray_DATA((PyArrayObject *)indices);
    job.data = PyArray_DATA((PyArrayObject *)data);
    return run_and_report(&job, backend, device, want_flow, want_cut, method);
}

/* ---- all-pairs shortest paths -------------------------------------------- */

typedef struct apsp_job {
    int64_t n, m;
    const int64_t *tails, *heads;
    const double *weights;
    pf_apsp_options opt;
    pf_apsp_result res;
    pf_status st;
    int rc;
} apsp_job;

static void run_apsp_job(apsp_job *job)
{
    memset(&job->res, 0, sizeof job->res);
    pf_wgraph *g = pf_wgraph_from_arrays(job->n, job->m, job->tails, job->heads, job->weights, 0,
                                         &job->st);
    if (!g) {
        job->rc = job->st.code;
        return;
    }
    job->rc = pf_apsp(g, &job->opt, &job->res, &job->st);
    pf_wgraph_free(g);
}

/* The distances as float64 with +inf for "no path". */
static void distances_to_double(const pf_apsp_result *r, double *out)
{
    size_t cells = (size_t)r->n * (size_t)r->n;
    for (size_t k = 0; k < cells; k++) {
        if (r->kind == PF_DIST_I32) {
            int32_t d = ((const int32_t *)r->dist)[k];
            out[k] = d == PF_APSP_NONE_I32 ? INFINITY : (double)d;
        } else if (r->kind == PF_DIST_I64) {
            int64_t d = ((const int64_t *)r->dist)[k];
            out[k] = d == PF_APSP_NONE_I64 ? INFINITY : (double)d;
        } else {
            out[k] = (double)((const float *)r->dist)[k];
        }
    }
}

/* scipy's predecessor matrix from next hops: pred[i][j] is the vertex
 * before j on the path from i, -9999 for none. For each target j the next
 * hops toward j form a tree; `last[u]` (the vertex before j on u's path)
 * is found once per u by walking up to a known vertex: O(n^2) in all. */
static void next_to_predecessors(const int32_t *next, int64_t n, int32_t *pred, int32_t *last,
                                 int32_t *stack)
{
    const int32_t unknown = -2;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t u = 0; u < n; u++)
            last[u] = unknown;
        last[j] = -9999;
        for (int64_t i = 0; i < n; i++) {
            int64_t depth = 0, u = i;
            while (last[u] == unknown && depth < n) {
                int32_t hop = next[u * n + j];
                if (hop < 0) {
                    last[u] = -9999;
                    break;
                }
                if (hop == j) {
                    last[u] = (int32_t)u;
                    break;
                }
                stack[depth++] = (int32_t)u;
                u = hop;
            }
            int32_t known = last[u] == unknown ? -9999 : last[u];
            while (depth > 0)
                last[stack[--depth]] = known;
            pred[i * n + j] = last[i];
        }
    }
}

/* apsp(n, tails, heads, weights, backend, device, want_paths) -> dict */
static PyObject *py_apsp(PyObject *self, PyObject *args)
{
    (void)self;
    long long n;
    PyObject *tails, *heads, *weights;
    const char *backend;
    int device, want_paths;
    if (!PyArg_ParseTuple(args, "LOOOzip", &n, &tails, &heads, &weights, &backend, &device,
                          &want_paths))
        return NULL;
    npy_intp mt, mh, mw;
    if (pf_py_check_vector(tails, NPY_INT64, "tails", &mt) ||
        pf_py_check_vector(heads, NPY_INT64, "heads", &mh) ||
        pf_py_check_vector(weights, NPY_FLOAT64, "weights", &mw))
        return NULL;
    if (mt != mh || mt != mw)
        return PyErr_Format(PyExc_ValueError, "tails, heads and weights differ in length");
    apsp_job job = {.n = n, .m = mt};
    job.tails = PyArray_DATA((PyArrayObject *)tails);
    job.heads = PyArray_DATA((PyArrayObject *)heads);
    job.weights = PyArray_DATA((PyArrayObject *)weights);
    pf_apsp_options_init(&job.opt);
    job.opt.backend = backend;
    job.opt.device_index = device;
    job.opt.want_paths = want_paths;
    Py_BEGIN_ALLOW_THREADS
    run_apsp_job(&job);
    Py_END_ALLOW_THREADS
    if (job.rc != PF_OK) {
        if (job.res.cycle_len > 0) {
            PyErr_Format(pf_py_negative_cycle_error, "%s (through vertex %d)", job.st.message,
                         (int)job.res.cycle[0]);
            pf_apsp_result_free(&job.res);
            return NULL;
        }
        pf_apsp_result_free(&job.res);
        return pf_py_raise_status(&job.st);
    }
    npy_intp dims[2] = {(npy_intp)n, (npy_intp)n};
    PyObject *dist = PyArray_SimpleNew(2, dims, NPY_FLOAT64);
    PyObject *pred = want_paths ? PyArray_SimpleNew(2, dims, NPY_INT32) : Py_None;
    int32_t *scratch = want_paths ? PyMem_Malloc((size_t)(2 * n + 1) * sizeof *scratch) : NULL;
    PyObject *out = NULL;
    if (dist && pred && (!want_paths || scratch)) {
        double *d = PyArray_DATA((PyArrayObject *)dist);
        int32_t *p = want_paths ? PyArray_DATA((PyArrayObject *)pred) : NULL;
        Py_BEGIN_ALLOW_THREADS
        distances_to_double(&job.res, d);
        if (p)
            next_to_predecessors(job.res.next, n, p, scratch, scratch + n);
        Py_END_ALLOW_THREADS
        out = Py_BuildValue("{s:O,s:O,s:s,s:s,s:d}", "dist", dist, "predecessors", pred,
                            "backend", job.res.backend, "device", job.res.device, "total",
                            job.res.times.total);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    PyMem_Free(scratch);
    Py_XDECREF(dist);
    if (pred != Py_None)
        Py_XDECREF(pred);
    pf_apsp_result_free(&job.res);
    return out;
}

/* ---- files ---------------------------------------------------------------- */

/* read_network(path) -> (n, source, sink, tails, heads, capacities): the
 * library's reader (DIMACS max-flow or the matrix text, by content). */
static PyObject *py_read_network(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    pf_status st;
    pf_network *net;
    const char *path = PyBytes_AS_STRING(path_obj);
    Py_BEGIN_ALLOW_THREADS
    net = pf_network_read(path, &st);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (!net)
        return pf_py_raise_status(&st);
    npy_intp m = (npy_intp)pf_network_arcs(net);
    PyObject *tails = PyArray_SimpleNew(1, &m, NPY_INT64);
    PyObject *heads = PyArray_SimpleNew(1, &m, NPY_INT64);
    PyObject *caps = PyArray_SimpleNew(1, &m, NPY_INT64);
    PyObject *out = NULL;
    if (tails && heads && caps) {
        pf_network_get_arcs(net, PyArray_DATA((PyArrayObject *)tails),
                            PyArray_DATA((PyArrayObject *)heads),
                            PyArray_DATA((PyArrayObject *)caps));
        out = Py_BuildValue("(LLLOOO)", (long long)pf_network_vertices(net),
                            (long long)pf_network_source(net), (long long)pf_network_sink(net),
                            tails, heads, caps);
    }
    Py_XDECREF(tails);
    Py_XDECREF(heads);
    Py_XDECREF(caps);
    pf_network_free(net);
    return out;
}

/* ---- backends ------------------------------------------------------------- */

static PyObject *py_devices(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    enum { MAX_DEVICES = 64 };
    pf_device_desc descs[MAX_DEVICES];
    char why[2048];
    int count;
    Py_BEGIN_ALLOW_THREADS
    count = pf_list_devices(descs, MAX_DEVICES, why, sizeof why);
    Py_END_ALLOW_THREADS
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < count; i++) {
        const pf_device_desc *d = &descs[i];
        PyObject *item = Py_BuildValue("{s:s,s:i,s:s,s:s,s:s,s:i,s:K,s:K}", "backend",
                                       d->backend, "index", d->index, "name", d->name, "vendor",
                                       d->vendor, "kind", d->kind, "compute_units",
                                       d->compute_units, "global_mem",
                                       (unsigned long long)d->global_mem, "max_alloc",
                                       (unsigned long long)d->max_alloc);
        if (!item || PyList_Append(list, item) != 0)
            Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list ? Py_BuildValue("(Ns)", list, why) : NULL;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Maximum flow from int64 arc arrays (internal)."},
    {"solve_csr", py_solve_csr, METH_VARARGS,
     "Maximum flow from a CSR matrix's arrays, with scipy's flow matrix (internal)."},
    {"apsp", py_apsp, METH_VARARGS, "All-pairs shortest paths from arc arrays (internal)."},
    {"read_network", py_read_network, METH_VARARGS,
     "(n, source, sink, tails, heads, capacities) of a DIMACS max-flow file (internal)."},
    {"devices", py_devices, METH_NOARGS, "(list of device dicts, why-not text) (internal)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "portaflow._portaflow",
    .m_doc = "C extension of the portaflow package.", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__portaflow(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    pf_py_device_error = PyErr_NewExceptionWithDoc(
        "portaflow.DeviceError", "A backend or device failed, or is not available.",
        PyExc_RuntimeError, NULL);
    pf_py_cancelled_error = PyErr_NewExceptionWithDoc(
        "portaflow.CancelledError", "The solve was cancelled.", PyExc_RuntimeError, NULL);
    pf_py_negative_cycle_error = PyErr_NewExceptionWithDoc(
        "portaflow.NegativeCycleError", "The graph has a negative cycle.", PyExc_ValueError,
        NULL);
    if (PyModule_AddFunctions(m, pf_py_session_methods) < 0 ||
        PyModule_AddFunctions(m, pf_py_analytics_methods) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (!pf_py_device_error || !pf_py_cancelled_error || !pf_py_negative_cycle_error ||
        PyModule_AddObjectRef(m, "DeviceError", pf_py_device_error) < 0 ||
        PyModule_AddObjectRef(m, "CancelledError", pf_py_cancelled_error) < 0 ||
        PyModule_AddObjectRef(m, "NegativeCycleError", pf_py_negative_cycle_error) < 0 ||
        PyModule_AddStringConstant(m, "version", pf_version()) < 0 ||
        PyModule_AddIntConstant(m, "api_version", PORTAFLOW_API_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "CSR_SUM_REPEATS", PF_CSR_SUM_REPEATS) < 0 ||
        PyModule_AddIntConstant(m, "CSR_KEEP_REPEATS", PF_CSR_KEEP_REPEATS) < 0 ||
        PyModule_AddIntConstant(m, "CSR_NO_MATRIX", CSR_NO_MATRIX) < 0 ||
        PyModule_AddIntConstant(m, "has_sessions", 1) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_CAP", PF_UPDATE_CAP) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_ADD", PF_UPDATE_ADD) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_DEL", PF_UPDATE_DEL) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_ADDV", PF_UPDATE_ADDV) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_SOURCE", PF_UPDATE_SOURCE) < 0 ||
        PyModule_AddIntConstant(m, "UPDATE_SINK", PF_UPDATE_SINK) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
