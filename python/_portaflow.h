/* What the C files of portaflow._portaflow share: the exception types,
 * library errors as exceptions, the Ctrl-C watch a solve polls, and NumPy
 * arrays over the library's buffers. Each file includes NumPy through
 * here, so that all use the one API table _portaflow.c imports. */
#ifndef PF_PY_PORTAFLOW_H
#define PF_PY_PORTAFLOW_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL portaflow_ARRAY_API
#ifndef PF_PY_IMPORTS_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "portaflow.h"

extern PyObject *pf_py_device_error, *pf_py_cancelled_error, *pf_py_negative_cycle_error;

/* Raises the exception that fits st->code with the library's message;
 * returns NULL. */
PyObject *pf_py_raise_status(const pf_status *st);

/* The state of the library's cancel callback pf_py_poll_signals. */
typedef struct pf_py_signal_watch {
    double next_poll; /* monotonic seconds */
    int interrupted;  /* a signal handler raised: its exception is set */
} pf_py_signal_watch;

double pf_py_monotonic_s(void);
/* Arms a watch for a solve that starts now. */
void pf_py_watch_start(pf_py_signal_watch *w);
/* The library's cancel callback (data: a pf_py_signal_watch). */
int pf_py_poll_signals(void *data);

/* A 1-d C-contiguous array of `type` (NPY_INT64 or NPY_FLOAT64): 0, else
 * TypeError and -1. */
int pf_py_check_vector(PyObject *obj, int type, const char *what, npy_intp *len);
/* Three int64 vectors of one length m (an arc list); -1 and an exception
 * otherwise. */
int pf_py_check_arcs(PyObject *tails, PyObject *heads, PyObject *caps, npy_intp *m);
/* The arguments solve() and session_open() share: (n, source, sink,
 * tails, heads, capacities, backend, device, want_flow, want_cut), the arc
 * arrays checked (pf_py_check_arcs) and read in place. */
typedef struct pf_py_flow_args {
    long long n, source, sink;
    npy_intp m;
    const int64_t *tails, *heads, *caps;
    const char *backend; /* NULL: auto */
    int device, want_flow, want_cut;
    int method; /* optional, after want_cut: enum pf_maxflow_method (0: auto) */
} pf_py_flow_args;
/* 0, or -1 and an exception. */
int pf_py_parse_flow_args(PyObject *args, pf_py_flow_args *a);
/* An array that owns (frees) a buffer the library malloc'ed; on failure
 * the buffer is freed and NULL returned. */
PyObject *pf_py_adopt_vector(npy_intp len, int type, void *data);
PyObject *pf_py_times_dict(const pf_phase_times *t);

/* The session part of the module's method table (_session.c). */
extern PyMethodDef pf_py_session_methods[];
/* The graph analytics part (_analytics.c). */
extern PyMethodDef pf_py_analytics_methods[];

#endif
