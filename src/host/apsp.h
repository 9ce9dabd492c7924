/* Internals of the APSP solver (apsp.c drives, apsp_matrix.c holds the
 * host-side matrix work per distance kind). */
#ifndef PF_APSP_H
#define PF_APSP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/wgraph.h"
#include "../device/device.h"
#include "early_open.h"
#include "log.h"
#include "registry.h"
#include "portaflow.h"

/* The size of pf_apsp_options in API version 2 (no log callback), what
 * callers built against it pass (apsp_options.c). */
#define APSP_OPTIONS_V2_SIZE offsetof(pf_apsp_options, log)

/* Bytes of one distance of `kind`. */
size_t pf_apsp_kind_bytes(int kind);

/* Writes the starting matrix of order n_pad >= g->n (row-major, device
 * "no path" = PF_FW_INF_*): 0 on the diagonal, the lightest arc's weight
 * where there are arcs, and (next != NULL) next(i,j) = j where there is an
 * arc or i = j, -1 elsewhere. The rows and columns past g->n are vertices
 * without arcs (padding to a multiple of the tile). Negative self-loops must
 * have been ruled out (they are negative cycles). With hop_scale > 0
 * (integer kinds), an arc weighs w * hop_scale + 1 instead: a path's sum is
 * then d * hop_scale + its arc count, so ties are broken by fewer arcs and
 * no cycle weighs zero (see apsp.c, paths). */
void pf_apsp_fill(const pf_wgraph *g, int kind, int64_t n_pad, void *dist, int32_t *next,
                  int64_t hop_scale);

/* Turns the solved padded matrix into the n x n result in place: rows
 * packed to stride n, "no path" rewritten as PF_APSP_NONE_* (+inf for
 * F32), next = -1 where there is no path, and distances scaled by
 * pf_apsp_fill's hop_scale divided back (floor). */
void pf_apsp_extract(int64_t n, int64_t n_pad, int kind, void *dist, int32_t *next,
                     int64_t hop_scale);

/* Next hops rebuilt from the distances (the extracted n x n result of
 * `kind`; next = -1 marks no path and stays): for each target j a reverse
 * BFS from j over the arcs (u,w) with w + d(w,j) = d(u,j) (up to float32
 * rounding for reals), so every hop is one step nearer j in a tree and no
 * walk loops, whatever zero-weight cycles (and rounding) did to
 * Floyd-Warshall's hops. PF_E_VERIFY where a vertex with a path has no
 * such arc. */
int pf_apsp_hops_from_dist(const pf_wgraph *g, int kind, const void *dist, int32_t *next,
                           pf_status *st);

/* Plain Floyd-Warshall on the host, one thread (the `seq` backend). */
void pf_apsp_seq_fw(int64_t n, int kind, void *dist, int32_t *next);

/* Bellman-Ford from a virtual source joined to every vertex: 0 when there
 * is no negative cycle, else PF_E_INPUT with one cycle's vertices (in arc
 * order, malloc'ed) in *cycle / *cycle_len. */
int pf_apsp_negative_cycle(const pf_wgraph *g, int32_t **cycle, int64_t *cycle_len,
                           pf_status *st);

/* ---- apsp_open.c: which backend, and its device opened early ------------ */

/* The walk over the backends for opt (registry.h), with the variant as
 * the filter. opt must outlive the walk. */
void pf_apsp_walk_init(pf_backend_walk *w, const pf_apsp_options *opt);

/* A device being opened on a background thread (pf_apsp_open_early); the
 * fields are the thread's until pf_apsp_with joins it. */
typedef struct pf_apsp_early {
    pf_early_open open;    /* open.ops NULL: nothing opened (a one-thread
                              engine on another's kernels, or none left) */
    pf_apsp_options opt;   /* a copy: the walk reads its variant */
    pf_backend_walk walk;  /* after the first backend */
    const pf_device_ops *first; /* that backend (NULL when none) */
} pf_apsp_early;

/* Starts opening the device pf_apsp would take for opt; NULL when no
 * thread could start (pf_apsp then opens it itself). */
pf_apsp_early *pf_apsp_open_early(const pf_apsp_options *opt);
/* Joins, and closes the device unless pf_apsp_with took it. */
void pf_apsp_early_free(pf_apsp_early *e);

/* Rows of the result handed over while the rest still downloads, so the
 * caller's output overlaps the download: rows [first, first + count) of
 * res->dist (row-major at stride res->n) hold their final values. A
 * non-zero return stops the solve with that status. */
typedef struct pf_apsp_sink {
    int (*rows)(void *ctx, const pf_apsp_result *res, int64_t first, int64_t count,
                pf_status *st);
    void *ctx;
    /* Optional, for a caller that wants only the statistics: where the
     * device sums them itself (fw_stats: integer kinds, no next hops), they
     * come here instead of any row, the matrix never leaves the device and
     * res->dist stays NULL. NULL, or another backend: rows as above. */
    int (*stats)(void *ctx, const pf_apsp_result *res, const pf_fw_stats *s, pf_status *st);
} pf_apsp_sink;

/* pf_apsp on the device `early` is opening (NULL: opens its own), giving
 * the rows to `sink` as they arrive when it can (no next hops), else all
 * at once before returning (NULL: none); or only the statistics (see
 * pf_apsp_sink.stats), with res->dist NULL. Frees nothing of early's but the
 * device it took (pf_apsp_early_free still needed). */
int pf_apsp_with(const pf_wgraph *g, const pf_apsp_options *opt, pf_apsp_early *early,
                 const pf_apsp_sink *sink, pf_apsp_result *res, pf_status *st);

/* apsp_stream.c: downloads buf (n_pad x n_pad of res->kind) into host by
 * blocks of rows on a helper thread; each block that arrives becomes rows
 * of the result (extracted, at stride n) and goes to the sink. Sets
 * res->dist = host; *download_s = until the last block arrived. */
int pf_apsp_stream_download(const pf_device_ops *ops, pf_dev *dev, pf_buf *buf, void *host,
                            int64_t n, int64_t n_pad, int64_t hop_scale,
                            const pf_apsp_sink *sink, pf_apsp_result *res, double *download_s,
                            pf_status *st);

/* pf_apsp_extract for rows [first, first + count) only, which must come
 * after every row before them (rows move down in place). */
void pf_apsp_extract_rows(int64_t n, int64_t n_pad, int kind, void *dist, int32_t *next,
                          int64_t hop_scale, int64_t first, int64_t count);

/* ---- apsp_variant.c: the unblocked variants ---------------------------- */

/* fw_step needs n to be a multiple of this (device.h). */
#define PF_APSP_STEP_QUANTUM 32

/* Whether backend `name` runs `variant` (pf_apsp_kernels_for). */
int pf_apsp_backend_runs(const char *name, int variant);
/* The variant a backend runs for PF_FW_DEFAULT: blocked where it has
 * fw_phase, else plain; any other variant as it is. */
int pf_apsp_variant_for(const pf_device_ops *ops, int variant);
/* The backend whose kernels run `variant` for ops: ops itself where it has
 * them; for a one-thread engine without them (caps.one_thread), a parallel
 * host-CPU backend's, run with one thread; NULL when none does. */
const pf_device_ops *pf_apsp_kernels_for(const pf_device_ops *ops, int variant);
/* The registry walk's filter: runs_ctx is the pf_apsp_options. */
int pf_apsp_walk_runs(const pf_device_ops *ops, const void *opt);
/* What ran, for pf_apsp_result.variant ("blocked", "simd: avx2, 8 lanes",
 * ...); a SIMD variant that falls back to the plain loop says so through
 * the log too. variant: as pf_apsp_variant_for gives it. */
void pf_apsp_variant_label(const pf_device_ops *ops, pf_dev *dev, int kind, int variant,
                           int simd_width, const pf_logger *log, char *out, size_t len);
/* fw_step for k = 0 .. n-1 (n: the graph's vertices; the padding past it
 * has no arcs). */
int pf_apsp_run_steps(const pf_device_ops *ops, pf_dev *dev, const pf_dev_apsp *a, int64_t n,
                      int variant, pf_status *st);

#endif
