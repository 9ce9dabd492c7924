/* Suite "dyn_batch": large batches on the dynamic residual graph, whose
 * changes and reroutes run on the host's threads (dyn_changes.c,
 * dyn_reroute.c). The same batches go to two copies of a graph, one
 * applying them on one thread and one on four: every array must come out
 * byte for byte the same, the pages and touched lists must name the same
 * slots and vertices, and after each batch the graph verifies and a warm
 * solve from its preflow equals a cold solve of a network kept alongside.
 * The batches name arcs twice (capacity changes, then a deletion), add
 * parallel arcs, arcs out of the source, into the sink and self-loops,
 * and add vertices that later changes use. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "dyn_support.h"

/* Past the sizes where the check, the plan, the phases and the reroutes'
 * searches go to the host's threads (dyn_apply.c, dyn_changes.c,
 * dyn_reroute.c). */
enum { BATCH = 9000, BATCHES = 4 };

typedef struct pair_run {
    pf_rng rng;
    pf_network *net;       /* the mirror: deleted arcs at capacity 0 */
    pf_dyn_graph one, four;
    int64_t max_cap;
    uint8_t *gone;         /* ids deleted by the batch being drawn */
    int64_t gone_room;
} pair_run;

static int64_t live_id(pair_run *r, int64_t ids)
{
    for (int tries = 0; tries < 64; tries++) {
        int64_t id = pf_rng_range(&r->rng, 0, ids - 1);
        if ((id >= r->one.ids || !r->one.deleted[id]) && !r->gone[id])
            return id;
    }
    return -1;
}

static int64_t some_vertex(pair_run *r, int64_t n)
{
    int64_t pick = pf_rng_range(&r->rng, 0, 15);
    return pick == 0 ? r->one.view.source : pick == 1 ? r->one.view.sink
                                                      : pf_rng_range(&r->rng, 0, n - 1);
}

/* A batch of BATCH changes valid in order: a tenth of the capacity
 * changes and deletions name an id the batch named before. */
static int64_t draw_batch(pair_run *r, pf_dyn_change *c)
{
    int64_t n = r->one.view.n, ids = r->one.ids, count = 0;
    if (r->gone_room < ids + BATCH) {
        r->gone_room = ids + BATCH;
        r->gone = realloc(r->gone, (size_t)r->gone_room);
        ck_assert_ptr_nonnull(r->gone);
    }
    memset(r->gone, 0, (size_t)r->gone_room);
    while (count < BATCH) {
        int64_t kind = pf_rng_range(&r->rng, 0, 99);
        int64_t id = live_id(r, ids);
        if (kind < 10 && count > 0) {
            /* an id named before: its capacity again, or deleted */
            const pf_dyn_change *before = &c[pf_rng_range(&r->rng, 0, count - 1)];
            if (before->kind == PF_DYN_CAP && !r->gone[before->id]) {
                id = before->id;
                kind = pf_rng_range(&r->rng, 0, 1) ? 20 : 50;
            }
        }
        pf_dyn_change x;
        if (kind < 45 && id >= 0) {
            x = (pf_dyn_change){.kind = PF_DYN_CAP, .id = id,
                                .cap = pf_rng_range(&r->rng, 0, 3) == 0
                                           ? 0
                                           : pf_rng_range(&r->rng, 0, 2 * r->max_cap)};
        } else if (kind < 65 && id >= 0) {
            x = (pf_dyn_change){.kind = PF_DYN_DEL, .id = id};
            r->gone[id] = 1;
        } else if (kind == 65) {
            x = (pf_dyn_change){.kind = PF_DYN_ADDV, .count = pf_rng_range(&r->rng, 1, 4)};
            n += x.count;
        } else {
            int64_t u = some_vertex(r, n), v = pf_rng_range(&r->rng, 0, 30) ? some_vertex(r, n) : u;
            x = (pf_dyn_change){.kind = PF_DYN_ADD, .tail = u, .head = v,
                                .cap = pf_rng_range(&r->rng, 0, r->max_cap)};
            ids++;
        }
        c[count++] = x;
    }
    return count;
}

static void mirror(pair_run *r, const pf_dyn_change *x)
{
    pf_status st;
    if (x->kind == PF_DYN_CAP)
        r->net->cap[x->id] = x->cap;
    else if (x->kind == PF_DYN_DEL)
        r->net->cap[x->id] = 0;
    else if (x->kind == PF_DYN_ADDV)
        r->net->n += x->count;
    else
        ck_assert_int_eq(pf_network_add_arc(r->net, x->tail, x->head, x->cap, &st), PF_OK);
}

#define SAME_ARRAY(field, count)                                                           \
    ck_assert_msg(memcmp(a->field, b->field, (size_t)(count) * sizeof *a->field) == 0,     \
                  "%s differs after batch %d", #field, batch)

static int compare_i32(const void *x, const void *y)
{
    int32_t p = *(const int32_t *)x, q = *(const int32_t *)y;
    return (p > q) - (p < q);
}

/* The touched list `list` of a and b hold the same entries (in any order). */
static void same_touched(const pf_dyn_graph *a, const pf_dyn_graph *b, int list, int batch)
{
    const int64_t k = a->touched_count[list];
    ck_assert_int_eq(k, b->touched_count[list]);
    if (a->touched_full)
        return; /* which entries made the list depends on the order */
    int32_t *x = malloc((size_t)(k + 1) * sizeof *x), *y = malloc((size_t)(k + 1) * sizeof *y);
    memcpy(x, a->touched[list], (size_t)k * sizeof *x);
    memcpy(y, b->touched[list], (size_t)k * sizeof *y);
    qsort(x, (size_t)k, sizeof *x, compare_i32);
    qsort(y, (size_t)k, sizeof *y, compare_i32);
    ck_assert_msg(memcmp(x, y, (size_t)k * sizeof *x) == 0, "touched[%d] differs after batch %d",
                  list, batch);
    free(x);
    free(y);
}

static void same_graph(const pf_dyn_graph *a, const pf_dyn_graph *b, int batch)
{
    ck_assert_int_eq(a->view.n, b->view.n);
    ck_assert_int_eq(a->view.arcs, b->view.arcs);
    ck_assert_int_eq(a->ids, b->ids);
    ck_assert_int_eq(a->live_arcs, b->live_arcs);
    ck_assert_int_eq(a->source_cap, b->source_cap);
    ck_assert_int_eq(a->cover_total, b->cover_total);
    ck_assert_int_eq(a->cover_count, b->cover_count);
    ck_assert_int_eq(a->recompactions, b->recompactions);
    ck_assert_int_eq(a->windows_laid, b->windows_laid);
    ck_assert_int_eq(a->reroute_tries, b->reroute_tries);
    ck_assert_int_eq(a->reroute_found, b->reroute_found);
    ck_assert_int_eq(a->touched_full, b->touched_full);
    SAME_ARRAY(view.first, a->view.n + 1);
    SAME_ARRAY(view.head, a->view.arcs);
    SAME_ARRAY(view.rev, a->view.arcs);
    SAME_ARRAY(view.cap, a->view.arcs);
    SAME_ARRAY(res, a->view.arcs);
    SAME_ARRAY(excess, a->view.n);
    SAME_ARRAY(used, a->view.n);
    SAME_ARRAY(dead, a->view.n);
    SAME_ARRAY(slot_of, a->ids);
    SAME_ARRAY(tail_of, a->ids);
    SAME_ARRAY(head_of, a->ids);
    SAME_ARRAY(cap_of, a->ids);
    SAME_ARRAY(deleted, a->ids);
    SAME_ARRAY(dirty, a->pages);
    SAME_ARRAY(vertex_dirty, a->vertex_pages);
    same_touched(a, b, 0, batch);
    same_touched(a, b, 1, batch);
}

static void same_out(const pf_dyn_batch_out *x, const pf_dyn_batch_out *y)
{
    ck_assert_int_eq(x->flow_cut, y->flow_cut);
    ck_assert_int_eq(x->rerouted, y->rerouted);
    ck_assert_int_eq(x->deficits, y->deficits);
    ck_assert_int_eq(x->covered, y->covered);
    ck_assert_int_eq(x->repair_steps, y->repair_steps);
    ck_assert_int_eq(x->source_pushed, y->source_pushed);
    ck_assert_int_eq(x->recompacted, y->recompacted);
    ck_assert_int_eq(x->reset, y->reset);
}

/* The stream on net (taken over): deficits covered by pairs or repaired. */
static void run_pair(pf_network *net, int64_t max_cap, int cover, uint64_t seed)
{
    ck_assert_ptr_nonnull(net);
    pair_run r = {.net = net, .max_cap = max_cap};
    pf_rng_seed(&r.rng, seed);
    pf_dyn_params p;
    pf_dyn_params_default(&p);
    p.threads = 1;
    r.one = build_from(net, &p);
    p.threads = 4;
    r.four = build_from(net, &p);
    r.one.cover_deficits = r.four.cover_deficits = cover;
    int64_t cold = cold_value(net);
    ck_assert_int_eq(warm_value(&r.one, 1), cold);
    ck_assert_int_eq(warm_value(&r.four, 1), cold);
    pf_dyn_change *c = malloc(BATCH * sizeof *c);
    int64_t rerouted = 0, flow_cut = 0;
    for (int batch = 0; batch < BATCHES; batch++) {
        pf_dyn_clean(&r.one);
        pf_dyn_clean(&r.four);
        int64_t count = draw_batch(&r, c);
        pf_dyn_batch_out x, y;
        apply_ok(&r.one, c, count, &x);
        apply_ok(&r.four, c, count, &y);
        same_out(&x, &y);
        same_graph(&r.one, &r.four, batch);
        rerouted += x.rerouted;
        flow_cut += x.flow_cut;
        for (int64_t k = 0; k < count; k++)
            mirror(&r, &c[k]);
        cold = cold_value(r.net);
        int64_t one = warm_value(&r.one, 1) - r.one.cover_total;
        int64_t four = warm_value(&r.four, 1) - r.four.cover_total;
        PF_EXPECT(one == cold && four == cold, "seed %llu batch %d: warm %lld / %lld, cold %lld",
                  (unsigned long long)seed, batch, (long long)one, (long long)four,
                  (long long)cold);
        pf_dyn_cover_trim(&r.one);
        pf_dyn_cover_trim(&r.four);
        same_graph(&r.one, &r.four, batch);
    }
    /* The stream cut flow, and sent some of it round. */
    ck_assert(flow_cut > 0 && rerouted > 0);
    free(c);
    free(r.gone);
    pf_dyn_free(&r.one);
    pf_dyn_free(&r.four);
    pf_network_free(r.net);
}

START_TEST(same_on_any_threads)
{
    pf_status st;
    const int cover = _i;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        run_pair(pf_gen_grid2d(100, 100, 4, 30, seed, &st), 30, cover, seed);
        run_pair(pf_gen_random(4000, 40000, 100, seed, &st), 100, cover, seed + 10);
        run_pair(pf_gen_rmf(10, 20, 1, 100, seed, &st), 100, cover, seed + 20);
        run_pair(pf_gen_rlg(60, 120, 50, seed, &st), 50, cover, seed + 30);
    }
}
END_TEST

/* Long batches with one bad change (checked in chunks on the host's
 * threads, dyn_apply.c): refused whole, naming that change as a short
 * batch would, every array as it was. */
START_TEST(refused_long_batches)
{
    pf_status st;
    pf_network *net = pf_gen_grid2d(60, 60, 4, 30, 1, &st);
    ck_assert_ptr_nonnull(net);
    pf_dyn_params p;
    pf_dyn_params_default(&p);
    p.threads = 4;
    pf_dyn_graph d = build_from(net, &p);
    ck_assert_int_eq(warm_value(&d, 1), cold_value(net));
    pf_dyn_change gone[] = {{.kind = PF_DYN_DEL, .id = 7}};
    apply_ok(&d, gone, 1, NULL);
    pf_dyn_clean(&d);
    enum { LONG = 30000 };
    pf_dyn_change *c = malloc(LONG * sizeof *c);
    const int64_t n = d.view.n, ids = d.ids;
    for (int64_t k = 0; k < LONG; k++)
        c[k] = k % 3 ? (pf_dyn_change){.kind = PF_DYN_CAP, .id = 8 + k % (ids - 8), .cap = k % 40}
                     : (pf_dyn_change){.kind = PF_DYN_ADD, .tail = k % n, .head = (7 * k) % n,
                                       .cap = 5};
    c[100] = (pf_dyn_change){.kind = PF_DYN_ADDV, .count = 2};
    /* each fault at a place past the first chunks, the changes before it fine */
    const struct {
        int64_t at;
        pf_dyn_change bad;
        const char *says;
    } faults[] = {
        {29999, {.kind = PF_DYN_CAP, .id = ids + LONG, .cap = 1}, "change 29999: arc"},
        {20001, {.kind = PF_DYN_DEL, .id = 7}, "change 20001: arc 7 was deleted"},
        {12000, {.kind = PF_DYN_CAP, .id = 9, .cap = -3}, "change 12000: negative capacity -3"},
        {15000, {.kind = PF_DYN_ADD, .tail = n + 2, .head = 0, .cap = 1},
         "change 15000: vertex"},
        {9000, {.kind = PF_DYN_ADDV, .count = 0}, "change 9000: adds 0 vertices"},
        {25000, {.kind = 77}, "change 25000: unknown kind 77"},
        {17000, {.kind = PF_DYN_ADD, .tail = d.view.source, .head = 1, .cap = INT64_MAX / 2},
         "change 17003: the capacity out of the source passes"},
    };
    for (size_t f = 0; f < sizeof faults / sizeof *faults; f++) {
        const int64_t at = faults[f].at;
        /* the source's capacity: the second of two such arcs passes 2^63 - 1 */
        const int twice = faults[f].bad.kind == PF_DYN_ADD && faults[f].bad.cap == INT64_MAX / 2;
        pf_dyn_change keep = c[at], keep2 = twice ? c[at + 3] : keep;
        c[at] = faults[f].bad;
        if (twice)
            c[at + 3] = faults[f].bad;
        expect_refused(&d, c, LONG, faults[f].says);
        c[at] = keep;
        if (twice)
            c[at + 3] = keep2;
    }
    /* the vertex that an ADDV earlier in the batch made is in the graph */
    c[15000] = (pf_dyn_change){.kind = PF_DYN_ADD, .tail = n + 1, .head = 0, .cap = 1};
    apply_ok(&d, c, LONG, NULL);
    free(c);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dyn_batch");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 300);
    /* deficits repaired (0), covered by pairs (1) */
    tcase_add_loop_test(tc, same_on_any_threads, 0, 2);
    tcase_add_test(tc, refused_long_batches);
    suite_add_tcase(s, tc);
    return pf_test_run(s);
}
