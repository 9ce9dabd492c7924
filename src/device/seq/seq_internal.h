/* The sequential engine's state, shared by its files: seq_engine.c (the
 * solve, phase 1 and the runs of the hybrid and the sessions) and
 * seq_phase2.c (the preflow made a flow). Private to src/device/seq. */
#ifndef PF_SEQ_INTERNAL_H
#define PF_SEQ_INTERNAL_H

#include <stdint.h>

#include "../device.h"

/* What a push or a BFS touches at the far vertex sits in one 16-byte slot
 * and one 8-byte slot rather than four arrays: those random accesses are
 * where the time goes on large graphs. Labels stay a compact array of
 * their own because arc scans test them far more often than they push. */
typedef struct vertex {
    int64_t excess;
    int64_t cur; /* current arc, as an offset from first[v] */
} vertex;

typedef struct bucket_link {
    int32_t next, prev; /* bucket lists; -1 ends. Active lists use next only */
} bucket_link;

typedef struct bucket {
    int32_t active, inactive; /* list heads */
} bucket;

typedef struct seq {
    int32_t n, source, sink;
    /* In the normal case every source arc is saturated at the start and the
     * source keeps the blocking label n + 1. If the source's capacities
     * overflow int64, the source instead starts with a budget of excess and
     * is an ordinary vertex (see seq_init). */
    int source_free;
    const int64_t *first;
    const int32_t *head;
    const int64_t *rev;
    const int64_t *cap;
    int64_t *res;

    int32_t *label;
    vertex *vx;
    bucket_link *link;
    bucket *bucket;     /* n + 1, one per label */
    int32_t *queue;     /* BFS queue; DFS stack in phase 2 */
    int32_t max_active; /* no active vertex above this label */
    int32_t max_label;  /* no bucketed vertex above this label */

    int64_t work, work_limit;
    int64_t pushes, global_relabels;
    int64_t steps;      /* phase 1: discharges and empty buckets passed */
    int32_t cursor;     /* phase 1: the sweep's label; 0: start at the top */
    int64_t discharges; /* phase 1: discharge calls (the hybrid's rate) */
    int progress; /* a status line was asked for (progress.h) */
    double relabel_time;
    const pf_solve_options *opt; /* the caller's cancel callback */
    int cancelled;
} seq;

/* Phase 2: returns each source-side vertex's excess (inside[v]: v is on
 * the source side and is not the source) to the source along the flow
 * arcs that brought it, cancelling flow cycles first; S->label is its
 * scratch (the labels are spent once the cut is known). */
void pf_seq_phase2(seq *S, const uint8_t *inside);

#endif
