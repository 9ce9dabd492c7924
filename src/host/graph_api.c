/* The public graph analytics of portaflow.h (pf_bfs, pf_sssp,
 * pf_triangles): a pf_wgraph built from arrays (or arc by arc) turned into
 * the engines' CSR (graph_csr.h), the engines of graph.h run on the
 * backend the registry's selection loop picks, and their answers handed
 * over in the public, sized solution structs. The caller's ids are
 * 0-based; nothing is printed. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sized.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../common/wgraph.h"
#include "graph.h"

/* The options of API version 6, the first that has them: a struct_size
 * below this is no pf_analytics_options. */
#define ANALYTICS_OPTIONS_V6_SIZE (offsetof(pf_analytics_options, delta) + sizeof(double))

void pf_analytics_options_init_sized(pf_analytics_options *opt, size_t opt_size)
{
    const pf_analytics_options defaults = {
        .struct_size = pf_sized_clamp(opt_size, sizeof defaults), .device_index = -1};
    pf_sized_copy(opt, opt_size, &defaults, sizeof defaults, ANALYTICS_OPTIONS_V6_SIZE);
}

/* Without the header's macro (a caller taking its address). */
void(pf_analytics_options_init)(pf_analytics_options *opt)
{
    pf_analytics_options_init_sized(opt, sizeof *opt);
}

pf_wgraph *pf_wgraph_from_int_arrays(int64_t vertices, int64_t arcs, const int64_t *tails,
                                     const int64_t *heads, const int64_t *weights, int base,
                                     pf_status *st)
{
    if (base != 0 && base != 1) {
        pf_fail(st, PF_E_USAGE, "id base %d: must be 0 or 1", base);
        return NULL;
    }
    if (vertices < 0) {
        pf_fail(st, PF_E_USAGE, "vertex count %lld is negative", (long long)vertices);
        return NULL;
    }
    if (arcs < 0 || (arcs > 0 && (!tails || !heads))) {
        pf_fail(st, PF_E_USAGE, "arc count %lld with %s arrays", (long long)arcs,
                arcs < 0 ? "a negative count of" : "missing");
        return NULL;
    }
    pf_wgraph *g = pf_wgraph_new(vertices, st);
    if (g && arcs > 0 && pf_wgraph_reserve(g, arcs, st)) {
        pf_wgraph_free(g);
        return NULL;
    }
    for (int64_t i = 0; g && i < arcs; i++) {
        if (pf_wgraph_add_arc(g, tails[i] - base, heads[i] - base, weights ? weights[i] : 1,
                              st)) {
            pf_status keep = *st;
            pf_wgraph_free(g);
            pf_fail(st, keep.code, "arc %lld: %s", (long long)i, keep.message);
            return NULL;
        }
    }
    return g;
}

/* The caller's options as the engines take them (NULL: the defaults);
 * fields past the caller's struct_size keep their defaults. */
static void engine_options(const pf_analytics_options *in, pf_graph_options *out,
                           int *undirected)
{
    pf_analytics_options opt;
    pf_analytics_options_init_sized(&opt, sizeof opt);
    if (in && in->struct_size >= ANALYTICS_OPTIONS_V6_SIZE)
        memcpy(&opt, in, in->struct_size < sizeof opt ? in->struct_size : sizeof opt);
    pf_graph_options_init(out);
    out->backend = opt.backend;
    out->device_index = opt.device_index;
    out->threads = opt.threads;
    out->parents = opt.parents;
    out->delta_f = opt.delta;
    /* As the CLI's --delta: integer weights take its integer part, at least 1. */
    out->delta_i = !(opt.delta > 0)                      ? 0
                   : opt.delta >= 1 && opt.delta < 9.2e18 ? (int64_t)opt.delta
                                                          : 1;
    out->cancel = (pf_graph_cancel){.fn = opt.cancel, .data = opt.cancel_data};
    *undirected = opt.undirected;
}

int pf_analytics_engine_options(const pf_analytics_options *opt, pf_graph_options *eopt,
                                int *undirected, pf_status *st)
{
    if (opt && opt->struct_size < ANALYTICS_OPTIONS_V6_SIZE)
        return pf_fail(st, PF_E_USAGE, "analytics options with struct_size %zu: initialise them "
                       "with pf_analytics_options_init", opt->struct_size);
    if (opt && (opt->delta < 0 || !isfinite(opt->delta)))
        return pf_fail(st, PF_E_USAGE, "delta %g: must be a positive number (0: chosen)",
                       opt->delta);
    engine_options(opt, eopt, undirected);
    return PF_OK;
}

/* Options as the engines take them, and g as their CSR; NULL and *st set
 * when the arguments are bad. */
static pf_csr *prepare(const pf_wgraph *g, const pf_analytics_options *opt,
                       pf_graph_options *eopt, pf_status *st)
{
    if (!g) {
        pf_fail(st, PF_E_USAGE, "no graph (NULL)");
        return NULL;
    }
    int undirected = 0;
    if (pf_analytics_engine_options(opt, eopt, &undirected, st))
        return NULL;
    return pf_csr_from_wgraph(g, undirected, st);
}

/* prepare() for a search from `source`, checked against g first (0-based,
 * as the caller counts); *prepare_s: the time since t0. */
static pf_csr *begin_with_source(const pf_wgraph *g, int64_t source,
                                 const pf_analytics_options *opt, pf_graph_options *eopt,
                                 double t0, double *prepare_s, pf_status *st)
{
    pf_csr *csr = NULL;
    if (g && (source < 0 || source >= g->n))
        pf_fail(st, PF_E_USAGE, "source %lld is outside 0..%lld", (long long)source,
                (long long)g->n - 1);
    else
        csr = prepare(g, opt, eopt, st);
    *prepare_s = pf_now() - t0;
    return csr;
}

void pf_analytics_take_times(const pf_graph_times *t, double prepare_s, double t0,
                             pf_analytics_times *out)
{
    *out = (pf_analytics_times){.open = t->open_s, .prepare = prepare_s + t->prepare_s,
                                .upload = t->upload_s, .kernel = t->kernel_s,
                                .download = t->download_s, .total = pf_now() - t0};
}

int pf_bfs_sized(const pf_wgraph *g, int64_t source, const pf_analytics_options *opt,
                 pf_bfs_solution *sol, size_t solution_size, pf_status *st)
{
    double t0 = pf_now(), prepare_s;
    pf_bfs_solution full = {0};
    pf_graph_options eopt;
    pf_csr *csr = begin_with_source(g, source, opt, &eopt, t0, &prepare_s, st);
    pf_bfs_result res = {0};
    int rc = csr ? pf_graph_bfs(csr, (int32_t)source, &eopt, &res, st) : st->code;
    pf_csr_free(csr);
    if (!rc) {
        full = (pf_bfs_solution){.vertices = g->n, .dist = res.dist, .parent = res.parent,
                                 .reached = res.reached, .depth = res.depth,
                                 .checksum = res.checksum,
                                 .arcs_traversed = res.arcs_traversed};
        memcpy(full.backend, res.backend, sizeof full.backend);
        pf_analytics_take_times(&res.t, prepare_s, t0, &full.times);
        free(res.levels);
    }
    if (solution_size < offsetof(pf_bfs_solution, parent) + sizeof full.parent)
        free(full.parent);
    pf_sized_copy(sol, solution_size, &full, sizeof full, 0);
    return rc;
}

/* The engine's distances and cycle as the public solution holds them. */
static void take_sssp(const pf_sssp_result *res, int64_t n, pf_sssp_solution *out)
{
    *out = (pf_sssp_solution){.vertices = n, .real = res->dist_f != NULL,
                              .dist_i = res->dist_i, .dist_f = res->dist_f,
                              .reached = res->reached, .cycle = res->cycle,
                              .cycle_len = res->cycle_len};
    out->max_distance = res->dist_f ? res->max_f : (double)res->max_i;
    out->checksum = res->dist_f ? res->sum_f : (double)res->sum_i;
    memcpy(out->backend, res->backend, sizeof out->backend);
}

/* One search on csr (g's CSR) from a checked source into the caller's
 * solution of solution_size bytes; prepare_s (the CSR's time) and t0 (the
 * call's start) for its times. */
static int sssp_on_csr(const pf_csr *csr, int64_t source, const pf_graph_options *eopt,
                       double prepare_s, double t0, pf_sssp_solution *sol,
                       size_t solution_size, pf_status *st)
{
    pf_sssp_solution full = {0};
    pf_sssp_result res = {0};
    int rc = pf_graph_sssp(csr, (int32_t)source, eopt, &res, st);
    if (rc) { /* only the cycle, if any, is handed over */
        PF_FREE_NULL(res.dist_i);
        PF_FREE_NULL(res.dist_f);
        res.reached = 0;
    }
    take_sssp(&res, rc ? 0 : csr->n, &full);
    pf_analytics_take_times(&res.t, prepare_s, t0, &full.times);
    if (solution_size < offsetof(pf_sssp_solution, dist_f) + sizeof full.dist_f)
        free(full.dist_f);
    if (solution_size < offsetof(pf_sssp_solution, cycle) + sizeof full.cycle)
        free(full.cycle);
    pf_sized_copy(sol, solution_size, &full, sizeof full, 0);
    return rc;
}

int pf_sssp_sized(const pf_wgraph *g, int64_t source, const pf_analytics_options *opt,
                  pf_sssp_solution *sol, size_t solution_size, pf_status *st)
{
    double t0 = pf_now(), prepare_s;
    pf_graph_options eopt;
    pf_csr *csr = begin_with_source(g, source, opt, &eopt, t0, &prepare_s, st);
    if (!csr) {
        pf_sssp_solution none = {0};
        pf_sized_copy(sol, solution_size, &none, sizeof none, 0);
        return st->code;
    }
    int rc = sssp_on_csr(csr, source, &eopt, prepare_s, t0, sol, solution_size, st);
    pf_csr_free(csr);
    return rc;
}

int pf_sssp_many_sized(const pf_wgraph *g, const int64_t *sources, int64_t count,
                       const pf_analytics_options *opt, pf_sssp_solution *sols,
                       size_t solution_size, pf_status *st)
{
    double t0 = pf_now(), prepare_s;
    char *out = (char *)sols;
    if (count < 0 || (count > 0 && (!sources || !sols)))
        return pf_fail(st, PF_E_USAGE, "%lld sources with %s", (long long)count,
                       count < 0 ? "a negative count" : "a missing array");
    pf_sssp_solution none = {0};
    for (int64_t i = 0; i < count; i++)
        pf_sized_copy(out + (size_t)i * solution_size, solution_size, &none, sizeof none,
                      0);
    for (int64_t i = 1; g && i < count; i++) /* all checked before any search */
        if (sources[i] < 0 || sources[i] >= g->n)
            return pf_fail(st, PF_E_USAGE, "sources[%lld]: source %lld is outside 0..%lld",
                           (long long)i, (long long)sources[i], (long long)g->n - 1);
    pf_graph_options eopt;
    pf_csr *csr = count ? begin_with_source(g, sources[0], opt, &eopt, t0, &prepare_s, st)
                        : prepare(g, opt, &eopt, st);
    int rc = csr ? PF_OK : st->code;
    for (int64_t i = 0; !rc && i < count; i++) {
        rc = sssp_on_csr(csr, sources[i], &eopt, i ? 0 : prepare_s, i ? pf_now() : t0,
                         (pf_sssp_solution *)(out + (size_t)i * solution_size), solution_size,
                         st);
        if (rc) { /* the earlier answers freed; this one keeps its cycle */
            for (int64_t k = 0; k < i; k++)
                pf_sssp_solution_free((pf_sssp_solution *)(out + (size_t)k * solution_size));
            pf_status keep = *st;
            pf_fail(st, keep.code, "source %lld: %s", (long long)sources[i], keep.message);
        }
    }
    pf_csr_free(csr);
    return rc;
}

int pf_triangles_sized(const pf_wgraph *g, const pf_analytics_options *opt,
                       pf_triangle_solution *sol, size_t solution_size, pf_status *st)
{
    double t0 = pf_now();
    pf_triangle_solution full = {0};
    pf_graph_options eopt;
    pf_csr *csr = prepare(g, opt, &eopt, st);
    double prepare_s = pf_now() - t0;
    pf_tc_result res = {0};
    int rc = csr ? pf_graph_tc(csr, &eopt, &res, st) : st->code;
    pf_csr_free(csr);
    if (!rc) {
        full.triangles = res.triangles;
        full.edges = res.edges;
        memcpy(full.backend, res.backend, sizeof full.backend);
        pf_analytics_take_times(&res.t, prepare_s, t0, &full.times);
    }
    pf_sized_copy(sol, solution_size, &full, sizeof full, 0);
    return rc;
}

void pf_bfs_solution_free(pf_bfs_solution *sol)
{
    if (!sol)
        return;
    PF_FREE_NULL(sol->dist);
    PF_FREE_NULL(sol->parent);
}

void pf_sssp_solution_free(pf_sssp_solution *sol)
{
    if (!sol)
        return;
    PF_FREE_NULL(sol->dist_i);
    PF_FREE_NULL(sol->dist_f);
    PF_FREE_NULL(sol->cycle);
    sol->cycle_len = 0;
}
