/* scipy's flow matrix read off the residual graph of a CSR view's solve
 * (csr_flow.h): the structure from each vertex's list sorted by head, by
 * rows on OpenMP threads, and the values as the net flow along each arc.
 * No transpose of the input and no pass over its entries: the residual
 * lists hold the input's and its transpose's entries already. */
#include <stdlib.h>
#include <string.h>

#include "../common/omp_threads.h"

#include "../common/memavail.h"
#include "../common/network.h"
#include "../common/sort.h"
#include "../common/status.h"
#include "csr_flow.h"

/* Below this many arcs one thread does it all. */
#define PARALLEL_MIN_ARCS 65536
/* Rows up to this long are sorted on the stack, by insertion. */
#define SHORT_ROW 32
/* Rows handed to a thread at a time (a row of millions of arcs, a grid's
 * source, must not hold up a static share). */
#define ROW_CHUNK 4096

/* A key: the head in the high half, the arc's place in its list in the
 * low half, so that keys sort by head and then by place. */
#define KEY_PLACE(key) ((int64_t)((key)&0xffffffffu))
#define KEY_HEAD(key) ((int64_t)((key) >> 32))

/* The team for a pass over `arcs` arcs: `wanted` threads (<= 0: the
 * calling thread's OpenMP default), one for a small graph. */
static int team_threads(int64_t arcs, int wanted)
{
#ifdef _OPENMP
    return arcs < PARALLEL_MIN_ARCS ? 1 : wanted > 0 ? wanted : omp_get_max_threads();
#else
    (void)arcs;
    (void)wanted;
    return 1;
#endif
}

static int compare_keys(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* A list of this many ascending runs or more is sorted by qsort. */
#define MERGE_RUNS_MAX 16

/* Merges from[lo, mid) and from[mid, hi), each ascending, into to[lo, hi). */
static void merge_runs(const uint64_t *from, uint64_t *to, int64_t lo, int64_t mid, int64_t hi)
{
    int64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        to[k++] = from[j] < from[i] ? from[j++] : from[i++];
    while (i < mid)
        to[k++] = from[i++];
    while (j < hi)
        to[k++] = from[j++];
}

/* Sorts a long list's keys (len of them; tmp: room for as many). A list
 * comes in a few ascending runs as a rule: its forward and reverse parts
 * each follow the input's order, sorted rows in scipy's matrices, and a
 * rotated order turns each part once. The runs are found and merged
 * pairwise, O(len) a round (a source's list of millions of arcs must not
 * take a qsort on one thread, twice); lists in no order go to qsort. */
static void sort_long(uint64_t *keys, int64_t len, uint64_t *tmp)
{
    int64_t bound[MERGE_RUNS_MAX + 1], runs = 0;
    bound[0] = 0;
    for (int64_t i = 1; i <= len; i++)
        if (i == len || keys[i] < keys[i - 1]) {
            if (++runs == MERGE_RUNS_MAX && i < len) {
                qsort(keys, (size_t)len, sizeof *keys, compare_keys);
                return;
            }
            bound[runs] = i;
        }
    uint64_t *from = keys, *to = tmp;
    while (runs > 1) {
        int64_t merged = 0;
        for (int64_t r = 0; r < runs; r += 2, merged++) {
            if (r + 1 < runs)
                merge_runs(from, to, bound[r], bound[r + 1], bound[r + 2]);
            else
                memcpy(to + bound[r], from + bound[r],
                       (size_t)(bound[r + 1] - bound[r]) * sizeof *to);
            bound[merged] = bound[r];
        }
        bound[merged] = len;
        runs = merged;
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != keys)
        memcpy(keys, from, (size_t)len * sizeof *keys);
}

/* A thread's room: keys of rows too long for the stack (and as many for
 * their merges), and sums of rows with too many entries. */
typedef struct row_room {
    uint64_t small_keys[SHORT_ROW];
    int64_t small_sums[SHORT_ROW];
    uint64_t *keys, *merge;
    int64_t *sums;
    int64_t key_room, sum_room;
} row_room;

static void room_free(row_room *r)
{
    free(r->keys);
    free(r->merge);
    free(r->sums);
}

/* u's arcs as keys, sorted; NULL if the room for a long row is missing. */
static const uint64_t *sorted_keys(const pf_residual *g, int64_t u, row_room *r)
{
    const int64_t a0 = g->first[u], len = g->first[u + 1] - a0;
    uint64_t *keys = r->small_keys;
    if (len > SHORT_ROW) {
        if (len > r->key_room) {
            free(r->keys);
            free(r->merge);
            r->keys = malloc((size_t)len * sizeof *r->keys);
            r->merge = malloc((size_t)len * sizeof *r->merge);
            r->key_room = r->keys && r->merge ? len : 0;
            if (!r->key_room)
                return NULL;
        }
        keys = r->keys;
    }
    for (int64_t i = 0; i < len; i++)
        keys[i] = (uint64_t)(uint32_t)g->head[a0 + i] << 32 | (uint64_t)i;
    if (len > SHORT_ROW) {
        sort_long(keys, len, r->merge);
        return keys;
    }
    pf_insertion_sort_u64(keys, len);
    return keys;
}

/* What the pass over the rows does with each: its entries counted, its
 * columns written where its arcs are (a row has no more entries than
 * arcs, but for its self-loops' entries: room for those too), and each
 * arc's place. */
typedef struct row_pass {
    int keep;           /* PF_CSR_KEEP_REPEATS */
    const void *indptr; /* the input's (forward arcs per row) where the */
    int index_size;     /* lists' parts are known (NULL: not known) */
    const int64_t *loop_start; /* n + 1: row u's self-loop entries are
                                  loop_start[u] .. [u + 1] - 1; NULL: none */
    int32_t *columns;   /* the row's first column */
    uint32_t *slot;     /* the places of the row's arcs */
} row_pass;

/* Where row u's columns are written in the pass: at its first arc, after
 * the self-loops of the rows before it. */
static inline int64_t column_room(const pf_residual *g, const int64_t *loop_start, int64_t u)
{
    return g->first[u] + (loop_start ? loop_start[u] : 0);
}

/* Writes `copies` entries of `column` from entry `count` on. */
static inline void put_column(const row_pass *w, int64_t count, int64_t copies, int64_t column)
{
    for (int64_t c = 0; c < copies; c++)
        w->columns[count + c] = (int32_t)column;
}

/* Row u's entries: one a head, or with KEEP_REPEATS max(p, q) of them,
 * p and q the head's forward and reverse arcs (as scipy keeps repeated
 * positions); every arc of a head placed at its head's first entry. Its
 * self-loops, which have no residual arcs, give the diagonal entry (as
 * many as there are with KEEP_REPEATS: p = q), which no arc adds to.
 * Returns the count, or -1 if p and q are needed and the lists' parts are
 * not known. */
static int64_t place_row(const pf_residual *g, int64_t u, const uint64_t *keys, const row_pass *w)
{
    const int64_t len = g->first[u + 1] - g->first[u];
    const int64_t loops = w->loop_start ? w->loop_start[u + 1] - w->loop_start[u] : 0;
    int64_t diagonal = loops == 0 ? 0 : w->keep ? loops : 1;
    int64_t forward = -1, count = 0;
    if (w->indptr)
        forward = pf_sized_element(w->indptr, w->index_size, u + 1) -
                  pf_sized_element(w->indptr, w->index_size, u) - loops;
    for (int64_t i = 0; i < len;) {
        const int64_t head = KEY_HEAD(keys[i]);
        if (diagonal && head > u) {
            put_column(w, count, diagonal, u);
            count += diagonal;
            diagonal = 0;
        }
        int64_t j = i + 1;
        while (j < len && KEY_HEAD(keys[j]) == head)
            j++;
        int64_t copies = 1;
        if (w->keep && j - i > 1) {
            if (forward < 0)
                return -1;
            int64_t p = 0;
            for (int64_t t = i; t < j; t++)
                p += KEY_PLACE(keys[t]) < forward;
            copies = p > j - i - p ? p : j - i - p;
        }
        put_column(w, count, copies, head);
        for (int64_t t = i; t < j; t++)
            w->slot[KEY_PLACE(keys[t])] = (uint32_t)count;
        count += copies;
        i = j;
    }
    put_column(w, count, diagonal, u);
    return count + diagonal;
}

/* Why the pass stopped early. */
enum { PASS_OK, PASS_CANNOT, PASS_NOMEM, PASS_ABANDONED };

/* This thread's share of `len` items of `size` bytes at p, faulted in. */
static void prefault_share(void *p, int64_t len, size_t size)
{
    int t, team;
    pf_team_position(&t, &team);
    int64_t lo = len * t / team, hi = len * (t + 1) / team;
    pf_mem_prefault((char *)p + lo * (int64_t)size, (size_t)(hi - lo) * size);
}

/* The one pass over every row: counts into count[], columns into
 * columns[] (rooms long) at each row's room, places into f->slot. */
static int pass_rows(const pf_residual *g, const row_pass *proto, int64_t *count,
                     int32_t *columns, int64_t rooms, pf_residual_flow *f, const int *abandon)
{
    int stop = PASS_OK;
    int threads = team_threads(g->arcs, f->threads);
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        prefault_share(columns, rooms, sizeof *columns);
        prefault_share(f->slot, g->arcs, sizeof *f->slot);
        row_room room = {0};
        row_pass w = *proto;
        PF_OMP(omp for schedule(dynamic, ROW_CHUNK))
        for (int64_t u = 0; u < g->n; u++) {
            int why = __atomic_load_n(&stop, __ATOMIC_RELAXED);
            if (why == PASS_OK && abandon && __atomic_load_n(abandon, __ATOMIC_RELAXED))
                why = PASS_ABANDONED;
            const uint64_t *keys = why ? NULL : sorted_keys(g, u, &room);
            if (!why && !keys)
                why = PASS_NOMEM;
            if (why) {
                __atomic_store_n(&stop, why, __ATOMIC_RELAXED);
                continue;
            }
            w.columns = columns + column_room(g, w.loop_start, u);
            w.slot = f->slot + g->first[u];
            count[u] = place_row(g, u, keys, &w);
            if (count[u] < 0)
                __atomic_store_n(&stop, PASS_CANNOT, __ATOMIC_RELAXED);
        }
        room_free(&room);
    }
    return stop;
}

/* f->out for the row counts in count[]: indptr filled, the columns moved
 * in from each row's room, values allocated and faulted in. */
static int gather_structure(const pf_residual *g, const int64_t *count, const int32_t *columns,
                            const int64_t *loop_start, pf_residual_flow *f, pf_status *st)
{
    const int64_t n = g->n;
    int64_t entries = 0;
    for (int64_t u = 0; u < n; u++)
        entries += count[u];
    pf_csr_matrix *out = &f->out;
    *out = (pf_csr_matrix){.rows = n, .entries = entries, .value_size = 4,
                           .index_size = entries > INT32_MAX ? 8 : 4};
    out->indptr = pf_alloc((size_t)n + 1, (size_t)out->index_size, st);
    out->indices = pf_alloc((size_t)entries, (size_t)out->index_size, st);
    out->values = pf_alloc((size_t)entries, (size_t)out->value_size, st);
    if (!out->indptr || !out->indices || !out->values)
        return PF_E_NOMEM;
    pf_sized_indptr(out->indptr, out->index_size, count, n);
    int threads = team_threads(g->arcs, f->threads);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        prefault_share(out->indices, entries, (size_t)out->index_size);
        prefault_share(out->values, entries, (size_t)out->value_size);
        PF_OMP(omp for schedule(dynamic, ROW_CHUNK))
        for (int64_t u = 0; u < n; u++) {
            int64_t at = pf_sized_element(out->indptr, out->index_size, u);
            const int32_t *from = columns + column_room(g, loop_start, u);
            if (out->index_size == 4)
                memcpy((int32_t *)out->indices + at, from, (size_t)count[u] * sizeof *from);
            else
                for (int64_t e = 0; e < count[u]; e++)
                    ((int64_t *)out->indices)[at + e] = from[e];
        }
    }
    return PF_OK;
}

void pf_residual_flow_free(pf_residual_flow *f)
{
    size_t bytes = (size_t)f->arcs * sizeof *f->slot;
    void *blocks[] = {f->slot};
    pf_free_later(blocks, 1, bytes); /* large: on a thread of its own */
    pf_csr_matrix_free(&f->out);
    memset(f, 0, sizeof *f);
}

/* Whether g's lists are forward arcs first (residual.h), the forward part
 * of u as long as row u of the input less its self-loops. */
static int parts_known(const pf_residual *g)
{
    return g->order == PF_ARCS_FORWARD_FIRST || g->order == PF_ARCS_FORWARD_ROTATED ||
           g->order == PF_ARCS_FORWARD_PART_ROTATED;
}

/* Where each row's self-loop entries start (n + 1, into *loop_start),
 * from the input's rows: only an input with self-loops pays this pass.
 * Returns their count. */
static int64_t count_loops(const pf_residual *g, const void *indptr, const void *indices,
                           int index_size, int wanted, int64_t *loop_start)
{
    int threads = team_threads(g->arcs, wanted);
    (void)threads;
    PF_OMP(omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, ROW_CHUNK))
    for (int64_t u = 0; u < g->n; u++) {
        int64_t loops = 0, k1 = pf_sized_element(indptr, index_size, u + 1);
        for (int64_t k = pf_sized_element(indptr, index_size, u); k < k1; k++)
            loops += pf_sized_element(indices, index_size, k) == u;
        loop_start[u + 1] = loops;
    }
    loop_start[0] = 0;
    for (int64_t u = 0; u < g->n; u++)
        loop_start[u + 1] += loop_start[u];
    return loop_start[g->n];
}

int pf_residual_flow_structure(const pf_residual *g, const void *indptr, const void *indices,
                               int index_size, int repeats, int threads, const int *abandon,
                               pf_residual_flow *f, pf_status *st)
{
    memset(f, 0, sizeof *f);
    f->threads = threads;
    const int64_t m = pf_sized_element(indptr, index_size, g->n);
    /* Every input entry but a self-loop a pair of residual arcs, no super
     * terminals' arcs. The places of a list's arcs are 32 bits. */
    const int64_t loops = m - g->arcs / 2;
    if (g->input_arcs != m || g->output_arcs != m || g->arcs % 2 || loops < 0 ||
        g->arcs > UINT32_MAX)
        return PF_RESIDUAL_FLOW_CANNOT;
    int64_t *count = pf_alloc((size_t)g->n + 1, sizeof *count, st);
    int64_t *loop_start = loops ? pf_alloc((size_t)g->n + 1, sizeof *loop_start, st) : NULL;
    int32_t *columns = pf_alloc((size_t)(g->arcs + loops), sizeof *columns, st);
    f->slot = pf_alloc((size_t)g->arcs, sizeof *f->slot, st);
    f->arcs = g->arcs;
    int rc = count && (loop_start || !loops) && columns && f->slot ? PF_OK : PF_E_NOMEM;
    if (!rc && loops && count_loops(g, indptr, indices, index_size, threads, loop_start) != loops)
        rc = PF_RESIDUAL_FLOW_CANNOT; /* not the view the graph was built from */
    if (!rc) {
        row_pass pass = {.keep = repeats == PF_CSR_KEEP_REPEATS,
                         .indptr = parts_known(g) ? indptr : NULL, .index_size = index_size,
                         .loop_start = loop_start};
        int stop = pass_rows(g, &pass, count, columns, g->arcs + loops, f, abandon);
        rc = stop == PASS_CANNOT      ? PF_RESIDUAL_FLOW_CANNOT
             : stop == PASS_ABANDONED ? PF_E_CANCELLED
             : stop == PASS_NOMEM     ? PF_E_NOMEM
                                      : gather_structure(g, count, columns, loop_start, f, st);
    }
    free(count);
    free(loop_start);
    void *blocks[] = {columns};
    pf_free_later(blocks, 1, (size_t)(g->arcs + loops) * sizeof *columns);
    if (rc == PF_E_NOMEM && st->code != PF_E_NOMEM)
        pf_fail(st, PF_E_NOMEM, "out of host memory for the flow matrix");
    if (rc == PF_E_CANCELLED)
        pf_fail(st, PF_E_CANCELLED, "the flow matrix was abandoned with its solve");
    if (rc)
        pf_residual_flow_free(f);
    return rc;
}

/* Row u's values: the net flow along each of its arcs, cap - res (a
 * forward arc's flow, minus a reverse arc's), summed into the arc's entry
 * (sums: the row's entries long, zeroed here). Returns whether a value
 * does not fit `size` bytes (4). */
static int row_values(const pf_residual_flow *f, const pf_residual *g, const int64_t *res,
                      int64_t u, int64_t *sums, int size)
{
    const pf_csr_matrix *out = &f->out;
    int64_t e0 = pf_sized_element(out->indptr, out->index_size, u);
    int64_t len = pf_sized_element(out->indptr, out->index_size, u + 1) - e0;
    memset(sums, 0, (size_t)len * sizeof *sums);
    for (int64_t a = g->first[u]; a < g->first[u + 1]; a++)
        sums[f->slot[a]] += g->cap[a] - res[a];
    int big = 0;
    for (int64_t e = 0; e < len; e++) {
        big |= sums[e] < INT32_MIN || sums[e] > INT32_MAX;
        pf_sized_set(out->values, size, e0 + e, sums[e]);
    }
    return size == 4 && big;
}

/* Every row's values at `size` bytes; returns whether one did not fit, or
 * -1 if a thread lacked room for a row's sums. */
static int fill_values(const pf_residual_flow *f, const pf_residual *g, const int64_t *res,
                       int size)
{
    int big = 0, nomem = 0;
    int threads = team_threads(g->arcs, f->threads);
    (void)threads;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(| : big, nomem))
    {
        row_room room = {0};
        PF_OMP(omp for schedule(dynamic, ROW_CHUNK))
        for (int64_t u = 0; u < g->n; u++) {
            int64_t len = pf_sized_element(f->out.indptr, f->out.index_size, u + 1) -
                          pf_sized_element(f->out.indptr, f->out.index_size, u);
            int64_t *sums = room.small_sums;
            if (len > SHORT_ROW && len > room.sum_room) {
                free(room.sums);
                room.sums = malloc((size_t)len * sizeof *room.sums);
                room.sum_room = room.sums ? len : 0;
            }
            if (len > SHORT_ROW)
                sums = room.sums;
            if (!sums) {
                nomem = 1;
                continue;
            }
            big |= row_values(f, g, res, u, sums, size);
        }
        room_free(&room);
    }
    return nomem ? -1 : big;
}

int pf_residual_flow_values(pf_residual_flow *f, const pf_residual *g, const int64_t *res,
                            pf_csr_matrix *out, pf_status *st)
{
    memset(out, 0, sizeof *out);
    int big = fill_values(f, g, res, f->out.value_size);
    if (big == 1) { /* rare: flows past int32, from int64 capacities */
        free(f->out.values);
        f->out.value_size = 8;
        f->out.values = pf_alloc((size_t)f->out.entries, 8, st);
        big = f->out.values ? fill_values(f, g, res, 8) : -1;
    }
    if (big < 0)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for the flow matrix");
    *out = f->out;
    memset(&f->out, 0, sizeof f->out);
    return PF_OK;
}
