/* bench_paged: the thesis's alternative to CSR with slack (Marrow-Graph's
 * slotted pages), built only as far as needed to time the engines' hot
 * traversal on it: the global relabel's reverse breadth-first search over
 * residual arcs, against the same search on the CSR residual graph
 * (bench/NOTES.md, "dynamic graph", decides between them).
 *
 * Pages of PAGE bytes hold 16-byte units. Two layouts of the same records
 * (an arc's head and its reverse arc's record, as CSR's head and rev):
 * - space-minimising: vertices packed into pages, records growing up from
 *   the page's start and a directory (offset, count per vertex) growing
 *   down from its end; a vertex index names the page and the directory
 *   entry (8 bytes a vertex);
 * - access-efficient: each vertex's records start on a 64-byte line and
 *   the index holds their start and count (16 bytes a vertex), no
 *   directory on the way.
 * A vertex whose records do not fit a page gets large-adjacency pages of
 * its own (consecutive units after the packed pages).
 * Usage: bench_paged PAGE_BYTES THREADS INSTANCE... (INSTANCE as bench_dyn:
 * rmf:A:B, rlg:R:C, grid:W:H). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/gen.h"
#include "common/network.h"
#include "common/residual.h"
#include "common/timer.h"
#include "bench_instance.h"

typedef struct unit {
    int32_t head;
    int32_t pad;
    int64_t rev; /* the reverse arc's record (unit index) */
} unit;

typedef struct sm_index {
    uint32_t page;  /* LARGE: slot indexes the large table */
    uint32_t slot;
} sm_index;

typedef struct ae_index {
    int64_t start;
    int64_t count;
} ae_index;

typedef struct paged {
    int64_t units_per_page, units, pages;
    unit *u;
    int64_t *pos;          /* CSR slot -> unit (for rev and res) */
    sm_index *sm;          /* space-minimising only */
    ae_index *large;       /* space-minimising: large vertices' runs */
    ae_index *ae;          /* access-efficient only */
    int64_t large_count;
} paged;

#define LARGE UINT32_MAX

static void die(const char *what)
{
    fprintf(stderr, "bench_paged: %s\n", what);
    exit(1);
}

static pf_network *make_instance(const char *spec)
{
    return pf_bench_instance("bench_paged", spec);
}

/* Directory entry s of page p (from the page's end, 4 bytes each). */
static uint16_t *dir_entry(const paged *pg, int64_t p, int64_t s)
{
    char *end = (char *)(pg->u + (p + 1) * pg->units_per_page);
    return (uint16_t *)(end - 4 * (s + 1));
}

/* Places each vertex's records (space-minimising when sm, else
 * access-efficient): fills pos, the index, and the unit count. */
static void place(const pf_residual *g, paged *pg, int sm)
{
    const int64_t U = pg->units_per_page;
    int64_t page = 0, used = 0, dirs = 0, large_units = 0;
    /* First pass: the packed pages; large vertices counted. */
    for (int64_t v = 0; v < g->n; v++) {
        int64_t deg = g->first[v + 1] - g->first[v];
        int64_t need = sm ? deg : (deg + 3) / 4 * 4;
        if (deg + 1 > U - 1) {
            large_units += need;
            continue;
        }
        int64_t dir_units = sm ? (dirs + 1 + 3) / 4 : 0;
        if (used + need + dir_units > U) {
            page++;
            used = dirs = 0;
        }
        int64_t start = page * U + used;
        for (int64_t a = g->first[v]; a < g->first[v + 1]; a++)
            pg->pos[a] = start + (a - g->first[v]);
        if (sm) {
            uint16_t *e = dir_entry(pg, page, dirs);
            e[0] = (uint16_t)used;
            e[1] = (uint16_t)deg;
            pg->sm[v] = (sm_index){.page = (uint32_t)page, .slot = (uint32_t)dirs++};
        } else {
            pg->ae[v] = (ae_index){.start = start, .count = deg};
        }
        used += need;
    }
    int64_t next = (page + 1) * U; /* large-adjacency pages after the packed ones */
    for (int64_t v = 0; v < g->n; v++) {
        int64_t deg = g->first[v + 1] - g->first[v];
        if (deg + 1 <= U - 1)
            continue;
        for (int64_t a = g->first[v]; a < g->first[v + 1]; a++)
            pg->pos[a] = next + (a - g->first[v]);
        if (sm) {
            pg->large[pg->large_count] = (ae_index){.start = next, .count = deg};
            pg->sm[v] = (sm_index){.page = LARGE, .slot = (uint32_t)pg->large_count++};
        } else {
            pg->ae[v] = (ae_index){.start = next, .count = deg};
        }
        next += sm ? deg : (deg + 3) / 4 * 4;
    }
    pg->units = (next + U - 1) / U * U;
    pg->pages = pg->units / U;
    (void)large_units;
}

static void build_paged(const pf_residual *g, int64_t page_bytes, int sm, paged *pg)
{
    memset(pg, 0, sizeof *pg);
    pg->units_per_page = page_bytes / (int64_t)sizeof(unit);
    /* Units: at most the slots, the alignment and a page per vertex's
     * leftover, bounded generously. */
    int64_t bound = g->arcs + 4 * g->n + 2 * pg->units_per_page * (g->arcs / pg->units_per_page + 2);
    pg->u = calloc((size_t)bound, sizeof *pg->u);
    pg->pos = malloc((size_t)g->arcs * sizeof *pg->pos + 8);
    if (sm) {
        pg->sm = malloc((size_t)g->n * sizeof *pg->sm);
        pg->large = malloc((size_t)g->n * sizeof *pg->large);
    } else {
        pg->ae = malloc((size_t)g->n * sizeof *pg->ae);
    }
    if (!pg->u || !pg->pos || (sm ? !pg->sm || !pg->large : !pg->ae))
        die("out of memory");
    place(g, pg, sm);
    if (pg->units > bound)
        die("unit bound too small");
    for (int64_t a = 0; a < g->arcs; a++) {
        unit *r = &pg->u[pg->pos[a]];
        r->head = g->head[a];
        r->rev = pg->pos[g->rev[a]];
    }
}

static void free_paged(paged *pg)
{
    free(pg->u);
    free(pg->pos);
    free(pg->sm);
    free(pg->large);
    free(pg->ae);
}

/* The reverse BFS from the sink: x gets a label when an arc x -> y with
 * residual exists for a labelled y, i.e. a slot at y whose reverse has
 * residual. One body for the three layouts: RANGE(y, start, count) finds
 * y's records, HEAD(i) and REV(i) read record i. Level-synchronous with
 * `threads` threads (labels claimed by compare-and-swap); returns the
 * vertices reached. */
#define DEFINE_BFS(NAME, RANGE, HEAD, REV)                                                      \
    static int64_t NAME(const void *layout, int64_t n, int32_t sink, const int64_t *res,      \
                        int32_t *label, int32_t *frontier, int32_t *next, int threads)        \
    {                                                                                         \
        (void)layout;                                                                         \
        for (int64_t v = 0; v < n; v++)                                                       \
            label[v] = -1;                                                                    \
        label[sink] = 0;                                                                      \
        frontier[0] = sink;                                                                   \
        int64_t size = 1, reached = 1;                                                        \
        for (int32_t level = 1; size > 0; level++) {                                          \
            int64_t next_size = 0;                                                            \
            _Pragma("omp parallel num_threads(threads) if (threads > 1)")                     \
            {                                                                                 \
                int32_t local[256];                                                           \
                int count = 0;                                                                \
                _Pragma("omp for schedule(dynamic, 64) nowait")                               \
                for (int64_t k = 0; k < size; k++) {                                          \
                    int64_t start, len;                                                       \
                    RANGE(frontier[k], start, len);                                           \
                    for (int64_t i = start; i < start + len; i++) {                           \
                        int32_t x = HEAD(i);                                                  \
                        if (label[x] >= 0 || res[REV(i)] <= 0)                                \
                            continue;                                                         \
                        int32_t unset = -1;                                                   \
                        if (threads > 1 ? __atomic_compare_exchange_n(&label[x], &unset, level, \
                                                                      0, __ATOMIC_RELAXED,    \
                                                                      __ATOMIC_RELAXED)       \
                                        : (label[x] = level, 1)) {                            \
                            local[count++] = x;                                               \
                            if (count == 256) {                                               \
                                int64_t at = __atomic_fetch_add(&next_size, 256,              \
                                                                __ATOMIC_RELAXED);            \
                                memcpy(next + at, local, sizeof local);                       \
                                count = 0;                                                    \
                            }                                                                 \
                        }                                                                     \
                    }                                                                         \
                }                                                                             \
                int64_t at = __atomic_fetch_add(&next_size, count, __ATOMIC_RELAXED);         \
                memcpy(next + at, local, (size_t)count * sizeof *local);                      \
            }                                                                                 \
            int32_t *swap = frontier;                                                         \
            frontier = next;                                                                  \
            next = swap;                                                                      \
            size = next_size;                                                                 \
            reached += next_size;                                                             \
        }                                                                                     \
        return reached;                                                                       \
    }

#define CSR ((const pf_residual *)layout)
#define CSR_RANGE(y, s, c) (s = CSR->first[y], c = CSR->first[(y) + 1] - CSR->first[y])
#define CSR_HEAD(i) CSR->head[i]
#define CSR_REV(i) CSR->rev[i]
DEFINE_BFS(bfs_csr, CSR_RANGE, CSR_HEAD, CSR_REV)

#define PG ((const paged *)layout)
#define SM_RANGE(y, s, c)                                                                     \
    do {                                                                                      \
        sm_index ix = PG->sm[y];                                                              \
        if (ix.page == LARGE) {                                                               \
            s = PG->large[ix.slot].start;                                                     \
            c = PG->large[ix.slot].count;                                                     \
        } else {                                                                              \
            const uint16_t *e = dir_entry(PG, ix.page, ix.slot);                              \
            s = (int64_t)ix.page * PG->units_per_page + e[0];                                 \
            c = e[1];                                                                         \
        }                                                                                     \
    } while (0)
#define PG_HEAD(i) PG->u[i].head
#define PG_REV(i) PG->u[i].rev
DEFINE_BFS(bfs_sm, SM_RANGE, PG_HEAD, PG_REV)

#define AE_RANGE(y, s, c) (s = PG->ae[y].start, c = PG->ae[y].count)
DEFINE_BFS(bfs_ae, AE_RANGE, PG_HEAD, PG_REV)

typedef int64_t (*bfs_fn)(const void *, int64_t, int32_t, const int64_t *, int32_t *, int32_t *,
                          int32_t *, int);

static double best_bfs(bfs_fn fn, const void *layout, const pf_residual *g, const int64_t *res,
                       int threads, int reps, int64_t *reached)
{
    int32_t *label = malloc((size_t)g->n * sizeof *label);
    int32_t *a = malloc((size_t)g->n * sizeof *a), *b = malloc((size_t)g->n * sizeof *b);
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = pf_now();
        *reached = fn(layout, g->n, g->sink, res, label, a, b, threads);
        double t = pf_now() - t0;
        best = t < best ? t : best;
    }
    free(label);
    free(a);
    free(b);
    return best;
}

/* Residuals at the start of a solve: capacities, the source's arcs saturated. */
static int64_t *initial_res(const pf_residual *g)
{
    int64_t *res = malloc((size_t)g->arcs * sizeof *res + 8);
    memcpy(res, g->cap, (size_t)g->arcs * sizeof *res);
    for (int64_t a = g->first[g->source]; a < g->first[g->source + 1]; a++) {
        res[g->rev[a]] += res[a];
        res[a] = 0;
    }
    return res;
}

static void run_instance(const char *name, int64_t page_bytes, int threads)
{
    pf_status st;
    pf_network *net = make_instance(name);
    pf_residual g;
    if (pf_residual_build(net, &g, PF_ARCS_FORWARD_ROTATED, 0, &st))
        die(st.message);
    pf_network_free(net);
    int64_t *res = initial_res(&g);
    const int reps = 5;
    double csr_bytes = (double)g.arcs * 12 + (double)(g.n + 1) * 8;
    for (int t = 1; t <= threads; t *= 2) {
        int64_t reached_csr, reached_sm, reached_ae;
        double t_csr = best_bfs(bfs_csr, &g, &g, res, t, reps, &reached_csr);
        paged sm, ae;
        build_paged(&g, page_bytes, 1, &sm);
        build_paged(&g, page_bytes, 0, &ae);
        int64_t *res_sm = calloc((size_t)sm.units, sizeof *res_sm);
        int64_t *res_ae = calloc((size_t)ae.units, sizeof *res_ae);
        for (int64_t a = 0; a < g.arcs; a++) {
            res_sm[sm.pos[a]] = res[a];
            res_ae[ae.pos[a]] = res[a];
        }
        double t_sm = best_bfs(bfs_sm, &sm, &g, res_sm, t, reps, &reached_sm);
        double t_ae = best_bfs(bfs_ae, &ae, &g, res_ae, t, reps, &reached_ae);
        if (reached_sm != reached_csr || reached_ae != reached_csr)
            die("the layouts reach different vertex counts");
        double sm_bytes = (double)sm.units * 16 + (double)g.n * 8 + (double)sm.large_count * 16;
        double ae_bytes = (double)ae.units * 16 + (double)g.n * 16;
        printf("paged %s page %lld threads %d: reached %lld of %lld; csr %.4f s, "
               "space-min %.4f s (%.2fx), access-eff %.4f s (%.2fx); bytes/arc csr %.1f "
               "space-min %.1f access-eff %.1f\n",
               name, (long long)page_bytes, t, (long long)reached_csr, (long long)g.n, t_csr, t_sm,
               t_sm / t_csr, t_ae, t_ae / t_csr, csr_bytes / (double)g.arcs,
               sm_bytes / (double)g.arcs, ae_bytes / (double)g.arcs);
        fflush(stdout);
        free(res_sm);
        free(res_ae);
        free_paged(&sm);
        free_paged(&ae);
    }
    free(res);
    pf_residual_free(&g);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_paged PAGE_BYTES THREADS INSTANCE...\n");
        return 2;
    }
    int64_t page_bytes = atoll(argv[1]);
    int threads = atoi(argv[2]);
    if (page_bytes < 256 || page_bytes > 65536 || (page_bytes & (page_bytes - 1)) ||
        threads < 1) {
        fprintf(stderr, "bench_paged: PAGE_BYTES a power of 2 in 256..65536, THREADS >= 1\n");
        return 2;
    }
    for (int i = 3; i < argc; i++)
        run_instance(argv[i], page_bytes, threads);
    return 0;
}
