/* Each step of the device interface against a plain reference, run for the
 * backend named on the command line, on every device it has. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/knobs.h"
#include "common/gen.h"
#include "common/hostcopy.h"
#include "common/residual.h"
#include "device/device.h"
#include "host/dev_check.h"
#include "host/registry.h"
#include "support.h"

static const pf_device_ops *ops;
static int device_count;
/* Width of residuals and excess in the max-flow step tests: 64 where
 * device 0 runs it, else 32 (a device without 64-bit atomics);
 * PORTAFLOW_CAP_BITS=32 tests the 32-bit kernels on any device. */
static int cap_bits = 64;
static int has_64; /* device 0 runs 64-bit steps (the sparse transfers need them) */

typedef struct fixture {
    pf_dev *dev;
    pf_status st;
} fixture;

static void open_device(fixture *f, int index)
{
    pf_open_params params = {.device_index = index, .threads = 0};
    pf_device_desc desc;
    int rc = ops->open(&params, &f->dev, &desc, &f->st);
    PF_EXPECT(rc == PF_OK, "open: %s", f->st.message);
}

#define CHECK_OK(call) PF_EXPECT((call) == PF_OK, "%s: %s", #call, f.st.message)

static pf_buf *upload_new(fixture *f, const void *data, size_t bytes)
{
    pf_buf *b = NULL;
    ck_assert_int_eq(ops->alloc(f->dev, bytes ? bytes : 4, &b, &f->st), PF_OK);
    if (data && bytes)
        ck_assert_int_eq(ops->upload(f->dev, b, 0, data, bytes, &f->st), PF_OK);
    return b;
}

static const int64_t scan_sizes[] = {0, 1, 2, 7, 255, 256, 257, 1000, 65537, (1 << 20) + 3};

START_TEST(scan_matches_reference)
{
    fixture f;
    open_device(&f, _i % device_count);
    size_t which = (size_t)(_i / device_count);
    int64_t count = scan_sizes[which];
    int32_t *in = malloc((size_t)(count + 1) * 4), *out = malloc((size_t)(count + 1) * 4);
    pf_rng rng;
    pf_rng_seed(&rng, 7 + which);
    for (int64_t i = 0; i < count; i++)
        in[i] = (int32_t)pf_rng_range(&rng, 0, 3);
    pf_buf *din = upload_new(&f, in, (size_t)count * 4), *dout = upload_new(&f, NULL, (size_t)count * 4);
    int64_t total = -1;
    CHECK_OK(ops->scan_i32(f.dev, din, dout, count, &total, &f.st));
    if (count)
        CHECK_OK(ops->download(f.dev, dout, 0, out, (size_t)count * 4, &f.st));
    int64_t run = 0;
    for (int64_t i = 0; i < count; i++) {
        PF_EXPECT(out[i] == run, "scan[%lld] = %d, expected %lld (n=%lld)", (long long)i,
                      out[i], (long long)run, (long long)count);
        run += in[i];
    }
    ck_assert_int_eq(total, run);
    ops->release(f.dev, din);
    ops->release(f.dev, dout);
    ops->close(f.dev);
    free(in);
    free(out);
}
END_TEST

START_TEST(filter_matches_reference)
{
    fixture f;
    open_device(&f, _i % device_count);
    size_t which = (size_t)(_i / device_count);
    int64_t count = scan_sizes[which];
    int32_t *flags = malloc((size_t)(count + 1) * 4), *out = malloc((size_t)(count + 1) * 4);
    pf_rng rng;
    pf_rng_seed(&rng, 11 + which);
    for (int64_t i = 0; i < count; i++)
        flags[i] = pf_rng_range(&rng, 0, 2) == 0 ? (int32_t)pf_rng_range(&rng, 1, 5) : 0;
    pf_buf *dflags = upload_new(&f, flags, (size_t)count * 4);
    pf_buf *dout = upload_new(&f, NULL, (size_t)count * 4);
    int64_t selected = -1;
    CHECK_OK(ops->filter_i32(f.dev, dflags, dout, count, &selected, &f.st));
    if (selected > 0)
        CHECK_OK(ops->download(f.dev, dout, 0, out, (size_t)selected * 4, &f.st));
    int64_t k = 0;
    for (int64_t i = 0; i < count; i++)
        if (flags[i]) {
            PF_EXPECT(k < selected && out[k] == i, "filter[%lld] = %d, expected %lld",
                          (long long)k, k < selected ? out[k] : -1, (long long)i);
            k++;
        }
    ck_assert_int_eq(selected, k);
    ops->release(f.dev, dflags);
    ops->release(f.dev, dout);
    ops->close(f.dev);
    free(flags);
    free(out);
}
END_TEST

/* Residuals or excess in the tests' width, to and from int64. */
static void upload_caps(fixture *f, pf_buf *buf, const int64_t *values, int64_t count)
{
    if (cap_bits == 64) {
        ck_assert_int_eq(ops->upload(f->dev, buf, 0, values, (size_t)count * 8, &f->st), PF_OK);
        return;
    }
    int32_t *narrow = malloc((size_t)count * 4 + 4);
    for (int64_t i = 0; i < count; i++)
        narrow[i] = (int32_t)values[i];
    ck_assert_int_eq(ops->upload(f->dev, buf, 0, narrow, (size_t)count * 4, &f->st), PF_OK);
    free(narrow);
}

static void download_caps(fixture *f, pf_buf *buf, int64_t *values, int64_t count)
{
    if (cap_bits == 64) {
        ck_assert_int_eq(ops->download(f->dev, buf, 0, values, (size_t)count * 8, &f->st),
                         PF_OK);
        return;
    }
    int32_t *narrow = malloc((size_t)count * 4 + 4);
    ck_assert_int_eq(ops->download(f->dev, buf, 0, narrow, (size_t)count * 4, &f->st), PF_OK);
    for (int64_t i = 0; i < count; i++)
        values[i] = narrow[i];
    free(narrow);
}

/* A device copy of a residual graph plus host mirrors for checking. */
typedef struct test_graph {
    pf_network *net;
    pf_residual h;
    pf_dev_graph g;
} test_graph;

static void build_graph(fixture *f, test_graph *t, int64_t n, int64_t m, uint64_t seed)
{
    pf_status st;
    t->net = pf_gen_random(n, m, 50, seed, &st);
    ck_assert_ptr_nonnull(t->net);
    ck_assert_int_eq(pf_residual_build(t->net, &t->h, PF_ARCS_INPUT, 0, &st), PF_OK);
    pf_dev_graph *g = &t->g;
    memset(g, 0, sizeof *g);
    g->n = t->h.n;
    g->arcs = t->h.arcs;
    g->source = t->h.source;
    g->sink = t->h.sink;
    g->cap_bits = cap_bits;
    size_t nn = (size_t)n, arcs = (size_t)t->h.arcs, cb = (size_t)cap_bits / 8;
    g->first = upload_new(f, t->h.first, (nn + 1) * 8);
    g->head = upload_new(f, t->h.head, arcs * 4);
    int32_t *rev_device = malloc(arcs * 4 + 4);
    if (ops->caps.rev_absolute)
        pf_residual_rev_indices(&t->h, (uint32_t *)rev_device, 0);
    else
        ck_assert_int_eq(pf_residual_rev_offsets(&t->h, rev_device, 0, &f->st), PF_OK);
    g->rev = upload_new(f, rev_device, arcs * 4);
    free(rev_device);
    g->res = upload_new(f, NULL, arcs * cb);
    upload_caps(f, g->res, t->h.cap, (int64_t)arcs);
    g->excess = upload_new(f, NULL, nn * cb);
    g->height = upload_new(f, NULL, nn * 4);
    g->flags = upload_new(f, NULL, nn * 4);
    g->list_a = upload_new(f, NULL, nn * 4);
    g->list_b = upload_new(f, NULL, nn * 4);
    g->counters = upload_new(f, NULL, PF_CTR_COUNT * 8);
    g->owner = upload_new(f, NULL, nn * 4);
    ck_assert_int_eq(ops->fill_i32(f->dev, g->owner, 0, g->n, &f->st), PF_OK);
    if (cap_bits == 64)
        ck_assert_int_eq(ops->fill_i64(f->dev, g->excess, 0, g->n, &f->st), PF_OK);
    else
        ck_assert_int_eq(ops->fill_i32(f->dev, g->excess, 0, g->n, &f->st), PF_OK);
    ck_assert_int_eq(ops->fill_i32(f->dev, g->height, 0, g->n, &f->st), PF_OK);
    ck_assert_int_eq(ops->fill_i64(f->dev, g->counters, 0, PF_CTR_COUNT, &f->st), PF_OK);
}

static void free_graph(fixture *f, test_graph *t)
{
    pf_buf *bufs[] = {t->g.first, t->g.head,  t->g.rev,    t->g.res,    t->g.excess,
                      t->g.height, t->g.flags, t->g.list_a, t->g.list_b, t->g.counters,
                      t->g.owner};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        ops->release(f->dev, bufs[i]);
    pf_residual_free(&t->h);
    pf_network_free(t->net);
}

/* Preflow invariants: residual pairs conserve capacity, none negative,
 * every vertex's excess equals its net inflow, non-source excess >= 0. */
static void check_preflow(fixture *f, test_graph *t)
{
    const pf_residual *h = &t->h;
    int64_t *res = malloc((size_t)h->arcs * 8 + 8), *excess = malloc((size_t)h->n * 8);
    int32_t *height = malloc((size_t)h->n * 4);
    download_caps(f, t->g.res, res, h->arcs);
    download_caps(f, t->g.excess, excess, h->n);
    ck_assert_int_eq(ops->download(f->dev, t->g.height, 0, height, (size_t)h->n * 4, &f->st), PF_OK);
    for (int64_t u = 0; u < h->n; u++) {
        int64_t inflow = 0;
        for (int64_t a = h->first[u]; a < h->first[u + 1]; a++) {
            PF_EXPECT(res[a] >= 0, "negative residual %lld on arc %lld", (long long)res[a],
                          (long long)a);
            PF_EXPECT(res[a] + res[h->rev[a]] == h->cap[a] + h->cap[h->rev[a]],
                      "arc pair %lld does not conserve capacity", (long long)a);
            /* cap - res = flow out along a (negative on reverse arcs) */
            inflow -= h->cap[a] - res[a];
        }
        PF_EXPECT(excess[u] == inflow, "vertex %lld: excess %lld, net inflow %lld",
                      (long long)u, (long long)excess[u], (long long)inflow);
        if (u != h->source)
            PF_EXPECT(excess[u] >= 0, "vertex %lld has negative excess", (long long)u);
        PF_EXPECT(height[u] >= 0 && height[u] <= h->n, "height[%lld] = %d out of range",
                  (long long)u, height[u]);
    }
    free(res);
    free(excess);
    free(height);
}

/* Driver-style global relabel with `batch` launches per bfs_levels call
 * of up to `hops` levels each, the claims cleared after (owner[] is all 0
 * again, as the push steps need it); returns the number of launches. */
static int run_bfs(fixture *f, test_graph *t, int32_t target, int32_t excluded, int32_t batch,
                   int32_t hops)
{
    pf_dev_graph *g = &t->g;
    int32_t zero = 0;
    ck_assert_int_eq(ops->fill_i32(f->dev, g->height, (int32_t)g->n, g->n, &f->st), PF_OK);
    ck_assert_int_eq(ops->upload(f->dev, g->height, (size_t)target * 4, &zero, 4, &f->st), PF_OK);
    ck_assert_int_eq(ops->upload(f->dev, g->list_a, 0, &target, 4, &f->st), PF_OK);
    pf_buf *frontier[2] = {g->list_a, g->list_b};
    int64_t count = 1;
    int level = 0;
    while (count > 0) {
        ck_assert_int_eq(
            ops->bfs_levels(f->dev, g, frontier, level, batch, hops, excluded, &count, &f->st),
            PF_OK);
        if (batch % 2) {
            pf_buf *tmp = frontier[0];
            frontier[0] = frontier[1];
            frontier[1] = tmp;
        }
        level += batch;
    }
    if (hops > 1)
        ck_assert_int_eq(ops->fill_i32(f->dev, g->owner, 0, g->n, &f->st), PF_OK);
    return level;
}

/* Sequential reverse BFS distances (n = unreached). */
static void reference_distances(const pf_residual *h, const int64_t *res, int32_t target,
                                int32_t excluded, int32_t *dist)
{
    int32_t *queue = malloc((size_t)h->n * 4);
    for (int64_t v = 0; v < h->n; v++)
        dist[v] = (int32_t)h->n;
    int64_t qh = 0, qt = 0;
    dist[target] = 0;
    queue[qt++] = target;
    while (qh < qt) {
        int32_t u = queue[qh++];
        for (int64_t a = h->first[u]; a < h->first[u + 1]; a++) {
            int32_t v = h->head[a];
            if (v != excluded && dist[v] == h->n && res[h->rev[a]] > 0) {
                dist[v] = dist[u] + 1;
                queue[qt++] = v;
            }
        }
    }
    free(queue);
}

static const int64_t graph_sizes[][2] = {{2, 1}, {10, 40}, {200, 2000}, {5000, 30000}, {40000, 200000}};
#define GRAPH_SIZES (sizeof graph_sizes / sizeof *graph_sizes)

START_TEST(bfs_matches_sequential)
{
    fixture f;
    open_device(&f, _i % device_count);
    size_t which = (size_t)(_i / device_count);
    test_graph t;
    build_graph(&f, &t, graph_sizes[which][0], graph_sizes[which][1], 100 + which);
    int32_t excluded = t.h.source;
    int32_t *got = malloc((size_t)t.h.n * 4), *want = malloc((size_t)t.h.n * 4);
    reference_distances(&t.h, t.h.cap, t.h.sink, excluded, want);
    /* with hops > 1 the work-groups drift apart within a launch and
     * lower heights again: the distances must come out exact all the same */
    const int32_t batches[] = {1, 2, 3, 32}, hops[] = {1, 2, 4, 8};
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++)
        for (size_t k = 0; k < sizeof hops / sizeof *hops; k++) {
            run_bfs(&f, &t, t.h.sink, excluded, batches[b], hops[k]);
            CHECK_OK(ops->download(f.dev, t.g.height, 0, got, (size_t)t.h.n * 4, &f.st));
            for (int64_t v = 0; v < t.h.n; v++)
                PF_EXPECT(got[v] == want[v],
                          "batch %d, %d hops: height[%lld] = %d, BFS distance %d", batches[b],
                          hops[k], (long long)v, got[v], want[v]);
        }
    free(got);
    free(want);
    free_graph(&f, &t);
    ops->close(f.dev);
}
END_TEST

START_TEST(push_relabel_keeps_preflow)
{
    fixture f;
    open_device(&f, _i % device_count);
    size_t which = (size_t)(_i / device_count);
    test_graph t;
    build_graph(&f, &t, graph_sizes[which][0], graph_sizes[which][1], 200 + which);
    pf_dev_graph *g = &t.g;
    run_bfs(&f, &t, t.h.sink, t.h.source, 5, 8);
    CHECK_OK(ops->saturate_from(f.dev, g, t.h.source, &f.st));
    check_preflow(&f, &t);
    for (int round = 0; round < 30; round++) {
        int64_t active = 0, work = 0;
        CHECK_OK(ops->mark_active(f.dev, g, g->flags, &f.st));
        CHECK_OK(ops->filter_i32(f.dev, g->flags, g->list_a, g->n, &active, &f.st));
        if (active == 0)
            break;
        if (round % 10 == 9)
            CHECK_OK(ops->cancel_violations(f.dev, g, g->list_a, active, &f.st));
        else
            CHECK_OK(ops->push_relabel(f.dev, g, g->list_a, active, 4, &work, &f.st));
        ck_assert(work >= 0);
        check_preflow(&f, &t);
    }
    free_graph(&f, &t);
    ops->close(f.dev);
}
END_TEST

/* The same with a work budget (device.h: an asynchronous backend keeps
 * discharging until it is spent or nothing is active): budgets from one
 * arc to unlimited keep the preflow, never lower a height, and leave the
 * owner claims all 0. */
START_TEST(push_relabel_budget_keeps_preflow)
{
    fixture f;
    open_device(&f, _i % device_count);
    size_t which = (size_t)(_i / device_count);
    test_graph t;
    build_graph(&f, &t, graph_sizes[which][0], graph_sizes[which][1], 300 + which);
    pf_dev_graph *g = &t.g;
    const size_t n = (size_t)g->n;
    int32_t *before = malloc(n * 4), *after = malloc(n * 4), *owner = malloc(n * 4);
    const int64_t budgets[] = {1, 100, 5000, INT64_MAX / 4};
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
        run_bfs(&f, &t, t.h.sink, t.h.source, 5, 8);
        CHECK_OK(ops->saturate_from(f.dev, g, t.h.source, &f.st));
        g->work_budget = budgets[b];
        for (int round = 0; round < 6; round++) {
            int64_t active = 0, work = 0;
            CHECK_OK(ops->mark_active(f.dev, g, g->flags, &f.st));
            CHECK_OK(ops->filter_i32(f.dev, g->flags, g->list_a, g->n, &active, &f.st));
            if (active == 0)
                break;
            CHECK_OK(ops->download(f.dev, g->height, 0, before, n * 4, &f.st));
            CHECK_OK(ops->push_relabel(f.dev, g, g->list_a, active, 4, &work, &f.st));
            ck_assert(work >= 0);
            check_preflow(&f, &t);
            CHECK_OK(ops->download(f.dev, g->height, 0, after, n * 4, &f.st));
            CHECK_OK(ops->download(f.dev, g->owner, 0, owner, n * 4, &f.st));
            for (size_t v = 0; v < n; v++) {
                PF_EXPECT(after[v] >= before[v], "budget %lld: height[%zu] fell from %d to %d",
                          (long long)budgets[b], v, before[v], after[v]);
                PF_EXPECT(owner[v] == 0, "budget %lld: owner[%zu] = %d after the step",
                          (long long)budgets[b], v, owner[v]);
            }
        }
    }
    g->work_budget = 0;
    free(before);
    free(after);
    free(owner);
    free_graph(&f, &t);
    ops->close(f.dev);
}
END_TEST

START_TEST(mark_active_matches_reference)
{
    fixture f;
    open_device(&f, _i % device_count);
    test_graph t;
    build_graph(&f, &t, 3000, 9000, 300);
    pf_dev_graph *g = &t.g;
    int64_t n = t.h.n;
    int64_t *excess = malloc((size_t)n * 8);
    int32_t *height = malloc((size_t)n * 4), *flags = malloc((size_t)n * 4);
    pf_rng rng;
    pf_rng_seed(&rng, 5);
    for (int64_t v = 0; v < n; v++) {
        excess[v] = pf_rng_range(&rng, -2, 3);
        height[v] = (int32_t)pf_rng_range(&rng, (int64_t)n - 3, n);
    }
    upload_caps(&f, g->excess, excess, n);
    CHECK_OK(ops->upload(f.dev, g->height, 0, height, (size_t)n * 4, &f.st));
    CHECK_OK(ops->mark_active(f.dev, g, g->flags, &f.st));
    CHECK_OK(ops->download(f.dev, g->flags, 0, flags, (size_t)n * 4, &f.st));
    for (int64_t v = 0; v < n; v++) {
        int want = v != t.h.source && v != t.h.sink && excess[v] > 0 && height[v] < n;
        PF_EXPECT((flags[v] != 0) == want, "flags[%lld] = %d", (long long)v, flags[v]);
    }
    free(excess);
    free(height);
    free(flags);
    free_graph(&f, &t);
    ops->close(f.dev);
}
END_TEST

/* Uploads and downloads of 3.x staging chunks (common/hostcopy.h) at odd
 * offsets, and small ones, arrive intact; loop index / devices: 0 forces
 * the pinned staging on every transfer (PORTAFLOW_PINNED=1, also on
 * devices that share the host's memory), 1 the default path. */
START_TEST(transfers_round_trip)
{
    int staged = _i / device_count == 0;
    if (staged)
        setenv("PORTAFLOW_PINNED", "1", 1);
    pf_knobs_reload();
    fixture f;
    open_device(&f, _i % device_count);
    const size_t bytes = 3 * PF_STAGE_CHUNK + 12345, at = 4099;
    unsigned char *in = malloc(bytes), *out = malloc(bytes);
    ck_assert(in && out);
    for (size_t k = 0; k < bytes; k++)
        in[k] = (unsigned char)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    pf_buf *b = NULL;
    CHECK_OK(ops->alloc(f.dev, at + bytes, &b, &f.st));
    CHECK_OK(ops->upload(f.dev, b, at, in, bytes, &f.st));
    memset(out, 0, bytes);
    CHECK_OK(ops->download(f.dev, b, at, out, bytes, &f.st));
    ck_assert(memcmp(in, out, bytes) == 0);
    /* A piece that starts mid-chunk, and an 8-byte readback. */
    const size_t part = PF_STAGE_CHUNK + 777;
    memset(out, 0, bytes);
    CHECK_OK(ops->download(f.dev, b, at + 5000, out, part, &f.st));
    ck_assert(memcmp(in + 5000, out, part) == 0);
    int64_t word = 0;
    CHECK_OK(ops->download(f.dev, b, at + 64, &word, 8, &f.st));
    ck_assert(memcmp(in + 64, &word, 8) == 0);
    ops->release(f.dev, b);
    ops->close(f.dev);
    free(in);
    free(out);
    if (staged)
        unsetenv("PORTAFLOW_PINNED");
    pf_knobs_reload();
}
END_TEST

/* put_at, take_at and mark_changed with filter_i32 against plain loops:
 * sizes on both sides of a work-group, indices in any order, repeats with
 * one value, and indices outside the array (skipped). */
static const int64_t sparse_sizes[] = {1, 300, (1 << 17) + 5};

START_TEST(sparse_transfers_match_reference)
{
    if (!ops->put_at || !has_64) {
        printf("SKIP: no sparse transfers here\n");
        return;
    }
    fixture f;
    open_device(&f, _i % device_count);
    const int64_t n = sparse_sizes[_i / device_count], lists = n / 3 + 2;
    pf_rng rng;
    pf_rng_seed(&rng, 31 + (uint64_t)n);
    int64_t *array = malloc((size_t)n * 8), *values = malloc((size_t)lists * 8);
    int32_t *narrow = malloc((size_t)n * 4), *index = malloc((size_t)lists * 4);
    int32_t *flags = malloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++)
        narrow[i] = (int32_t)(array[i] = (int64_t)pf_rng_range(&rng, 0, 1000));
    pf_buf *d64 = upload_new(&f, array, (size_t)n * 8);
    pf_buf *d32 = upload_new(&f, narrow, (size_t)n * 4);
    pf_buf *snap = upload_new(&f, array, (size_t)n * 8);
    for (int64_t k = 0; k < lists; k++) {
        /* the last two: one index past the end, one repeat of index 0 */
        index[k] = k == lists - 2 ? (int32_t)n : (int32_t)pf_rng_range(&rng, 0, n);
        if (k == lists - 1)
            index[k] = index[0];
        values[k] = k == lists - 1 ? values[0] : (int64_t)pf_rng_range(&rng, 1000, 2000);
    }
    for (int64_t k = 0; k < lists; k++) /* the host's order: a repeat's last value wins */
        for (int64_t j = k + 1; j < lists; j++)
            if (index[j] == index[k])
                values[j] = values[k];
    pf_buf *dindex = upload_new(&f, index, (size_t)lists * 4);
    pf_buf *dvalues = upload_new(&f, values, (size_t)lists * 8);
    CHECK_OK(ops->put_at(f.dev, d64, 8, 0, n, dindex, dvalues, lists, &f.st));
    for (int64_t k = 0; k < lists; k++)
        if (index[k] < n)
            array[index[k]] = values[k];
    int64_t *got = malloc((size_t)(n > lists ? n : lists) * 8);
    CHECK_OK(ops->download(f.dev, d64, 0, got, (size_t)n * 8, &f.st));
    ck_assert(memcmp(got, array, (size_t)n * 8) == 0);
    /* take_at of the same list: the new values (0 for the one outside) */
    pf_buf *dout = upload_new(&f, NULL, (size_t)lists * 8);
    CHECK_OK(ops->take_at(f.dev, d64, 0, n, dindex, dout, lists, &f.st));
    CHECK_OK(ops->download(f.dev, dout, 0, got, (size_t)lists * 8, &f.st));
    for (int64_t k = 0; k < lists; k++)
        PF_EXPECT(got[k] == (index[k] < n ? array[index[k]] : 0), "take_at[%lld]", (long long)k);
    /* mark_changed over the second half: flags where put_at wrote a new
     * value there, the snapshot then equal to the array */
    const int64_t base = n / 2, count = n - base;
    pf_buf *dflags = upload_new(&f, NULL, (size_t)count * 4);
    CHECK_OK(ops->mark_changed(f.dev, d64, snap, base, dflags, count, &f.st));
    CHECK_OK(ops->download(f.dev, dflags, 0, flags, (size_t)count * 4, &f.st));
    for (int64_t i = 0; i < count; i++)
        PF_EXPECT(flags[i] == (array[base + i] != (int64_t)narrow[base + i]),
                  "mark_changed[%lld]", (long long)(base + i));
    CHECK_OK(ops->download(f.dev, snap, 0, got, (size_t)n * 8, &f.st));
    for (int64_t i = 0; i < n; i++)
        PF_EXPECT(got[i] == (i < base ? (int64_t)narrow[i] : array[i]), "snapshot[%lld]",
                  (long long)i);
    /* 4-byte elements: the same list into the narrow copy */
    int32_t *v32 = malloc((size_t)lists * 4);
    for (int64_t k = 0; k < lists; k++)
        v32[k] = (int32_t)values[k];
    ops->release(f.dev, dvalues);
    dvalues = upload_new(&f, v32, (size_t)lists * 4);
    CHECK_OK(ops->put_at(f.dev, d32, 4, 0, n, dindex, dvalues, lists, &f.st));
    CHECK_OK(ops->download(f.dev, d32, 0, narrow, (size_t)n * 4, &f.st));
    for (int64_t i = 0; i < n; i++)
        PF_EXPECT(narrow[i] == (int32_t)array[i], "put_at i32[%lld]", (long long)i);
    pf_buf *bufs[] = {d64, d32, snap, dindex, dvalues, dout, dflags};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        ops->release(f.dev, bufs[i]);
    ops->close(f.dev);
    free(array), free(values), free(narrow), free(index), free(flags), free(got), free(v32);
}
END_TEST

START_TEST(fill_out_of_range_writes_nothing)
{
    fixture f;
    open_device(&f, _i % device_count);
    /* Four elements of each width: a fill of five is refused and leaves
     * the buffer as it was (not filled up to the end, then refused). */
    const int64_t zeros[4] = {0};
    pf_buf *b32 = upload_new(&f, zeros, 4 * sizeof(int32_t));
    pf_buf *b64 = upload_new(&f, zeros, sizeof zeros);
    ck_assert_int_ne(ops->fill_i32(f.dev, b32, 7, 5, &f.st), PF_OK);
    ck_assert(strlen(f.st.message) > 0);
    ck_assert_int_ne(ops->fill_i64(f.dev, b64, 7, 5, &f.st), PF_OK);
    ck_assert_int_ne(ops->fill_i64(f.dev, b64, 7, -1, &f.st), PF_OK);
    int32_t got32[4];
    int64_t got64[4];
    CHECK_OK(ops->download(f.dev, b32, 0, got32, sizeof got32, &f.st));
    CHECK_OK(ops->download(f.dev, b64, 0, got64, sizeof got64, &f.st));
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(got32[k], 0);
        ck_assert_int_eq(got64[k], 0);
    }
    ops->release(f.dev, b32);
    ops->release(f.dev, b64);
    ops->close(f.dev);
}
END_TEST

/* Under AddressSanitizer an allocation past its maximum (2^40 bytes) is a
 * fatal report by default; the test below wants to see it fail the way
 * malloc does, as a NULL. ASAN_OPTIONS in the environment still wins. */
#if defined(__SANITIZE_ADDRESS__)
#define PF_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PF_UNDER_ASAN 1
#endif
#endif
#ifdef PF_UNDER_ASAN
/* Exported: the sanitizer runtime looks the hook up dynamically, and the
 * build hides symbols by default. */
__attribute__((visibility("default"))) const char *__asan_default_options(void);
__attribute__((visibility("default"))) const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}
#endif

START_TEST(alloc_too_large_fails_cleanly)
{
    fixture f;
    open_device(&f, _i % device_count);
    pf_buf *b = NULL;
    /* Far beyond any device's memory: must fail with a status, not crash. */
    int rc = ops->alloc(f.dev, (size_t)1 << 56, &b, &f.st);
    ck_assert_int_eq(rc, PF_E_DEVICE);
    ck_assert(strlen(f.st.message) > 0);
    ops->close(f.dev);
}
END_TEST

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "omp";
    char why[512];
    device_count = pf_test_backend_devices(backend, why, sizeof why);
    ops = pf_backend_find(backend);
    if (ops) /* every call's arguments checked at the interface (dev_check.h) */
        ops = pf_dev_checked(ops);
    if (!ops || device_count == 0) {
        printf("SKIP: %s\n", ops ? why : "not compiled into this build");
        return PF_TEST_SKIP;
    }
    pf_device_desc first;
    const char *forced = getenv("PORTAFLOW_CAP_BITS");
    if (ops->probe(&first, 1, why, sizeof why) == 1)
        cap_bits = forced && atoi(forced) == 32 ? 32
                   : (first.maxflow_bits & PF_MAXFLOW_64) ? 64 : 32;
    has_64 = (first.maxflow_bits & PF_MAXFLOW_64) != 0;
    if (!(first.maxflow_bits & (cap_bits == 32 ? PF_MAXFLOW_32 : PF_MAXFLOW_64))) {
        printf("SKIP: %s runs no %d-bit max-flow steps\n", first.name, cap_bits);
        return PF_TEST_SKIP;
    }
    printf("max-flow steps with %d-bit residuals on %s\n", cap_bits, first.name);
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("steps");
    tcase_set_timeout(tc, 120);
    int sizes = (int)(sizeof scan_sizes / sizeof *scan_sizes);
    tcase_add_loop_test(tc, scan_matches_reference, 0, sizes * device_count);
    tcase_add_loop_test(tc, filter_matches_reference, 0, sizes * device_count);
    tcase_add_loop_test(tc, bfs_matches_sequential, 0, (int)GRAPH_SIZES * device_count);
    tcase_add_loop_test(tc, push_relabel_keeps_preflow, 0, (int)GRAPH_SIZES * device_count);
    tcase_add_loop_test(tc, push_relabel_budget_keeps_preflow, 0,
                        (int)GRAPH_SIZES * device_count);
    tcase_add_loop_test(tc, mark_active_matches_reference, 0, device_count);
    tcase_add_loop_test(tc, transfers_round_trip, 0, 2 * device_count);
    tcase_add_loop_test(tc, alloc_too_large_fails_cleanly, 0, device_count);
    tcase_add_loop_test(tc, fill_out_of_range_writes_nothing, 0, device_count);
    tcase_add_loop_test(tc, sparse_transfers_match_reference, 0,
                        (int)(sizeof sparse_sizes / sizeof *sparse_sizes) * device_count);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
