/* Internals of the APSP solver (apsp.c drives, apsp_matrix.c holds the
 * host-side matrix work per distance kind). */
#ifndef PF_APSP_H
#define PF_APSP_H

#include <stddef.h>
#include <stdint.h>

#include "../common/wgraph.h"
#include "../device/device.h"
#include "portaflow.h"

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

/* Plain Floyd-Warshall on the host, one thread (the `seq` backend). */
void pf_apsp_seq_fw(int64_t n, int kind, void *dist, int32_t *next);

/* Bellman-Ford from a virtual source joined to every vertex: 0 when there
 * is no negative cycle, else PF_E_INPUT with one cycle's vertices (in arc
 * order, malloc'ed) in *cycle / *cycle_len. */
int pf_apsp_negative_cycle(const pf_wgraph *g, int32_t **cycle, int64_t *cycle_len,
                           pf_status *st);

/* ---- apsp_variant.c: the unblocked variants ---------------------------- */

/* fw_step needs n to be a multiple of this (device.h). */
#define PF_APSP_STEP_QUANTUM 32

/* Whether backend `name` ("seq" included) runs `variant`. */
int pf_apsp_backend_runs(const char *name, int variant);
/* What ran, for pf_apsp_result.variant ("blocked", "simd: avx2, 8 lanes",
 * ...); a SIMD variant that falls back to the plain loop says so on stderr
 * too. */
void pf_apsp_variant_label(const pf_device_ops *ops, pf_dev *dev, int kind, int variant,
                           int simd_width, char *out, size_t len);
/* fw_step for k = 0 .. n-1 (n: the graph's vertices; the padding past it
 * has no arcs). */
int pf_apsp_run_steps(const pf_device_ops *ops, pf_dev *dev, const pf_dev_apsp *a, int64_t n,
                      int variant, pf_status *st);

#endif
