/* The CSR part of the array API (portaflow.h): a network read straight
 * from a compressed-sparse-row capacity matrix as scipy.sparse stores it
 * (int32 or int64 arrays, read in place), and a solution's flows as the
 * antisymmetric flow matrix scipy.sparse.csgraph.maximum_flow returns.
 * Both work on ranges of entries or rows on OpenMP threads. Every check
 * runs before anything is returned, and the error reported is the lowest
 * bad row or entry whatever the thread count. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
/* OpenMP directives that vanish, without a warning, in a serial build. */
#define PF_OMP(directive) _Pragma(#directive)
#else
#define PF_OMP(directive)
#endif

#include "../common/network.h"
#include "../common/status.h"

/* Below this many entries one thread does it all: a parallel region costs
 * more than it saves on small graphs. */
#define CSR_PARALLEL_MIN 65536

/* A CSR structure as the caller gave it. */
typedef struct csr_in {
    int64_t n, m;
    const void *indptr, *indices;
    int index_size;
} csr_in;

/* Element k of an int32 (size 4) or int64 (size 8) array. */
static inline int64_t element(const void *array, int size, int64_t k)
{
    return size == 4 ? ((const int32_t *)array)[k] : ((const int64_t *)array)[k];
}

static inline void set_element(void *array, int size, int64_t k, int64_t value)
{
    if (size == 4)
        ((int32_t *)array)[k] = (int32_t)value;
    else
        ((int64_t *)array)[k] = value;
}

/* Inside a parallel region: this thread's number and the team's size. */
static void team_position(int *t, int *count)
{
#ifdef _OPENMP
    *t = omp_get_thread_num();
    *count = omp_get_num_threads();
#else
    *t = 0;
    *count = 1;
#endif
}

static int thread_count(int64_t work)
{
#ifdef _OPENMP
    return work >= CSR_PARALLEL_MIN ? omp_get_max_threads() : 1;
#else
    (void)work;
    return 1;
#endif
}

/* Maps [p, p + bytes) in with one call where Linux has it: faulting fresh
 * pages in one by one is most of the cost of filling a graph-sized array
 * (residual.c measured it). The caller writes them all right after. */
static void populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t begin = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);
    if (end > begin)
        madvise((void *)begin, end - begin, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* The row holding entry k (k < m): the last u with indptr[u] <= k. */
static int64_t row_of_entry(const csr_in *a, int64_t k)
{
    int64_t lo = 0, hi = a->n - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (element(a->indptr, a->index_size, mid) <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int check_sizes(int index_size, int capacity_size, pf_status *st)
{
    if (index_size != 4 && index_size != 8)
        return pf_fail(st, PF_E_USAGE, "CSR index size %d: must be 4 or 8 bytes", index_size);
    if (capacity_size != 4 && capacity_size != 8)
        return pf_fail(st, PF_E_USAGE, "CSR capacity size %d: must be 4 or 8 bytes",
                       capacity_size);
    return PF_OK;
}

/* indptr starts at 0 and never decreases; a->m = its last element. */
static int check_indptr(csr_in *a, pf_status *st)
{
    if (!a->indptr)
        return pf_fail(st, PF_E_USAGE, "CSR matrix without indptr");
    int64_t first = element(a->indptr, a->index_size, 0);
    if (first != 0)
        return pf_fail(st, PF_E_INPUT, "CSR indptr[0] is %lld, not 0", (long long)first);
    for (int64_t u = 0; u < a->n; u++) {
        int64_t start = element(a->indptr, a->index_size, u);
        int64_t end = element(a->indptr, a->index_size, u + 1);
        if (end < start)
            return pf_fail(st, PF_E_INPUT, "CSR row %lld: indptr decreases (%lld after %lld)",
                           (long long)u, (long long)end, (long long)start);
    }
    a->m = element(a->indptr, a->index_size, a->n);
    if (a->m > 0 && !a->indices)
        return pf_fail(st, PF_E_USAGE, "CSR matrix of %lld entries without indices",
                       (long long)a->m);
    return PF_OK;
}

/* Whether entry k's column and capacity are valid. */
static inline int entry_ok(int64_t n, int64_t column, int64_t capacity)
{
    return column >= 0 && column < n && capacity >= 0 && capacity <= PF_CAP_MAX;
}

static int entry_error(const csr_in *a, int64_t k, const void *caps, int cap_size,
                       pf_status *st)
{
    int64_t u = row_of_entry(a, k);
    int64_t column = element(a->indices, a->index_size, k);
    int64_t capacity = element(caps, cap_size, k);
    if (column < 0 || column >= a->n)
        return pf_fail(st, PF_E_INPUT, "entry %lld (row %lld): column %lld outside 0..%lld",
                       (long long)k, (long long)u, (long long)column, (long long)a->n - 1);
    return pf_fail(st, PF_E_INPUT,
                   "entry %lld (row %lld, column %lld): capacity %lld outside 0..2^62",
                   (long long)k, (long long)u, (long long)column, (long long)capacity);
}

/* Entries [k0, k1) into net's arrays; returns the first bad entry, or k1. */
static int64_t fill_arcs(const csr_in *a, const void *caps, int cap_size, pf_network *net,
                         int64_t k0, int64_t k1)
{
    if (k0 >= k1)
        return k1;
    populate(net->tail + k0, (size_t)(k1 - k0) * sizeof *net->tail);
    populate(net->head + k0, (size_t)(k1 - k0) * sizeof *net->head);
    populate(net->cap + k0, (size_t)(k1 - k0) * sizeof *net->cap);
    int64_t u = row_of_entry(a, k0);
    int64_t row_end = element(a->indptr, a->index_size, u + 1);
    for (int64_t k = k0; k < k1; k++) {
        while (k >= row_end)
            row_end = element(a->indptr, a->index_size, ++u + 1);
        int64_t column = element(a->indices, a->index_size, k);
        int64_t capacity = element(caps, cap_size, k);
        if (!entry_ok(a->n, column, capacity))
            return k;
        net->tail[k] = (int32_t)u;
        net->head[k] = (int32_t)column;
        net->cap[k] = capacity;
    }
    return k1;
}

pf_network *pf_network_from_csr(int64_t vertices, int64_t source, int64_t sink,
                                const void *indptr, const void *indices, int index_size,
                                const void *capacities, int capacity_size, pf_status *st)
{
    if (check_sizes(index_size, capacity_size, st))
        return NULL;
    pf_network *net = pf_network_new(vertices, source, sink, st);
    if (!net)
        return NULL;
    csr_in a = {.n = vertices, .indptr = indptr, .indices = indices, .index_size = index_size};
    if (check_indptr(&a, st) ||
        (a.m > 0 && !capacities && pf_fail(st, PF_E_USAGE, "CSR matrix without capacities")) ||
        (a.m > 0 && pf_network_reserve(net, a.m, st))) {
        pf_network_free(net);
        return NULL;
    }
    int64_t first_bad = a.m;
    int threads = thread_count(a.m);
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel num_threads(threads) reduction(min : first_bad) if (threads > 1))
    {
        int t, count;
        team_position(&t, &count);
        int64_t k1 = a.m * (t + 1) / count;
        int64_t bad = fill_arcs(&a, capacities, capacity_size, net, a.m * t / count, k1);
        if (bad < k1 && bad < first_bad)
            first_bad = bad;
    }
    if (first_bad < a.m) {
        entry_error(&a, first_bad, capacities, capacity_size, st);
        pf_network_free(net);
        return NULL;
    }
    net->m = a.m;
    pf_status_ok(st);
    return net;
}

/* ---- the flow matrix -------------------------------------------------- */

/* The transpose's structure with the flows: column c's entries are
 * row[start[c]] .. row[start[c+1]-1], rows increasing (repeats adjacent),
 * each with the flow of its entry. */
typedef struct transpose {
    int64_t *start; /* n + 1 */
    int32_t *row;   /* m */
    int64_t *flow;  /* m */
} transpose;

static void transpose_free(transpose *tr)
{
    free(tr->start);
    free(tr->row);
    free(tr->flow);
}

/* Thread t of count gets vertices [lo, hi). */
static void vertex_share(int64_t n, int t, int count, int64_t *lo, int64_t *hi)
{
    *lo = n * t / count;
    *hi = n * (t + 1) / count;
}

/* A counting sort by column. Each thread owns a range of columns and walks
 * every entry in order, so that the rows of a column come out increasing
 * and no two threads write one counter (a sink column of millions of
 * entries would make atomics the bottleneck). */
static int build_transpose(const csr_in *a, const int64_t *arc_flow, transpose *tr,
                           pf_status *st)
{
    memset(tr, 0, sizeof *tr);
    tr->start = pf_alloc((size_t)a->n + 2, sizeof *tr->start, st);
    tr->row = pf_alloc((size_t)a->m + 1, sizeof *tr->row, st);
    tr->flow = pf_alloc((size_t)a->m + 1, sizeof *tr->flow, st);
    if (!tr->start || !tr->row || !tr->flow) {
        transpose_free(tr);
        return PF_E_NOMEM;
    }
    int64_t *cursor = tr->start + 1; /* cursor[c]: next free slot of column c */
    int threads = thread_count(a->m);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        int t, count;
        team_position(&t, &count);
        int64_t lo, hi;
        vertex_share(a->n, t, count, &lo, &hi);
        memset(cursor + lo, 0, (size_t)(hi - lo) * sizeof *cursor);
        for (int64_t k = 0; lo < hi && k < a->m; k++) {
            int64_t c = element(a->indices, a->index_size, k);
            if (c >= lo && c < hi)
                cursor[c]++;
        }
        PF_OMP(omp barrier)
        PF_OMP(omp single)
        {
            /* counts -> starts: cursor[c] = where column c begins */
            int64_t sum = 0;
            for (int64_t c = 0; c < a->n; c++) {
                int64_t here = cursor[c];
                cursor[c] = sum;
                sum += here;
            }
            tr->start[0] = 0;
        }
        for (int64_t u = 0, k = 0; lo < hi && u < a->n; u++) {
            int64_t end = element(a->indptr, a->index_size, u + 1);
            for (; k < end; k++) {
                int64_t c = element(a->indices, a->index_size, k);
                if (c >= lo && c < hi) {
                    int64_t slot = cursor[c]++;
                    tr->row[slot] = (int32_t)u;
                    tr->flow[slot] = arc_flow[k];
                }
            }
        }
    }
    /* The cursors stopped at the end of each column, i.e. at the start of
     * the next one: start = {0, cursor[0], ...} is already in place. */
    return PF_OK;
}

/* A row's forward entries as (column, flow), sorted by column. */
typedef struct entry {
    int64_t column, flow;
} entry;

static int compare_entries(const void *x, const void *y)
{
    int64_t a = ((const entry *)x)->column, b = ((const entry *)y)->column;
    return (a > b) - (a < b);
}

/* Row u's forward entries, sorted by column, into scratch. */
static void sorted_row(const csr_in *a, const int64_t *arc_flow, int64_t u, entry *scratch,
                       int64_t *len)
{
    int64_t k0 = element(a->indptr, a->index_size, u);
    int64_t k1 = element(a->indptr, a->index_size, u + 1);
    int sorted = 1;
    for (int64_t k = k0; k < k1; k++) {
        scratch[k - k0] = (entry){element(a->indices, a->index_size, k), arc_flow[k]};
        if (k > k0 && scratch[k - k0].column < scratch[k - k0 - 1].column)
            sorted = 0;
    }
    *len = k1 - k0;
    if (!sorted)
        qsort(scratch, (size_t)*len, sizeof *scratch, compare_entries);
}

/* How the merge writes: where (NULL: counting only), how wide, and what
 * it saw. */
typedef struct merge_out {
    int repeats;     /* PF_CSR_KEEP_REPEATS or PF_CSR_SUM_REPEATS */
    int index_size;  /* of col */
    int value_size;  /* of val */
    void *col, *val; /* the row's first output entry; NULL: count only */
    int too_big;     /* a value does not fit int32 */
} merge_out;

/* Merges row u's forward entries (fwd, sorted) with its transpose entries.
 * Per distinct column: one output entry (SUM_REPEATS) or as many as the
 * column appears in the forward or in the transpose entries, whichever is
 * more (KEEP_REPEATS, as scipy pairs them); the first holds the forward
 * flows minus the reverse flows, the others 0. Returns the row's count. */
static int64_t merge_row(const entry *fwd, int64_t fwd_len, const transpose *tr, int64_t u,
                         merge_out *w)
{
    int64_t i = 0, j = tr->start[u], j_end = tr->start[u + 1], count = 0;
    while (i < fwd_len || j < j_end) {
        int64_t column = i < fwd_len ? fwd[i].column : INT64_MAX;
        if (j < j_end && tr->row[j] < column)
            column = tr->row[j];
        int64_t value = 0, forward = 0, reverse = 0;
        for (; i < fwd_len && fwd[i].column == column; i++, forward++)
            value += fwd[i].flow;
        for (; j < j_end && tr->row[j] == column; j++, reverse++)
            value -= tr->flow[j];
        int64_t copies = w->repeats == PF_CSR_SUM_REPEATS ? 1
                         : forward > reverse                ? forward
                                                            : reverse;
        if (value < INT32_MIN || value > INT32_MAX)
            w->too_big = 1;
        for (int64_t c = 0; w->col && c < copies; c++) {
            set_element(w->col, w->index_size, count + c, column);
            set_element(w->val, w->value_size, count + c, c == 0 ? value : 0);
        }
        count += copies;
    }
    return count;
}

/* The longest row of the input: the size of a thread's sort scratch. */
static int64_t longest_row(const csr_in *a)
{
    int64_t most = 0;
    for (int64_t u = 0; u < a->n; u++) {
        int64_t len = element(a->indptr, a->index_size, u + 1) -
                      element(a->indptr, a->index_size, u);
        most = len > most ? len : most;
    }
    return most;
}

/* Pass 1 (out NULL: count[u] = row u's output entries, *too_big) or pass
 * 2 (fill out's rows at the starts in out->indptr). Rows go to threads in
 * chunks (a row with millions of entries, a grid's source, must not hold
 * up a static share). Returns PF_E_NOMEM if a sort scratch is missing. */
static int merge_rows(const csr_in *a, const int64_t *arc_flow, const transpose *tr,
                      int repeats, int64_t *count, pf_csr_matrix *out, int *too_big)
{
    int64_t scratch_len = longest_row(a) + 1;
    int failed = 0, big = 0;
    int threads = thread_count(a->m + a->n);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(| : failed, big))
    {
        entry *scratch = malloc((size_t)scratch_len * sizeof *scratch);
        failed = !scratch;
        merge_out w = {.repeats = repeats};
        if (out) {
            w.index_size = out->index_size;
            w.value_size = out->value_size;
        }
        PF_OMP(omp for schedule(dynamic, 4096))
        for (int64_t u = 0; u < a->n; u++) {
            if (failed)
                continue;
            int64_t len;
            sorted_row(a, arc_flow, u, scratch, &len);
            if (out) {
                int64_t at = element(out->indptr, out->index_size, u);
                w.col = (char *)out->indices + at * out->index_size;
                w.val = (char *)out->values + at * out->value_size;
            }
            int64_t entries = merge_row(scratch, len, tr, u, &w);
            if (!out)
                count[u] = entries;
        }
        big = w.too_big;
        free(scratch);
    }
    if (too_big)
        *too_big = big;
    return failed ? PF_E_NOMEM : PF_OK;
}

void pf_csr_matrix_free(pf_csr_matrix *m)
{
    free(m->indptr);
    free(m->indices);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* out's arrays for the row counts in count (n entries): int32 indices
 * while the entries fit, values int32 unless one does not fit. */
static int alloc_matrix(int64_t n, const int64_t *count, int too_big, pf_csr_matrix *out,
                        pf_status *st)
{
    int64_t entries = 0;
    for (int64_t u = 0; u < n; u++)
        entries += count[u];
    *out = (pf_csr_matrix){.rows = n, .entries = entries, .value_size = too_big ? 8 : 4,
                           .index_size = entries > INT32_MAX ? 8 : 4};
    out->indptr = pf_alloc((size_t)n + 1, (size_t)out->index_size, st);
    out->indices = pf_alloc((size_t)entries, (size_t)out->index_size, st);
    out->values = pf_alloc((size_t)entries, (size_t)out->value_size, st);
    if (!out->indptr || !out->indices || !out->values) {
        pf_csr_matrix_free(out);
        return PF_E_NOMEM;
    }
    int64_t sum = 0;
    for (int64_t u = 0; u < n; u++) {
        set_element(out->indptr, out->index_size, u, sum);
        sum += count[u];
    }
    set_element(out->indptr, out->index_size, n, sum);
    populate(out->indices, (size_t)entries * (size_t)out->index_size);
    populate(out->values, (size_t)entries * (size_t)out->value_size);
    return PF_OK;
}

int pf_csr_flow_matrix(int64_t vertices, const void *indptr, const void *indices,
                       int index_size, const int64_t *arc_flow, int repeats, pf_csr_matrix *out,
                       pf_status *st)
{
    memset(out, 0, sizeof *out);
    if (index_size != 4 && index_size != 8)
        return pf_fail(st, PF_E_USAGE, "CSR index size %d: must be 4 or 8 bytes", index_size);
    if (repeats != PF_CSR_SUM_REPEATS && repeats != PF_CSR_KEEP_REPEATS)
        return pf_fail(st, PF_E_USAGE, "repeats %d: must be PF_CSR_SUM_REPEATS or "
                       "PF_CSR_KEEP_REPEATS", repeats);
    if (vertices < 0 || vertices > PF_MAX_VERTICES)
        return pf_fail(st, PF_E_USAGE, "vertex count %lld out of range 0..%lld",
                       (long long)vertices, (long long)PF_MAX_VERTICES);
    csr_in a = {.n = vertices, .indptr = indptr, .indices = indices, .index_size = index_size};
    int rc = check_indptr(&a, st);
    if (!rc && a.m > 0 && !arc_flow)
        rc = pf_fail(st, PF_E_USAGE, "flow matrix of %lld entries without flows",
                     (long long)a.m);
    if (rc)
        return rc;
    int64_t first_bad = a.m;
    int threads = thread_count(a.m);
    (void)threads;
    PF_OMP(omp parallel for num_threads(threads) if (threads > 1) reduction(min : first_bad))
    for (int64_t k = 0; k < a.m; k++) {
        int64_t column = element(indices, index_size, k);
        if ((column < 0 || column >= vertices) && k < first_bad)
            first_bad = k;
    }
    if (first_bad < a.m)
        return pf_fail(st, PF_E_INPUT, "entry %lld (row %lld): column %lld outside 0..%lld",
                       (long long)first_bad, (long long)row_of_entry(&a, first_bad),
                       (long long)element(indices, index_size, first_bad),
                       (long long)vertices - 1);
    transpose tr;
    int too_big = 0;
    int64_t *count = pf_alloc((size_t)vertices + 1, sizeof *count, st);
    rc = count ? build_transpose(&a, arc_flow, &tr, st) : PF_E_NOMEM;
    if (!rc) {
        rc = merge_rows(&a, arc_flow, &tr, repeats, count, NULL, &too_big);
        if (!rc)
            rc = alloc_matrix(vertices, count, too_big, out, st);
        if (!rc)
            rc = merge_rows(&a, arc_flow, &tr, repeats, NULL, out, NULL);
        transpose_free(&tr);
    }
    free(count);
    if (rc == PF_E_NOMEM && st->code != PF_E_NOMEM)
        pf_fail(st, rc, "out of host memory for the flow matrix's sort scratch");
    if (rc)
        pf_csr_matrix_free(out);
    else
        pf_status_ok(st);
    return rc;
}
