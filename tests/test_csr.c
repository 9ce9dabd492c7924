/* The CSR part of the array API: pf_network_from_csr gives the same
 * network as pf_network_from_arrays for every mix of int32/int64 arrays
 * (unsorted rows, repeats, explicit zeros and self-loops included), names
 * the lowest bad row or entry whatever the thread count, and
 * pf_csr_flow_matrix equals a dense reference built entry by entry: the
 * structure of the input and its transpose (repeats summed or kept as
 * scipy keeps them), columns increasing, flows summed and antisymmetric
 * (scipy.sparse.csgraph.maximum_flow's result), widened where needed.
 * A view of the arrays (pf_network_view_csr) gives the residual graph a
 * copy gives, bit for bit, in every arc order and thread count, and the
 * same errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/network.h"
#include "common/residual.h"
#include "csr64.h"
#include "support.h"

/* A CSR matrix as int64 arrays, convertible to either element size. */
/* n vertices, about `per_row` entries a row in random column order, with
 * repeats, zeros and self-loops among them. */
static csr64 random_csr(int64_t n, int64_t per_row, uint64_t seed)
{
    csr64 a = {.n = n};
    a.indptr = malloc((size_t)(n + 1) * 8);
    a.indptr[0] = 0;
    for (int64_t u = 0; u < n; u++)
        a.indptr[u + 1] = a.indptr[u] + (int64_t)(next_random(&seed) % (uint64_t)(2 * per_row + 1));
    a.m = a.indptr[n];
    a.indices = malloc((size_t)(a.m + 1) * 8);
    a.values = malloc((size_t)(a.m + 1) * 8);
    for (int64_t k = 0; k < a.m; k++) {
        a.indices[k] = (int64_t)(next_random(&seed) % (uint64_t)n);
        a.values[k] = (int64_t)(next_random(&seed) % 50) - 5; /* some zeros */
        if (a.values[k] < 0)
            a.values[k] = 0;
    }
    return a;
}

static pf_network *from_csr(const csr64 *a, int64_t s, int64_t t, int index_size, int cap_size,
                            pf_status *st)
{
    void *indptr = narrowed(a->indptr, a->n + 1, index_size);
    void *indices = narrowed(a->indices, a->m, index_size);
    void *caps = narrowed(a->values, a->m, cap_size);
    pf_network *net = pf_network_from_csr(a->n, s, t, indptr, indices, index_size, caps,
                                          cap_size, st);
    free(indptr);
    free(indices);
    free(caps);
    return net;
}

START_TEST(from_csr_equals_from_arrays)
{
    for (int sizes = 0; sizes < 4; sizes++) {
        int index_size = sizes & 1 ? 8 : 4, cap_size = sizes & 2 ? 8 : 4;
        /* 300 x ~250 entries: above the threaded threshold. */
        for (int64_t n = 5; n <= 300; n += 295) {
            csr64 a = random_csr(n, n == 5 ? 3 : 250, (uint64_t)(n * 10 + sizes));
            int64_t *tails = malloc((size_t)(a.m + 1) * 8);
            for (int64_t u = 0; u < n; u++)
                for (int64_t k = a.indptr[u]; k < a.indptr[u + 1]; k++)
                    tails[k] = u;
            pf_status st;
            pf_network *ref = pf_network_from_arrays(n, 0, n - 1, a.m, tails, a.indices,
                                                     a.values, 0, &st);
            ck_assert_msg(ref != NULL, "%s", st.message);
            pf_network *net = from_csr(&a, 0, n - 1, index_size, cap_size, &st);
            ck_assert_msg(net != NULL, "sizes %d/%d: %s", index_size, cap_size, st.message);
            ck_assert_int_eq(pf_network_arcs(net), a.m);
            for (int64_t k = 0; k < a.m; k++)
                pf_test_assert_arc(net, k, tails[k], a.indices[k], a.values[k]);
            pf_solve_options opt;
            pf_solve_options_init(&opt);
            opt.backend = "seq";
            opt.want_flow = 1;
            pf_solution x, y;
            ck_assert_int_eq(pf_solve(ref, &opt, &x, &st), PF_OK);
            ck_assert_int_eq(pf_solve(net, &opt, &y, &st), PF_OK);
            ck_assert_int_eq(x.value, y.value);
            ck_assert_int_eq(pf_verify(net, y.value, y.arc_flow, NULL, &st), PF_OK);
            pf_solution_free(&x);
            pf_solution_free(&y);
            pf_network_free(ref);
            pf_network_free(net);
            free(tails);
            csr64_free(&a);
        }
    }
}
END_TEST

START_TEST(from_csr_names_the_first_bad_entry)
{
    pf_status st;
    const int32_t indptr[] = {0, 2, 3, 3}, indices[] = {1, 2, 2}, caps[] = {4, 5, 6};
    pf_network *good = pf_network_from_csr(3, 0, 2, indptr, indices, 4, caps, 4, &st);
    ck_assert_ptr_nonnull(good);
    pf_network_free(good);
    const int32_t bad_start[] = {1, 2, 3, 3}, falls[] = {0, 2, 1, 3};
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, bad_start, indices, 4, caps, 4, &st));
    ck_assert_str_eq(st.message, "CSR indptr[0] is 1, not 0");
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, falls, indices, 4, caps, 4, &st));
    ck_assert_str_eq(st.message, "CSR row 1: indptr decreases (1 after 2)");
    const int32_t far[] = {1, 3, 2}, negative[] = {4, 5, -6};
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, far, 4, caps, 4, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, "entry 1 (row 0): column 3 outside 0..2");
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, indices, 4, negative, 4, &st));
    ck_assert_str_eq(st.message, "entry 2 (row 1, column 2): capacity -6 outside 0..2^62");
    const int64_t huge[] = {4, (int64_t)1 << 62 | 1, 6};
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, indices, 4, huge, 8, &st));
    ck_assert_str_eq(st.message,
                     "entry 1 (row 0, column 2): capacity 4611686018427387905 outside 0..2^62");
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, indices, 2, caps, 4, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, indices, 4, caps, 16, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_ptr_null(pf_network_from_csr(3, 0, 2, indptr, NULL, 4, caps, 4, &st));
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_ptr_null(pf_network_from_csr(3, 1, 1, indptr, indices, 4, caps, 4, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);

    /* Two bad entries far apart in a graph built on threads: the lower one. */
    csr64 a = random_csr(400, 300, 3);
    a.indices[a.m - 10] = 400;
    a.values[a.m / 2] = -1;
    a.indices[a.m / 2 + 1] = -3;
    int64_t row = 0;
    while (a.indptr[row + 1] <= a.m / 2)
        row++;
    char want[160];
    snprintf(want, sizeof want, "entry %lld (row %lld, column %lld): capacity -1 outside 0..2^62",
             (long long)(a.m / 2), (long long)row, (long long)a.indices[a.m / 2]);
    ck_assert_ptr_null(from_csr(&a, 0, 399, 8, 8, &st));
    ck_assert_str_eq(st.message, want);
    csr64_free(&a);
}
END_TEST

/* The flow matrix from a dense reference: F = flows summed,
 * antisymmetric; position (u, v) stored max(p, q) times (KEEP_REPEATS) or
 * once, p and q its count among the entries and the transposed entries. */
static void check_flow_matrix(const csr64 *a, const int64_t *flow, int repeats,
                              const pf_csr_matrix *f)
{
    int64_t n = a->n;
    int64_t *fwd = calloc((size_t)(n * n), 8), *rev = calloc((size_t)(n * n), 8);
    int64_t *dense = calloc((size_t)(n * n), 8);
    for (int64_t u = 0; u < n; u++)
        for (int64_t k = a->indptr[u]; k < a->indptr[u + 1]; k++) {
            int64_t v = a->indices[k];
            fwd[u * n + v]++;
            rev[v * n + u]++;
            dense[u * n + v] += flow[k];
            dense[v * n + u] -= flow[k];
        }
    ck_assert_int_eq(f->rows, n);
    int64_t at = 0;
    for (int64_t u = 0; u < n; u++) {
        PF_EXPECT(element(f->indptr, f->index_size, u) == at, "row %lld starts at %lld, not %lld",
                  (long long)u, (long long)element(f->indptr, f->index_size, u), (long long)at);
        for (int64_t v = 0; v < n; v++) {
            int64_t p = fwd[u * n + v], q = rev[u * n + v];
            int64_t copies = p + q == 0 ? 0 : repeats == PF_CSR_SUM_REPEATS ? 1 : p > q ? p : q;
            for (int64_t c = 0; c < copies; c++, at++) {
                PF_EXPECT(element(f->indices, f->index_size, at) == v,
                          "row %lld entry %lld: column", (long long)u, (long long)at);
                int64_t want = c == 0 ? dense[u * n + v] : 0;
                PF_EXPECT(element(f->values, f->value_size, at) == want,
                          "F[%lld][%lld] copy %lld = %lld, not %lld", (long long)u, (long long)v,
                          (long long)c, (long long)element(f->values, f->value_size, at),
                          (long long)want);
            }
        }
    }
    ck_assert_int_eq(element(f->indptr, f->index_size, n), at);
    ck_assert_int_eq(f->entries, at);
    free(fwd);
    free(rev);
    free(dense);
}

/* a with the second and later entries of a position in a row dropped (rows
 * stay in their random order): no position repeats, the flow plan's
 * gather path. */
static void drop_repeats(csr64 *a)
{
    int64_t at = 0;
    int64_t *last_row = malloc((size_t)a->n * sizeof *last_row);
    for (int64_t v = 0; v < a->n; v++)
        last_row[v] = -1;
    for (int64_t u = 0, k = 0; u < a->n; u++) {
        for (; k < a->indptr[u + 1]; k++)
            if (last_row[a->indices[k]] != u) {
                last_row[a->indices[k]] = u;
                a->indices[at] = a->indices[k];
                a->values[at++] = a->values[k];
            }
        a->indptr[u + 1] = at;
    }
    a->m = at;
    free(last_row);
}

START_TEST(flow_matrix_equals_dense_reference)
{
    for (int mode = 0; mode < 8; mode++) {
        int index_size = mode & 1 ? 8 : 4;
        int repeats = mode & 2 ? PF_CSR_KEEP_REPEATS : PF_CSR_SUM_REPEATS;
        for (int64_t n = 1; n <= 301; n += 100) {
            csr64 a = random_csr(n, n > 200 ? 250 : 4, (uint64_t)(n + mode));
            if (mode & 4)
                drop_repeats(&a);
            int64_t *flow = malloc((size_t)(a.m + 1) * 8);
            uint64_t seed = 99;
            for (int64_t k = 0; k < a.m; k++)
                flow[k] = (int64_t)(next_random(&seed) % 1000);
            void *indptr = narrowed(a.indptr, n + 1, index_size);
            void *indices = narrowed(a.indices, a.m, index_size);
            pf_csr_matrix f;
            pf_status st;
            ck_assert_msg(pf_csr_flow_matrix(n, indptr, indices, index_size, flow, repeats, &f,
                                             &st) == PF_OK,
                          "%s", st.message);
            ck_assert_int_eq(f.index_size, 4);
            ck_assert_int_eq(f.value_size, 4);
            check_flow_matrix(&a, flow, repeats, &f);
            pf_csr_matrix_free(&f);
            free(indptr);
            free(indices);
            free(flow);
            csr64_free(&a);
        }
    }
}
END_TEST

/* A solved network's flow matrix holds a valid flow: antisymmetric (the
 * reference check), conserved at inner vertices, value out of the source. */
START_TEST(flow_matrix_of_a_solution)
{
    csr64 a = random_csr(200, 6, 5);
    pf_status st;
    pf_network *net = from_csr(&a, 0, 199, 4, 4, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_flow = 1;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_OK);
    void *indptr = narrowed(a.indptr, a.n + 1, 4), *indices = narrowed(a.indices, a.m, 4);
    pf_csr_matrix f;
    ck_assert_int_eq(pf_csr_flow_matrix(a.n, indptr, indices, 4, sol.arc_flow,
                                        PF_CSR_KEEP_REPEATS, &f, &st),
                     PF_OK);
    check_flow_matrix(&a, sol.arc_flow, PF_CSR_KEEP_REPEATS, &f);
    for (int64_t u = 0; u < a.n; u++) {
        int64_t out = 0;
        for (int64_t e = element(f.indptr, 4, u); e < element(f.indptr, 4, u + 1); e++)
            out += element(f.values, 4, e);
        int64_t want = u == 0 ? sol.value : u == 199 ? -sol.value : 0;
        PF_EXPECT(out == want, "vertex %lld: net flow %lld, not %lld", (long long)u,
                  (long long)out, (long long)want);
    }
    pf_csr_matrix_free(&f);
    pf_solution_free(&sol);
    pf_network_free(net);
    free(indptr);
    free(indices);
    csr64_free(&a);
}
END_TEST

START_TEST(flow_matrix_widens_and_rejects)
{
    const int64_t indptr[] = {0, 2, 3, 3}, indices[] = {1, 2, 2};
    const int64_t flow[] = {1, (int64_t)1 << 32, 0};
    pf_csr_matrix f;
    pf_status st;
    /* A value past int32: int64 values, the rest as before. */
    ck_assert_int_eq(pf_csr_flow_matrix(3, indptr, indices, 8, flow, PF_CSR_SUM_REPEATS, &f, &st),
                     PF_OK);
    ck_assert_int_eq(f.value_size, 8);
    ck_assert_int_eq(f.index_size, 4);
    ck_assert_int_eq(((int64_t *)f.values)[1], (int64_t)1 << 32); /* F[0][2] */
    pf_csr_matrix_free(&f);
    const int64_t far[] = {1, 2, 7};
    ck_assert_int_eq(pf_csr_flow_matrix(3, indptr, far, 8, flow, 0, &f, &st), PF_E_INPUT);
    ck_assert_str_eq(st.message, "entry 2 (row 1): column 7 outside 0..2");
    ck_assert_ptr_null(f.values);
    ck_assert_int_eq(pf_csr_flow_matrix(3, indptr, indices, 3, flow, 0, &f, &st), PF_E_USAGE);
    ck_assert_int_eq(pf_csr_flow_matrix(3, indptr, indices, 8, NULL, 0, &f, &st), PF_E_USAGE);
    ck_assert_int_eq(pf_csr_flow_matrix(3, indptr, indices, 8, flow, 2, &f, &st), PF_E_USAGE);
}
END_TEST

/* The two-step form: a plan made before the flows exist gives the same
 * matrix as the one call, once; a plan freed unused leaks nothing. */
START_TEST(flow_plan_in_two_steps)
{
    csr64 a = random_csr(300, 250, 11);
    int64_t *flow = malloc((size_t)(a.m + 1) * 8);
    for (int64_t k = 0; k < a.m; k++)
        flow[k] = k % 17;
    pf_status st;
    pf_csr_flow_plan *plan = pf_csr_flow_plan_new(a.n, a.indptr, a.indices, 8,
                                                  PF_CSR_KEEP_REPEATS, &st);
    ck_assert_msg(plan != NULL, "%s", st.message);
    pf_csr_matrix f;
    ck_assert_int_eq(pf_csr_flow_plan_matrix(plan, flow, &f, &st), PF_OK);
    check_flow_matrix(&a, flow, PF_CSR_KEEP_REPEATS, &f);
    pf_csr_matrix again;
    ck_assert_int_eq(pf_csr_flow_plan_matrix(plan, flow, &again, &st), PF_E_USAGE);
    ck_assert_str_eq(st.message, "flow plan already gave its matrix");
    pf_csr_flow_plan_free(plan);
    pf_csr_flow_plan_free(pf_csr_flow_plan_new(a.n, a.indptr, a.indices, 8, 0, &st));
    a.indices[5] = 300;
    ck_assert_ptr_null(pf_csr_flow_plan_new(a.n, a.indptr, a.indices, 8, 0, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    pf_csr_matrix_free(&f);
    free(flow);
    csr64_free(&a);
}
END_TEST


/* Whether two residual graphs are the same arrays, element by element. */
static void assert_same_residual(const pf_residual *x, const pf_residual *y, const char *what)
{
    ck_assert_msg(x->n == y->n && x->arcs == y->arcs && x->input_arcs == y->input_arcs &&
                      x->output_arcs == y->output_arcs,
                  "%s: sizes differ", what);
    ck_assert_msg(memcmp(x->first, y->first, (size_t)(x->n + 1) * sizeof *x->first) == 0,
                  "%s: first differs", what);
    for (int64_t a = 0; a < x->arcs; a++)
        ck_assert_msg(x->head[a] == y->head[a] && x->rev[a] == y->rev[a] &&
                          x->cap[a] == y->cap[a],
                      "%s: arc %lld differs", what, (long long)a);
    for (int64_t i = 0; i < x->input_arcs; i++)
        ck_assert_msg(x->fwd_of_input[i] == y->fwd_of_input[i], "%s: input arc %lld differs",
                      what, (long long)i);
}

static pf_network *view_csr(const csr64 *a, int index_size, int cap_size, void **arrays,
                            pf_status *st)
{
    arrays[0] = narrowed(a->indptr, a->n + 1, index_size);
    arrays[1] = narrowed(a->indices, a->m, index_size);
    arrays[2] = narrowed(a->values, a->m, cap_size);
    return pf_network_view_csr(a->n, 0, a->n - 1, arrays[0], arrays[1], index_size, arrays[2],
                               cap_size, st);
}

START_TEST(view_builds_what_a_copy_builds)
{
    static const pf_arc_order orders[] = {PF_ARCS_FORWARD_FIRST, PF_ARCS_INPUT,
                                          PF_ARCS_INPUT_REVERSED, PF_ARCS_FORWARD_ROTATED,
                                          PF_ARCS_FORWARD_PART_ROTATED};
    for (int sizes = 0; sizes < 4; sizes++) {
        int index_size = sizes & 1 ? 8 : 4, cap_size = sizes & 2 ? 8 : 4;
        for (int64_t n = 5; n <= 300; n += 295) {
            /* rows with repeats, zeros, self-loops, and some empty rows */
            csr64 a = random_csr(n, n == 5 ? 3 : 250, (uint64_t)(n * 7 + sizes));
            pf_status st;
            void *arrays[3];
            pf_network *copy = from_csr(&a, 0, n - 1, index_size, cap_size, &st);
            pf_network *view = view_csr(&a, index_size, cap_size, arrays, &st);
            ck_assert_msg(copy && view, "%s", st.message);
            ck_assert_ptr_nonnull(view->csr.indptr);
            ck_assert_ptr_null(view->tail);
            ck_assert_int_eq(pf_network_arcs(view), a.m);
            /* Copy and view, on any threads, give the copy's one-thread
             * layout. */
            static const int thread_counts[] = {1, 2, 3, 8};
            for (int o = 0; o < 5; o++) {
                pf_residual one;
                ck_assert_int_eq(pf_residual_build(copy, &one, orders[o], 1, &st), PF_OK);
                for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
                    int threads = thread_counts[k];
                    pf_residual x, y;
                    ck_assert_int_eq(pf_residual_build(copy, &x, orders[o], threads, &st), PF_OK);
                    ck_assert_int_eq(pf_residual_build(view, &y, orders[o], threads, &st), PF_OK);
                    char what[64];
                    snprintf(what, sizeof what, "n %lld sizes %d/%d order %d threads %d",
                             (long long)n, index_size, cap_size, o, threads);
                    assert_same_residual(&one, &x, what);
                    assert_same_residual(&x, &y, what);
                    pf_residual_free(&x);
                    pf_residual_free_later(&y, NULL, 0);
                    ck_assert_ptr_null(y.head); /* left empty */
                }
                pf_residual_free(&one);
            }
            pf_solve_options opt;
            pf_solve_options_init(&opt);
            opt.backend = "seq";
            opt.want_flow = 1;
            opt.want_cut = 1;
            pf_solution x, y;
            ck_assert_int_eq(pf_solve(copy, &opt, &x, &st), PF_OK);
            ck_assert_int_eq(pf_solve(view, &opt, &y, &st), PF_OK);
            ck_assert_int_eq(x.value, y.value);
            ck_assert_int_eq(memcmp(x.arc_flow, y.arc_flow, (size_t)a.m * 8), 0);
            ck_assert_int_eq(memcmp(x.source_side, y.source_side, (size_t)n), 0);
            pf_solution_free(&x);
            pf_solution_free(&y);
            pf_network_free(copy);
            pf_network_free(view);
            for (int k = 0; k < 3; k++)
                free(arrays[k]);
            csr64_free(&a);
        }
    }
}
END_TEST

/* The message of a view's solve, or "" if it solved. */
static const char *view_solve_error(pf_network *view, pf_status *st)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    pf_solution sol;
    int rc = pf_solve(view, &opt, &sol, st);
    pf_solution_free(&sol);
    return rc ? st->message : "";
}

/* The message of pf_residual_build on `threads` threads, or "". */
static const char *view_build_error(pf_network *view, int threads, pf_status *st)
{
    pf_residual g;
    int rc = pf_residual_build(view, &g, PF_ARCS_FORWARD_ROTATED, threads, st);
    pf_residual_free(&g);
    return rc ? st->message : "";
}

START_TEST(view_checks_as_a_copy_does)
{
    pf_status st;
    const int32_t indptr[] = {0, 2, 3, 3}, far[] = {1, 3, 2}, caps[] = {4, 5, 6};
    /* indptr here; the entries when the solve reads them, with from_csr's words */
    pf_network *view = pf_network_view_csr(3, 0, 2, indptr, far, 4, caps, 4, &st);
    ck_assert_ptr_nonnull(view);
    ck_assert_str_eq(view_solve_error(view, &st), "entry 1 (row 0): column 3 outside 0..2");
    ck_assert_int_eq(st.code, PF_E_INPUT);
    pf_network_free(view);
    const int32_t indices[] = {1, 2, 2}, negative[] = {4, 5, -6}, low[] = {-4, 5, 6};
    view = pf_network_view_csr(3, 0, 2, indptr, indices, 4, negative, 4, &st);
    ck_assert_str_eq(view_solve_error(view, &st),
                     "entry 2 (row 1, column 2): capacity -6 outside 0..2^62");
    pf_network_free(view);
    /* a bad capacity before a bad column: the lower entry, as from_csr */
    view = pf_network_view_csr(3, 0, 2, indptr, far, 4, low, 4, &st);
    ck_assert_str_eq(view_solve_error(view, &st),
                     "entry 0 (row 0, column 1): capacity -4 outside 0..2^62");
    pf_network_free(view);
    const int32_t falls[] = {0, 2, 1, 3};
    ck_assert_ptr_null(pf_network_view_csr(3, 0, 2, falls, indices, 4, caps, 4, &st));
    ck_assert_str_eq(st.message, "CSR row 1: indptr decreases (1 after 2)");
    ck_assert_ptr_null(pf_network_view_csr(3, 1, 1, indptr, indices, 4, caps, 4, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);

    /* Bad entries far apart, on 1-3 threads: the lowest, as from_csr says. */
    for (int kind = 0; kind < 3; kind++) {
        csr64 a = random_csr(400, 300, 5 + (uint64_t)kind);
        if (kind != 1)
            a.values[a.m / 2] = -1;
        if (kind != 0)
            a.indices[a.m / 3] = kind == 1 ? 400 : -3;
        a.values[a.m - 10] = ((int64_t)1 << 62) + 1;
        void *arrays[3];
        pf_network *copy = from_csr(&a, 0, 399, 8, 8, &st);
        ck_assert_ptr_null(copy);
        char want[sizeof st.message];
        snprintf(want, sizeof want, "%s", st.message);
        pf_network *v = view_csr(&a, 8, 8, arrays, &st);
        ck_assert_ptr_nonnull(v);
        for (int threads = 1; threads <= 8; threads++)
            ck_assert_str_eq(view_build_error(v, threads, &st), want);
        pf_network_free(v);
        for (int k = 0; k < 3; k++)
            free(arrays[k]);
        csr64_free(&a);
    }

    /* Far more vertices than arcs touch: compacting pays, so a copy comes
     * back, and its solve is right. */
    enum { N = 200000 };
    int32_t *sparse_ptr = two_entry_rows(N);
    const int32_t cols[] = {1, N - 1}, two[] = {7, 3};
    pf_network *net = pf_network_view_csr(N, 0, N - 1, sparse_ptr, cols, 4, two, 4, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_ptr_null(net->csr.indptr);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.value, 3);
    pf_solution_free(&sol);
    pf_network_free(net);
    free(sparse_ptr);

    /* Large enough to be freed on a thread of its own. */
    void *big = malloc((size_t)80 << 20);
    ck_assert_ptr_nonnull(big);
    pf_residual_free_later(NULL, big, (size_t)80 << 20);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csr");
    TCase *tc = tcase_create("csr");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, from_csr_equals_from_arrays);
    tcase_add_test(tc, from_csr_names_the_first_bad_entry);
    tcase_add_test(tc, flow_matrix_equals_dense_reference);
    tcase_add_test(tc, flow_matrix_of_a_solution);
    tcase_add_test(tc, flow_matrix_widens_and_rejects);
    tcase_add_test(tc, flow_plan_in_two_steps);
    tcase_add_test(tc, view_builds_what_a_copy_builds);
    tcase_add_test(tc, view_checks_as_a_copy_does);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
