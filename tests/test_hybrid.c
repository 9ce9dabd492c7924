/* The hybrid (src/host/hybrid.c): the backend named on the command line
 * paired with the host's sequential engine gives the same value and the
 * same (canonical) minimum cut as seq alone, with flows that pass the
 * certificate check, when the state moves back and forth after every tiny
 * stretch (PORTAFLOW_HYBRID_SWITCH=alternate) and when the model decides;
 * the model's threshold is He & Hong's Eq. 3; a device that cannot open
 * leaves the solve to the host; the CLI's --hybrid and "switches". */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/knobs.h"
#include "host/hybrid.h"
#include "support.h"

static const char *backend;
static int device_count;
static int reduced; /* PORTAFLOW_TEST_REDUCED=1: fewer seeds (tests/meson.build) */
static int device_bits[32];

/* 32-bit-only devices (rusticl) refuse graphs whose source capacity
 * reaches 2^31 - 1; those go to the host, which the fallback test covers. */
static int fits_device(const pf_network *net, int device)
{
    if (device_bits[device] & PF_MAXFLOW_64)
        return 1;
    return pf_test_fits_32_bits(net);
}

static void solve_verified(const pf_network *net, const char *name, int device, int hybrid,
                           pf_solution *sol)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = name;
    opt.device_index = device;
    opt.hybrid = hybrid;
    opt.want_flow = opt.want_cut = 1;
    pf_status st;
    PF_EXPECT(pf_solve(net, &opt, sol, &st) == PF_OK, "%s: %s", name, st.message);
    PF_EXPECT(pf_verify(net, sol->value, sol->arc_flow, sol->source_side, &st) == PF_OK,
              "%s certificate: %s", name, st.message);
}

/* Solves net as seq and as the hybrid; the same value and cut. Returns the
 * hybrid's switch count. */
static int64_t agree_with_seq(const pf_network *net, int device)
{
    pf_solution want, got;
    solve_verified(net, "seq", -1, PF_HYBRID_AUTO, &want);
    solve_verified(net, backend, device, PF_HYBRID_ON, &got);
    PF_EXPECT(got.value == want.value, "hybrid %s value %lld, seq %lld", backend,
              (long long)got.value, (long long)want.value);
    for (int64_t v = 0; v < pf_network_vertices(net); v++)
        PF_EXPECT(got.source_side[v] == want.source_side[v],
                  "vertex %lld on different cut sides", (long long)v + 1);
    PF_EXPECT(got.hybrid && strcmp(got.backend, backend) == 0, "backend '%s' (hybrid %d)",
              got.backend, got.hybrid);
    const char *team = getenv("PORTAFLOW_HYBRID_TEAM");
    PF_EXPECT(!team || strcmp(team, "on") != 0 || strstr(got.device, "OpenMP"),
              "no team in '%s'", got.device);
    for (int64_t i = 0; i < got.switch_count; i++)
        PF_EXPECT(got.switches[i].to_device == (i % 2 == 0),
                  "switch %lld goes the wrong way (the state starts on the host)", (long long)i);
    int64_t switches = got.switch_count;
    pf_solution_free(&got);
    pf_solution_free(&want);
    return switches;
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
    case 7: return pf_gen_grid3d(7, 6, 5, 6, 100, seed, &st);
    case 8: return pf_gen_rmf(12, 16, 1, 10000, seed, &st);
    default: return NULL;
    }
}
#define FAMILIES 9

/* Every test starts from its own settings, also after one that failed
 * midway (the suite runs in one process). */
static void clear_settings(void)
{
    const char *names[] = {"PORTAFLOW_HYBRID_SWITCH", "PORTAFLOW_HYBRID_STRETCH",
                           "PORTAFLOW_CYCLES", "PORTAFLOW_HYBRID_TEAM", "PORTAFLOW_ASYNC",
                           "PORTAFLOW_GR_ROUNDS", "PORTAFLOW_HANDOFF"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unsetenv(names[i]);
}

/* Many switches both ways: a stretch of a few discharges or rounds, and a
 * switch after each. */
static void alternate(const char *stretch)
{
    clear_settings();
    setenv("PORTAFLOW_HYBRID_SWITCH", "alternate", 1);
    setenv("PORTAFLOW_HYBRID_STRETCH", stretch, 1);
    setenv("PORTAFLOW_CYCLES", "1", 1); /* one operation per vertex and round */
    pf_knobs_reload();
}

static void model_decides(void)
{
    clear_settings();
    pf_knobs_reload();
}

START_TEST(families_agree_switching_every_stretch)
{
    int which = _i / device_count, device = _i % device_count;
    alternate("1");
    /* One pass a round on the CPU backend too: its asynchronous discharge
     * counts only relabel work and may finish a small graph in one round. */
    setenv("PORTAFLOW_ASYNC", "0", 1);
    pf_knobs_reload();
    for (uint64_t seed = 1; seed <= (reduced ? 1 : 2); seed++) {
        pf_network *net = family(which, seed);
        ck_assert_ptr_nonnull(net);
        if (fits_device(net, device)) {
            int64_t switches = agree_with_seq(net, device);
            /* Every family here needs more than a few stretches of one
             * discharge or round. */
            PF_EXPECT(switches >= 4, "family %d seed %llu: only %lld switches", which,
                      (unsigned long long)seed, (long long)switches);
        }
        pf_network_free(net);
    }
    unsetenv("PORTAFLOW_ASYNC");
    model_decides();
}
END_TEST

/* Device stretches that crawl (two rounds a relabel period, any active
 * count a crawl) go to the host at once, as the driver hands them over;
 * alternating brings the state back, so the crawl's move runs many times. */
START_TEST(families_agree_handing_crawls_to_the_host)
{
    int which = _i / device_count, device = _i % device_count;
    alternate("300");
    setenv("PORTAFLOW_GR_ROUNDS", "2", 1);
    setenv("PORTAFLOW_HANDOFF", "1000000000", 1);
    pf_knobs_reload();
    pf_network *net = family(which, 1);
    ck_assert_ptr_nonnull(net);
    if (fits_device(net, device))
        agree_with_seq(net, device);
    pf_network_free(net);
    unsetenv("PORTAFLOW_GR_ROUNDS");
    unsetenv("PORTAFLOW_HANDOFF");
    model_decides();
}
END_TEST

/* The host's side as a team (the parallel CPU backend, seq finishing a
 * crawl, the cut and phase 2) beside a device backend: switches after
 * every stretch, and crawls handed from the team to seq. */
START_TEST(families_agree_with_a_team)
{
    int which = _i / device_count, device = _i % device_count;
    pf_network *net = family(which, 1);
    ck_assert_ptr_nonnull(net);
    for (int crawl = 0; crawl < 2 && fits_device(net, device); crawl++) {
        alternate(crawl ? "300" : "1");
        setenv("PORTAFLOW_HYBRID_TEAM", "on", 1);
        setenv("PORTAFLOW_ASYNC", "0", 1);
        if (crawl) {
            setenv("PORTAFLOW_GR_ROUNDS", "2", 1);
            setenv("PORTAFLOW_HANDOFF", "1000000000", 1);
        }
        pf_knobs_reload();
        int64_t switches = agree_with_seq(net, device);
        PF_EXPECT(crawl || switches >= 4, "family %d: only %lld switches", which,
                  (long long)switches);
    }
    pf_network_free(net);
    model_decides();
}
END_TEST

START_TEST(random_graphs_agree)
{
    int device = _i % device_count;
    pf_status st;
    int64_t switches = 0;
    for (uint64_t seed = 1; seed <= 30; seed += reduced ? 3 : 1) {
        int64_t n = 2 + (int64_t)(seed * 7 % 50), m = (int64_t)(seed * 13 % 400);
        int64_t cap = seed % 3 == 0 ? 5 : 1000;
        pf_network *net = pf_gen_random(n, m, cap, seed, &st);
        ck_assert_ptr_nonnull(net);
        /* Odd seeds switch after every stretch of one step, even ones as
         * the model says. */
        if (seed % 2)
            alternate("1");
        else
            model_decides();
        if (fits_device(net, device))
            switches += agree_with_seq(net, device);
        pf_network_free(net);
    }
    model_decides();
    PF_EXPECT(switches > 10, "random graphs: only %lld switches in all", (long long)switches);
}
END_TEST

START_TEST(families_agree_as_the_model_decides)
{
    int which = _i / device_count, device = _i % device_count;
    model_decides();
    pf_network *net = family(which, 1);
    if (fits_device(net, device))
        agree_with_seq(net, device);
    pf_network_free(net);
}
END_TEST

/* He & Hong's Eq. 3 and the rates it is built from: progress on the
 * scale L = ln(1 + active excess). */
START_TEST(model_threshold_is_eq_3)
{
    pf_hybrid_model m;
    pf_hybrid_model_init(&m, 1000);
    m.transfer = 0.01;
    double at;
    /* Nothing measured: the device is tried from 1000 active vertices on. */
    ck_assert(!pf_hybrid_model_to_device(&m, 50, 1000000, &at));
    ck_assert(at == 1000);
    ck_assert(pf_hybrid_model_to_device(&m, 5000, 1000000, &at));
    /* The host retires L from ln(1 + e^10 - 1) = 10 to 8 in a second. */
    pf_hybrid_model_host(&m, (int64_t)llround(expm1(10.0)), (int64_t)llround(expm1(8.0)), 1.0);
    ck_assert_double_eq_tol(m.host_rate, 2.0, 1e-3);
    /* Still untried: the device only where the host's L / rate passes 2T. */
    ck_assert(!pf_hybrid_model_to_device(&m, 5000, 0, &at));
    ck_assert(pf_hybrid_model_to_device(&m, 5000, 1000, &at));
    /* The device: 10 rounds of 1e5 vertices in 2 ms each, latency 1 ms:
     * throughput 1e8/s; L from 8 to 4 over the 1e6 listed. */
    m.dev_latency = 1e-3;
    pf_hybrid_model_device(&m, 10, 10 * 100000, (int64_t)llround(expm1(4.0)), 10 * 2e-3);
    ck_assert_double_eq_tol(m.dev_throughput, 1e8, 1e2);
    ck_assert_double_eq_tol(m.dev_per_listed, 4e-6, 1e-8);
    /* At 1e5 active: 5e7 vertices/s, so 200 per second on the L scale. */
    double k_dev = pf_hybrid_model_dev_rate(&m, 100000);
    ck_assert_double_eq_tol(k_dev, 200, 0.5);
    /* Eq. 3 with 2T: L* = 0.02 * 200 * 2 / 198, N* = e^L* - 1. */
    double want = expm1(0.02 * k_dev * m.host_rate / (k_dev - m.host_rate));
    ck_assert(pf_hybrid_model_to_device(&m, 100000, 1000, &at));
    ck_assert_double_eq_tol(at, want, 1e-9);
    ck_assert(!pf_hybrid_model_to_device(&m, 100000, 0, &at));
    /* On the device: the host is slower at 1e5 active, never back. */
    ck_assert(!pf_hybrid_model_to_host(&m, 100000, 1000000, &at));
    ck_assert(isinf(at));
    /* At 10 active the device's latency dominates: 10 / (1 ms + 0.1 us)
     * vertices/s, 0.04 on the L scale, below the host's 2: back to the
     * host where the excess left passes T's margin. */
    ck_assert(pf_hybrid_model_to_host(&m, 10, 1000, &at));
    ck_assert(!pf_hybrid_model_to_device(&m, 10, 1000, &at));
    /* A host stretch is credited from where the device left L (4), and
     * its rate is a ratio of decaying sums: (2/2 + 4) / (1/2 + 1). */
    pf_hybrid_model_host(&m, 100, 0, 1.0);
    ck_assert_double_eq_tol(m.host_rate, 5.0 / 1.5, 0.05);
    /* Small rounds refine the latency, not the throughput. */
    pf_hybrid_model_device(&m, 100, 100 * 10, 50, 100 * 0.5e-3);
    ck_assert_double_eq_tol(m.dev_throughput, 1e8, 1e2);
    ck_assert(m.dev_latency < 1e-3 && m.dev_latency > 0.5e-3);
    /* A backend that cannot sum its excess: the active count decides. */
    pf_hybrid_model u;
    pf_hybrid_model_init(&u, 1000);
    pf_hybrid_model_device(&u, 1, 10, -1, 1e-3);
    ck_assert(u.dev_unmeasurable && !pf_hybrid_model_to_host(&u, 5, 1000, &at));
    ck_assert(pf_hybrid_model_to_device(&u, 5000, 10, &at));
}
END_TEST

static char logged[512];

static void keep_log(void *data, int level, const char *message)
{
    (void)data;
    if (level == PF_LOG_WARNING)
        snprintf(logged, sizeof logged, "%s", message);
}

/* A named backend whose device cannot open fails the solve, as without
 * the hybrid: exit 3 from the CLI, the backend's own reason in the status,
 * and no answer passed off as that backend's. */
START_TEST(unopenable_named_device_fails)
{
    pf_status st;
    pf_network *net = pf_gen_rlg(10, 12, 100, 3, &st);
    pf_solution got;
    alternate("1"); /* which also waits for the device's open to end */
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.device_index = 999;
    opt.hybrid = PF_HYBRID_ON;
    opt.want_flow = opt.want_cut = 1;
    opt.log = keep_log;
    logged[0] = '\0';
    ck_assert_int_eq(pf_solve(net, &opt, &got, &st), PF_E_DEVICE);
    PF_EXPECT(strstr(st.message, "999") || strstr(st.message, "device"), "status: '%s'",
              st.message);
    PF_EXPECT(!strstr(logged, "the host solves it"), "log: '%s'", logged);
    model_decides();
    pf_network_free(net);
}
END_TEST

static int cancel_now(void *data)
{
    (void)data;
    return 1;
}

START_TEST(cancel_stops_the_hybrid)
{
    model_decides();
    pf_status st;
    pf_network *net = pf_gen_rmf(8, 10, 1, 10000, 1, &st);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.hybrid = PF_HYBRID_ON;
    opt.want_flow = 1;
    opt.cancel = cancel_now;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_CANCELLED);
    pf_network_free(net);
}
END_TEST

/* --hybrid auto runs the engine alone, auto's or the one named. */
START_TEST(auto_is_no_hybrid)
{
    model_decides();
    pf_status st;
    pf_network *net = pf_gen_rlg(6, 8, 100, 2, &st);
    const char *names[] = {"auto", backend};
    for (int i = 0; i < 2; i++) {
        pf_solution sol;
        solve_verified(net, names[i], -1, PF_HYBRID_AUTO, &sol);
        PF_EXPECT(!sol.hybrid, "%s: hybrid %d (%s)", names[i], sol.hybrid, sol.backend);
        pf_solution_free(&sol);
    }
    pf_network_free(net);
}
END_TEST

START_TEST(seq_has_no_hybrid)
{
    pf_status st;
    pf_network *net = pf_gen_rlg(4, 4, 10, 1, &st);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.hybrid = PF_HYBRID_ON;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_USAGE);
    ck_assert_ptr_nonnull(strstr(st.message, "pairs a parallel backend with seq"));
    opt.hybrid = 7;
    opt.backend = backend;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_USAGE);
    pf_network_free(net);
}
END_TEST

/* The command line: --hybrid's values, "switches" in --json, the c line. */
START_TEST(cli_hybrid)
{
    model_decides();
    pf_status st;
    pf_network *net = pf_gen_rmf(6, 8, 1, 10000, 2, &st);
    const char *path = pf_test_tmpname();
    ck_assert_int_eq(pf_network_write_dimacs(net, path, &st), PF_OK);
    pf_network_free(net);
    char *out, *err;
    setenv("PORTAFLOW_HYBRID_SWITCH", "alternate", 1);
    setenv("PORTAFLOW_HYBRID_STRETCH", "2", 1);
    const char *json[] = {"solve", "--backend", backend, "--hybrid", "on", "--json", "--verify",
                          path, NULL};
    ck_assert_int_eq(pf_test_run_cli(json, NULL, &out, &err), 0);
    PF_EXPECT(strstr(out, "\"hybrid\":true,\"switches\":[{\"time_s\":") && strstr(out, "\"to\":\"device\"") &&
                  strstr(out, "\"to\":\"host\"") && strstr(out, "\"verified\":true"),
              "json: %s (stderr %s)", out, err);
    free(out), free(err);
    const char *text[] = {"solve", "--backend", backend, "--hybrid=on", path, NULL};
    ck_assert_int_eq(pf_test_run_cli(text, NULL, &out, &err), 0);
    PF_EXPECT(strstr(out, "c hybrid switches "), "text: %s", out);
    free(out), free(err);
    unsetenv("PORTAFLOW_HYBRID_SWITCH");
    unsetenv("PORTAFLOW_HYBRID_STRETCH");
    const char *off[] = {"solve", "--backend", backend, "--hybrid", "off", "--json", path, NULL};
    ck_assert_int_eq(pf_test_run_cli(off, NULL, &out, &err), 0);
    PF_EXPECT(!strstr(out, "switches") && !strstr(out, "hybrid"), "off: %s", out);
    free(out), free(err);
    const char *bad[] = {"solve", "--hybrid", "maybe", path, NULL};
    ck_assert_int_eq(pf_test_run_cli(bad, NULL, &out, &err), 1);
    PF_EXPECT(strstr(err, "--hybrid takes auto, on or off, not 'maybe'"), "bad: %s", err);
    free(out), free(err);
    const char *seq[] = {"solve", "--backend", "seq", "--hybrid", "on", path, NULL};
    ck_assert_int_eq(pf_test_run_cli(seq, NULL, &out, &err), 1);
    free(out), free(err);
    const char *help[] = {"solve", "--help", NULL};
    ck_assert_int_eq(pf_test_run_cli(help, NULL, &out, &err), 0);
    PF_EXPECT(strstr(out, "--hybrid MODE"), "solve --help: %s", out);
    free(out), free(err);
    const char *top[] = {"--help", NULL};
    ck_assert_int_eq(pf_test_run_cli(top, NULL, &out, &err), 0);
    PF_EXPECT(strstr(out, "--hybrid auto|on|off"), "portaflow --help: %s", out);
    free(out), free(err);
    remove(path);
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "omp";
    reduced = pf_test_reduced();
    char why[512];
    device_count = pf_test_backend_devices(backend, why, sizeof why);
    if (device_count == 0) {
        printf("SKIP: %s\n", why);
        return PF_TEST_SKIP;
    }
    pf_test_device_widths(backend, device_bits, 32);
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("hybrid");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, model_threshold_is_eq_3);
    tcase_add_loop_test(tc, families_agree_switching_every_stretch, 0, FAMILIES * device_count);
    tcase_add_loop_test(tc, families_agree_handing_crawls_to_the_host, 0,
                        FAMILIES * device_count);
    tcase_add_loop_test(tc, random_graphs_agree, 0, device_count);
    /* A CPU backend is the host's team itself: no team beside it. */
    if (strcmp(backend, "omp") != 0)
        tcase_add_loop_test(tc, families_agree_with_a_team, 0, FAMILIES * device_count);
    tcase_add_loop_test(tc, families_agree_as_the_model_decides, 0, FAMILIES * device_count);
    tcase_add_test(tc, unopenable_named_device_fails);
    tcase_add_test(tc, cancel_stops_the_hybrid);
    tcase_add_test(tc, auto_is_no_hybrid);
    tcase_add_test(tc, seq_has_no_hybrid);
    tcase_add_test(tc, cli_hybrid);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
