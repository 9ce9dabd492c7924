/* Suite "residual": the residual graph's build (residual.c), on any
 * number of threads and in every arc order, against the one-thread build
 * bit for bit, and its relayouts. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/residual.h"
#include "support.h"

/* ---- the residual build on several threads ------------------------------ */

/* A network for the layout check: a hub on about a fifth of the arcs (as a
 * grid's source is), runs of parallel arcs, self-loops, and vertices that
 * never get an arc (every id = 1 mod 4, and all above `used`). Seed 1 has
 * no arcs, seed 2 only self-loops. */
static pf_network *layout_net(uint64_t seed)
{
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 7;
    int64_t n = pf_test_rng_range(&r, 2, seed % 3 == 0 ? 12 : 3000);
    int64_t m = seed == 1 ? 0 : pf_test_rng_range(&r, 1, 8 * n);
    int64_t used = pf_test_rng_range(&r, 1, n), hub = pf_test_rng_range(&r, 0, used - 1);
    pf_status st;
    pf_network *net = pf_network_new(n, 0, n - 1, &st);
    ck_assert_ptr_nonnull(net);
    int64_t u = 0, v = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t kind = seed == 2 ? 0 : pf_test_rng_range(&r, 0, 9);
        if (kind != 1 || i == 0) { /* kind 1 repeats the previous arc */
            u = pf_test_rng_range(&r, 0, used - 1);
            v = pf_test_rng_range(&r, 0, used - 1);
            u -= u % 4 == 1;
            v -= v % 4 == 1;
        }
        if (kind == 0)
            v = u;
        else if (kind == 2)
            u = hub;
        else if (kind == 3)
            v = hub;
        ck_assert_int_eq(pf_network_add_arc(net, u, v, pf_test_rng_range(&r, 0, 1000), &st), PF_OK);
    }
    return net;
}

static void check_same_residual(const pf_residual *want, const pf_residual *got)
{
    ck_assert_int_eq(got->n, want->n);
    ck_assert_int_eq(got->arcs, want->arcs);
    ck_assert_int_eq(got->input_arcs, want->input_arcs);
    ck_assert_int_eq(got->source, want->source);
    ck_assert_int_eq(got->sink, want->sink);
    size_t arcs = (size_t)want->arcs;
    ck_assert(!memcmp(got->first, want->first, ((size_t)want->n + 1) * sizeof *want->first));
    ck_assert(!memcmp(got->head, want->head, arcs * sizeof *want->head));
    ck_assert(!memcmp(got->rev, want->rev, arcs * sizeof *want->rev));
    ck_assert(!memcmp(got->cap, want->cap, arcs * sizeof *want->cap));
    ck_assert(!memcmp(got->fwd_of_input, want->fwd_of_input,
                      (size_t)want->input_arcs * sizeof *want->fwd_of_input));
}

/* Any thread count must give the one-thread layout bit for bit (solvers'
 * choices and printed flows depend on it), and the same rev offsets and
 * arc flows; in the forward-first orders (forward and reverse arcs through
 * their own cursors) and input order (one cursor for both). */
START_TEST(residual_any_threads)
{
    static const int thread_counts[] = {2, 3, 7, 16};
    static const pf_arc_order orders[] = {PF_ARCS_FORWARD_ROTATED, PF_ARCS_FORWARD_FIRST,
                                          PF_ARCS_FORWARD_PART_ROTATED, PF_ARCS_INPUT};
    for (uint64_t seed = 1; seed <= 160; seed++) {
        pf_network *net = layout_net((seed + 3) / 4);
        pf_arc_order order = orders[seed % 4];
        pf_status st;
        pf_residual want;
        ck_assert_int_eq(pf_residual_build(net, &want, order, 1, &st), PF_OK);
        ck_assert_int_eq(want.input_arcs, pf_network_arcs(net));
        size_t arcs = (size_t)want.arcs, m = (size_t)want.input_arcs;
        int64_t *res = malloc(arcs * sizeof *res + 8);
        int64_t *want_flow = malloc(m * sizeof *want_flow + 8);
        int64_t *got_flow = malloc(m * sizeof *got_flow + 8);
        int32_t *want_off = malloc(arcs * sizeof *want_off + 4);
        int32_t *got_off = malloc(arcs * sizeof *got_off + 4);
        for (size_t a = 0; a < arcs; a++)
            res[a] = (int64_t)(a * 7919 % 1009);
        pf_residual_arc_flows(&want, res, want_flow, 1);
        ck_assert_int_eq(pf_residual_rev_offsets(&want, want_off, 1, &st), PF_OK);
        for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
            pf_residual got;
            ck_assert_int_eq(pf_residual_build(net, &got, order, thread_counts[k], &st), PF_OK);
            check_same_residual(&want, &got);
            pf_residual_arc_flows(&got, res, got_flow, thread_counts[k]);
            ck_assert(!memcmp(got_flow, want_flow, m * sizeof *got_flow));
            ck_assert_int_eq(pf_residual_rev_offsets(&got, got_off, thread_counts[k], &st), PF_OK);
            ck_assert(!memcmp(got_off, want_off, arcs * sizeof *got_off));
            pf_residual_free(&got);
        }
        free(res);
        free(want_flow);
        free(got_flow);
        free(want_off);
        free(got_off);
        pf_residual_free(&want);
        pf_network_free(net);
    }
}
END_TEST

/* The handoff's relayout: a graph in any order laid out again equals the
 * direct build in the new order, bit for bit, for any thread count, and
 * residuals go there and back unchanged. */
START_TEST(residual_relayout)
{
    static const int thread_counts[] = {1, 2, 3, 7};
    static const pf_arc_order orders[] = {PF_ARCS_FORWARD_FIRST, PF_ARCS_INPUT,
                                          PF_ARCS_INPUT_REVERSED, PF_ARCS_FORWARD_ROTATED,
                                          PF_ARCS_FORWARD_PART_ROTATED};
    for (uint64_t seed = 1; seed <= 60; seed++) {
        pf_network *net = layout_net(seed);
        pf_arc_order from_order = orders[seed % 5], to_order = orders[(seed / 5) % 5];
        pf_status st;
        pf_residual want, from;
        ck_assert_int_eq(pf_residual_build(net, &want, to_order, 1, &st), PF_OK);
        ck_assert_int_eq(pf_residual_build(net, &from, from_order, 1, &st), PF_OK);
        size_t arcs = (size_t)want.arcs;
        int64_t *res = malloc(arcs * sizeof *res + 8);
        int64_t *moved = malloc(arcs * sizeof *moved + 8);
        int64_t *back = malloc(arcs * sizeof *back + 8);
        for (size_t a = 0; a < arcs; a++)
            res[a] = (int64_t)(a * 7919 % 1009);
        for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
            pf_residual got;
            ck_assert_int_eq(pf_residual_relayout(&from, to_order, &got, thread_counts[k], &st),
                             PF_OK);
            check_same_residual(&want, &got);
            ck_assert_int_eq(got.order, to_order);
            memset(back, 0, arcs * sizeof *back);
            pf_residual_copy_residuals(&from, res, &got, moved, thread_counts[k]);
            pf_residual_copy_residuals(&got, moved, &from, back, thread_counts[k]);
            ck_assert(!memcmp(res, back, arcs * sizeof *back));
            pf_residual_free(&got);
        }
        free(res);
        free(moved);
        free(back);
        pf_residual_free(&want);
        pf_residual_free(&from);
        pf_network_free(net);
    }
}
END_TEST

/* Every order holds the same arcs: each list is a permutation of the
 * forward-first one, the turned orders keep forward arcs first, and the
 * one that turns the forward part only keeps the reverse part as it was. */
START_TEST(residual_orders_permute)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pf_network *net = layout_net(seed);
        pf_status st;
        pf_residual ff, other;
        ck_assert_int_eq(pf_residual_build(net, &ff, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
        for (int order = PF_ARCS_INPUT; order <= PF_ARCS_FORWARD_PART_ROTATED; order++) {
            ck_assert_int_eq(pf_residual_build(net, &other, (pf_arc_order)order, 2, &st), PF_OK);
            ck_assert(!memcmp(ff.first, other.first, ((size_t)ff.n + 1) * sizeof *ff.first));
            for (int64_t i = 0; i < ff.input_arcs; i++) {
                int64_t a = ff.fwd_of_input[i], b = other.fwd_of_input[i];
                ck_assert_int_eq(a < 0, b < 0);
                if (a < 0)
                    continue;
                ck_assert_int_eq(ff.head[a], other.head[b]);
                ck_assert_int_eq(ff.cap[a], other.cap[b]);
                ck_assert_int_eq(ff.head[ff.rev[a]], other.head[other.rev[b]]);
                ck_assert_int_eq(other.rev[other.rev[b]], b);
            }
            if (order == PF_ARCS_FORWARD_PART_ROTATED) /* the reverse parts untouched */
                for (int64_t i = 0; i < ff.input_arcs; i++)
                    if (ff.fwd_of_input[i] >= 0)
                        ck_assert_int_eq(ff.rev[ff.fwd_of_input[i]],
                                         other.rev[other.fwd_of_input[i]]);
            if (order == PF_ARCS_FORWARD_ROTATED || order == PF_ARCS_FORWARD_PART_ROTATED) {
                /* forward arcs still lead each list */
                uint8_t *forward = calloc((size_t)ff.arcs + 1, 1);
                for (int64_t i = 0; i < ff.input_arcs; i++)
                    if (other.fwd_of_input[i] >= 0)
                        forward[other.fwd_of_input[i]] = 1;
                for (int64_t u = 0; u < ff.n; u++)
                    for (int64_t b = other.first[u] + 1; b < other.first[u + 1]; b++)
                        ck_assert(forward[b] <= forward[b - 1]);
                free(forward);
            }
            pf_residual_free(&other);
        }
        pf_residual_free(&ff);
        pf_network_free(net);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("residual");
    TCase *build = tcase_create("build");
    tcase_set_timeout(build, 240);
    tcase_add_test(build, residual_any_threads);
    tcase_add_test(build, residual_relayout);
    tcase_add_test(build, residual_orders_permute);
    suite_add_tcase(s, build);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
