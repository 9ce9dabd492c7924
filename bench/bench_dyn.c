/* bench_dyn: the dynamic residual graph (src/common/dyn_graph.h) measured
 * on generated instances (bench/NOTES.md, "dynamic graph"):
 *   slack   the sequential engine on the slotted view against the plain
 *           CSR, for several slack settings;
 *   pages   bytes a batch of 0.1% and 1% of the arcs (mixed cap/add/del)
 *           leaves dirty, for pages of 2^8 .. 2^16 slots, against the
 *           whole arrays;
 *   apply   pf_dyn_apply's throughput (arc updates per second) on those
 *           batches, next to rebuilding the residual graph from its
 *           network and to building the dynamic graph.
 * Usage: bench_dyn PART INSTANCE... with PART slack|pages|apply|all and
 * INSTANCE rmf:A:B, rlg:R:C or grid:W:H (the generators of `portaflow gen`
 * with its default capacities, seed 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dyn_graph.h"
#include "common/gen.h"
#include "common/network.h"
#include "common/residual.h"
#include "common/timer.h"
#include "device/seq/seq_engine.h"
#include "bench_instance.h"

static void die(const char *what, const pf_status *st)
{
    fprintf(stderr, "bench_dyn: %s: %s\n", what, st ? st->message : "failed");
    exit(1);
}

static pf_network *make_instance(const char *spec)
{
    return pf_bench_instance("bench_dyn", spec);
}

/* The engine's work on the last solve: pushes and global relabels (the
 * same on any machine, unlike the seconds). */
static int64_t last_pushes, last_relabels;

/* pf_seq_solve on g: seconds, value. */
static double seq_seconds(const pf_residual *g, int64_t *value)
{
    pf_status st;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    out.res = malloc((size_t)g->arcs * sizeof *out.res + 8);
    double t0 = pf_now();
    if (pf_seq_solve(g, &opt, &out, &st))
        die("pf_seq_solve", &st);
    double t = pf_now() - t0;
    free(out.res);
    *value = out.value;
    last_pushes = out.rounds;
    last_relabels = out.global_relabels;
    return t;
}

static double best_seq_seconds(const pf_residual *g, int reps, int64_t *value)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = seq_seconds(g, value);
        best = t < best ? t : best;
    }
    return best;
}

static void mixed_batch(const pf_dyn_graph *d, int64_t k, pf_rng *rng, pf_dyn_change *c);

/* Batches of 1% of the arcs (mixed) until one recompacts, at most `most`:
 * how many went in place. */
static int batches_in_place(pf_dyn_graph *d, int most)
{
    pf_rng rng;
    pf_rng_seed(&rng, 5);
    int64_t k = d->live_arcs / 100;
    pf_dyn_change *c = malloc((size_t)k * sizeof *c + sizeof *c);
    int b = 0;
    for (; b < most; b++) {
        mixed_batch(d, k, &rng, c);
        pf_status st;
        pf_dyn_batch_out out;
        if (pf_dyn_apply(d, c, k, &out, &st))
            die("pf_dyn_apply", &st);
        if (out.recompacted)
            break;
    }
    free(c);
    return b;
}

typedef struct slack_setting {
    double slack;
    int32_t slack_min;
} slack_setting;

static const slack_setting settings[] = {
    {.slack = 0.0625, .slack_min = 2}, {.slack = 0.125, .slack_min = 2},
    {.slack = 0.25, .slack_min = 2},   {.slack = 0.125, .slack_min = 1},
    {.slack = 0.125, .slack_min = 4},
};

static void part_slack(const char *name, const pf_network *net, int reps)
{
    pf_status st;
    pf_residual g;
    if (pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 0, &st))
        die("pf_residual_build", &st);
    int64_t value;
    double csr = best_seq_seconds(&g, reps, &value);
    printf("slack %s: n %lld arcs %lld value %lld csr %.3f s, %lld pushes, %lld global "
           "relabels\n", name, (long long)g.n, (long long)g.arcs, (long long)value, csr,
           (long long)last_pushes, (long long)last_relabels);
    for (size_t k = 0; k < sizeof settings / sizeof *settings; k++) {
        pf_dyn_params p;
        pf_dyn_params_default(&p);
        p.slack = settings[k].slack;
        p.slack_min = settings[k].slack_min;
        pf_dyn_graph d;
        if (pf_dyn_build(&g, NULL, NULL, &p, &d, &st))
            die("pf_dyn_build", &st);
        int64_t v2;
        double t = best_seq_seconds(&d.view, reps, &v2);
        if (v2 != value)
            die("slotted value differs", NULL);
        printf("slack %s: slack %.4f min %d slots/arcs %.3f dyn %.3f s ratio %.3f, %lld pushes, "
               "%lld global relabels\n", name, p.slack, (int)p.slack_min,
               (double)d.view.arcs / (double)g.arcs, t, t / csr, (long long)last_pushes,
               (long long)last_relabels);
        printf("slack %s: slack %.4f min %d: %d batches of 1%% in place before a recompaction "
               "(of at most 8)\n", name, p.slack, (int)p.slack_min, batches_in_place(&d, 8));
        pf_dyn_free(&d);
    }
    pf_residual_free(&g);
}

/* The sequential engine from d's preflow to a maximum preflow, kept. */
static double warm_solve(pf_dyn_graph *d)
{
    pf_status st;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    double t0 = pf_now();
    /* Opening fills res with the capacities: d's preflow goes back after. */
    size_t bytes = (size_t)d->view.arcs * sizeof *d->res;
    int64_t *saved = malloc(bytes + 8);
    memcpy(saved, d->res, bytes);
    pf_seq_run *run = NULL;
    if (pf_seq_run_open(&d->view, d->res, &opt, &run, &st))
        die("pf_seq_run_open", &st);
    memcpy(d->res, saved, bytes);
    free(saved);
    pf_seq_run_load(run, d->excess);
    for (;;) {
        pf_seq_stretch sh;
        if (pf_seq_run_stretch(run, 0, &sh, &st))
            die("pf_seq_run_stretch", &st);
        if (sh.active == 0)
            break;
    }
    pf_seq_run_excess(run, d->excess);
    pf_seq_run_free(run);
    pf_dyn_take_preflow(d);
    return pf_now() - t0;
}

/* A dynamic graph of net with page_log2 `pages`, solved to a maximum
 * preflow (the state a session keeps between batches). */
static void solved_graph(const pf_network *net, int page_log2, pf_dyn_graph *d)
{
    pf_status st;
    pf_residual g;
    if (pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 0, &st))
        die("pf_residual_build", &st);
    pf_dyn_params p;
    pf_dyn_params_default(&p);
    p.page_log2 = page_log2;
    if (pf_dyn_build(&g, NULL, NULL, &p, d, &st))
        die("pf_dyn_build", &st);
    pf_residual_free(&g);
    warm_solve(d);
}

/* k mixed changes (a third each of cap, del, add) drawn from rng. */
static void mixed_batch(const pf_dyn_graph *d, int64_t k, pf_rng *rng, pf_dyn_change *c)
{
    int64_t n = d->view.n;
    uint8_t *taken = calloc((size_t)d->ids + 1, 1);
    for (int64_t j = 0; j < k; j++) {
        int64_t kind = j % 3, id = -1;
        for (int tries = 0; kind != 2 && tries < 100 && id < 0; tries++) {
            int64_t x = pf_rng_range(rng, 0, d->ids - 1);
            if (!d->deleted[x] && !taken[x])
                id = x;
        }
        if (kind != 2 && id < 0)
            kind = 2;
        if (kind == 0) {
            int64_t now = d->cap_of[id];
            c[j] = (pf_dyn_change){.kind = PF_DYN_CAP, .id = id,
                                   .cap = pf_rng_range(rng, 0, 2 * now + 1)};
        } else if (kind == 1) {
            taken[id] = 1;
            c[j] = (pf_dyn_change){.kind = PF_DYN_DEL, .id = id};
        } else {
            c[j] = (pf_dyn_change){.kind = PF_DYN_ADD, .tail = pf_rng_range(rng, 0, n - 1),
                                   .head = pf_rng_range(rng, 0, n - 1),
                                   .cap = pf_rng_range(rng, 1, 10000)};
        }
    }
    free(taken);
}

static const double fractions[] = {0.001, 0.01};
enum { BATCHES = 4, FINE_LOG2 = 8, COARSE_LOG2 = 16 };

/* Dirty pages of 2^p slots from the finest marks, and the runs of
 * consecutive dirty pages (one copy each). */
static int64_t dirty_at(const uint8_t *fine, int64_t fine_pages, int p, int64_t *runs)
{
    int64_t group = (int64_t)1 << (p - FINE_LOG2), count = 0;
    int last = 0;
    *runs = 0;
    for (int64_t g = 0; g < fine_pages; g += group) {
        int any = 0;
        for (int64_t k = g; k < g + group && k < fine_pages; k++)
            any |= fine[k];
        count += any;
        *runs += any && !last;
        last = any;
    }
    return count;
}

/* A transfer model for a PCIe device (H100 class): a fixed cost per copy
 * and a bandwidth; the whole arrays are one copy each. */
#define COPY_SECONDS 5e-6
#define COPY_BYTES_PER_SECOND 25e9

static void part_pages(const char *name, const pf_network *net)
{
    pf_dyn_graph d;
    solved_graph(net, FINE_LOG2, &d);
    pf_rng rng;
    pf_rng_seed(&rng, 7);
    const double slot_bytes = 4 + 8 + 8 + 8, vertex_bytes = 8 + 8;
    for (size_t f = 0; f < sizeof fractions / sizeof *fractions; f++) {
        int64_t k = (int64_t)(fractions[f] * (double)d.live_arcs);
        pf_dyn_change *c = malloc((size_t)k * sizeof *c);
        double sums[COARSE_LOG2 + 1][4] = {{0}};
        int64_t recompacted = 0;
        for (int b = 0; b < BATCHES; b++) {
            mixed_batch(&d, k, &rng, c);
            pf_dyn_clean(&d);
            pf_status st;
            pf_dyn_batch_out out;
            if (pf_dyn_apply(&d, c, k, &out, &st))
                die("pf_dyn_apply", &st);
            recompacted += out.recompacted;
            for (int p = FINE_LOG2; p <= COARSE_LOG2; p++) {
                int64_t runs, vruns;
                sums[p][0] += (double)dirty_at(d.dirty, d.pages, p, &runs);
                sums[p][1] += (double)dirty_at(d.vertex_dirty, d.vertex_pages, p, &vruns);
                sums[p][2] += (double)runs;
                sums[p][3] += (double)vruns;
            }
            warm_solve(&d);
        }
        double whole = slot_bytes * (double)d.view.arcs + vertex_bytes * (double)d.view.n;
        printf("pages %s: fraction %.3f (%lld changes, %lld recompactions) whole %.1f MB, "
               "modelled copy %.2f ms\n",
               name, fractions[f], (long long)k, (long long)recompacted, whole / 1e6,
               1e3 * (6 * COPY_SECONDS + whole / COPY_BYTES_PER_SECOND));
        for (int p = FINE_LOG2; p <= COARSE_LOG2; p++) {
            double pages = sums[p][0] / BATCHES, vpages = sums[p][1] / BATCHES;
            double bytes = pages * (double)((int64_t)1 << p) * slot_bytes +
                           vpages * (double)((int64_t)1 << p) * vertex_bytes;
            double runs = sums[p][2] / BATCHES, vruns = sums[p][3] / BATCHES;
            double model = (4 * runs + 2 * vruns) * COPY_SECONDS + bytes / COPY_BYTES_PER_SECOND;
            printf("pages %s: fraction %.3f log2 %2d slot pages %9.1f (%8.1f runs) vertex pages "
                   "%8.1f bytes %.2f MB (%.1f%% of whole) modelled copy %.2f ms\n",
                   name, fractions[f], p, pages, runs, vpages, bytes / 1e6, 100 * bytes / whole,
                   1e3 * model);
        }
        free(c);
    }
    pf_dyn_free(&d);
}

static int compare_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static void part_apply(const char *name, const pf_network *net)
{
    pf_status st;
    double rebuild[3], dynbuild[3];
    for (int r = 0; r < 3; r++) {
        pf_residual g;
        double t0 = pf_now();
        if (pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 0, &st))
            die("pf_residual_build", &st);
        rebuild[r] = pf_now() - t0;
        pf_dyn_graph d;
        t0 = pf_now();
        if (pf_dyn_build(&g, NULL, NULL, NULL, &d, &st))
            die("pf_dyn_build", &st);
        dynbuild[r] = pf_now() - t0;
        pf_dyn_free(&d);
        pf_residual_free(&g);
    }
    qsort(rebuild, 3, sizeof *rebuild, compare_double);
    qsort(dynbuild, 3, sizeof *dynbuild, compare_double);
    printf("apply %s: m %lld residual build %.4f s, dyn build %.4f s (medians of 3)\n", name,
           (long long)net->m, rebuild[1], dynbuild[1]);
    pf_dyn_graph d;
    solved_graph(net, 0, &d);
    pf_rng rng;
    pf_rng_seed(&rng, 11);
    for (size_t f = 0; f < sizeof fractions / sizeof *fractions; f++) {
        int64_t k = (int64_t)(fractions[f] * (double)d.live_arcs);
        pf_dyn_change *c = malloc((size_t)k * sizeof *c);
        double t[BATCHES];
        int64_t cut = 0, rerouted = 0, deficits = 0, steps = 0, recompacted = 0, resets = 0;
        for (int b = 0; b < BATCHES; b++) {
            mixed_batch(&d, k, &rng, c);
            pf_dyn_batch_out out;
            double t0 = pf_now();
            if (pf_dyn_apply(&d, c, k, &out, &st))
                die("pf_dyn_apply", &st);
            t[b] = pf_now() - t0;
            cut += out.flow_cut;
            rerouted += out.rerouted;
            resets += out.reset;
            deficits += out.deficits;
            steps += out.repair_steps;
            recompacted += out.recompacted;
            warm_solve(&d);
        }
        qsort(t, BATCHES, sizeof *t, compare_double);
        double med = (t[BATCHES / 2 - 1] + t[BATCHES / 2]) / 2;
        printf("apply %s: fraction %.3f %lld changes: median %.5f s (min %.5f max %.5f), "
               "%.3g updates/s, rebuild/apply %.1fx; per batch %.0f deficits, %.0f repair "
               "steps, %.0f%% of the cut flow rerouted; %lld recompactions, %lld resets in %d\n",
               name, fractions[f], (long long)k, med, t[0], t[BATCHES - 1], (double)k / med,
               rebuild[1] / med, (double)deficits / BATCHES, (double)steps / BATCHES,
               cut ? 100.0 * (double)rerouted / (double)cut : 0.0, (long long)recompacted,
               (long long)resets, BATCHES);
        free(c);
    }
    pf_dyn_free(&d);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_dyn slack|pages|apply|all INSTANCE...\n"
                        "  INSTANCE: rmf:A:B, rlg:R:C, grid:W:H\n");
        return 2;
    }
    const char *part = argv[1];
    int all = !strcmp(part, "all");
    for (int i = 2; i < argc; i++) {
        pf_network *net = make_instance(argv[i]);
        if (all || !strcmp(part, "slack"))
            part_slack(argv[i], net, 2);
        if (all || !strcmp(part, "pages"))
            part_pages(argv[i], net);
        if (all || !strcmp(part, "apply"))
            part_apply(argv[i], net);
        fflush(stdout);
        pf_network_free(net);
    }
    return 0;
}
