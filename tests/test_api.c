/* The library as users link it: NULL options are the defaults everywhere,
 * option structs of an earlier API version are read and initialised within
 * their size, messages go to the caller's log callback (through the one
 * selection loop of the registry), and probe answers are kept per process. */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/registry.h"
#include "portaflow.h"
#include "support.h"

/* s -> a -> t and s -> t: value 5. */
static pf_network *small_network(void)
{
    pf_status st;
    pf_network *net = pf_network_new(3, 0, 2, &st);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(pf_network_add_arc(net, 0, 1, 3, &st), PF_OK);
    ck_assert_int_eq(pf_network_add_arc(net, 1, 2, 4, &st), PF_OK);
    ck_assert_int_eq(pf_network_add_arc(net, 0, 2, 2, &st), PF_OK);
    return net;
}

START_TEST(null_options_are_the_defaults)
{
    pf_network *net = small_network();
    pf_solution sol;
    pf_status st;
    PF_EXPECT(pf_solve(net, NULL, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(sol.value, 5);
    ck_assert_ptr_null(sol.arc_flow); /* want_flow defaults to 0 */
    pf_solution_free(&sol);
    pf_network_free(net);

    pf_wgraph *g = pf_wgraph_new(3, &st);
    ck_assert_int_eq(pf_wgraph_add_arc(g, 0, 1, 4, &st), PF_OK);
    ck_assert_int_eq(pf_wgraph_add_arc(g, 1, 2, 5, &st), PF_OK);
    pf_apsp_result res;
    PF_EXPECT(pf_apsp(g, NULL, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(((const int32_t *)res.dist)[0 * 3 + 2], 9);
    ck_assert_int_eq(((const int32_t *)res.dist)[2 * 3 + 0], PF_APSP_NONE_I32);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    ck_assert_int_eq(pf_apsp_variant_check(NULL, NULL, &st), PF_OK);
    ck_assert_int_eq(pf_apsp_variant_check("seq", NULL, &st), PF_OK);
    ck_assert_ptr_null(pf_network_read_with("/nonexistent/portaflow-test", NULL, &st));
    ck_assert_int_ne(st.code, PF_OK);
}
END_TEST

/* The init of a version-2 struct writes nothing past it. */
START_TEST(old_option_sizes_are_kept)
{
    size_t v2_solve = offsetof(pf_solve_options, log);
    pf_solve_options opt;
    memset(&opt, 0xab, sizeof opt);
    pf_solve_options_init_sized(&opt, v2_solve);
    ck_assert_uint_eq(opt.struct_size, v2_solve);
    ck_assert_int_eq(opt.device_index, -1);
    const unsigned char *tail = (const unsigned char *)&opt + v2_solve;
    for (size_t i = 0; i < sizeof opt - v2_solve; i++)
        ck_assert_uint_eq(tail[i], 0xab);
    /* Solved as a version-2 caller: the bytes past its size (a log
     * "callback" of 0xab...) are never read. */
    pf_network *net = small_network();
    pf_solution sol;
    pf_status st;
    opt.want_flow = 1;
    PF_EXPECT(pf_solve(net, &opt, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(sol.value, 5);
    ck_assert_ptr_nonnull(sol.arc_flow);
    pf_solution_free(&sol);
    pf_network_free(net);

    size_t v2_apsp = offsetof(pf_apsp_options, log);
    pf_apsp_options aopt;
    memset(&aopt, 0xcd, sizeof aopt);
    pf_apsp_options_init_sized(&aopt, v2_apsp);
    ck_assert_int_eq(aopt.device_index, -1);
    ck_assert_int_eq(aopt.kind, PF_DIST_AUTO);
    tail = (const unsigned char *)&aopt + v2_apsp;
    for (size_t i = 0; i < sizeof aopt - v2_apsp; i++)
        ck_assert_uint_eq(tail[i], 0xcd);
    pf_wgraph *g = pf_wgraph_new(2, &st);
    ck_assert_int_eq(pf_wgraph_add_arc(g, 0, 1, 7, &st), PF_OK);
    pf_apsp_result res;
    PF_EXPECT(pf_apsp_sized(g, &aopt, v2_apsp, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(((const int32_t *)res.dist)[1], 7);
    pf_apsp_result_free(&res);
    /* Smaller than any version: nothing written. */
    memset(&aopt, 0xcd, sizeof aopt);
    pf_apsp_options_init_sized(&aopt, 4);
    ck_assert_uint_eq(((const unsigned char *)&aopt)[0], 0xcd);
    pf_wgraph_free(g);
}
END_TEST

typedef struct log_record {
    int calls, level;
    char last[512];
} log_record;

static void record_log(void *data, int level, const char *message)
{
    log_record *r = data;
    r->calls++;
    r->level = level;
    snprintf(r->last, sizeof r->last, "%s", message);
}

typedef struct attempts {
    int count;
    const pf_device_ops *tried[8];
} attempts;

/* The first candidate fails as a device would; the next one works. */
static int fail_first(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    attempts *a = ctx;
    a->tried[a->count++] = ops;
    if (a->count == 1) {
        snprintf(st->message, sizeof st->message, "no device here");
        st->code = PF_E_DEVICE;
        return PF_E_DEVICE;
    }
    return PF_OK;
}

START_TEST(fallback_is_logged_not_printed)
{
    unsetenv("PORTAFLOW_BACKEND");
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, NULL, PF_WORK_APSP, 0, NULL, NULL);
    ck_assert(walk.is_auto);
    /* apsp's auto takes every host CPU backend: at least seq. */
    pf_backend_walk count_walk = walk;
    int candidates = 0;
    while (pf_backend_walk_next(&count_walk, NULL))
        candidates++;
    ck_assert_int_ge(candidates, 1);
    attempts a = {0};
    log_record r = {0};
    pf_logger log = {.fn = record_log, .data = &r};
    pf_status st = {0};
    int rc = pf_backend_run(&walk, NULL, fail_first, &a, &log, &st);
    if (candidates == 1) {
        ck_assert_int_eq(rc, PF_E_DEVICE);
        ck_assert_int_eq(r.calls, 0);
        return;
    }
    ck_assert_int_eq(rc, PF_OK);
    ck_assert_int_eq(a.count, 2);
    ck_assert_int_eq(r.calls, 1);
    ck_assert_int_eq(r.level, PF_LOG_WARNING);
    char want[256];
    snprintf(want, sizeof want, "%s failed (no device here); falling back to %s",
             a.tried[0]->name, a.tried[1]->name);
    ck_assert_str_eq(r.last, want);

    /* An explicit backend never falls back. */
    pf_backend_walk_init(&walk, a.tried[0]->name, PF_WORK_APSP, 0, NULL, NULL);
    attempts b = {0};
    r.calls = 0;
    ck_assert_int_eq(pf_backend_run(&walk, NULL, fail_first, &b, &log, &st), PF_E_DEVICE);
    ck_assert_int_eq(b.count, 1);
    ck_assert_int_eq(r.calls, 0);
    /* Nor does an attempt that set final. */
    pf_backend_walk_init(&walk, NULL, PF_WORK_APSP, 0, NULL, NULL);
    walk.final = 1;
    attempts c = {0};
    ck_assert_int_eq(pf_backend_run(&walk, NULL, fail_first, &c, &log, &st), PF_E_DEVICE);
    ck_assert_int_eq(c.count, 1);
}
END_TEST

START_TEST(explicit_backends_name_their_failure)
{
    pf_backend_walk walk;
    pf_status st = {0};
    pf_backend_walk_init(&walk, "nosuch", PF_WORK_MAXFLOW, 0, NULL, NULL);
    ck_assert_ptr_null(pf_backend_walk_next(&walk, &st));
    ck_assert_int_eq(st.code, PF_E_DEVICE);
    ck_assert_ptr_nonnull(strstr(st.message, "unknown"));
    /* seq is a backend like the others. */
    pf_backend_walk_init(&walk, "seq", PF_WORK_MAXFLOW, 0, NULL, NULL);
    const pf_device_ops *seq = pf_backend_walk_next(&walk, &st);
    ck_assert_ptr_nonnull(seq);
    ck_assert_ptr_nonnull(seq->maxflow_solve);
    ck_assert(seq->caps.one_thread);
    ck_assert_ptr_null(pf_backend_walk_next(&walk, &st));
}
END_TEST

/* auto for max-flow takes no GPU for a network smaller than
 * PORTAFLOW_GPU_MIN_VERTICES, and says why; a network of unknown size or a
 * named GPU backend is not held back. */
START_TEST(small_networks_take_no_gpu)
{
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, NULL, PF_WORK_MAXFLOW, 0, NULL, NULL);
    pf_backend_walk_size(&walk, 1000);
    ck_assert(walk.skip_gpus);
    ck_assert_ptr_null(pf_backend_walk_unprobed(&walk));
    int gpus_compiled = 0;
    for (const pf_device_ops *ops; (ops = pf_backend_walk_next(&walk, NULL));)
        ck_assert_msg(ops->caps.host_cpu, "%s taken for 1000 vertices", ops->name);
    for (int i = 0; i < pf_backend_count(); i++)
        gpus_compiled += !pf_backend_at(i)->caps.host_cpu;
    ck_assert(!gpus_compiled || strstr(walk.why, "PORTAFLOW_GPU_MIN_VERTICES"));
    pf_backend_walk_init(&walk, NULL, PF_WORK_MAXFLOW, 0, NULL, NULL);
    pf_backend_walk_size(&walk, -1);
    ck_assert(!walk.skip_gpus);
    pf_backend_walk_size(&walk, 10000000);
    ck_assert(!walk.skip_gpus);
    pf_backend_walk_init(&walk, "cuda", PF_WORK_MAXFLOW, 0, NULL, NULL);
    pf_backend_walk_size(&walk, 10);
    ck_assert(!walk.skip_gpus);
    pf_backend_walk_init(&walk, NULL, PF_WORK_APSP, 0, NULL, NULL);
    pf_backend_walk_size(&walk, 10);
    ck_assert(!walk.skip_gpus);
}
END_TEST

/* auto for max-flow: a GPU backend only where a GPU was found, a parallel
 * CPU backend only with enough threads, the one-thread engine last. */
START_TEST(auto_order_follows_the_capabilities)
{
    unsetenv("PORTAFLOW_BACKEND");
    for (int threads = 1; threads <= 16; threads *= 4) {
        pf_backend_walk walk;
        pf_backend_walk_init(&walk, NULL, PF_WORK_MAXFLOW, threads, NULL, NULL);
        int stage = 0, count = 0;
        const pf_device_ops *ops, *last = NULL;
        while ((ops = pf_backend_walk_next(&walk, NULL))) {
            int this_stage = !ops->caps.host_cpu ? 0 : !ops->caps.one_thread ? 1 : 2;
            ck_assert_int_ge(this_stage, stage);
            stage = this_stage;
            if (this_stage == 0)
                ck_assert(pf_backend_has_gpu(ops));
            if (this_stage == 1)
                ck_assert_int_ge(threads, PF_AUTO_CPU_MAXFLOW_MIN_THREADS);
            last = ops;
            count++;
        }
        ck_assert_int_ge(count, 1);
        ck_assert(last->caps.one_thread);
    }
}
END_TEST

static int counting_probe_calls;
static int counting_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    (void)descs, (void)max;
    counting_probe_calls++;
    snprintf(why, why_len, "probed");
    return 0;
}

/* Probe answers are kept: the second probe of a backend costs nothing. */
START_TEST(probes_are_kept_for_the_process)
{
    pf_backend_probe_forget();
    pf_device_desc a[8], b[8];
    char why_a[512], why_b[512];
    const pf_device_ops *first = pf_backend_at(0);
    int found_a = pf_backend_probe(first, a, 8, why_a, sizeof why_a);
    int found_b = pf_backend_probe(first, b, 8, why_b, sizeof why_b);
    ck_assert_int_eq(found_a, found_b);
    ck_assert_str_eq(why_a, why_b);
    for (int i = 0; i < found_a && i < 8; i++)
        ck_assert_str_eq(a[i].name, b[i].name);
    /* A table the registry does not hold is asked every time. */
    pf_device_ops own = *first;
    own.probe = counting_probe;
    counting_probe_calls = 0;
    pf_backend_probe(&own, a, 8, why_a, sizeof why_a);
    pf_backend_probe(&own, a, 8, why_a, sizeof why_a);
    ck_assert_int_eq(counting_probe_calls, 2);
}
END_TEST

/* The probes asked ahead on their own thread leave `auto` where it would
 * be without them: the same order of backends, the same reasons. */
START_TEST(probes_ahead_change_no_choice)
{
    char order[256], why[1024], order_ahead[256], why_ahead[1024];
    pf_backend_probe_forget();
    pf_backend_auto_explain(PF_WORK_MAXFLOW, 0, NULL, NULL, order, sizeof order, why,
                            sizeof why);
    pf_backend_probe_forget();
    pf_backend_probe_ahead();
    pf_backend_auto_explain(PF_WORK_MAXFLOW, 0, NULL, NULL, order_ahead, sizeof order_ahead,
                            why_ahead, sizeof why_ahead);
    ck_assert_str_eq(order_ahead, order);
    ck_assert_str_eq(why_ahead, why);
}
END_TEST

/* A machine without a GPU device node: auto passes over every GPU backend
 * without probing it, and says so; elsewhere no backend is passed over
 * for that. */
START_TEST(no_gpu_node_means_no_gpu_probe)
{
    char order[256], why[2048];
    pf_backend_auto_explain(PF_WORK_MAXFLOW, 0, NULL, NULL, order, sizeof order, why,
                            sizeof why);
    int shows = pf_backend_machine_shows_gpu();
    for (int i = 0; pf_backend_at(i); i++) {
        const pf_device_ops *ops = pf_backend_at(i);
        if (ops->caps.host_cpu)
            continue;
        char said[128];
        snprintf(said, sizeof said, "%s: no GPU device node", ops->name);
        ck_assert_msg((strstr(why, said) != NULL) == !shows, "%s: %s", said, why);
        if (!shows)
            ck_assert_ptr_null(strstr(order, ops->name));
    }
}
END_TEST

/* auto's first backend unprobed: only the registry's first, only where its
 * probe runs elsewhere, only once, never for a backend asked for by name;
 * the walk then goes on past it. */
START_TEST(unprobed_first_is_the_registrys_first)
{
    const pf_device_ops *best = pf_backend_at(0);
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, "auto", PF_WORK_MAXFLOW, 0, NULL, NULL);
    walk.is_auto = 1; /* whatever PORTAFLOW_BACKEND says */
    const pf_device_ops *got = pf_backend_walk_unprobed(&walk);
    if (!best->caps.probe_elsewhere || !pf_backend_machine_shows_gpu()) {
        ck_assert_ptr_null(got);
        ck_assert_int_eq(walk.index, 0);
        return;
    }
    ck_assert_ptr_eq(got, best);
    ck_assert_ptr_null(pf_backend_walk_unprobed(&walk));
    for (const pf_device_ops *next; (next = pf_backend_walk_next(&walk, NULL));)
        ck_assert_ptr_ne(next, best);
    pf_backend_walk_init(&walk, best->name, PF_WORK_MAXFLOW, 0, NULL, NULL);
    ck_assert_ptr_null(pf_backend_walk_unprobed(&walk));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, null_options_are_the_defaults);
    tcase_add_test(tc, old_option_sizes_are_kept);
    tcase_add_test(tc, fallback_is_logged_not_printed);
    tcase_add_test(tc, explicit_backends_name_their_failure);
    tcase_add_test(tc, auto_order_follows_the_capabilities);
    tcase_add_test(tc, small_networks_take_no_gpu);
    tcase_add_test(tc, probes_are_kept_for_the_process);
    tcase_add_test(tc, probes_ahead_change_no_choice);
    tcase_add_test(tc, unprobed_first_is_the_registrys_first);
    tcase_add_test(tc, no_gpu_node_means_no_gpu_probe);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
