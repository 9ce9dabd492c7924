/* The dynamic graph's test helpers (test_dyn.c, test_dyn_batch.c): a graph
 * built from a network and checked, a batch applied and checked, a batch
 * refused with every array left as it was, and the max-flow values to
 * compare: a cold solve of a network and a warm one of the sequential
 * engine from the graph's own preflow. */
#ifndef PF_TEST_DYN_SUPPORT_H
#define PF_TEST_DYN_SUPPORT_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/dyn_graph.h"
#include "common/network.h"
#include "common/residual.h"
#include "device/seq/seq_engine.h"
#include "support.h"

static inline void expect_valid(const pf_dyn_graph *d)
{
    pf_status st;
    int rc = pf_dyn_verify(d, &st);
    PF_EXPECT(rc == PF_OK, "pf_dyn_verify: %s", st.message);
}

static inline pf_dyn_graph build_from(const pf_network *net, const pf_dyn_params *p)
{
    pf_status st;
    pf_residual g;
    ck_assert_int_eq(pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
    pf_dyn_graph d;
    int rc = pf_dyn_build(&g, NULL, NULL, p, &d, &st);
    ck_assert_msg(rc == PF_OK, "pf_dyn_build: %s", st.message);
    pf_residual_free(&g);
    expect_valid(&d);
    return d;
}

/* The max-flow value of net, solved from scratch. */
static inline int64_t cold_value(const pf_network *net)
{
    pf_status st;
    pf_residual g;
    ck_assert_int_eq(pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    out.res = malloc((size_t)g.arcs * sizeof *out.res + 8);
    int rc = pf_seq_solve(&g, &opt, &out, &st);
    ck_assert_msg(rc == PF_OK, "pf_seq_solve: %s", st.message);
    free(out.res);
    pf_residual_free(&g);
    return out.value;
}

/* The sequential engine from d's preflow to a maximum preflow; its value.
 * With keep, the result becomes d's preflow (as a session's solve). */
static inline int64_t warm_value(pf_dyn_graph *d, int keep)
{
    pf_status st;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    int64_t *res = malloc((size_t)d->view.arcs * sizeof *res + 8);
    pf_seq_run *run = NULL;
    int rc = pf_seq_run_open(&d->view, res, &opt, &run, &st);
    ck_assert_msg(rc == PF_OK, "pf_seq_run_open: %s", st.message);
    memcpy(res, d->res, (size_t)d->view.arcs * sizeof *res);
    pf_seq_run_load(run, d->excess);
    for (int rounds = 0;; rounds++) {
        pf_seq_stretch sh;
        ck_assert_int_eq(pf_seq_run_stretch(run, 0, &sh, &st), PF_OK);
        if (sh.active == 0)
            break;
        ck_assert_int_lt(rounds, 100000);
    }
    if (keep) {
        memcpy(d->res, res, (size_t)d->view.arcs * sizeof *res);
        pf_seq_run_excess(run, d->excess);
    }
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    rc = pf_seq_run_finish(run, &out, &st);
    ck_assert_msg(rc == PF_OK, "pf_seq_run_finish: %s", st.message);
    free(out.source_side);
    pf_seq_run_free(run);
    free(res);
    if (keep) {
        pf_dyn_take_preflow(d);
        expect_valid(d);
    }
    return out.value;
}

static inline void apply_ok(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                     pf_dyn_batch_out *out)
{
    pf_status st;
    int rc = pf_dyn_apply(d, c, count, out, &st);
    ck_assert_msg(rc == PF_OK, "pf_dyn_apply: %s", st.message);
    expect_valid(d);
}

static inline pf_network *net_of(int64_t n, int64_t s, int64_t t, const int64_t (*arcs)[3],
                                 int64_t m)
{
    pf_status st;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_ptr_nonnull(net);
    for (int64_t i = 0; i < m; i++)
        ck_assert_int_eq(pf_network_add_arc(net, arcs[i][0], arcs[i][1], arcs[i][2], &st), PF_OK);
    return net;
}

/* Every array of d, byte for byte. */
typedef struct snapshot {
    void *bufs[16];
    size_t lens[16];
    int count;
    pf_dyn_graph copy;
} snapshot;

static inline void snap_add(snapshot *s, const void *p, size_t len)
{
    s->bufs[s->count] = malloc(len + 1);
    memcpy(s->bufs[s->count], p, len);
    s->lens[s->count++] = len;
}

static inline void snap_take(snapshot *s, const pf_dyn_graph *d)
{
    memset(s, 0, sizeof *s);
    s->copy = *d;
    size_t n = (size_t)d->view.n, slots = (size_t)d->view.arcs, ids = (size_t)d->ids;
    snap_add(s, d->view.first, (n + 1) * 8);
    snap_add(s, d->view.head, slots * 4);
    snap_add(s, d->view.rev, slots * 8);
    snap_add(s, d->view.cap, slots * 8);
    snap_add(s, d->res, slots * 8);
    snap_add(s, d->excess, n * 8);
    snap_add(s, d->used, n * 8);
    snap_add(s, d->dead, n * 8);
    snap_add(s, d->slot_of, ids * 8);
    snap_add(s, d->tail_of, ids * 4);
    snap_add(s, d->head_of, ids * 4);
    snap_add(s, d->cap_of, ids * 8);
    snap_add(s, d->deleted, ids);
    snap_add(s, d->dirty, (size_t)d->pages);
}

static inline void snap_expect_same(snapshot *s, const pf_dyn_graph *d)
{
    ck_assert_mem_eq(&s->copy, d, sizeof *d);
    const void *now[] = {d->view.first, d->view.head, d->view.rev, d->view.cap, d->res,
                         d->excess, d->used, d->dead, d->slot_of, d->tail_of, d->head_of,
                         d->cap_of, d->deleted, d->dirty};
    for (int k = 0; k < s->count; k++) {
        ck_assert_msg(memcmp(s->bufs[k], now[k], s->lens[k]) == 0, "array %d changed", k);
        free(s->bufs[k]);
    }
}

static inline void expect_refused(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                           const char *needle)
{
    snapshot s;
    snap_take(&s, d);
    pf_status st;
    ck_assert_int_eq(pf_dyn_apply(d, c, count, NULL, &st), PF_E_INPUT);
    ck_assert_msg(strstr(st.message, needle), "message \"%s\" lacks \"%s\"", st.message,
                  needle);
    snap_expect_same(&s, d);
}

#endif
