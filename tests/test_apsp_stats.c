/* `apsp --stats` summed on the device (fw_stats, device.h) for the backend
 * named on the command line: the device step against the host's sums over
 * the downloaded matrix on random graphs (every kind, unreachable pairs,
 * negative weights, orders off the tile, n = 1), the step itself on a
 * matrix with padding it must ignore, and the command's printed lines with
 * and without the matrix coming back. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/wgraph.h"
#include "host/apsp.h"
#include "host/registry.h"
#include "support.h"

static const char *backend;

/* Weights c + p(u) - p(v), c in 0..60: negative weights, no negative
 * cycle; vertices >= n - gap get no arc from the rest (unreachable). */
static pf_wgraph *random_graph(int64_t n, int64_t arcs, int64_t gap, uint64_t seed)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(n, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    pf_rng rng;
    pf_rng_seed(&rng, seed);
    int64_t *p = calloc((size_t)n, sizeof *p);
    for (int64_t v = 0; v < n; v++)
        p[v] = pf_rng_range(&rng, 0, 40);
    for (int64_t a = 0; a < arcs && n > 1; a++) {
        int64_t u = pf_rng_range(&rng, 0, n - 1), v = pf_rng_range(&rng, 0, n - 1);
        if (u == v || (u < n - gap && v >= n - gap))
            continue;
        ck_assert_int_eq(pf_wgraph_add_arc(g, u, v, pf_rng_range(&rng, 0, 60) + p[u] - p[v], &st),
                         PF_OK);
    }
    free(p);
    return g;
}

/* The statistics as the CLI defines them (cli_apsp.c), from a result's
 * matrix: pairs i != j with a path, the sum of every finite entry mod 2^64,
 * the largest finite entry off the diagonal. */
static pf_fw_stats host_stats(const pf_apsp_result *res)
{
    pf_fw_stats s = {.reachable = 0, .sum = 0, .most = INT64_MIN};
    for (int64_t i = 0; i < res->n; i++)
        for (int64_t j = 0; j < res->n; j++) {
            int64_t at = i * res->n + j, v;
            if (res->kind == PF_DIST_I32) {
                v = ((const int32_t *)res->dist)[at];
                if (v == PF_APSP_NONE_I32)
                    continue;
            } else {
                v = ((const int64_t *)res->dist)[at];
                if (v == PF_APSP_NONE_I64)
                    continue;
            }
            s.sum += (uint64_t)v;
            if (i != j) {
                s.reachable++;
                s.most = v > s.most ? v : s.most;
            }
        }
    return s;
}

typedef struct stats_log {
    int stats_calls, row_calls;
    pf_fw_stats got;
} stats_log;

static int log_rows(void *ctx, const pf_apsp_result *res, int64_t first, int64_t count,
                    pf_status *st)
{
    (void)res, (void)first, (void)count, (void)st;
    ((stats_log *)ctx)->row_calls++;
    return PF_OK;
}

static int log_stats(void *ctx, const pf_apsp_result *res, const pf_fw_stats *s, pf_status *st)
{
    (void)res, (void)st;
    stats_log *log = ctx;
    log->stats_calls++;
    log->got = *s;
    return PF_OK;
}

static int device_sums(void)
{
    const pf_device_ops *ops = pf_backend_find(backend);
    return ops && ops->fw_stats;
}

static const int kinds[] = {PF_DIST_I32, PF_DIST_I64, PF_DIST_F32};
static const int64_t orders[] = {1, 2, 37, 64, 130, 203};
enum { ORDERS = sizeof orders / sizeof orders[0] };

/* pf_apsp_with and a stats sink: the device's sums equal the host's over
 * the matrix of a plain solve; the matrix stays on the device where the
 * backend offers fw_stats (integer kinds), else the rows come as before. */
START_TEST(device_sums_match_host)
{
    int kind = kinds[_i % 3];
    int64_t n = orders[_i / 3 % ORDERS], gap = _i / 3 / ORDERS ? n / 4 : 0;
    pf_wgraph *g = random_graph(n, 6 * n, gap, 4100u + (uint64_t)_i);
    pf_apsp_options opt;
    pf_apsp_options_init(&opt);
    opt.backend = backend;
    opt.kind = kind;
    pf_apsp_result whole, res;
    pf_status st;
    PF_EXPECT(pf_apsp(g, &opt, &whole, &st) == PF_OK, "%s", st.message);
    stats_log log = {0};
    pf_apsp_sink sink = {.rows = log_rows, .stats = log_stats, .ctx = &log};
    PF_EXPECT(pf_apsp_with(g, &opt, NULL, &sink, &res, &st) == PF_OK, "%s", st.message);
    if (kind != PF_DIST_F32 && device_sums()) {
        ck_assert_int_eq(log.stats_calls, 1);
        ck_assert_int_eq(log.row_calls, 0);
        ck_assert_ptr_null(res.dist);
        pf_fw_stats want = host_stats(&whole);
        PF_EXPECT(log.got.reachable == want.reachable && log.got.sum == want.sum &&
                      log.got.most == want.most,
                  "n %lld kind %d: device %lld %llu %lld, host %lld %llu %lld", (long long)n,
                  kind, (long long)log.got.reachable, (unsigned long long)log.got.sum,
                  (long long)log.got.most, (long long)want.reachable,
                  (unsigned long long)want.sum, (long long)want.most);
    } else {
        ck_assert_int_eq(log.stats_calls, 0);
        ck_assert_int_ge(log.row_calls, 1);
        ck_assert_ptr_nonnull(res.dist);
    }
    pf_apsp_result_free(&whole);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* With next hops the rows come back (fw_stats is not asked). */
START_TEST(paths_keep_the_rows)
{
    pf_wgraph *g = random_graph(50, 300, 10, 77);
    pf_apsp_options opt;
    pf_apsp_options_init(&opt);
    opt.backend = backend;
    opt.want_paths = 1;
    stats_log log = {0};
    pf_apsp_sink sink = {.rows = log_rows, .stats = log_stats, .ctx = &log};
    pf_apsp_result res;
    pf_status st;
    PF_EXPECT(pf_apsp_with(g, &opt, NULL, &sink, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(log.stats_calls, 0);
    ck_assert_int_ge(log.row_calls, 1);
    ck_assert_ptr_nonnull(res.dist);
    ck_assert_ptr_nonnull(res.next);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* The step on a hand-made padded matrix: "no path" is any entry above
 * INF/2, the diagonal counts in the sum only, rows and columns past n are
 * ignored (they hold values that would change every statistic), and the
 * sum wraps mod 2^64 for int64. Float is refused. */
START_TEST(step_on_padded_matrix)
{
    if (!device_sums())
        return;
    int kind = _i ? PF_DIST_I64 : PF_DIST_I32;
    const pf_device_ops *ops = pf_backend_find(backend);
    pf_open_params params = {.device_index = -1};
    pf_dev *dev;
    pf_device_desc desc;
    pf_status st;
    PF_EXPECT(ops->open(&params, &dev, &desc, &st) == PF_OK, "%s", st.message);
    const int32_t ld = 64, n = 45;
    int64_t inf = kind == PF_DIST_I32 ? PF_FW_INF_I32 : PF_FW_INF_I64;
    int64_t *cells = malloc((size_t)ld * ld * sizeof *cells);
    pf_fw_stats want = {.reachable = 0, .sum = 0, .most = INT64_MIN};
    pf_rng rng;
    pf_rng_seed(&rng, 5u + (uint64_t)_i);
    for (int32_t i = 0; i < ld; i++)
        for (int32_t j = 0; j < ld; j++) {
            int64_t v = pf_rng_range(&rng, -1000, 1000), pick = pf_rng_range(&rng, 0, 9);
            if (i >= n || j >= n)
                v = pick < 5 ? 999999 : -999999; /* padding: must not count */
            else if (pick == 0)
                v = inf; /* no path */
            else if (pick == 1)
                v = inf / 2 + 1 + pf_rng_range(&rng, 0, 100); /* INF plus a negative: none */
            else if (pick == 2)
                v = inf / 2; /* the largest finite entry */
            else if (kind == PF_DIST_I64 && pick == 3)
                v = inf / 2 - 7; /* large: the int64 sum wraps */
            else if (i == j)
                v = 0;
            cells[(size_t)i * ld + j] = v;
            if (i >= n || j >= n || v > inf / 2)
                continue;
            want.sum += (uint64_t)v;
            if (i != j) {
                want.reachable++;
                want.most = v > want.most ? v : want.most;
            }
        }
    size_t elem = kind == PF_DIST_I32 ? 4 : 8, bytes = (size_t)ld * ld * elem;
    void *host = malloc(bytes);
    for (size_t at = 0; at < (size_t)ld * ld; at++) {
        if (kind == PF_DIST_I32)
            ((int32_t *)host)[at] = (int32_t)cells[at];
        else
            ((int64_t *)host)[at] = cells[at];
    }
    pf_dev_apsp a = {.n = ld, .tile = 64, .kind = kind};
    PF_EXPECT(ops->alloc(dev, bytes, &a.dist, &st) == PF_OK, "%s", st.message);
    PF_EXPECT(ops->upload(dev, a.dist, 0, host, bytes, &st) == PF_OK, "%s", st.message);
    pf_fw_stats got;
    PF_EXPECT(ops->fw_stats(dev, &a, n, &got, &st) == PF_OK, "%s", st.message);
    PF_EXPECT(got.reachable == want.reachable && got.sum == want.sum && got.most == want.most,
              "device %lld %llu %lld, want %lld %llu %lld", (long long)got.reachable,
              (unsigned long long)got.sum, (long long)got.most, (long long)want.reachable,
              (unsigned long long)want.sum, (long long)want.most);
    /* One row and column: the diagonal only, no pair. */
    PF_EXPECT(ops->fw_stats(dev, &a, 1, &got, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(got.reachable, 0);
    ck_assert_int_eq(got.most, INT64_MIN);
    ck_assert_uint_eq(got.sum, (uint64_t)(cells[0] > inf / 2 ? 0 : cells[0]));
    /* Float and a bad order are refused, the device stays usable. */
    pf_dev_apsp f = a;
    f.kind = PF_DIST_F32;
    ck_assert_int_eq(ops->fw_stats(dev, &f, n, &got, &st), PF_E_USAGE);
    ck_assert_int_eq(ops->fw_stats(dev, &a, ld + 1, &got, &st), PF_E_USAGE);
    ck_assert_int_eq(ops->fw_stats(dev, &a, 0, &got, &st), PF_E_USAGE);
    PF_EXPECT(ops->fw_stats(dev, &a, ld, &got, &st) == PF_OK, "%s", st.message);
    ops->release(dev, a.dist);
    ops->close(dev);
    free(host);
    free(cells);
}
END_TEST

/* The "s" lines of `apsp --stats` (device sums where offered) equal those
 * of `apsp --stats --verify` (the matrix comes back: host sums), for every
 * --type. */
static char *s_lines(const char *text)
{
    char *out = calloc(strlen(text) + 1, 1);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        if (line[0] == 's')
            strncat(out, line, len);
        line += len;
    }
    return out;
}

START_TEST(cli_lines_unchanged)
{
    static const char *const types[] = {"i32", "i64", "f32"};
    char graph[4096];
    snprintf(graph, sizeof graph, "%s", pf_test_tmpname());
    const char *gen[] = {"gen", "sp", "150", "--arcs", "700", "--negative", "--seed", "9",
                         "-o", graph, NULL};
    char *out, *err;
    ck_assert_int_eq(pf_test_run_cli(gen, NULL, &out, &err), 0);
    free(out);
    free(err);
    const char *type = types[_i];
    const char *fast[] = {"apsp", "--backend", backend, "--type", type, "--stats", graph, NULL};
    const char *slow[] = {"apsp", "--backend", backend, "--type", type, "--stats", "--verify",
                          graph, NULL};
    char *fast_out, *slow_out;
    PF_EXPECT(pf_test_run_cli(fast, NULL, &fast_out, &err) == 0, "%s", err);
    free(err);
    PF_EXPECT(pf_test_run_cli(slow, NULL, &slow_out, &err) == 0, "%s", err);
    free(err);
    char *a = s_lines(fast_out), *b = s_lines(slow_out);
    ck_assert_ptr_nonnull(strstr(a, "s reachable_pairs "));
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(fast_out, "c times ms: "));
    ck_assert_ptr_nonnull(strstr(fast_out, "c write ms "));
    free(a);
    free(b);
    free(fast_out);
    free(slow_out);
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "seq";
    if (pf_test_backend_missing(backend))
        return PF_TEST_SKIP;
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("apsp_stats");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, device_sums_match_host, 0, 3 * ORDERS * 2);
    tcase_add_test(tc, paths_keep_the_rows);
    tcase_add_loop_test(tc, step_on_padded_matrix, 0, 2);
    tcase_add_loop_test(tc, cli_lines_unchanged, 0, 3);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
