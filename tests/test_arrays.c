/* The array API on the backend named on the command line: networks from
 * 0- and 1-based arrays equal those built arc by arc, errors name the bad
 * arc and change nothing, bulk capacity updates, the cut as vertex and arc
 * lists, the cancel callback (PF_E_CANCELLED, and the next solve works),
 * sized structs, and several threads solving at once. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/knobs.h"
#include "common/gen.h"
#include "host/registry.h"
#include "pf_config.h"
#include "support.h"

static const char *backend;

static pf_network *rlg(int64_t rows, int64_t cols, uint64_t seed)
{
    pf_status st;
    pf_network *net = pf_gen_rlg(rows, cols, 1000, seed, &st);
    PF_EXPECT(net != NULL, "rlg: %s", st.message);
    return net;
}

/* The arcs of net as three arrays shifted by base (caller frees them). */
static void to_arrays(const pf_network *net, int base, int64_t **t, int64_t **h, int64_t **c)
{
    int64_t m = pf_network_arcs(net);
    *t = malloc((size_t)m * 8);
    *h = malloc((size_t)m * 8);
    *c = malloc((size_t)m * 8);
    pf_network_get_arcs(net, *t, *h, *c);
    for (int64_t i = 0; i < m; i++) {
        (*t)[i] += base;
        (*h)[i] += base;
    }
}

static int64_t solve_value(const pf_network *net, pf_solution *sol_out)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.want_flow = opt.want_cut = 1;
    pf_solution sol;
    pf_status st;
    PF_EXPECT(pf_solve(net, &opt, &sol, &st) == PF_OK, "%s: %s", backend, st.message);
    PF_EXPECT(pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st) == PF_OK,
              "%s certificate: %s", backend, st.message);
    int64_t value = sol.value;
    if (sol_out)
        *sol_out = sol;
    else
        pf_solution_free(&sol);
    return value;
}

START_TEST(from_arrays_matches_arc_by_arc)
{
    pf_network *ref = rlg(16, 16, 7);
    int64_t want = solve_value(ref, NULL);
    for (int base = 0; base <= 1; base++) {
        int64_t *t, *h, *c;
        to_arrays(ref, base, &t, &h, &c);
        pf_status st;
        pf_network *net = pf_network_from_arrays(pf_network_vertices(ref),
                                                 pf_network_source(ref) + base,
                                                 pf_network_sink(ref) + base,
                                                 pf_network_arcs(ref), t, h, c, base, &st);
        ck_assert_msg(net != NULL, "base %d: %s", base, st.message);
        ck_assert_int_eq(pf_network_arcs(net), pf_network_arcs(ref));
        ck_assert_int_eq(pf_network_source(net), pf_network_source(ref));
        for (int64_t i = 0; i < pf_network_arcs(ref); i++) {
            int64_t a[3], b[3];
            pf_network_arc(ref, i, &a[0], &a[1], &a[2]);
            pf_network_arc(net, i, &b[0], &b[1], &b[2]);
            PF_EXPECT(memcmp(a, b, sizeof a) == 0, "arc %lld differs", (long long)i);
        }
        ck_assert_int_eq(solve_value(net, NULL), want);
        pf_network_free(net);
        free(t);
        free(h);
        free(c);
    }
    pf_network_free(ref);
}
END_TEST

START_TEST(from_arrays_rejects_bad_input)
{
    const int64_t t[] = {0, 1, 2}, h[] = {1, 2, 3}, c[] = {5, 5, 5};
    const int64_t bad_head[] = {1, 4, 3}, bad_cap[] = {5, -1, 5};
    pf_status st;
    ck_assert_ptr_null(pf_network_from_arrays(4, 0, 3, 3, t, bad_head, c, 0, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, "arc 1: head 4 outside 0..3");
    ck_assert_ptr_null(pf_network_from_arrays(4, 0, 3, 3, t, h, bad_cap, 0, &st));
    ck_assert_str_eq(st.message, "arc 1: capacity -1 outside 0..2^62");
    /* 1-based: id 0 is out of range, and the message says so in 1-based ids. */
    ck_assert_ptr_null(pf_network_from_arrays(4, 1, 4, 3, t, h, c, 1, &st));
    ck_assert_str_eq(st.message, "arc 0: tail 0 outside 1..4");
    ck_assert_ptr_null(pf_network_from_arrays(4, 0, 0, 3, t, h, c, 0, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_ptr_null(pf_network_from_arrays(4, 0, 3, 3, t, h, c, 2, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_ptr_null(pf_network_from_arrays(4, 0, 3, 3, t, NULL, c, 0, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
}
END_TEST

/* Both builders check their arguments alike: the id base, the arc count,
 * and every array given when there are arcs. */
START_TEST(from_arrays_rejects_bad_arguments)
{
    const int64_t t[] = {0, 1}, h[] = {1, 2}, c[] = {5, 5};
    const double w[] = {1.5, 2};
    pf_status st;
    ck_assert_ptr_null(pf_network_from_arrays(3, 0, 2, -1, t, h, c, 0, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_str_eq(st.message, "arc count -1 with a negative count of arrays");
    ck_assert_ptr_null(pf_network_from_arrays(3, 0, 2, 2, t, h, NULL, 0, &st));
    ck_assert_str_eq(st.message, "arc count 2 with missing arrays");
    ck_assert_ptr_null(pf_wgraph_from_arrays(3, 2, t, h, w, 2, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_str_eq(st.message, "id base 2: must be 0 or 1");
    ck_assert_ptr_null(pf_wgraph_from_arrays(3, -1, t, h, w, 0, &st));
    ck_assert_str_eq(st.message, "arc count -1 with a negative count of arrays");
    ck_assert_ptr_null(pf_wgraph_from_arrays(3, 2, NULL, h, w, 0, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_str_eq(st.message, "arc count 2 with missing arrays");
    pf_wgraph *g = pf_wgraph_from_arrays(3, 0, NULL, NULL, NULL, 0, &st);
    ck_assert_ptr_nonnull(g); /* no arcs: no arrays needed */
    pf_wgraph_free(g);
}
END_TEST

START_TEST(set_capacities_in_bulk)
{
    const int64_t t[] = {0, 0, 1, 1, 2}, h[] = {1, 2, 2, 3, 3}, c[] = {3, 2, 1, 2, 3};
    pf_status st;
    pf_network *net = pf_network_from_arrays(4, 0, 3, 5, t, h, c, 0, &st);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(solve_value(net, NULL), 5);
    const int64_t ids[] = {3, 4}, caps[] = {10, 10};
    ck_assert_int_eq(pf_network_set_capacities(net, 2, ids, caps, &st), PF_OK);
    ck_assert_int_eq(solve_value(net, NULL), 5); /* now the source's arcs bound it */
    const int64_t all[] = {7, 7, 0, 10, 10};
    ck_assert_int_eq(pf_network_set_capacities(net, 5, NULL, all, &st), PF_OK);
    ck_assert_int_eq(solve_value(net, NULL), 14);
    /* One bad entry: nothing changes. */
    const int64_t bad_ids[] = {0, 9}, bad_caps[] = {1, 1};
    ck_assert_int_eq(pf_network_set_capacities(net, 2, bad_ids, bad_caps, &st), PF_E_INPUT);
    ck_assert_str_eq(st.message, "update 1: arc 9 outside 0..4");
    const int64_t neg[] = {1, -3};
    ck_assert_int_eq(pf_network_set_capacities(net, 2, NULL, neg, &st), PF_E_INPUT);
    ck_assert_int_eq(solve_value(net, NULL), 14);
    pf_network_free(net);
}
END_TEST

START_TEST(cut_sides_and_arcs)
{
    pf_network *net = rlg(12, 10, 3);
    pf_solution sol;
    int64_t value = solve_value(net, &sol);
    int64_t n = pf_network_vertices(net), m = pf_network_arcs(net);
    int64_t *src = malloc((size_t)n * 8), *snk = malloc((size_t)n * 8);
    int64_t *cut = malloc((size_t)m * 8);
    int64_t ns = pf_solution_cut_sides(net, &sol, src, snk);
    ck_assert_int_gt(ns, 0);
    ck_assert_int_lt(ns, n);
    ck_assert_int_eq(src[0], pf_network_source(net)); /* the source has the lowest id */
    for (int64_t k = 0; k < ns; k++)
        PF_EXPECT(sol.source_side[src[k]], "vertex %lld listed on the source side", (long long)k);
    for (int64_t k = 0; k < n - ns; k++)
        PF_EXPECT(!sol.source_side[snk[k]], "vertex %lld listed on the sink side", (long long)k);
    int64_t ncut = pf_solution_cut_arcs(net, &sol, cut);
    ck_assert_int_eq(ncut, pf_solution_cut_arcs(net, &sol, NULL));
    int64_t total = 0;
    for (int64_t k = 0; k < ncut; k++) {
        int64_t tail, head, cap;
        pf_network_arc(net, cut[k], &tail, &head, &cap);
        PF_EXPECT(sol.source_side[tail] && !sol.source_side[head], "arc does not cross");
        total += cap;
    }
    ck_assert_int_eq(total, value);
    pf_solution_free(&sol);
    pf_solution no_cut = {0};
    ck_assert_int_eq(pf_solution_cut_sides(net, &no_cut, NULL, NULL), -1);
    ck_assert_int_eq(pf_solution_cut_arcs(net, &no_cut, NULL), -1);
    free(src);
    free(snk);
    free(cut);
    pf_network_free(net);
}
END_TEST

/* Counts its calls; asks to stop from call `stop_at` on. */
typedef struct cancel_state {
    int calls, stop_at;
} cancel_state;

static int cancel_after(void *data)
{
    cancel_state *c = data;
    return ++c->calls >= c->stop_at;
}

START_TEST(cancel_stops_the_solve)
{
    pf_network *net = rlg(128, 128, 11);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.want_flow = 1;
    cancel_state c = {.stop_at = 1};
    opt.cancel = cancel_after;
    opt.cancel_data = &c;
    pf_solution sol;
    pf_status st;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_CANCELLED);
    ck_assert_int_eq(c.calls, 1);
    ck_assert_str_eq(st.message, "solve cancelled by the caller");
    ck_assert_ptr_null(sol.arc_flow);
    /* A callback that never stops changes nothing; the device came back. */
    c = (cancel_state){.stop_at = 1 << 30};
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_OK);
    ck_assert_int_gt(c.calls, 0);
    int64_t value = sol.value;
    pf_solution_free(&sol);
    ck_assert_int_eq(solve_value(net, NULL), value);
    pf_network_free(net);
}
END_TEST

START_TEST(sized_structs)
{
    pf_network *net = rlg(8, 8, 5);
    int64_t want = solve_value(net, NULL);
    /* Options filled by hand (struct_size 0: version-1 fields only). */
    pf_solve_options opt;
    memset(&opt, 0, sizeof opt);
    opt.backend = backend;
    opt.device_index = -1;
    opt.cancel = cancel_after; /* past a version-1 struct: not read */
    pf_solution sol;
    pf_status st;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.value, want);
    pf_solution_free(&sol);
    /* NULL options: the defaults. */
    ck_assert_int_eq(pf_solve(net, NULL, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.value, want);
    pf_solution_free(&sol);
    /* A caller that knows only the first fields of pf_solution: nothing
     * past them is written. */
    size_t known = offsetof(pf_solution, backend);
    unsigned char buf[sizeof(pf_solution) + 16];
    memset(buf, 0xAB, sizeof buf);
    opt.want_flow = 0;
    ck_assert_int_eq(pf_solve_sized(net, &opt, (pf_solution *)buf, known, &st), PF_OK);
    for (size_t i = known; i < sizeof buf; i++)
        PF_EXPECT(buf[i] == 0xAB, "byte %zu past the caller's struct written", i);
    pf_solution part;
    memcpy(&part, buf, known);
    ck_assert_int_eq(part.value, want);
    pf_network_free(net);
}
END_TEST

enum { SOLVER_THREADS = 4 };

typedef struct solver_job {
    const pf_network *net;
    const char *backend;
    int64_t value;
    int rc;
    char message[512];
} solver_job;

static void *solve_job(void *arg)
{
    solver_job *job = arg;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = job->backend;
    opt.want_flow = opt.want_cut = 1;
    pf_solution sol;
    pf_status st;
    job->rc = pf_solve(job->net, &opt, &sol, &st);
    if (!job->rc)
        job->rc = pf_verify(job->net, sol.value, sol.arc_flow, sol.source_side, &st);
    job->value = sol.value;
    snprintf(job->message, sizeof job->message, "%s", st.message);
    pf_solution_free(&sol);
    return NULL;
}

START_TEST(threads_solve_at_once)
{
    pf_network *net = rlg(32, 32, 9);
    int64_t want = solve_value(net, NULL);
    pthread_t tid[SOLVER_THREADS];
    solver_job jobs[SOLVER_THREADS];
    for (int i = 0; i < SOLVER_THREADS; i++) {
        /* Half on this backend, half on seq: same and different backends. */
        jobs[i] = (solver_job){.net = net, .backend = i % 2 ? "seq" : backend};
        ck_assert_int_eq(pthread_create(&tid[i], NULL, solve_job, &jobs[i]), 0);
    }
    for (int i = 0; i < SOLVER_THREADS; i++) {
        pthread_join(tid[i], NULL);
        ck_assert_msg(jobs[i].rc == PF_OK, "thread %d (%s): %s", i, jobs[i].backend,
                      jobs[i].message);
        ck_assert_int_eq(jobs[i].value, want);
    }
    pf_network_free(net);
}
END_TEST

START_TEST(wgraph_from_arrays)
{
    const int64_t t[] = {1, 2, 1}, h[] = {2, 3, 3};
    const double w[] = {2, 3, 7}, wr[] = {2.5, 3, 7};
    pf_status st;
    pf_wgraph *g = pf_wgraph_from_arrays(3, 3, t, h, w, 1, &st);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(pf_wgraph_arcs(g), 3);
    ck_assert_int_eq(pf_wgraph_is_real(g), 0);
    pf_wgraph_free(g);
    g = pf_wgraph_from_arrays(3, 3, t, h, wr, 1, &st);
    ck_assert_int_eq(pf_wgraph_is_real(g), 1);
    pf_wgraph_free(g);
    const double inf[] = {2, 1.0 / 0.0, 7};
    ck_assert_ptr_null(pf_wgraph_from_arrays(3, 3, t, h, inf, 1, &st));
    ck_assert_str_eq(st.message, "arc 1: weight inf is not a finite number");
    ck_assert_ptr_null(pf_wgraph_from_arrays(3, 3, t, h, w, 0, &st));
    ck_assert_str_eq(st.message, "arc 1: head 3 outside 0..2");
}
END_TEST

/* pf_list_devices from several threads at once: the CUDA probe starts its
 * helper with posix_spawn (never fork() in a process with threads) and
 * every thread gets the same answer. */
enum { PROBE_THREADS = 4 };

typedef struct probe_job {
    int count;
    char why[2048];
} probe_job;

static void *probe_job_run(void *arg)
{
    probe_job *job = arg;
    pf_device_desc descs[32];
    job->count = pf_list_devices(descs, 32, job->why, sizeof job->why);
    return NULL;
}

START_TEST(probe_from_threads)
{
    pthread_t tid[PROBE_THREADS];
    probe_job jobs[PROBE_THREADS];
    for (int i = 0; i < PROBE_THREADS; i++)
        ck_assert_int_eq(pthread_create(&tid[i], NULL, probe_job_run, &jobs[i]), 0);
    for (int i = 0; i < PROBE_THREADS; i++)
        pthread_join(tid[i], NULL);
    for (int i = 1; i < PROBE_THREADS; i++) {
        ck_assert_int_eq(jobs[i].count, jobs[0].count);
        ck_assert_str_eq(jobs[i].why, jobs[0].why);
    }
}
END_TEST

/* The helper's answer is what the probe reports: a helper that writes
 * nothing is a clear reason, not a crash or a hang. */
START_TEST(probe_reports_a_broken_helper)
{
#if PF_HAVE_CUDA
    setenv("PORTAFLOW_CUDA_PROBE", "/bin/false", 1);
    pf_backend_probe_forget(); /* probes are kept for the process: ask again */
    pf_knobs_reload();
    pf_device_desc descs[32];
    char why[2048];
    int count = pf_list_devices(descs, 32, why, sizeof why);
    unsetenv("PORTAFLOW_CUDA_PROBE");
    pf_backend_probe_forget();
    pf_knobs_reload();
    for (int i = 0; i < count; i++)
        ck_assert_str_ne(descs[i].backend, "cuda");
    ck_assert_msg(strstr(why, "cuda: CUDA device query failed (helper portaflow-cuda-probe "
                              "sent 0 of") != NULL,
                  "why: %s", why);
#endif
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "seq";
    char why[512];
    if (strcmp(backend, "seq") != 0 && pf_test_backend_devices(backend, why, sizeof why) == 0) {
        printf("SKIP: %s\n", why);
        return PF_TEST_SKIP;
    }
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("arrays");
    tcase_set_timeout(tc, 300);
    /* The probe tests come first: once this process has started the CUDA
     * runtime (a solve below may), the probe asks it in-process and the
     * helper is no longer run. */
    if (strcmp(backend, "seq") == 0) { /* once: they need no device */
        tcase_add_test(tc, probe_from_threads);
        tcase_add_test(tc, probe_reports_a_broken_helper);
    }
    tcase_add_test(tc, from_arrays_matches_arc_by_arc);
    tcase_add_test(tc, from_arrays_rejects_bad_input);
    tcase_add_test(tc, from_arrays_rejects_bad_arguments);
    tcase_add_test(tc, set_capacities_in_bulk);
    tcase_add_test(tc, cut_sides_and_arcs);
    tcase_add_test(tc, cancel_stops_the_solve);
    tcase_add_test(tc, sized_structs);
    tcase_add_test(tc, threads_solve_at_once);
    tcase_add_test(tc, wgraph_from_arrays);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
