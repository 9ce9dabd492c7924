/* pf_solve_csr_flow: a CSR matrix solved with scipy's flow matrix, read
 * off the residual lists. Its matrix is, bit for bit, the one
 * pf_csr_flow_matrix makes from the same call's arc flows (itself checked
 * against a dense reference in test_csr.c), for every mix of int32/int64
 * arrays, repeats summed or kept, inputs with (u,v) and (v,u) both,
 * repeated positions, self-loops, empty rows and unsorted rows; on the
 * seq engine (the structure beside the solve), omp (after it), the
 * hybrid, and every arc order (the transpose path where an order hides
 * what kept repeats need). Errors leave nothing behind. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/knobs.h"
#include "common/network.h"
#include "csr64.h"
#include "device/device.h"
#include "host/registry.h"
#include "support.h"

/* A CSR matrix as int64 arrays. */
/* What a random matrix may hold. */
enum {
    WITH_REPEATS = 1,    /* a position stored twice or more */
    WITH_SELF_LOOPS = 2, /* diagonal entries */
    WITH_PAIRS = 4,      /* (v,u) added for about half the entries (u,v) */
    WITH_HUBS = 8,       /* vertex 0 -> every vertex and every vertex -> n - 1,
                            in order: lists long and in few runs */
};

/* n vertices, about `per_row` entries a row in random column order (rows
 * of 0 .. 2 * per_row entries: some empty), capacities 0..44 (some zero),
 * as `flags` allows. */
static csr64 random_csr(int64_t n, int64_t per_row, int flags, uint64_t seed)
{
    int64_t room = n * (2 * per_row + 1) * 2 + 2 * n + 1;
    int64_t *tails = malloc((size_t)room * 8), *heads = malloc((size_t)room * 8);
    int64_t *caps = malloc((size_t)room * 8), m = 0;
    for (int64_t u = 0; u < n; u++) {
        int64_t row = (int64_t)(next_random(&seed) % (uint64_t)(2 * per_row + 1));
        for (int64_t i = 0; i < row; i++) {
            int64_t v = (int64_t)(next_random(&seed) % (uint64_t)n);
            if (v == u && !(flags & WITH_SELF_LOOPS))
                continue;
            int64_t c = (int64_t)(next_random(&seed) % 50) - 5;
            tails[m] = u, heads[m] = v, caps[m++] = c < 0 ? 0 : c;
            if ((flags & WITH_PAIRS) && next_random(&seed) % 2)
                tails[m] = v, heads[m] = u, caps[m++] = (int64_t)(next_random(&seed) % 40);
        }
    }
    for (int64_t v = 1; (flags & WITH_HUBS) && v < n - 1; v++) {
        tails[m] = 0, heads[m] = v, caps[m++] = 3;
        tails[m] = v, heads[m] = n - 1, caps[m++] = 2;
    }
    /* Into rows by a counting sort (stable: each row's order stays). */
    csr64 a = {.n = n};
    a.indptr = calloc((size_t)n + 1, 8);
    for (int64_t k = 0; k < m; k++)
        a.indptr[tails[k] + 1]++;
    for (int64_t u = 0; u < n; u++)
        a.indptr[u + 1] += a.indptr[u];
    int64_t *cursor = malloc((size_t)(n + 1) * 8);
    memcpy(cursor, a.indptr, (size_t)(n + 1) * 8);
    a.indices = malloc((size_t)(m + 1) * 8);
    a.values = malloc((size_t)(m + 1) * 8);
    int64_t *seen = malloc((size_t)n * 8);
    for (int64_t v = 0; v < n; v++)
        seen[v] = -1;
    for (int64_t k = 0; k < m; k++) {
        int64_t at = cursor[tails[k]]++;
        a.indices[at] = heads[k];
        a.values[at] = caps[k];
    }
    a.m = m;
    if (!(flags & WITH_REPEATS)) { /* drop a row's second entry of a position */
        int64_t at = 0;
        for (int64_t u = 0, k = 0; u < n; u++) {
            for (; k < a.indptr[u + 1]; k++)
                if (seen[a.indices[k]] != u) {
                    seen[a.indices[k]] = u;
                    a.indices[at] = a.indices[k];
                    a.values[at++] = a.values[k];
                }
            a.indptr[u + 1] = at;
        }
        a.m = at;
    }
    free(seen);
    free(cursor);
    free(tails);
    free(heads);
    free(caps);
    return a;
}

/* The same matrix, element by element, sizes included. */
static void assert_same_matrix(const pf_csr_matrix *x, const pf_csr_matrix *y, const char *what)
{
    ck_assert_msg(x->rows == y->rows && x->entries == y->entries, "%s: %lld/%lld entries", what,
                  (long long)x->entries, (long long)y->entries);
    ck_assert_msg(x->index_size == y->index_size && x->value_size == y->value_size,
                  "%s: element sizes %d/%d and %d/%d", what, x->index_size, x->value_size,
                  y->index_size, y->value_size);
    for (int64_t u = 0; u <= x->rows; u++)
        PF_EXPECT(element(x->indptr, x->index_size, u) == element(y->indptr, y->index_size, u),
                  "%s: indptr[%lld]", what, (long long)u);
    for (int64_t e = 0; e < x->entries; e++) {
        PF_EXPECT(element(x->indices, x->index_size, e) == element(y->indices, y->index_size, e),
                  "%s: column of entry %lld", what, (long long)e);
        PF_EXPECT(element(x->values, x->value_size, e) == element(y->values, y->value_size, e),
                  "%s: entry %lld is %lld, not %lld", what, (long long)e,
                  (long long)element(x->values, x->value_size, e),
                  (long long)element(y->values, y->value_size, e));
    }
}

/* A's arrays at the sizes asked for. */
typedef struct csr_arrays {
    void *indptr, *indices, *caps;
    int index_size, cap_size;
} csr_arrays;

static csr_arrays arrays_of(const csr64 *a, int index_size, int cap_size)
{
    return (csr_arrays){.indptr = narrowed(a->indptr, a->n + 1, index_size),
                        .indices = narrowed(a->indices, a->m, index_size),
                        .caps = narrowed(a->values, a->m, cap_size),
                        .index_size = index_size, .cap_size = cap_size};
}

static void arrays_free(csr_arrays *c)
{
    free(c->indptr);
    free(c->indices);
    free(c->caps);
}

/* Solves a (source 0, sink n - 1) with pf_solve_csr_flow and checks its
 * matrix against pf_csr_flow_matrix of the same call's arc flows, and
 * those flows with pf_verify. Returns times.from_residual. */
static int check_solve(const csr64 *a, const csr_arrays *c, const pf_solve_options *opt,
                       int repeats, const char *what, pf_csr_flow_times *times)
{
    pf_solution sol;
    pf_csr_matrix flow, want;
    pf_status st;
    *times = (pf_csr_flow_times){.struct_size = sizeof *times};
    int rc = pf_solve_csr_flow(a->n, 0, a->n - 1, c->indptr, c->indices, c->index_size, c->caps,
                               c->cap_size, repeats, opt, &sol, &flow, times, &st);
    ck_assert_msg(rc == PF_OK, "%s: %s", what, st.message);
    ck_assert_ptr_nonnull(sol.arc_flow);
    ck_assert_int_eq(pf_csr_flow_matrix(a->n, c->indptr, c->indices, c->index_size, sol.arc_flow,
                                        repeats, &want, &st),
                     PF_OK);
    assert_same_matrix(&flow, &want, what);
    pf_network *net = pf_network_from_csr(a->n, 0, a->n - 1, c->indptr, c->indices,
                                          c->index_size, c->caps, c->cap_size, &st);
    ck_assert_ptr_nonnull(net);
    ck_assert_msg(pf_verify(net, sol.value, sol.arc_flow, NULL, &st) == PF_OK, "%s: %s", what,
                  st.message);
    pf_network_free(net);
    pf_csr_matrix_free(&flow);
    pf_csr_matrix_free(&want);
    pf_solution_free(&sol);
    return times->from_residual;
}

static void set_order(const char *order)
{
    if (order)
        setenv("PORTAFLOW_ARC_ORDER", order, 1);
    else
        unsetenv("PORTAFLOW_ARC_ORDER");
    pf_knobs_reload();
}

static pf_solve_options options(const char *backend)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.want_flow = 1;
    return opt;
}

/* Every input kind, size mix and repeats mode on one engine and order:
 * small graphs (one thread) and one above the threaded threshold. */
static void check_engine(const char *backend, const char *order, int hybrid)
{
    set_order(order);
    pf_solve_options opt = options(backend);
    if (hybrid)
        opt.hybrid = PF_HYBRID_ON;
    int parts_known = !order || strcmp(order, "forward") == 0 || strcmp(order, "rotated") == 0;
    /* A device that builds the residual graph itself makes the matrix
     * from it there, but for an input with self-loops (the transpose path
     * and the arc flows then). */
    const pf_device_ops *ops = pf_backend_find(backend);
    int device_built = !hybrid && !order && ops && ops->build_residual;
    for (int mode = 0; mode < 16; mode++) {
        int index_size = mode & 1 ? 8 : 4, cap_size = mode & 2 ? 8 : 4;
        int repeats = mode & 4 ? PF_CSR_KEEP_REPEATS : PF_CSR_SUM_REPEATS;
        int flags = WITH_PAIRS | (mode & 8 ? WITH_REPEATS | WITH_SELF_LOOPS : 0);
        static const int64_t sizes[] = {2, 151, 300, 20000}; /* the last on threads */
        for (int size = 0; size < 4; size++) {
            int64_t n = sizes[size];
            csr64 a = random_csr(n, n > 1000 ? 4 : n > 100 ? 30 : 3,
                                 flags | (n > 1000 ? WITH_HUBS : 0), (uint64_t)(n * 31 + mode));
            csr_arrays c = arrays_of(&a, index_size, cap_size);
            char what[160];
            snprintf(what, sizeof what, "%s%s order %s n %lld sizes %d/%d repeats %d flags %d",
                     backend, hybrid ? " hybrid" : "", order ? order : "auto", (long long)n,
                     index_size, cap_size, repeats, flags);
            pf_csr_flow_times times;
            int from_residual = check_solve(&a, &c, &opt, repeats, what, &times);
            /* The transpose path only for kept repeats (a position and
             * its transpose both stored: every graph of 151 vertices and
             * more here) where the lists' parts are not known. */
            if (device_built) /* made on the device, but with self-loops */
                ck_assert_msg(from_residual || (flags & WITH_SELF_LOOPS),
                              "%s: not from the graph built on the device", what);
            else if (repeats == PF_CSR_SUM_REPEATS || parts_known)
                ck_assert_msg(from_residual, "%s: not from the lists", what);
            else if (n > 100)
                ck_assert_msg(!from_residual, "%s: from the lists, parts unknown", what);
            if (strcmp(backend, "omp") == 0 && !hybrid)
                ck_assert_msg(!times.beside, "%s: beside an engine on every core", what);
            arrays_free(&c);
            csr64_free(&a);
        }
    }
    set_order(NULL);
}

START_TEST(seq_matrix_equals_the_transpose_path)
{
    check_engine("seq", NULL, 0);
}
END_TEST

START_TEST(omp_matrix_equals_the_transpose_path)
{
    if (!pf_test_backend_missing("omp"))
        check_engine("omp", NULL, 0);
}
END_TEST

START_TEST(hybrid_matrix_equals_the_transpose_path)
{
    if (!pf_test_backend_missing("omp"))
        check_engine("omp", NULL, 1);
}
END_TEST

/* CUDA builds the residual graph and the matrix on the device; skipped
 * visibly where there is no CUDA device. */
START_TEST(cuda_matrix_equals_the_transpose_path)
{
    if (pf_test_backend_missing("cuda"))
        return;
    check_engine("cuda", NULL, 0);
    /* Repeated positions without self-loops, summed or kept (as scipy
     * keeps an int32 matrix's) on the device. */
    pf_solve_options opt = options("cuda");
    for (int mode = 0; mode < 4; mode++) {
        int repeats = mode & 1 ? PF_CSR_KEEP_REPEATS : PF_CSR_SUM_REPEATS;
        int64_t n = mode & 2 ? 20000 : 151;
        csr64 a = random_csr(n, n > 1000 ? 4 : 30,
                             WITH_PAIRS | WITH_REPEATS | (n > 1000 ? WITH_HUBS : 0),
                             (uint64_t)(n + mode));
        csr_arrays c = arrays_of(&a, 4, 8);
        char what[96];
        snprintf(what, sizeof what, "cuda, repeats %d, n %lld", repeats, (long long)n);
        pf_csr_flow_times times;
        check_solve(&a, &c, &opt, repeats, what, &times);
        arrays_free(&c);
        csr64_free(&a);
    }
}
END_TEST

/* The lists' order is the engine's: every order gives the same matrix. */
START_TEST(every_arc_order)
{
    static const char *const orders[] = {"forward", "rotated", "input", "input-reversed"};
    for (int o = 0; o < 4; o++)
        check_engine("seq", orders[o], 0);
}
END_TEST

/* Sums of flows past int32 widen the values, as pf_csr_flow_matrix does:
 * on the host's lists (seq) and on the device's (cuda, which writes them
 * narrow only where all fit; skipped visibly without a CUDA device). */
START_TEST(values_widen_past_int32)
{
    const char *backend = _i ? "cuda" : "seq";
    if (pf_test_backend_missing(backend))
        return;
    const int64_t big = (int64_t)1 << 33;
    csr64 a = {.n = 4, .m = 4, .indptr = (int64_t[]){0, 2, 3, 4, 4},
               .indices = (int64_t[]){1, 3, 3, 0}, .values = (int64_t[]){big, big, big, 1}};
    csr_arrays c = {.indptr = a.indptr, .indices = a.indices, .caps = a.values,
                    .index_size = 8, .cap_size = 8};
    pf_solve_options opt = options(backend);
    pf_csr_flow_times times;
    ck_assert(check_solve(&a, &c, &opt, PF_CSR_SUM_REPEATS, "wide", &times));
    pf_solution sol;
    pf_csr_matrix flow;
    pf_status st;
    ck_assert_int_eq(pf_solve_csr_flow(4, 0, 3, a.indptr, a.indices, 8, a.values, 8,
                                       PF_CSR_SUM_REPEATS, &opt, &sol, &flow, NULL, &st),
                     PF_OK);
    ck_assert_int_eq(sol.value, 2 * big);
    ck_assert_int_eq(flow.value_size, 8);
    ck_assert_int_eq(((int64_t *)flow.values)[0], big); /* F[0][1] */
    pf_csr_matrix_free(&flow);
    pf_solution_free(&sol);
}
END_TEST

/* Without want_flow the matrix still comes, arc_flow does not; a times
 * struct of an earlier size is written only that far. */
START_TEST(options_and_sizes)
{
    csr64 a = random_csr(500, 4, WITH_PAIRS, 7);
    csr_arrays c = arrays_of(&a, 4, 4);
    pf_solve_options opt = options("seq");
    pf_csr_flow_times times;
    check_solve(&a, &c, &opt, PF_CSR_KEEP_REPEATS, "want_flow", &times);
    /* One thread asked for: nothing beside the solve, all after it. */
    opt.threads = 1;
    ck_assert(check_solve(&a, &c, &opt, PF_CSR_KEEP_REPEATS, "one thread", &times));
    ck_assert_int_eq(times.beside, 0);
    opt.threads = 3;
    ck_assert(check_solve(&a, &c, &opt, PF_CSR_SUM_REPEATS, "three threads", &times));
    opt.threads = 0;
    pf_solution with_flow;
    pf_status st;
    pf_csr_matrix want, flow;
    ck_assert_int_eq(pf_solve_csr_flow(a.n, 0, a.n - 1, c.indptr, c.indices, 4, c.caps, 4,
                                       PF_CSR_KEEP_REPEATS, &opt, &with_flow, &want, NULL, &st),
                     PF_OK);
    opt.want_flow = 0;
    pf_solution sol;
    size_t short_size = offsetof(pf_csr_flow_times, after_solve);
    times = (pf_csr_flow_times){.struct_size = short_size, .after_solve = -1, .beside = -1,
                                .from_residual = -1};
    ck_assert_int_eq(pf_solve_csr_flow(a.n, 0, a.n - 1, c.indptr, c.indices, 4, c.caps, 4,
                                       PF_CSR_KEEP_REPEATS, &opt, &sol, &flow, &times, &st),
                     PF_OK);
    ck_assert_ptr_null(sol.arc_flow);
    ck_assert_int_eq(sol.value, with_flow.value);
    assert_same_matrix(&flow, &want, "without want_flow"); /* seq: the same flow */
    ck_assert(times.structure > 0);
    ck_assert(times.after_solve == -1 && times.beside == -1 && times.from_residual == -1);
    pf_csr_matrix_free(&flow);
    pf_csr_matrix_free(&want);
    pf_solution_free(&sol);
    pf_solution_free(&with_flow);
    /* NULL options: the defaults (no arc_flow) */
    ck_assert_int_eq(pf_solve_csr_flow(a.n, 0, a.n - 1, c.indptr, c.indices, 4, c.caps, 4,
                                       PF_CSR_SUM_REPEATS, NULL, &sol, &flow, NULL, &st),
                     PF_OK);
    ck_assert_ptr_null(sol.arc_flow);
    ck_assert_int_eq(sol.value, with_flow.value);
    pf_csr_matrix_free(&flow);
    pf_solution_free(&sol);
    arrays_free(&c);
    csr64_free(&a);
}
END_TEST

/* Every error: the status names it, *flow and *sol are empty. */
static void assert_fails(int rc, int code, const pf_status *st, const char *message,
                         const pf_csr_matrix *flow, const pf_solution *sol)
{
    ck_assert_int_eq(rc, code);
    if (message)
        ck_assert_str_eq(st->message, message);
    ck_assert_ptr_null(flow->indptr);
    ck_assert_ptr_null(flow->indices);
    ck_assert_ptr_null(flow->values);
    ck_assert_ptr_null(sol->arc_flow);
    ck_assert_ptr_null(sol->source_side);
}

static int stop_at_once(void *data)
{
    (void)data;
    return 1;
}

START_TEST(errors_leave_nothing)
{
    const int32_t indptr[] = {0, 2, 3, 3}, indices[] = {1, 2, 2}, caps[] = {4, 5, 6};
    const int32_t far[] = {1, 3, 2}, negative[] = {4, 5, -6};
    pf_solve_options opt = options("seq");
    pf_solution sol;
    pf_csr_matrix flow;
    pf_status st;
    int rc = pf_solve_csr_flow(3, 0, 2, indptr, indices, 4, caps, 4, 2, &opt, &sol, &flow, NULL,
                               &st);
    assert_fails(rc, PF_E_USAGE, &st,
                 "repeats 2: must be PF_CSR_SUM_REPEATS or PF_CSR_KEEP_REPEATS", &flow, &sol);
    rc = pf_solve_csr_flow(3, 0, 2, indptr, far, 4, caps, 4, 0, &opt, &sol, &flow, NULL, &st);
    assert_fails(rc, PF_E_INPUT, &st, "entry 1 (row 0): column 3 outside 0..2", &flow, &sol);
    rc = pf_solve_csr_flow(3, 0, 2, indptr, indices, 4, negative, 4, 1, &opt, &sol, &flow, NULL,
                           &st);
    assert_fails(rc, PF_E_INPUT, &st, "entry 2 (row 1, column 2): capacity -6 outside 0..2^62",
                 &flow, &sol);
    rc = pf_solve_csr_flow(3, 1, 1, indptr, indices, 4, caps, 4, 0, &opt, &sol, &flow, NULL, &st);
    assert_fails(rc, PF_E_INPUT, &st, NULL, &flow, &sol);
    rc = pf_solve_csr_flow(3, 0, 2, indptr, indices, 3, caps, 4, 0, &opt, &sol, &flow, NULL, &st);
    assert_fails(rc, PF_E_USAGE, &st, NULL, &flow, &sol);
    /* The same words where the device builds the graph (the host checks
     * the entries as it reads the input for the device). */
    if (!pf_test_backend_missing("cuda")) {
        pf_solve_options on_cuda = options("cuda");
        rc = pf_solve_csr_flow(3, 0, 2, indptr, far, 4, caps, 4, 0, &on_cuda, &sol, &flow, NULL,
                               &st);
        assert_fails(rc, PF_E_INPUT, &st, "entry 1 (row 0): column 3 outside 0..2", &flow, &sol);
        rc = pf_solve_csr_flow(3, 0, 2, indptr, indices, 4, negative, 4, 1, &on_cuda, &sol,
                               &flow, NULL, &st);
        assert_fails(rc, PF_E_INPUT, &st,
                     "entry 2 (row 1, column 2): capacity -6 outside 0..2^62", &flow, &sol);
    }
    /* Cancelled while the structure is being made beside the solve (the
     * hybrid looks at the callback before its first stretch). */
    if (pf_test_backend_missing("omp"))
        return;
    csr64 a = random_csr(20000, 4, WITH_PAIRS, 3);
    csr_arrays c = arrays_of(&a, 4, 4);
    opt = options("omp");
    opt.hybrid = PF_HYBRID_ON;
    opt.cancel = stop_at_once;
    rc = pf_solve_csr_flow(a.n, 0, a.n - 1, c.indptr, c.indices, 4, c.caps, 4, 0, &opt, &sol,
                           &flow, NULL, &st);
    assert_fails(rc, PF_E_CANCELLED, &st, NULL, &flow, &sol);
    arrays_free(&c);
    csr64_free(&a);
}
END_TEST

/* Far more vertices than arcs touch: solved as a compact copy, whose
 * residual graph numbers vertices otherwise; the transpose path gives the
 * matrix. */
START_TEST(compact_copy_takes_the_transpose_path)
{
    enum { N = 200000 };
    int32_t *sparse_ptr = two_entry_rows(N);
    const int32_t cols[] = {1, N - 1}, two[] = {7, 3};
    pf_solve_options opt = options("seq");
    pf_solution sol;
    pf_csr_matrix flow;
    pf_status st;
    pf_csr_flow_times times = {.struct_size = sizeof times};
    ck_assert_int_eq(pf_solve_csr_flow(N, 0, N - 1, sparse_ptr, cols, 4, two, 4,
                                       PF_CSR_KEEP_REPEATS, &opt, &sol, &flow, &times, &st),
                     PF_OK);
    ck_assert_int_eq(sol.value, 3);
    ck_assert_int_eq(times.from_residual, 0);
    ck_assert_int_eq(flow.entries, 4);
    const int32_t *values = flow.values, *columns = flow.indices;
    ck_assert_int_eq(columns[0], 1); /* F[0][1] = 3 */
    ck_assert_int_eq(values[0], 3);
    ck_assert_int_eq(columns[1], 0); /* F[1][0] = -3 */
    ck_assert_int_eq(values[1], -3);
    pf_csr_matrix_free(&flow);
    pf_solution_free(&sol);
    free(sparse_ptr);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csr_solve");
    TCase *tc = tcase_create("csr_solve");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, seq_matrix_equals_the_transpose_path);
    tcase_add_test(tc, omp_matrix_equals_the_transpose_path);
    tcase_add_test(tc, hybrid_matrix_equals_the_transpose_path);
    tcase_add_test(tc, cuda_matrix_equals_the_transpose_path);
    tcase_add_test(tc, every_arc_order);
    tcase_add_loop_test(tc, values_widen_past_int32, 0, 2);
    tcase_add_test(tc, options_and_sizes);
    tcase_add_test(tc, errors_leave_nothing);
    tcase_add_test(tc, compact_copy_takes_the_transpose_path);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
