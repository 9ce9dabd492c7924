/* The CSR part of the array API (portaflow.h): a network read straight
 * from a compressed-sparse-row capacity matrix as scipy.sparse stores it
 * (int32 or int64 arrays, read in place; pf_network_view_csr: not even
 * copied, the residual build reads them), and a solution's flows as the
 * antisymmetric flow matrix scipy.sparse.csgraph.maximum_flow returns.
 * Both work on ranges of entries or rows on OpenMP threads. Every check
 * runs before anything is returned, and the error reported is the lowest
 * bad row or entry whatever the thread count. */
#include <stdlib.h>
#include <string.h>

#include "../common/omp_threads.h"

#include "../common/memavail.h"
#include "../common/network.h"
#include "../common/residual.h"
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

/* Element k of a caller's int32 or int64 array (network.h). */
static inline int64_t element(const void *array, int size, int64_t k)
{
    return pf_sized_element(array, size, k);
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

/* The row holding entry k (k < m). */
static int64_t row_of_entry(const csr_in *a, int64_t k)
{
    return pf_csr_row_of(a->indptr, a->index_size, a->n, k);
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
    const pf_csr_arcs c = {.indptr = a->indptr, .indices = a->indices, .caps = caps,
                           .index_size = a->index_size, .cap_size = cap_size};
    return pf_csr_entry_error(&c, a->n, k, st);
}

/* Entries [k0, k1) into net's arrays; returns the first bad entry, or k1. */
static int64_t fill_arcs(const csr_in *a, const void *caps, int cap_size, pf_network *net,
                         int64_t k0, int64_t k1)
{
    if (k0 >= k1)
        return k1;
    pf_mem_prefault(net->tail + k0, (size_t)(k1 - k0) * sizeof *net->tail);
    pf_mem_prefault(net->head + k0, (size_t)(k1 - k0) * sizeof *net->head);
    pf_mem_prefault(net->cap + k0, (size_t)(k1 - k0) * sizeof *net->cap);
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

/* The lowest bad entry of a's, or a->m, the good ones copied into net's
 * arrays: by ranges of entries on OpenMP threads. */
static int64_t read_entries(const csr_in *a, const void *caps, int cap_size, pf_network *net)
{
    int64_t first_bad = a->m;
    int threads = thread_count(a->m);
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel num_threads(threads) reduction(min : first_bad) if (threads > 1))
    {
        int t, count;
        pf_team_position(&t, &count);
        int64_t k0 = a->m * t / count, k1 = a->m * (t + 1) / count;
        int64_t bad = fill_arcs(a, caps, cap_size, net, k0, k1);
        if (bad < k1 && bad < first_bad)
            first_bad = bad;
    }
    return first_bad;
}

/* The network of a CSR matrix: a view of the caller's arrays (view set,
 * unless compacting pays) or a copy. */
static pf_network *network_of_csr(int64_t vertices, int64_t source, int64_t sink,
                                  const void *indptr, const void *indices, int index_size,
                                  const void *capacities, int capacity_size, int view,
                                  pf_status *st)
{
    if (check_sizes(index_size, capacity_size, st))
        return NULL;
    pf_network *net = pf_network_new(vertices, source, sink, st);
    if (!net)
        return NULL;
    csr_in a = {.n = vertices, .indptr = indptr, .indices = indices, .index_size = index_size};
    if (check_indptr(&a, st) ||
        (a.m > 0 && !capacities && pf_fail(st, PF_E_USAGE, "CSR matrix without capacities"))) {
        pf_network_free(net);
        return NULL;
    }
    net->m = a.m;
    /* A compact copy would read the arcs from the network's arrays. */
    view = view && !pf_network_worth_compacting(net);
    net->m = 0;
    if (!view && a.m > 0 && pf_network_reserve(net, a.m, st)) {
        pf_network_free(net);
        return NULL;
    }
    /* A view's entries are checked by the residual build as it reads them. */
    int64_t first_bad = view ? a.m : read_entries(&a, capacities, capacity_size, net);
    if (first_bad < a.m) {
        entry_error(&a, first_bad, capacities, capacity_size, st);
        pf_network_free(net);
        return NULL;
    }
    if (view)
        net->csr = (pf_csr_arcs){.indptr = indptr, .indices = indices, .caps = capacities,
                                 .index_size = index_size, .cap_size = capacity_size};
    net->m = a.m;
    pf_status_ok(st);
    return net;
}

pf_network *pf_network_from_csr(int64_t vertices, int64_t source, int64_t sink,
                                const void *indptr, const void *indices, int index_size,
                                const void *capacities, int capacity_size, pf_status *st)
{
    return network_of_csr(vertices, source, sink, indptr, indices, index_size, capacities,
                          capacity_size, 0, st);
}

pf_network *pf_network_view_csr(int64_t vertices, int64_t source, int64_t sink,
                                const void *indptr, const void *indices, int index_size,
                                const void *capacities, int capacity_size, pf_status *st)
{
    return network_of_csr(vertices, source, sink, indptr, indices, index_size, capacities,
                          capacity_size, 1, st);
}

/* ---- the flow matrix -------------------------------------------------- */

/* The transpose's structure: column c's entries are row[start[c]] ..
 * row[start[c+1]-1], rows increasing (repeats adjacent), each with the
 * number of its input entry (where its flow will be). */
typedef struct transpose {
    int64_t *start; /* n + 1 */
    int32_t *row;   /* m */
    int64_t *entry; /* m */
} transpose;

struct pf_csr_flow_plan {
    csr_in a;         /* the caller's arrays, read again by the fill */
    int repeats;
    transpose tr;     /* freed once the sources below are set */
    pf_csr_matrix out; /* indptr and indices final; values int32, allocated */
    /* Where no position repeats and the entries fit int32: output entry
     * e's value is flow[fwd_src[e]] - flow[rev_src[e]] (-1: no such
     * term), a gather with no merging left to the values pass. */
    int32_t *fwd_src, *rev_src;
    int64_t sources; /* entries of each */
};

static void transpose_free(transpose *tr)
{
    free(tr->start);
    free(tr->row);
    free(tr->entry);
    memset(tr, 0, sizeof *tr);
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
static int build_transpose(const csr_in *a, transpose *tr, pf_status *st)
{
    memset(tr, 0, sizeof *tr);
    tr->start = pf_alloc((size_t)a->n + 2, sizeof *tr->start, st);
    tr->row = pf_alloc((size_t)a->m + 1, sizeof *tr->row, st);
    tr->entry = pf_alloc((size_t)a->m + 1, sizeof *tr->entry, st);
    if (!tr->start || !tr->row || !tr->entry) {
        transpose_free(tr);
        return PF_E_NOMEM;
    }
    int64_t *cursor = tr->start + 1; /* cursor[c]: next free slot of column c */
    int threads = thread_count(a->m);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        int t, count;
        pf_team_position(&t, &count);
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
        /* This thread's part of the arrays, read before any cursor moves. */
        int64_t slot_lo = lo < hi ? cursor[lo] : 0;
        int64_t slot_hi = lo < hi ? (hi < a->n ? cursor[hi] : a->m) : 0;
        PF_OMP(omp barrier)
        pf_mem_prefault(tr->row + slot_lo, (size_t)(slot_hi - slot_lo) * sizeof *tr->row);
        pf_mem_prefault(tr->entry + slot_lo, (size_t)(slot_hi - slot_lo) * sizeof *tr->entry);
        for (int64_t u = 0, k = 0; lo < hi && u < a->n; u++) {
            int64_t end = element(a->indptr, a->index_size, u + 1);
            for (; k < end; k++) {
                int64_t c = element(a->indices, a->index_size, k);
                if (c >= lo && c < hi) {
                    int64_t slot = cursor[c]++;
                    tr->row[slot] = (int32_t)u;
                    tr->entry[slot] = k;
                }
            }
        }
    }
    /* The cursors stopped at the end of each column, i.e. at the start of
     * the next one: start = {0, cursor[0], ...} is already in place. */
    return PF_OK;
}

/* Row u's forward entries, columns increasing: straight from the input
 * where the row is sorted already (scipy keeps rows sorted as a rule;
 * entry i is then input entry first + i), else a sorted copy in the
 * thread's scratch (entry i is input entry ids[i]). */
typedef struct forward_row {
    const void *cols;
    int col_size;
    int64_t first;
    const int64_t *ids; /* NULL: entries first, first + 1, ... */
    int64_t len;
} forward_row;

/* A thread's room for sorting rows, grown on the first unsorted row that
 * needs it (most inputs have none: no scratch at all). */
typedef struct row_scratch {
    int64_t room;
    struct entry {
        int64_t column, id;
    } * pairs;
    int64_t *cols, *ids;
} row_scratch;

static int compare_entries(const void *x, const void *y)
{
    const struct entry *a = x, *b = y;
    if (a->column != b->column)
        return (a->column > b->column) - (a->column < b->column);
    return (a->id > b->id) - (a->id < b->id);
}

static int grow_scratch(row_scratch *s, int64_t len)
{
    if (len <= s->room)
        return PF_OK;
    free(s->pairs);
    free(s->cols);
    free(s->ids);
    s->pairs = malloc((size_t)len * sizeof *s->pairs);
    s->cols = malloc((size_t)len * sizeof *s->cols);
    s->ids = malloc((size_t)len * sizeof *s->ids);
    s->room = s->pairs && s->cols && s->ids ? len : 0;
    return s->room ? PF_OK : PF_E_NOMEM;
}

static void free_scratch(row_scratch *s)
{
    free(s->pairs);
    free(s->cols);
    free(s->ids);
}

static int forward_row_of(const csr_in *a, int64_t u, row_scratch *s, forward_row *r)
{
    int64_t k0 = element(a->indptr, a->index_size, u);
    int64_t k1 = element(a->indptr, a->index_size, u + 1);
    *r = (forward_row){.cols = (const char *)a->indices + k0 * a->index_size,
                       .col_size = a->index_size, .first = k0, .len = k1 - k0};
    int64_t k = k0 + 1;
    while (k < k1 &&
           element(a->indices, a->index_size, k - 1) <= element(a->indices, a->index_size, k))
        k++;
    if (k >= k1)
        return PF_OK;
    if (grow_scratch(s, r->len))
        return PF_E_NOMEM;
    for (k = k0; k < k1; k++)
        s->pairs[k - k0] = (struct entry){element(a->indices, a->index_size, k), k};
    qsort(s->pairs, (size_t)r->len, sizeof *s->pairs, compare_entries);
    for (int64_t i = 0; i < r->len; i++) {
        s->cols[i] = s->pairs[i].column;
        s->ids[i] = s->pairs[i].id;
    }
    r->cols = s->cols;
    r->col_size = 8;
    r->ids = s->ids;
    return PF_OK;
}

/* What a merge pass does: count a row's output entries, write its
 * columns, or write its values (from arc_flow); and what it saw. */
typedef struct merge_pass {
    int repeats;          /* PF_CSR_KEEP_REPEATS or PF_CSR_SUM_REPEATS */
    const int64_t *flow;  /* the values pass: arc_flow */
    int size;             /* bytes of what it writes */
    void *at;             /* the row's first output column or value; NULL: count */
    int32_t *fwd_src, *rev_src; /* the columns pass: the row's first sources, or NULL */
    int too_big;          /* a value does not fit int32 */
    int repeated;         /* a position appears twice among the entries or the
                             transposed ones */
} merge_pass;

/* Merges row u's forward entries with its transpose entries. Per distinct
 * column: one output entry (SUM_REPEATS) or as many as the column appears
 * in the forward or in the transpose entries, whichever is more
 * (KEEP_REPEATS, as scipy pairs them); the first holds the forward flows
 * minus the reverse flows, the others 0. Returns the row's count. */
static int64_t merge_row(const forward_row *fwd, const transpose *tr, int64_t u, merge_pass *w)
{
    int64_t i = 0, j = tr->start[u], j_end = tr->start[u + 1], count = 0;
    while (i < fwd->len || j < j_end) {
        int64_t column = i < fwd->len ? element(fwd->cols, fwd->col_size, i) : INT64_MAX;
        if (j < j_end && tr->row[j] < column)
            column = tr->row[j];
        int64_t value = 0, forward = 0, reverse = 0, i0 = i, j0 = j;
        for (; i < fwd->len && element(fwd->cols, fwd->col_size, i) == column; i++, forward++)
            if (w->flow)
                value += w->flow[fwd->ids ? fwd->ids[i] : fwd->first + i];
        for (; j < j_end && tr->row[j] == column; j++, reverse++)
            if (w->flow)
                value -= w->flow[tr->entry[j]];
        int64_t copies = w->repeats == PF_CSR_SUM_REPEATS ? 1
                         : forward > reverse                ? forward
                                                            : reverse;
        if (value < INT32_MIN || value > INT32_MAX)
            w->too_big = 1;
        if (forward > 1 || reverse > 1)
            w->repeated = 1;
        if (w->fwd_src && copies == 1) {
            w->fwd_src[count] = forward ? (int32_t)(fwd->ids ? fwd->ids[i0] : fwd->first + i0) : -1;
            w->rev_src[count] = reverse ? (int32_t)tr->entry[j0] : -1;
        }
        for (int64_t c = 0; w->at && c < copies; c++)
            pf_sized_set(w->at, w->size, count + c, w->flow ? (c == 0 ? value : 0) : column);
        count += copies;
    }
    return count;
}

/* One pass over every row: counts into count[] (out NULL), or columns
 * (flow NULL) or values into out at the rows' starts. Rows go to threads
 * in chunks (a row with millions of entries, a grid's source, must not
 * hold up a static share). Returns PF_E_NOMEM if a sort scratch is
 * missing; *too_big (if given) says whether a value did not fit int32. */
static int merge_rows(const csr_in *a, const transpose *tr, int repeats, const int64_t *flow,
                      int64_t *count, pf_csr_matrix *out, int *too_big, int *repeated,
                      int32_t *fwd_src, int32_t *rev_src)
{
    int failed = 0, big = 0, twice = 0;
    int threads = thread_count(a->m + a->n);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(| : failed, big, twice))
    {
        row_scratch scratch = {0};
        merge_pass w = {.repeats = repeats, .flow = flow};
        w.size = !out ? 0 : flow ? out->value_size : out->index_size;
        char *base = !out ? NULL : flow ? out->values : out->indices;
        PF_OMP(omp for schedule(dynamic, 4096))
        for (int64_t u = 0; u < a->n; u++) {
            forward_row fwd;
            if (failed || (failed = forward_row_of(a, u, &scratch, &fwd)) != 0)
                continue;
            if (out) {
                int64_t at = element(out->indptr, out->index_size, u);
                w.at = base + at * w.size;
                w.fwd_src = fwd_src ? fwd_src + at : NULL;
                w.rev_src = rev_src ? rev_src + at : NULL;
            }
            int64_t entries = merge_row(&fwd, tr, u, &w);
            if (!out)
                count[u] = entries;
        }
        big = w.too_big;
        twice = w.repeated;
        free_scratch(&scratch);
    }
    if (too_big)
        *too_big = big;
    if (repeated)
        *repeated = twice;
    return failed ? PF_E_NOMEM : PF_OK;
}

void pf_csr_matrix_free(pf_csr_matrix *m)
{
    free(m->indptr);
    free(m->indices);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* out's indptr and indices for the row counts in count (n entries):
 * int32 while the entries fit. */
static int alloc_structure(int64_t n, const int64_t *count, pf_csr_matrix *out, pf_status *st)
{
    int64_t entries = 0;
    for (int64_t u = 0; u < n; u++)
        entries += count[u];
    *out = (pf_csr_matrix){.rows = n, .entries = entries,
                           .index_size = entries > INT32_MAX ? 8 : 4};
    out->indptr = pf_alloc((size_t)n + 1, (size_t)out->index_size, st);
    out->indices = pf_alloc((size_t)entries, (size_t)out->index_size, st);
    if (!out->indptr || !out->indices) {
        pf_csr_matrix_free(out);
        return PF_E_NOMEM;
    }
    pf_sized_indptr(out->indptr, out->index_size, count, n);
    pf_mem_prefault(out->indices, (size_t)entries * (size_t)out->index_size);
    return PF_OK;
}

/* out->values for `size`-byte values, faulted in (before the solve ends
 * where the plan is made beside it). */
static int alloc_values(pf_csr_matrix *out, int size, pf_status *st)
{
    free(out->values);
    out->value_size = size;
    out->values = pf_alloc((size_t)out->entries + 1, (size_t)size, st);
    if (!out->values)
        return PF_E_NOMEM;
    pf_mem_prefault(out->values, (size_t)out->entries * (size_t)size);
    return PF_OK;
}

static int alloc_sources(pf_csr_flow_plan *plan, pf_status *st)
{
    size_t entries = (size_t)plan->out.entries + 1;
    plan->fwd_src = pf_alloc(entries, sizeof *plan->fwd_src, st);
    plan->rev_src = pf_alloc(entries, sizeof *plan->rev_src, st);
    plan->sources = (int64_t)entries;
    return plan->fwd_src && plan->rev_src ? PF_OK : PF_E_NOMEM;
}

/* A plan's large arrays go back on a thread of their own (residual.h):
 * the caller, who has its matrix, need not wait for the pages. */
void pf_csr_flow_plan_free(pf_csr_flow_plan *plan)
{
    if (!plan)
        return;
    size_t m = (size_t)plan->a.m;
    size_t bytes = (size_t)plan->sources * 2 * sizeof *plan->fwd_src +
                   (plan->tr.row ? m * (sizeof *plan->tr.row + sizeof *plan->tr.entry) : 0);
    void *blocks[] = {plan->fwd_src, plan->rev_src, plan->tr.start, plan->tr.row,
                      plan->tr.entry};
    pf_free_later(blocks, 5, bytes);
    pf_csr_matrix_free(&plan->out);
    free(plan);
}

static int check_plan_input(const csr_in *a, int repeats, pf_status *st)
{
    if (a->index_size != 4 && a->index_size != 8)
        return pf_fail(st, PF_E_USAGE, "CSR index size %d: must be 4 or 8 bytes",
                       a->index_size);
    if (repeats != PF_CSR_SUM_REPEATS && repeats != PF_CSR_KEEP_REPEATS)
        return pf_fail(st, PF_E_USAGE,
                       "repeats %d: must be PF_CSR_SUM_REPEATS or PF_CSR_KEEP_REPEATS", repeats);
    if (a->n < 0 || a->n > PF_MAX_VERTICES)
        return pf_fail(st, PF_E_USAGE, "vertex count %lld out of range 0..%lld",
                       (long long)a->n, (long long)PF_MAX_VERTICES);
    return PF_OK;
}

/* The lowest entry whose column is outside 0..n-1, or m. */
static int64_t first_bad_column(const csr_in *a)
{
    int64_t first_bad = a->m;
    int threads = thread_count(a->m);
    (void)threads;
    PF_OMP(omp parallel for num_threads(threads) if (threads > 1) reduction(min : first_bad))
    for (int64_t k = 0; k < a->m; k++) {
        int64_t column = element(a->indices, a->index_size, k);
        if ((column < 0 || column >= a->n) && k < first_bad)
            first_bad = k;
    }
    return first_bad;
}

pf_csr_flow_plan *pf_csr_flow_plan_new(int64_t vertices, const void *indptr, const void *indices,
                                       int index_size, int repeats, pf_status *st)
{
    csr_in a = {.n = vertices, .indptr = indptr, .indices = indices, .index_size = index_size};
    if (check_plan_input(&a, repeats, st) || check_indptr(&a, st))
        return NULL;
    int64_t bad = first_bad_column(&a);
    if (bad < a.m) {
        pf_fail(st, PF_E_INPUT, "entry %lld (row %lld): column %lld outside 0..%lld",
                (long long)bad, (long long)row_of_entry(&a, bad),
                (long long)element(indices, index_size, bad), (long long)vertices - 1);
        return NULL;
    }
    pf_csr_flow_plan *plan = pf_calloc(1, sizeof *plan, st);
    int64_t *count = pf_alloc((size_t)vertices + 1, sizeof *count, st);
    int rc = plan && count ? build_transpose(&a, &plan->tr, st) : PF_E_NOMEM;
    int repeated = 1;
    if (!rc) {
        plan->a = a;
        plan->repeats = repeats;
        rc = merge_rows(&a, &plan->tr, repeats, NULL, count, NULL, NULL, &repeated, NULL, NULL);
    }
    if (!rc)
        rc = alloc_structure(vertices, count, &plan->out, st);
    if (!rc && !repeated && a.m <= INT32_MAX)
        rc = alloc_sources(plan, st);
    if (!rc)
        rc = merge_rows(&a, &plan->tr, repeats, NULL, NULL, &plan->out, NULL, NULL,
                        plan->fwd_src, plan->rev_src);
    if (!rc && plan->fwd_src)
        transpose_free(&plan->tr); /* the sources say it all */
    if (!rc)
        rc = alloc_values(&plan->out, 4, st);
    free(count);
    if (rc) {
        if (st->code != PF_E_NOMEM)
            pf_fail(st, PF_E_NOMEM, "out of host memory for the flow matrix");
        pf_csr_flow_plan_free(plan);
        return NULL;
    }
    pf_status_ok(st);
    return plan;
}

/* The values pass from the sources: one gather per entry, on threads. */
static void gather_values(const pf_csr_flow_plan *plan, const int64_t *flow, pf_csr_matrix *out,
                          int *too_big)
{
    const int32_t *fwd = plan->fwd_src, *rev = plan->rev_src;
    const int64_t entries = out->entries;
    int big = 0;
    int threads = thread_count(entries);
    (void)threads;
    if (out->value_size == 4) {
        int32_t *values = out->values;
        PF_OMP(omp parallel for num_threads(threads) if (threads > 1) reduction(| : big))
        for (int64_t e = 0; e < entries; e++) {
            int64_t value = (fwd[e] >= 0 ? flow[fwd[e]] : 0) - (rev[e] >= 0 ? flow[rev[e]] : 0);
            big |= value < INT32_MIN || value > INT32_MAX;
            values[e] = (int32_t)value;
        }
    } else {
        int64_t *values = out->values;
        PF_OMP(omp parallel for num_threads(threads) if (threads > 1))
        for (int64_t e = 0; e < entries; e++)
            values[e] = (fwd[e] >= 0 ? flow[fwd[e]] : 0) - (rev[e] >= 0 ? flow[rev[e]] : 0);
    }
    if (too_big)
        *too_big = big;
}

/* The values pass at out->value_size bytes a value into out->values
 * (allocated). */
static int fill_values(const pf_csr_flow_plan *plan, const int64_t *arc_flow, pf_csr_matrix *out,
                       int *too_big)
{
    if (plan->fwd_src) {
        gather_values(plan, arc_flow, out, too_big);
        return PF_OK;
    }
    return merge_rows(&plan->a, &plan->tr, plan->repeats, arc_flow, NULL, out, too_big, NULL,
                      NULL, NULL);
}

int pf_csr_flow_plan_matrix(pf_csr_flow_plan *plan, const int64_t *arc_flow, pf_csr_matrix *out,
                            pf_status *st)
{
    memset(out, 0, sizeof *out);
    if (!plan->out.indptr)
        return pf_fail(st, PF_E_USAGE, "flow plan already gave its matrix");
    if (plan->a.m > 0 && !arc_flow)
        return pf_fail(st, PF_E_USAGE, "flow matrix of %lld entries without flows",
                       (long long)plan->a.m);
    pf_csr_matrix m = plan->out; /* the structure passes to the caller */
    memset(&plan->out, 0, sizeof plan->out);
    int too_big = 0;
    int rc = fill_values(plan, arc_flow, &m, &too_big);
    if (!rc && too_big) /* rare: flows past int32, from int64 capacities */
        rc = alloc_values(&m, 8, st);
    if (!rc && too_big)
        rc = fill_values(plan, arc_flow, &m, NULL);
    if (rc) {
        if (st->code != PF_E_NOMEM)
            pf_fail(st, PF_E_NOMEM, "out of host memory for the flow matrix");
        pf_csr_matrix_free(&m);
        return rc;
    }
    *out = m;
    pf_status_ok(st);
    return PF_OK;
}

int pf_csr_flow_matrix(int64_t vertices, const void *indptr, const void *indices,
                       int index_size, const int64_t *arc_flow, int repeats, pf_csr_matrix *out,
                       pf_status *st)
{
    memset(out, 0, sizeof *out);
    csr_in a = {.n = vertices, .indptr = indptr, .indices = indices, .index_size = index_size};
    if (!check_plan_input(&a, repeats, st) && !check_indptr(&a, st) && a.m > 0 && !arc_flow)
        return pf_fail(st, PF_E_USAGE, "flow matrix of %lld entries without flows",
                       (long long)a.m);
    pf_csr_flow_plan *plan = pf_csr_flow_plan_new(vertices, indptr, indices, index_size, repeats,
                                                  st);
    if (!plan)
        return st->code;
    int rc = pf_csr_flow_plan_matrix(plan, arc_flow, out, st);
    pf_csr_flow_plan_free(plan);
    return rc;
}
