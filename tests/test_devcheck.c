/* The argument checks at the device interface (src/host/dev_check.c), for
 * the backend named on the command line: every step called with a bad
 * argument through the checked table fails with PF_E_USAGE and a message,
 * and writes nothing (each buffer reads back as it was); good calls pass
 * through unchanged. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "host/dev_check.h"
#include "host/registry.h"
#include "support.h"

enum { N = 64, ARCS = 128 };

static const pf_device_ops *ops; /* the checked table */

typedef struct fixture {
    pf_dev *dev;
    pf_status st;
    pf_dev_graph g;
    pf_buf *bufs[24];
    int buf_count;
} fixture;

#define EXPECT_USAGE(call)                                                                    \
    do {                                                                                      \
        pf_status_clear(&f.st);                                                               \
        int rc_ = (call);                                                                     \
        PF_EXPECT(rc_ == PF_E_USAGE, "%s: %d (%s), expected PF_E_USAGE", #call, rc_,           \
                  f.st.message);                                                              \
        ck_assert_msg(strlen(f.st.message) > 0, "%s: no message", #call);                    \
    } while (0)

static void pf_status_clear(pf_status *st)
{
    st->code = PF_OK;
    st->message[0] = '\0';
}

/* A buffer of `bytes`, every byte 0x5a: what "nothing written" reads as. */
static pf_buf *marked(fixture *f, size_t bytes)
{
    pf_buf *b = NULL;
    ck_assert_int_eq(ops->alloc(f->dev, bytes, &b, &f->st), PF_OK);
    unsigned char *pattern = malloc(bytes);
    memset(pattern, 0x5a, bytes);
    ck_assert_int_eq(ops->upload(f->dev, b, 0, pattern, bytes, &f->st), PF_OK);
    free(pattern);
    f->bufs[f->buf_count++] = b;
    return b;
}

static void expect_unwritten(fixture *f, pf_buf *b, size_t bytes)
{
    unsigned char *got = malloc(bytes);
    ck_assert_int_eq(ops->download(f->dev, b, 0, got, bytes, &f->st), PF_OK);
    for (size_t i = 0; i < bytes; i++)
        PF_EXPECT(got[i] == 0x5a, "byte %zu of a %zu-byte buffer written: 0x%02x", i, bytes,
                  got[i]);
    free(got);
}

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    pf_open_params params = {.device_index = -1};
    pf_device_desc desc;
    PF_EXPECT(ops->open(&params, &f->dev, &desc, &f->st) == PF_OK, "open: %s", f->st.message);
    pf_dev_graph *g = &f->g;
    g->n = N;
    g->arcs = ARCS;
    g->source = 0;
    g->sink = N - 1;
    g->cap_bits = 64;
    g->first = marked(f, (N + 1) * 8);
    g->head = marked(f, ARCS * 4);
    g->rev = marked(f, ARCS * 4);
    g->res = marked(f, ARCS * 8);
    g->excess = marked(f, N * 8);
    g->height = marked(f, N * 4);
    g->flags = marked(f, N * 4);
    g->list_a = marked(f, N * 4);
    g->list_b = marked(f, N * 4);
    g->counters = marked(f, PF_CTR_COUNT * 8);
    g->owner = marked(f, N * 4);
}

static void expect_graph_unwritten(fixture *f)
{
    const size_t sizes[] = {(N + 1) * 8, ARCS * 4, ARCS * 4, ARCS * 8, N * 8, N * 4,
                            N * 4,       N * 4,    N * 4,    PF_CTR_COUNT * 8, N * 4};
    for (int i = 0; i < 11; i++)
        expect_unwritten(f, f->bufs[i], sizes[i]);
}

static void teardown(fixture *f)
{
    for (int i = 0; i < f->buf_count; i++)
        ops->release(f->dev, f->bufs[i]);
    ops->close(f->dev);
}

/* The fill that wrote count elements before it looked at the buffer's
 * size: refused now before the backend sees it. */
START_TEST(fill_past_the_end_writes_nothing)
{
    fixture f;
    setup(&f);
    pf_buf *b = marked(&f, 16);
    EXPECT_USAGE(ops->fill_i32(f.dev, b, 7, 5, &f.st));
    EXPECT_USAGE(ops->fill_i64(f.dev, b, 7, 3, &f.st));
    EXPECT_USAGE(ops->fill_i64(f.dev, b, 7, -1, &f.st));
    EXPECT_USAGE(ops->fill_i32(f.dev, NULL, 7, 1, &f.st));
    expect_unwritten(&f, b, 16);
    /* A fill that fits goes through. */
    ck_assert_int_eq(ops->fill_i32(f.dev, b, 7, 4, &f.st), PF_OK);
    int32_t got[4];
    ck_assert_int_eq(ops->download(f.dev, b, 0, got, sizeof got, &f.st), PF_OK);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(got[i], 7);
    teardown(&f);
}
END_TEST

START_TEST(transfers_outside_a_buffer_are_refused)
{
    fixture f;
    setup(&f);
    pf_buf *b = marked(&f, 32);
    char src[64] = {0}, dst[64];
    memset(dst, 0x11, sizeof dst);
    EXPECT_USAGE(ops->upload(f.dev, b, 0, src, 33, &f.st));
    EXPECT_USAGE(ops->upload(f.dev, b, 30, src, 4, &f.st));
    EXPECT_USAGE(ops->upload(f.dev, b, 40, src, 0, &f.st));
    EXPECT_USAGE(ops->upload(f.dev, b, (size_t)-8, src, 16, &f.st)); /* wraps around */
    EXPECT_USAGE(ops->upload(f.dev, b, 0, NULL, 4, &f.st));
    EXPECT_USAGE(ops->download(f.dev, b, 16, dst, 17, &f.st));
    EXPECT_USAGE(ops->download(f.dev, b, 0, NULL, 4, &f.st));
    for (size_t i = 0; i < sizeof dst; i++)
        ck_assert_int_eq(dst[i], 0x11);
    expect_unwritten(&f, b, 32);
    teardown(&f);
}
END_TEST

START_TEST(scan_and_filter_counts_are_checked)
{
    fixture f;
    setup(&f);
    if (!ops->scan_i32) {
        teardown(&f);
        return; /* a backend without the max-flow steps */
    }
    pf_buf *in = marked(&f, 16), *out = marked(&f, 8);
    int64_t total = 0, selected = 0;
    EXPECT_USAGE(ops->scan_i32(f.dev, in, out, 4, &total, &f.st));   /* out holds 2 */
    EXPECT_USAGE(ops->scan_i32(f.dev, in, in, 5, &total, &f.st));
    EXPECT_USAGE(ops->scan_i32(f.dev, in, in, -1, &total, &f.st));
    EXPECT_USAGE(ops->scan_i32(f.dev, in, in, 4, NULL, &f.st));
    EXPECT_USAGE(ops->filter_i32(f.dev, in, out, 4, &selected, &f.st));
    EXPECT_USAGE(ops->filter_i32(f.dev, in, in, 5, &selected, &f.st));
    expect_unwritten(&f, in, 16);
    expect_unwritten(&f, out, 8);
    teardown(&f);
}
END_TEST

START_TEST(sparse_transfer_sizes_are_checked)
{
    fixture f;
    setup(&f);
    if (!ops->put_at) {
        teardown(&f);
        return; /* a backend without sparse transfers */
    }
    pf_buf *array = marked(&f, 64), *index = marked(&f, 16), *values = marked(&f, 32);
    pf_buf *flags = marked(&f, 16);
    EXPECT_USAGE(ops->put_at(f.dev, array, 2, 0, 8, index, values, 4, &f.st)); /* width */
    EXPECT_USAGE(ops->put_at(f.dev, array, 8, 0, 9, index, values, 4, &f.st)); /* limit */
    EXPECT_USAGE(ops->put_at(f.dev, array, 8, -1, 8, index, values, 4, &f.st));
    EXPECT_USAGE(ops->put_at(f.dev, array, 8, 0, 8, index, values, 5, &f.st)); /* list */
    EXPECT_USAGE(ops->take_at(f.dev, array, 0, 8, index, values, 5, &f.st));
    EXPECT_USAGE(ops->take_at(f.dev, array, 0, 9, index, values, 4, &f.st));
    EXPECT_USAGE(ops->mark_changed(f.dev, array, values, 0, flags, 5, &f.st)); /* snapshot */
    EXPECT_USAGE(ops->mark_changed(f.dev, array, array, 5, flags, 4, &f.st));
    EXPECT_USAGE(ops->mark_changed(f.dev, array, array, 0, flags, -1, &f.st));
    expect_unwritten(&f, array, 64);
    expect_unwritten(&f, flags, 16);
    teardown(&f);
}
END_TEST

START_TEST(maxflow_steps_arguments_are_checked)
{
    fixture f;
    setup(&f);
    if (!ops->caps.maxflow_steps) {
        teardown(&f);
        return;
    }
    pf_dev_graph bad = f.g;
    pf_buf *small = marked(&f, 8);
    int64_t work = 0, count = 1;
    EXPECT_USAGE(ops->mark_active(f.dev, &f.g, small, &f.st));
    EXPECT_USAGE(ops->saturate_from(f.dev, &f.g, N, &f.st));
    EXPECT_USAGE(ops->saturate_from(f.dev, &f.g, -1, &f.st));
    EXPECT_USAGE(ops->push_relabel(f.dev, &f.g, f.g.list_a, N + 1, 4, &work, &f.st));
    EXPECT_USAGE(ops->push_relabel(f.dev, &f.g, small, 3, 4, &work, &f.st));
    EXPECT_USAGE(ops->cancel_violations(f.dev, &f.g, f.g.list_a, -2, &f.st));
    pf_buf *frontier[2] = {f.g.list_b, f.g.flags};
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, frontier, 0, 4, 1, N, &count, &f.st));
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, frontier, -1, 4, 1, -1, &count, &f.st));
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, frontier, 0, 0, 1, -1, &count, &f.st));
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, frontier, 0, 4, 0, -1, &count, &f.st));
    EXPECT_USAGE(
        ops->bfs_levels(f.dev, &f.g, frontier, 0, 4, PF_DEV_HOPS_MOST + 1, -1, &count, &f.st));
    pf_buf *short_frontier[2] = {f.g.list_b, small};
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, short_frontier, 0, 4, 1, -1, &count, &f.st));
    count = N + 1;
    EXPECT_USAGE(ops->bfs_levels(f.dev, &f.g, frontier, 0, 4, 1, -1, &count, &f.st));
    /* A graph whose own sizes or terminals are wrong. */
    bad.sink = bad.source;
    EXPECT_USAGE(ops->mark_active(f.dev, &bad, f.g.flags, &f.st));
    bad = f.g;
    bad.cap_bits = 16;
    EXPECT_USAGE(ops->mark_active(f.dev, &bad, f.g.flags, &f.st));
    bad = f.g;
    bad.arcs = ARCS + 1; /* head, rev and res hold ARCS */
    EXPECT_USAGE(ops->cancel_violations(f.dev, &bad, f.g.list_a, 0, &f.st));
    bad = f.g;
    bad.follow_excess = 1;
    bad.owner = small;
    EXPECT_USAGE(ops->push_relabel(f.dev, &bad, f.g.list_a, 1, 4, &work, &f.st));
    expect_graph_unwritten(&f);
    expect_unwritten(&f, small, 8);
    teardown(&f);
}
END_TEST

/* The analytics steps: a graph whose buffers are smaller than its sizes,
 * frontiers past n, short distance or flag buffers, a pull or parents
 * without the reverse graph, vertex ids outside the graph, too few slots
 * for a batch of SSSP steps: refused, nothing written. */
START_TEST(analytics_steps_arguments_are_checked)
{
    fixture f;
    setup(&f);
    if (!ops->bfs_push) {
        teardown(&f);
        return;
    }
    pf_buf *small = marked(&f, 8);
    pf_buf *counters = marked(&f, PF_GCTR_COUNT * 8);
    pf_buf *d64 = marked(&f, N * 8), *pile = marked(&f, N * 4);
    pf_dev_csr g = {.n = N, .m = ARCS, .first = f.g.first, .head = f.g.head,
                    .counters = counters, .lb_degree = f.g.list_a, .lb_offset = f.g.list_b};
    pf_dev_csr bad = g;
    int64_t a = 0, b = 0;
    pf_sssp_far_out far_out;
    /* bfs_push: a frontier past n, into a short buffer, short dist */
    EXPECT_USAGE(ops->bfs_push(f.dev, &g, f.g.flags, N + 1, 0, f.g.height, 0, f.g.owner, &a, &b,
                               &f.st));
    EXPECT_USAGE(ops->bfs_push(f.dev, &g, small, 3, 0, f.g.height, 0, f.g.owner, &a, &b, &f.st));
    EXPECT_USAGE(ops->bfs_push(f.dev, &g, f.g.flags, 1, 0, small, 0, f.g.owner, &a, &b, &f.st));
    EXPECT_USAGE(ops->bfs_push(f.dev, &g, f.g.flags, 1, 0, f.g.height, 0, f.g.owner, NULL, &b,
                               &f.st));
    /* the graph's own buffers and sizes */
    bad.m = ARCS + 1;
    EXPECT_USAGE(ops->bfs_push(f.dev, &bad, f.g.flags, 1, 0, f.g.height, 0, f.g.owner, &a, &b,
                               &f.st));
    bad = g;
    bad.weights = 1; /* without a weight buffer */
    EXPECT_USAGE(ops->bfs_push(f.dev, &bad, f.g.flags, 1, 0, f.g.height, 0, f.g.owner, &a, &b,
                               &f.st));
    bad = g;
    bad.counters = small;
    EXPECT_USAGE(ops->bfs_push(f.dev, &bad, f.g.flags, 1, 0, f.g.height, 0, f.g.owner, &a, &b,
                               &f.st));
    /* pull and parents need the reverse graph; parents a source in the graph */
    EXPECT_USAGE(ops->bfs_pull(f.dev, &g, f.g.height, 0, f.g.owner, &a, &b, &f.st));
    EXPECT_USAGE(ops->bfs_parents(f.dev, &g, f.g.height, 0, f.g.owner, &f.st));
    bad = g;
    bad.rfirst = f.g.first;
    bad.rhead = f.g.head;
    EXPECT_USAGE(ops->bfs_parents(f.dev, &bad, f.g.height, N, f.g.owner, &f.st));
    EXPECT_USAGE(ops->bfs_pull(f.dev, &bad, f.g.height, 0, small, &a, &b, &f.st));
    /* SSSP: int64 distances, each per-vertex buffer, the answer's place */
    EXPECT_USAGE(ops->sssp_relax(f.dev, &g, f.g.flags, 1, 0, f.g.height, f.g.owner, 0, pile,
                                 f.g.flags, 0, 0, &a, &b, &f.st));
    EXPECT_USAGE(ops->sssp_relax(f.dev, &g, f.g.flags, 1, 0, d64, small, 0, pile, f.g.flags, 0,
                                 0, &a, &b, &f.st));
    EXPECT_USAGE(ops->sssp_far(f.dev, &g, d64, f.g.flags, 0, 0, small, &far_out, &f.st));
    EXPECT_USAGE(ops->sssp_far(f.dev, &g, d64, f.g.flags, 0, 0, pile, NULL, &f.st));
    EXPECT_USAGE(ops->intersect_count(f.dev, &g, NULL, &f.st));
    if (ops->sssp_bucket_steps) {
        pf_buf *lists[2] = {f.g.owner, pile}, *piles[2] = {f.g.flags, small};
        pf_buf *slots = marked(&f, 2 * PF_SSSP_SLOT_WORDS * 8); /* one step's */
        EXPECT_USAGE(ops->sssp_bucket_steps(f.dev, &g, lists, lists, slots, 2, 1, d64,
                                            f.g.height, 0, f.g.flags, 1, 1, &f.st));
        EXPECT_USAGE(ops->sssp_bucket_steps(f.dev, &g, lists, lists, slots, 0, 1, d64,
                                            f.g.height, 0, f.g.flags, 1, 1, &f.st));
        EXPECT_USAGE(ops->sssp_bucket_steps(f.dev, &g, lists, piles, slots, 1, 1, d64,
                                            f.g.height, 0, f.g.flags, 1, 1, &f.st));
        expect_unwritten(&f, slots, 2 * PF_SSSP_SLOT_WORDS * 8);
    }
    if (ops->sssp_solve)
        EXPECT_USAGE(ops->sssp_solve(f.dev, &g, d64, N, 1, 1, 1, &a, &f.st));
    if (ops->bfs_push_levels) {
        pf_buf *lists[2] = {f.g.owner, small};
        double seconds[4];
        int32_t done = 0;
        int64_t found[8];
        EXPECT_USAGE(ops->bfs_push_levels(f.dev, &g, lists, 1, 0, f.g.height, 0, 4, ARCS, 15,
                                          2, found, seconds, &done, &f.st));
        lists[1] = pile;
        EXPECT_USAGE(ops->bfs_push_levels(f.dev, &g, lists, 1, 0, f.g.height, 0, 0, ARCS, 15,
                                          2, found, seconds, &done, &f.st));
    }
    expect_graph_unwritten(&f);
    expect_unwritten(&f, small, 8);
    expect_unwritten(&f, counters, PF_GCTR_COUNT * 8);
    expect_unwritten(&f, d64, N * 8);
    expect_unwritten(&f, pile, N * 4);
    teardown(&f);
}
END_TEST

START_TEST(floyd_warshall_arguments_are_checked)
{
    fixture f;
    setup(&f);
    enum { ORDER = 64 };
    pf_buf *dist = marked(&f, ORDER * ORDER * 4), *small = marked(&f, 16);
    pf_dev_apsp a = {.n = ORDER, .tile = 32, .kind = PF_DIST_I32, .dist = dist};
    if (ops->fw_phase) {
        EXPECT_USAGE(ops->fw_phase(f.dev, &a, 0, 4, &f.st));
        EXPECT_USAGE(ops->fw_phase(f.dev, &a, 2, 1, &f.st)); /* rounds 0 and 1 */
        pf_dev_apsp odd = a;
        odd.tile = 48;
        EXPECT_USAGE(ops->fw_phase(f.dev, &odd, 0, 1, &f.st));
        odd = a;
        odd.kind = PF_DIST_I64; /* the buffer holds int32 */
        EXPECT_USAGE(ops->fw_phase(f.dev, &odd, 0, 1, &f.st));
        odd = a;
        odd.next = small;
        EXPECT_USAGE(ops->fw_phase(f.dev, &odd, 0, 1, &f.st));
    }
    if (ops->fw_step) {
        int variant = ops->fw_variants & 1u << PF_FW_PLAIN ? PF_FW_PLAIN : PF_FW_PER_K;
        EXPECT_USAGE(ops->fw_step(f.dev, &a, variant, ORDER, &f.st));
        EXPECT_USAGE(ops->fw_step(f.dev, &a, variant, -1, &f.st));
        EXPECT_USAGE(ops->fw_step(f.dev, &a, PF_FW_BLOCKED, 0, &f.st));
        pf_dev_apsp odd = a;
        odd.n = 48;
        EXPECT_USAGE(ops->fw_step(f.dev, &odd, variant, 0, &f.st));
    }
    if (ops->fw_stats) {
        pf_fw_stats sums;
        EXPECT_USAGE(ops->fw_stats(f.dev, &a, ORDER + 1, &sums, &f.st));
    }
    expect_unwritten(&f, dist, ORDER * ORDER * 4);
    teardown(&f);
}
END_TEST

/* Where checking is on (the test environment sets PORTAFLOW_CHECK_ARGS),
 * the driver and pf_apsp get the checked table. */
START_TEST(checking_is_on_in_tests)
{
    ck_assert(pf_dev_check_enabled());
    ck_assert_ptr_eq(pf_dev_check_ops(pf_backend_at(0)), pf_dev_checked(pf_backend_at(0)));
}
END_TEST

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "seq";
    char why[512];
    const pf_device_ops *inner = pf_backend_find(backend);
    if (!inner || pf_test_backend_devices(backend, why, sizeof why) == 0) {
        printf("SKIP: %s\n", inner ? why : "not compiled into this build");
        return PF_TEST_SKIP;
    }
    ops = pf_dev_checked(inner);
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("devcheck");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fill_past_the_end_writes_nothing);
    tcase_add_test(tc, transfers_outside_a_buffer_are_refused);
    tcase_add_test(tc, scan_and_filter_counts_are_checked);
    tcase_add_test(tc, sparse_transfer_sizes_are_checked);
    tcase_add_test(tc, maxflow_steps_arguments_are_checked);
    tcase_add_test(tc, analytics_steps_arguments_are_checked);
    tcase_add_test(tc, floyd_warshall_arguments_are_checked);
    tcase_add_test(tc, checking_is_on_in_tests);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
