/* End-to-end: the parallel driver on the backend named on the command line
 * gives the same value and the same (canonical) minimum cut as the
 * sequential engine on every generated family and on awkward graphs, and
 * its --flow --cut certificates verify. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/knobs.h"
#include "common/gen.h"
#include "common/residual.h"
#include "device/device.h"
#include "host/dev_check.h"
#include "host/engine.h"
#include "host/registry.h"
#include "support.h"

static const char *backend;
static int device_count;
/* PORTAFLOW_TEST_REDUCED=1 (the second OpenCL implementation's run,
 * tests/meson.build): one seed per family and a third of the random
 * graphs, every mode and every other test as they are. */
static int reduced;
/* pf_device_desc.maxflow_bits of each device of the backend. */
static int device_bits[32];

/* A device without 64-bit max-flow refuses a graph that needs 64 bits:
 * exit 3's code, naming the fix. Returns whether it did so. */
static int refused_as_too_wide(const pf_network *net, int device)
{
    if ((device_bits[device] & PF_MAXFLOW_64) || pf_test_fits_32_bits(net))
        return 0;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.device_index = device;
    opt.want_flow = opt.want_cut = 1;
    pf_solution sol;
    pf_status st;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_DEVICE);
    PF_EXPECT(strstr(st.message, "64-bit") && strstr(st.message, "--backend omp or seq"),
              "refusal without reason or fix: %s", st.message);
    return 1;
}

/* Solves with `name` on device `index` (`threads`: 0 = default), verifies, returns the solution. */
static void solve_verified(const pf_network *net, const char *name, int index, int threads,
                           pf_solution *sol)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = name;
    opt.device_index = index;
    opt.threads = threads;
    opt.want_flow = opt.want_cut = 1;
    pf_status st;
    PF_EXPECT(pf_solve(net, &opt, sol, &st) == PF_OK, "%s: %s", name, st.message);
    PF_EXPECT(pf_verify(net, sol->value, sol->arc_flow, sol->source_side, &st) == PF_OK,
                  "%s certificate: %s", name, st.message);
}

/* Both ways a parallel solve can end: on the device all along
 * (PORTAFLOW_HANDOFF=0), and with phase 1 handed to the host's sequential
 * engine at the first chance: a cap of one round per global relabel makes
 * every batch of rounds look like a crawl. Then one pass per step on every
 * backend (the CPU backend's asynchronous discharge off), and more threads
 * than this machine has cores (the discharge's parts interleave). */
static const struct solve_mode {
    const char *handoff, *round_cap, *async;
    int threads;
} modes[] = {
    {"0", "256", "1", 0},
    {"4611686018427387904", "1", "1", 0},
    {"0", "256", "0", 0},
    {"0", "256", "1", 5},
};

/* After a test that set the modes' knobs: the defaults back, seq's answer
 * and the network freed. */
static void end_solve_modes(pf_network *net, pf_solution *want)
{
    unsetenv("PORTAFLOW_HANDOFF");
    unsetenv("PORTAFLOW_GR_ROUNDS");
    unsetenv("PORTAFLOW_ASYNC");
    pf_knobs_reload();
    pf_solution_free(want);
    pf_network_free(net);
}

static void agree_with_seq(pf_network *net, int device_index)
{
    ck_assert_ptr_nonnull(net);
    if (refused_as_too_wide(net, device_index)) {
        pf_network_free(net);
        return;
    }
    pf_solution want, got;
    solve_verified(net, "seq", -1, 0, &want);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        const struct solve_mode *m = &modes[i];
        setenv("PORTAFLOW_HANDOFF", m->handoff, 1);
        setenv("PORTAFLOW_GR_ROUNDS", m->round_cap, 1);
        setenv("PORTAFLOW_ASYNC", m->async, 1);
        pf_knobs_reload();
        solve_verified(net, backend, device_index, m->threads, &got);
        PF_EXPECT(got.value == want.value, "%s (mode %zu) value %lld, seq %lld", backend, i,
                  (long long)got.value, (long long)want.value);
        for (int64_t v = 0; v < pf_network_vertices(net); v++)
            PF_EXPECT(got.source_side[v] == want.source_side[v],
                      "vertex %lld on different cut sides (mode %zu)", (long long)v + 1, i);
        pf_solution_free(&got);
    }
    end_solve_modes(net, &want);
}

/* agree_with_seq with one tuning variable set (then unset again). */
static void agree_with_knob(const char *name, const char *value, pf_network *net, int device)
{
    setenv(name, value, 1);
    pf_knobs_reload();
    agree_with_seq(net, device);
    unsetenv(name);
    pf_knobs_reload();
}

static pf_network *family(int which, uint64_t seed)
{
    pf_status st;
    switch (which) {
    case 0: return pf_gen_rmf(4, 6, 1, 10000, seed, &st);
    case 1: return pf_gen_rmf(9, 9, 0, 100, seed, &st);
    case 2: return pf_gen_rlg(8, 20, 10000, seed, &st);
    case 3: return pf_gen_rlg(40, 30, 50, seed, &st);
    case 4: return pf_gen_ac(60, 10000, seed, &st);
    case 5: return pf_gen_ak(12, &st);
    case 6: return pf_gen_grid2d(24, 20, 4, 100, seed, &st);
    case 7: return pf_gen_grid2d(17, 23, 8, 100, seed, &st);
    case 8: return pf_gen_grid3d(7, 6, 5, 6, 100, seed, &st);
    case 9: return pf_gen_grid3d(5, 5, 5, 26, 100, seed, &st);
    /* Medium sizes, where concurrent pushes really interleave. */
    case 10: return pf_gen_rlg(100, 60, 10000, seed, &st);
    case 11: return pf_gen_rmf(12, 24, 1, 10000, seed, &st);
    case 12: return pf_gen_grid2d(128, 96, 8, 100, seed, &st);
    default: return NULL;
    }
}
#define FAMILIES 13

START_TEST(families_agree)
{
    int which = _i / device_count, device = _i % device_count;
    for (uint64_t seed = 1; seed <= (reduced ? 1 : 3); seed++)
        agree_with_seq(family(which, seed), device);
}
END_TEST

START_TEST(random_graphs_agree)
{
    int device = _i % device_count;
    pf_status st;
    for (uint64_t seed = 1; seed <= 60; seed += reduced ? 3 : 1) {
        int64_t n = 2 + (int64_t)(seed * 7 % 50), m = (int64_t)(seed * 13 % 400);
        int64_t cap = seed % 3 == 0 ? 5 : 1000;
        agree_with_seq(pf_gen_random(n, m, cap, seed, &st), device);
    }
}
END_TEST

START_TEST(awkward_graphs_agree)
{
    int device = _i % device_count;
    pf_status st;
    /* Parallel arcs, self-loops, zero capacities, arcs into s and out of t,
     * an isolated vertex (5), and totals above 2^32. */
    pf_network *net = pf_network_new(7, 0, 6, &st);
    const int64_t big = (int64_t)1 << 40;
    const int64_t arcs[][3] = {{0, 1, big}, {0, 1, 3},   {1, 1, 99}, {1, 2, 0},   {1, 3, big},
                               {3, 6, big}, {3, 6, 7},   {2, 0, 4},  {6, 4, 100}, {4, 0, 50},
                               {3, 2, 1},   {2, 6, big}, {0, 2, 0},  {6, 6, 5},   {4, 6, 8}};
    for (size_t i = 0; i < sizeof arcs / sizeof *arcs; i++)
        pf_network_add_arc(net, arcs[i][0], arcs[i][1], arcs[i][2], &st);
    agree_with_seq(net, device);

    /* Unreachable sink: value 0, everything but t's side on the source side. */
    net = pf_network_new(5, 0, 4, &st);
    pf_network_add_arc(net, 0, 1, 10, &st);
    pf_network_add_arc(net, 1, 2, 10, &st);
    pf_network_add_arc(net, 4, 3, 10, &st);
    agree_with_seq(net, device);

    /* Two vertices, no arcs; and a single arc. */
    agree_with_seq(pf_network_new(2, 1, 0, &st), device);
    net = pf_network_new(2, 1, 0, &st);
    pf_network_add_arc(net, 1, 0, PF_CAP_MAX, &st);
    agree_with_seq(net, device);
}
END_TEST

START_TEST(value_above_2_to_32)
{
    int device = _i % device_count;
    pf_status st;
    pf_network *net = pf_network_new(4, 0, 3, &st);
    for (int k = 0; k < 6; k++) {
        pf_network_add_arc(net, 0, 1 + k % 2, (int64_t)3 << 31, &st);
        pf_network_add_arc(net, 1 + k % 2, 3, (int64_t)5 << 30, &st);
    }
    if (!refused_as_too_wide(net, device)) {
        pf_solution sol;
        solve_verified(net, backend, device, 0, &sol);
        ck_assert_int_eq(sol.value, 6 * ((int64_t)5 << 30));
        pf_solution_free(&sol);
    }
    pf_network_free(net);
}
END_TEST

/* The 32-bit path (PORTAFLOW_CAP_BITS=32) on devices that run both widths
 * gives the 64-bit answers on a few of every family; a device that runs
 * one width only is covered by the tests above. */
START_TEST(families_agree_in_32_bits)
{
    int which = _i / device_count, device = _i % device_count;
    if (device_bits[device] != (PF_MAXFLOW_32 | PF_MAXFLOW_64)) {
        printf("skipped: %s device %d runs one width only\n", backend, device);
        return;
    }
    agree_with_knob("PORTAFLOW_CAP_BITS", "32", family(which, 7), device);
}
END_TEST

/* The global relabel's BFS several levels a launch (PORTAFLOW_GR_HOPS:
 * label-correcting within a launch, its claims in owner[] cleared before
 * the next rounds, which claim owner[] themselves) gives the same answers;
 * the host-memory backend runs its BFS level by level whatever the knob. */
START_TEST(families_agree_with_relabel_hops)
{
    int which = _i / device_count, device = _i % device_count;
    agree_with_knob("PORTAFLOW_GR_HOPS", "8", family(which, 5), device);
}
END_TEST

/* At the edge of the 32-bit path: a source capacity of 2^31 - 2 runs in
 * 32 bits (excess and residuals reach 2^31 - 2, and a 2^40 arc elsewhere
 * is clamped without changing the cut), 2^31 - 1 is refused in 32 bits
 * with the reason and the fix. */
START_TEST(edge_of_32_bits)
{
    int device = _i % device_count;
    if (!(device_bits[device] & PF_MAXFLOW_32)) {
        printf("skipped: %s device %d has no 32-bit path\n", backend, device);
        return;
    }
    pf_status st;
    for (int64_t extra = 0; extra <= 1; extra++) {
        /* s=0 -> 1 -> 3 (2^40) and s -> 2 -> 3, with 1 <-> 2 both ways. */
        pf_network *net = pf_network_new(4, 0, 3, &st);
        const int64_t big = (int64_t)1 << 40, half = ((int64_t)1 << 30) - 1;
        pf_network_add_arc(net, 0, 1, half, &st);
        pf_network_add_arc(net, 0, 2, half + extra, &st);
        pf_network_add_arc(net, 1, 3, big, &st);
        pf_network_add_arc(net, 1, 2, half, &st);
        pf_network_add_arc(net, 2, 1, big, &st);
        pf_network_add_arc(net, 2, 3, 5, &st);
        setenv("PORTAFLOW_CAP_BITS", "32", 1);
        pf_knobs_reload();
        if (extra == 0) {
            pf_solution sol;
            solve_verified(net, backend, device, 0, &sol);
            ck_assert_int_eq(sol.value, 2 * half);
            pf_solution_free(&sol);
        } else {
            pf_solve_options opt;
            pf_solve_options_init(&opt);
            opt.backend = backend;
            opt.device_index = device;
            pf_solution sol;
            ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_DEVICE);
            PF_EXPECT(strstr(st.message, "2147483647") && strstr(st.message, "--backend omp or seq"),
                      "refusal: %s", st.message);
        }
        unsetenv("PORTAFLOW_CAP_BITS");
        pf_knobs_reload();
        pf_network_free(net);
    }
}
END_TEST

/* The crawl handoff: with a round cap of one, every batch of rounds ends at
 * the cap, so once a batch has run with at most PORTAFLOW_HANDOFF vertices
 * active the next global relabel hands phase 1 to the host's sequential
 * engine, which reports its pushes; PORTAFLOW_HANDOFF=0 keeps the solve on
 * the device. AK's excess needs many rounds to cross its long paths, and
 * one pass per round (PORTAFLOW_ASYNC=0) keeps the CPU backend from
 * finishing phase 1 in its first round. Both ways give seq's answer. */
START_TEST(crawl_is_handed_to_the_host)
{
    int device = _i % device_count;
    pf_status st;
    pf_network *net = pf_gen_ak(200, &st);
    ck_assert_ptr_nonnull(net);
    pf_solution want, got;
    solve_verified(net, "seq", -1, 0, &want);
    static const char *const handoffs[] = {"1024", "0"};
    setenv("PORTAFLOW_GR_ROUNDS", "1", 1);
    setenv("PORTAFLOW_ASYNC", "0", 1);
    for (int i = 0; i < 2; i++) {
        setenv("PORTAFLOW_HANDOFF", handoffs[i], 1);
        pf_knobs_reload();
        solve_verified(net, backend, device, 0, &got);
        PF_EXPECT(got.value == want.value, "PORTAFLOW_HANDOFF=%s: value %lld, seq %lld",
                  handoffs[i], (long long)got.value, (long long)want.value);
        if (i == 0)
            PF_EXPECT(got.host_pushes > 0, "a crawl of %lld vertices was not handed over",
                      (long long)pf_network_vertices(net));
        else
            PF_EXPECT(got.host_pushes == 0, "PORTAFLOW_HANDOFF=0 handed over (%lld pushes)",
                      (long long)got.host_pushes);
        pf_solution_free(&got);
    }
    end_solve_modes(net, &want);
}
END_TEST

/* Every device declares the widths it runs max-flow in: OpenCL and CUDA
 * always 32 (64 with 64-bit atomics), omp 64 only; and a device without
 * 64 says why in its limits, which `portaflow backends` prints. */
START_TEST(capabilities_are_declared)
{
    int device = _i % device_count, bits = device_bits[device];
    ck_assert(bits != 0);
    if (!strcmp(backend, "omp"))
        ck_assert_int_eq(bits, PF_MAXFLOW_64);
    else
        ck_assert(bits & PF_MAXFLOW_32);
    pf_device_desc descs[32];
    char why[2048];
    int listed = pf_list_devices(descs, 32, why, sizeof why);
    for (int i = 0; i < listed; i++)
        if (!strcmp(descs[i].backend, backend) && descs[i].index == device)
            PF_EXPECT((descs[i].limits[0] != 0) == !(bits & PF_MAXFLOW_64),
                      "%s: limits '%s' for max-flow widths %d", descs[i].name,
                      descs[i].limits, bits);
}
END_TEST

/* A width the device does not run is refused, not ignored. */
START_TEST(unsupported_width_is_refused)
{
    int device = _i % device_count;
    int missing = (device_bits[device] & PF_MAXFLOW_64) ? 32 : 64;
    if (device_bits[device] == (PF_MAXFLOW_32 | PF_MAXFLOW_64)) {
        printf("skipped: %s device %d runs both widths\n", backend, device);
        return;
    }
    pf_status st;
    pf_network *net = pf_gen_rlg(4, 4, 10, 1, &st);
    setenv("PORTAFLOW_CAP_BITS", missing == 32 ? "32" : "64", 1);
    pf_knobs_reload();
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.device_index = device;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_DEVICE);
    PF_EXPECT(strstr(st.message, missing == 32 ? "64-bit residuals only" : "32-bit residuals only"),
              "refusal: %s", st.message);
    unsetenv("PORTAFLOW_CAP_BITS");
    pf_knobs_reload();
    pf_network_free(net);
}
END_TEST

START_TEST(capacity_total_past_int64_is_refused)
{
    int device = _i % device_count;
    pf_status st;
    pf_network *net = pf_network_new(3, 0, 2, &st);
    for (int k = 0; k < 3; k++) {
        pf_network_add_arc(net, 0, 1, PF_CAP_MAX, &st);
        pf_network_add_arc(net, 1, 2, PF_CAP_MAX, &st);
    }
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.device_index = device;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_DEVICE);
    ck_assert_ptr_nonnull(strstr(st.message, "2^63"));
    pf_network_free(net);
}
END_TEST

/* ---- the residual graph built on the device (device.h: build_residual) -- */

/* A device buffer of `bytes` holding `data` (NULL: left as allocated). */
static pf_buf *device_copy(const pf_device_ops *ops, pf_dev *dev, const void *data,
                           size_t bytes)
{
    pf_buf *buf = NULL;
    pf_status st;
    ck_assert_int_eq(ops->alloc(dev, bytes ? bytes : 1, &buf, &st), PF_OK);
    if (data && bytes)
        ck_assert_int_eq(ops->upload(dev, buf, 0, data, bytes, &st), PF_OK);
    return buf;
}

static void *device_read(const pf_device_ops *ops, pf_dev *dev, pf_buf *buf, size_t bytes)
{
    void *out = malloc(bytes ? bytes : 1);
    pf_status st;
    ck_assert_int_eq(ops->download(dev, buf, 0, out, bytes, &st), PF_OK);
    return out;
}

/* net built by the device in `bits`-bit residuals (clamped to `clamp`)
 * against the host's build of the driver's layout, array by array; then
 * arc_flows reads each input arc's reverse residual. */
static void device_build_matches(const pf_device_ops *ops, pf_dev *dev, const pf_network *net,
                                 int bits, int64_t clamp)
{
    pf_status st;
    pf_residual h;
    ck_assert_int_eq(pf_residual_build(net, &h, PF_ARCS_FORWARD_ROTATED, 0, &st), PF_OK);
    size_t n = (size_t)h.n, arcs = (size_t)h.arcs, m = (size_t)net->m, cap = (size_t)bits / 8;
    int32_t *rev = malloc((arcs ? arcs : 1) * sizeof *rev);
    ck_assert_int_eq(pf_residual_rev_offsets(&h, rev, 0, &st), PF_OK);
    pf_dev_graph g = {.n = h.n, .arcs = h.arcs, .source = h.source, .sink = h.sink,
                      .cap_bits = bits};
    pf_buf **bufs[] = {&g.first, &g.head, &g.rev, &g.res, &g.excess, &g.height,
                       &g.flags, &g.list_a, &g.list_b, &g.counters, &g.owner};
    size_t sizes[] = {(n + 1) * 8, arcs * 4, arcs * 4, arcs * cap, n * cap, n * 4,
                      n * 4, n * 4, n * 4, PF_CTR_COUNT * 8, n * 4};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        *bufs[i] = device_copy(ops, dev, NULL, sizes[i]);
    pf_dev_arcs in = {.n = net->n, .m = net->m, .tail = device_copy(ops, dev, net->tail, m * 4),
                      .head = device_copy(ops, dev, net->head, m * 4),
                      .cap = device_copy(ops, dev, net->cap, m * 8)};
    pf_buf *input_rev = device_copy(ops, dev, NULL, m * 8);
    ck_assert_int_eq(ops->build_residual(dev, &g, &in, clamp, input_rev, &st), PF_OK);

    int64_t *first = device_read(ops, dev, g.first, (n + 1) * 8);
    int32_t *head = device_read(ops, dev, g.head, arcs * 4);
    int32_t *drev = device_read(ops, dev, g.rev, arcs * 4);
    void *res = device_read(ops, dev, g.res, arcs * cap);
    int64_t *irev = device_read(ops, dev, input_rev, m * 8);
    for (size_t u = 0; u <= n; u++)
        PF_EXPECT(first[u] == h.first[u], "first[%zu] %lld, host %lld", u, (long long)first[u],
                  (long long)h.first[u]);
    for (size_t a = 0; a < arcs; a++) {
        int64_t want = h.cap[a] < clamp ? h.cap[a] : clamp;
        int64_t got = bits == 32 ? ((int32_t *)res)[a] : ((int64_t *)res)[a];
        PF_EXPECT(head[a] == h.head[a] && drev[a] == rev[a] && got == want,
                  "arc %zu: head %d rev %d res %lld, host %d %d %lld (%d bits)", a, head[a],
                  drev[a], (long long)got, h.head[a], rev[a], (long long)want, bits);
    }
    for (size_t i = 0; i < m; i++) {
        int64_t a = h.fwd_of_input[i], want = a < 0 ? -1 : h.rev[a];
        PF_EXPECT(irev[i] == want, "input arc %zu: reverse arc %lld, host %lld", i,
                  (long long)irev[i], (long long)want);
    }
    /* Residuals 0, 1, 2, ... : arc i's flow is its reverse arc's number. */
    for (size_t a = 0; a < arcs; a++) {
        if (bits == 32)
            ((int32_t *)res)[a] = (int32_t)a;
        else
            ((int64_t *)res)[a] = (int64_t)a;
    }
    ck_assert_int_eq(ops->upload(dev, g.res, 0, res, arcs * cap, &st), PF_OK);
    pf_buf *flow = device_copy(ops, dev, NULL, m * 8);
    ck_assert_int_eq(ops->arc_flows(dev, &g, input_rev, (int64_t)m, flow, &st), PF_OK);
    int64_t *flows = device_read(ops, dev, flow, m * 8);
    for (size_t i = 0; i < m; i++)
        PF_EXPECT(flows[i] == (irev[i] < 0 ? 0 : irev[i]), "arc_flows[%zu] %lld", i,
                  (long long)flows[i]);

    pf_buf *all[] = {in.tail, in.head, in.cap, input_rev, flow};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ops->release(dev, all[i]);
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        ops->release(dev, *bufs[i]);
    free(first), free(head), free(drev), free(res), free(irev), free(flows), free(rev);
    pf_residual_free(&h);
}

/* A backend that builds the residual graph itself lays it out as the
 * host does, bit for bit: the families, random graphs (parallel and
 * antiparallel arcs, self-loops), a hub joined to every vertex, and the
 * 32-bit path's clamp. Backends without build_residual have nothing to
 * compare. */
START_TEST(device_build_matches_host)
{
    int device = _i % device_count;
    const pf_device_ops *ops = pf_dev_check_ops(pf_backend_find(backend));
    if (!ops->build_residual) {
        printf("%s: no build_residual (the host builds the graph)\n", backend);
        return;
    }
    pf_open_params params = {.device_index = device};
    pf_dev *dev = NULL;
    pf_device_desc desc;
    pf_status st;
    ck_assert_int_eq(ops->open(&params, &dev, &desc, &st), PF_OK);
    for (int which = 0; which < FAMILIES; which++) {
        pf_network *net = family(which, 2);
        device_build_matches(ops, dev, net, 64, INT64_MAX);
        device_build_matches(ops, dev, net, 32, 37);
        pf_network_free(net);
    }
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pf_network *net = pf_gen_random(2 + (int64_t)(seed * 11 % 70),
                                        (int64_t)(seed * 97 % 900) + 1, 1000, seed, &st);
        for (int64_t k = 0; k < (int64_t)seed; k++) /* self-loops and repeats */
            pf_network_add_arc(net, (int32_t)(k % net->n), (int32_t)(k % net->n), 5, &st);
        pf_network_add_arc(net, 0, 1, 7, &st);
        pf_network_add_arc(net, 0, 1, 9, &st);
        pf_network_add_arc(net, 1, 0, 11, &st);
        device_build_matches(ops, dev, net, seed % 2 ? 64 : 32, seed % 2 ? INT64_MAX : 500);
        pf_network_free(net);
    }
    pf_network *hub = pf_network_new(3000, 0, 2999, &st);
    for (int32_t v = 1; v < 3000; v++) {
        pf_network_add_arc(hub, 0, v, v, &st);
        pf_network_add_arc(hub, v, 2999, 3000 - v, &st);
        pf_network_add_arc(hub, v, (v * 7) % 3000, 1, &st);
    }
    device_build_matches(ops, dev, hub, 64, INT64_MAX);
    pf_network_free(hub);
    ops->close(dev);
}
END_TEST

/* The driver on the graph the host builds, where the device could build
 * it itself (PORTAFLOW_DEVICE_BUILD=0), gives seq's answer too. */
START_TEST(families_agree_built_on_the_host)
{
    int which = _i / device_count, device = _i % device_count;
    agree_with_knob("PORTAFLOW_DEVICE_BUILD", "0", family(which, 4), device);
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "omp";
    setenv("PORTAFLOW_HYBRID", "off", 1); /* the driver alone (test_hybrid.c has the hybrid) */
    reduced = pf_test_reduced();
    char why[512];
    device_count = pf_test_backend_devices(backend, why, sizeof why);
    if (device_count == 0) {
        printf("SKIP: %s\n", why);
        return PF_TEST_SKIP;
    }
    pf_test_device_widths(backend, device_bits, 32);
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("driver");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, families_agree, 0, FAMILIES * device_count);
    tcase_add_loop_test(tc, random_graphs_agree, 0, device_count);
    tcase_add_loop_test(tc, awkward_graphs_agree, 0, device_count);
    tcase_add_loop_test(tc, value_above_2_to_32, 0, device_count);
    tcase_add_loop_test(tc, capacity_total_past_int64_is_refused, 0, device_count);
    tcase_add_loop_test(tc, families_agree_in_32_bits, 0, FAMILIES * device_count);
    tcase_add_loop_test(tc, families_agree_with_relabel_hops, 0, FAMILIES * device_count);
    tcase_add_loop_test(tc, edge_of_32_bits, 0, device_count);
    tcase_add_loop_test(tc, unsupported_width_is_refused, 0, device_count);
    tcase_add_loop_test(tc, capabilities_are_declared, 0, device_count);
    tcase_add_loop_test(tc, crawl_is_handed_to_the_host, 0, device_count);
    tcase_add_loop_test(tc, device_build_matches_host, 0, device_count);
    pf_network *probe = family(0, 1);
    if (pf_parallel_builds_on_device(pf_backend_find(backend), probe))
        tcase_add_loop_test(tc, families_agree_built_on_the_host, 0, FAMILIES * device_count);
    pf_network_free(probe);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
