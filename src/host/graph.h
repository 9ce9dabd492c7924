/* Graph analytics on every engine: BFS (direction-optimising), SSSP
 * (near-far on the device backends, Dijkstra on seq, Bellman-Ford with
 * frontiers for negative weights) and triangle counting by segmented
 * intersection. The host sequences the device steps (device.h); seq runs
 * the same answers on one thread (graph_seq.c).
 *
 * Every engine gives identical distances, parents (the smallest-id rule:
 * parent[v] is the smallest in-neighbour one level lower) and counts. */
#ifndef PF_HOST_GRAPH_H
#define PF_HOST_GRAPH_H

#include <stdint.h>

#include "../common/graph_csr.h"
#include "../device/device.h"

/* A caller's cancel callback: checked between a search's steps, levels
 * and rounds, and every 65536 vertices of the host's searches; nonzero
 * stops the search with PF_E_CANCELLED. fn NULL: never. A backend's whole
 * search in one call (omp's delta-stepping, a triangle count) is checked
 * before it starts only. */
typedef struct pf_graph_cancel {
    int (*fn)(void *data);
    void *data;
} pf_graph_cancel;

struct pf_graph_engine;

typedef struct pf_graph_options {
    const char *backend; /* NULL/"auto": $PORTAFLOW_BACKEND, else a GPU, else omp, else seq */
    int device_index;    /* -1: the backend's best */
    int threads;         /* CPU backends; 0: the runtime's default */
    int parents;         /* bfs: compute parents */
    int64_t delta_i;     /* sssp: near-far bucket width (0: chosen from the weights) */
    double delta_f;      /* the same for real weights */
    int push_only;       /* bfs: never pull (direction-optimising off) */
    pf_graph_cancel cancel;
    /* bfs: g's reverse graph where the caller has it at hand (a session's,
     * from its own layout); NULL: transposed from g when needed. */
    const pf_csr *reverse;
    /* An engine the caller opened (a session's device): the search runs
     * on it, which is neither opened nor closed here; backend and
     * device_index are then not read. NULL: one is opened for the call. */
    const struct pf_graph_engine *engine;
} pf_graph_options;

void pf_graph_options_init(pf_graph_options *opt);

/* Where the time went: opening the device, uploading the graph, the
 * algorithm's steps (the kernels and the host's sequencing between them),
 * downloading the answer; host-side preparation (transposes, orientation)
 * in prepare_s. */
typedef struct pf_graph_times {
    double open_s, prepare_s, upload_s, kernel_s, download_s;
} pf_graph_times;

typedef struct pf_bfs_level {
    int64_t vertices;  /* frontier size after the level */
    int64_t arcs;      /* the sum of their out-degrees */
    double seconds;
    int pull;          /* 1: bottom-up; 2: in a batch of device steps (no
                          time of its own: seconds 0) */
} pf_bfs_level;

typedef struct pf_bfs_result {
    char backend[16];
    int32_t *dist;       /* n: hops, -1 unreached */
    int32_t *parent;     /* n with opt->parents: -1 unreached, source: itself */
    int64_t reached;     /* the source included */
    int32_t depth;       /* the largest finite distance */
    int64_t checksum;    /* the sum of the finite distances */
    int64_t arcs_traversed; /* out-arcs of the reached vertices (for TEPS) */
    pf_bfs_level *levels;
    int32_t level_count;
    pf_graph_times t;
} pf_bfs_result;

typedef struct pf_sssp_result {
    char backend[16];
    int64_t *dist_i;     /* n for integer/no weights: INT64_MAX unreached */
    double *dist_f;      /* n for real weights: +inf unreached */
    int64_t reached;
    int64_t max_i;       /* the largest finite distance */
    double max_f;
    __int128 sum_i;      /* the sum of the finite distances */
    double sum_f;
    int64_t steps;       /* relaxation steps (device), settled vertices (seq) */
    int64_t arcs_traversed;
    int32_t *cycle;      /* a negative cycle reachable from the source */
    int64_t cycle_len;   /* 0: none */
    pf_graph_times t;
} pf_sssp_result;

typedef struct pf_tc_result {
    char backend[16];
    int64_t triangles;
    int64_t edges;       /* of the simple undirected graph */
    pf_graph_times t;
} pf_tc_result;

/* source is 0-based. PF_E_USAGE for a source outside the graph,
 * PF_E_DEVICE/PF_E_NOMEM for engine failures; sssp: PF_E_INPUT with
 * cycle set for a negative cycle, PF_E_INPUT for weights whose distances
 * could overflow 64 bits. */
int pf_graph_bfs(const pf_csr *g, int32_t source, const pf_graph_options *opt,
                 pf_bfs_result *res, pf_status *st);
int pf_graph_sssp(const pf_csr *g, int32_t source, const pf_graph_options *opt,
                  pf_sssp_result *res, pf_status *st);
int pf_graph_tc(const pf_csr *g, const pf_graph_options *opt, pf_tc_result *res,
                pf_status *st);
void pf_bfs_result_free(pf_bfs_result *res);
void pf_sssp_result_free(pf_sssp_result *res);

/* The public API's options (portaflow.h) as the engines take them, checked
 * (PF_E_USAGE: not initialised, or a bad delta); *undirected: the
 * option's (graph_api.c). */
int pf_analytics_engine_options(const pf_analytics_options *opt, pf_graph_options *eopt,
                                int *undirected, pf_status *st);
/* An engine's times as the public solutions hold them: prepare_s the
 * caller's own preparation, t0 when the call began. */
void pf_analytics_take_times(const pf_graph_times *t, double prepare_s, double t0,
                             pf_analytics_times *out);

/* ---- inside the engines (graph_run.c, graph_seq.c, graph_tc_prep.c) ---- */

/* An opened engine: ops NULL for seq. */
typedef struct pf_graph_engine {
    const pf_device_ops *ops;
    pf_dev *dev;
    char name[16];
    pf_graph_cancel cancel; /* the options' */
    int borrowed;           /* 1: the caller's (pf_graph_options.engine): not closed here */
} pf_graph_engine;

/* PF_E_CANCELLED where the cancel callback says so, else PF_OK. */
int pf_graph_cancelled(const pf_graph_cancel *cancel, pf_status *st);

/* The engine opt asks for, opened; or opt->engine, taken as it is
 * (borrowed: pf_graph_engine_close leaves it open). */
int pf_graph_engine_open(const pf_graph_options *opt, pf_graph_engine *e, pf_status *st);
/* pf_graph_engine_open timed into *open_s; on success the engine's name
 * goes to backend (a result's backend field). */
int pf_graph_engine_open_timed(const pf_graph_options *opt, pf_graph_engine *e, double *open_s,
                               char backend[16], pf_status *st);
/* PF_OK when source is one of g's vertices, else PF_E_USAGE saying so
 * (1-based, as the user counts). */
int pf_graph_check_source(const pf_csr *g, int32_t source, pf_status *st);
/* The registry's filter for PF_WORK_GRAPH: the analytics steps, or the
 * one-thread engine (ctx unused). */
int pf_graph_runs(const pf_device_ops *ops, const void *ctx);
void pf_graph_engine_close(pf_graph_engine *e);
/* The graph on the device: weights with `weights`, the reverse graph
 * (rev: g itself for undirected graphs, else its transpose; NULL: none). */
int pf_graph_upload(pf_graph_engine *e, const pf_csr *g, const pf_csr *rev, int weights,
                    pf_dev_csr *d, pf_status *st);

/* pf_graph_upload, then the device synchronised; *upload_s is the time. */
int pf_graph_upload_timed(pf_graph_engine *e, const pf_csr *g, const pf_csr *rev, int weights,
                          pf_dev_csr *d, double *upload_s, pf_status *st);

/* A graph this small searches in batches of device steps (sssp_bucket_steps)
 * whatever its hubs: 2^15 vertices of 8 workers each is one batched
 * step's launch (2^18 work-items, pf_graph_steps_items), and a round trip
 * per level or step would cost more than all of its work. */
enum { PF_GRAPH_SMALL = 1 << 15 };

/* Hop counts from source (INT64_MAX: unreached) into hops[d->n]: one bucket
 * of sssp_bucket_steps on the graph d uploaded (its weights ignored); the
 * steps' buffers are allocated (counted in t->upload_s) and freed here,
 * t->kernel_s and t->download_s are the search and the hops' download;
 * *steps the steps that relaxed a frontier (graph_sssp.c). */
int pf_graph_hops_on_device(pf_graph_engine *e, const pf_dev_csr *d, int32_t source,
                            int64_t *hops, int64_t *steps, pf_graph_times *t, pf_status *st);
void pf_graph_release(pf_graph_engine *e, pf_dev_csr *d);
/* Allocates and, where fill is not NULL, fills with *fill (int32). */
int pf_graph_buf(pf_graph_engine *e, size_t bytes, pf_buf **buf, pf_status *st);

/* The seq engine. */
int pf_graph_seq_bfs(const pf_csr *g, int32_t source, int parents,
                     const pf_graph_cancel *cancel, pf_bfs_result *res, pf_status *st);
int pf_graph_seq_sssp(const pf_csr *g, int32_t source, const pf_graph_cancel *cancel,
                      pf_sssp_result *res, pf_status *st);
/* Bellman-Ford with frontiers on the host: the distances, or the cycle. */
int pf_graph_seq_bellman_ford(const pf_csr *g, int32_t source, const pf_graph_cancel *cancel,
                              pf_sssp_result *res, pf_status *st);

/* The rank-ordered DAG of g's simple undirected graph (graph_tc_prep.c):
 * vertex ids are ranks by (degree, id), each edge once from the lower rank
 * to the higher, rows sorted. *edges = the simple graph's edge count. */
pf_csr *pf_graph_tc_dag(const pf_csr *g, int64_t *edges, pf_status *st);
int64_t pf_graph_tc_count_host(const pf_csr *dag);

#endif
