/* The arc line of a DIMACS max-flow file ("a U V CAP"), scanned by one
 * inline function that both the serial reader (dimacs.c) and the parallel
 * arc pass (dimacs_parallel.c) call, so that the two cannot read a line
 * differently; and the parallel pass's entry. */
#ifndef PF_DIMACS_ARC_H
#define PF_DIMACS_ARC_H

#include <stdint.h>

#include "network.h"
#include "scan.h"

#define ARC_USAGE "a TAIL HEAD CAP"

/* Why a capacity field that is not an integer in 0..PF_CAP_MAX (nor a
 * real) is wrong. Cold: only on the way to an error. */
static __attribute__((cold, noinline)) int arc_capacity_error(const line_ctx *lc,
                                                              enum field_kind kind,
                                                              const char *field)
{
    switch (kind) {
    case FIELD_NUMBER:
    case FIELD_HUGE:
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "capacity %.*s exceeds the maximum 2^62 = %lld", field_len(field),
                          field, (long long)PF_CAP_MAX);
    case FIELD_MISSING:
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "missing capacity (expected '" ARC_USAGE "')");
    case FIELD_NEGATIVE:
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is negative",
                          field_len(field), field);
    case FIELD_JUNK:
        break;
    }
    return pf_io_fail(lc->st, lc->name, lc->line, "capacity '%.*s' is not a number",
                      field_len(field), field);
}

/* An arc line's fields as scanned. */
typedef struct dimacs_arc {
    int64_t tail, head;   /* 0-based */
    uint64_t cap;         /* the capacity, when it is an integer */
    const char *cap_text; /* the capacity field */
    int real_len;         /* a real capacity ("2.5", "1e3"): its length; else 0 */
} dimacs_arc;

/* The rest of an arc line after its 'a' (n: the vertex count): the ends in
 * 1..n, the capacity, nothing after it. Moves *pp past the line only when
 * it is good; a real capacity is left to the caller (arc->real_len). */
static inline int scan_dimacs_arc(const line_ctx *lc, const char **pp, int64_t n,
                                  dimacs_arc *arc)
{
    const char *p = *pp;
    arc->tail = arc->head = 0;
    int rc = scan_arc_ends(lc, &p, n, "tail", "head", ARC_USAGE, &arc->tail, &arc->head);
    if (rc)
        return rc;
    arc->cap = 0;
    enum field_kind cap_k = scan_uint(&p, &arc->cap_text, &arc->cap);
    arc->real_len = 0;
    if (cap_k != FIELD_NUMBER || arc->cap > (uint64_t)PF_CAP_MAX) {
        arc->real_len = cap_k == FIELD_JUNK ? real_text_len(arc->cap_text) : 0;
        if (!arc->real_len)
            return arc_capacity_error(lc, cap_k, arc->cap_text);
    }
    rc = finish_line(lc, &p, "capacity");
    if (rc)
        return rc;
    *pp = p;
    return PF_OK;
}

/* Arc i of net is the one scanned (a real capacity's cap is set apart). */
static inline void store_dimacs_arc(pf_network *net, int64_t i, const dimacs_arc *arc)
{
    net->tail[i] = (int32_t)arc->tail;
    net->head[i] = (int32_t)arc->head;
    net->cap[i] = (int64_t)arc->cap;
}

/* The arc lines from `arcs` (the first of them, a line start) to `end`
 * (the text's NUL) read on `threads` threads into net, which holds no arc
 * yet, with "a", comment and blank lines only, exactly `declared` arcs, all
 * of integer capacity: then net->m = declared, *lines gets the number of
 * lines read, and the result is 1. Anything else (another line type, a
 * different count, a bad field, a real capacity) returns 0 and leaves net's
 * counts and *lines as they were, for the serial reader to go on from
 * `arcs` and report what it finds. */
int pf_dimacs_arcs_parallel(const char *arcs, const char *end, pf_network *net,
                            int64_t declared, int threads, int64_t *lines);

#endif
