/* pf_apsp: all-pairs shortest paths by blocked Floyd-Warshall.
 *
 * The host picks the distance type from what the weights can reach, rules
 * out negative cycles (Bellman-Ford, only when some weight is negative),
 * builds the matrix padded to a multiple of the device's tile, and runs the
 * backend's three phases per round; the matrix stays on the device from
 * upload to download. */
#include "apsp.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/apsp_check.h"
#include "../common/memavail.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "dev_check.h"
#include "registry.h"

/* The caller's options as this library's struct: fields it did not know
 * of keep their defaults; NULL options are the defaults. */
static void read_apsp_options(const pf_apsp_options *in, size_t size, pf_apsp_options *opt)
{
    pf_apsp_options_init_sized(opt, sizeof *opt);
    if (in)
        memcpy(opt, in, size < sizeof *opt ? size : sizeof *opt);
}

void pf_apsp_result_free(pf_apsp_result *res)
{
    free(res->dist);
    free(res->next);
    free(res->cycle);
    res->dist = NULL;
    res->next = NULL;
    res->cycle = NULL;
}

static const char *kind_name(int kind)
{
    return kind == PF_DIST_I32 ? "int32" : kind == PF_DIST_I64 ? "int64" : "float32";
}

/* The narrowest exact kind, or the forced one if it is safe. A shortest
 * path has at most n-1 arcs, so |distance| <= (n-1) * max|w| = bound; the
 * device arithmetic needs bound < INF/2 (see device.h).
 *
 * Next hops: blocked Floyd-Warshall reads d(k,j) values that already went
 * through later k of the same tile, so on a zero-weight cycle its next hops
 * can loop (i -> k -> i ...). Weighing each arc w * n + 1 breaks every tie
 * toward fewer arcs and leaves no cycle of weight zero; the quotient by n
 * is the distance. *hop_scale = n when that fits, 0 when not (reals, or
 * int64 too narrow): then pf_apsp checks the hops afterwards. */
static int choose_kind(const pf_wgraph *g, int forced, int paths, int *kind,
                       int64_t *hop_scale, pf_status *st)
{
    *hop_scale = 0;
    if (g->real_weight) {
        if (forced == PF_DIST_I32 || forced == PF_DIST_I64)
            return pf_fail(st, PF_E_USAGE, "the weights are not integers: %s cannot hold them",
                           kind_name(forced));
        *kind = PF_DIST_F32;
        return PF_OK;
    }
    int64_t max_abs = 0;
    for (int64_t a = 0; a < g->m; a++) {
        int64_t w = g->int_weight[a];
        if (g->tail[a] == g->head[a] && w >= 0)
            continue; /* never on a shortest path */
        int64_t mag = w < 0 ? -w : w;
        max_abs = mag > max_abs ? mag : max_abs;
    }
    __int128 bound = (__int128)(g->n - 1) * max_abs;
    if (forced == PF_DIST_F32) {
        *kind = forced;
        return PF_OK;
    }
    if (bound >= PF_FW_INF_I64 / 2)
        return pf_fail(st, PF_E_INPUT,
                       "weights too large: a path of %lld arcs of weight %lld could exceed 2^61",
                       (long long)(g->n - 1), (long long)max_abs);
    __int128 scaled = (__int128)(g->n - 1) * ((__int128)max_abs * g->n + 1);
    if (paths && g->n > 1 && scaled < PF_FW_INF_I64 / 2) {
        *hop_scale = g->n;
        bound = scaled;
    }
    int fits_i32 = bound < PF_FW_INF_I32 / 2;
    if (forced == PF_DIST_I32 && !fits_i32)
        return pf_fail(st, PF_E_USAGE,
                       "int32 cannot hold these distances: a path of %lld arcs of weight %lld "
                       "could reach %.3g%s (int32 distances must stay below 2^29)",
                       (long long)(g->n - 1), (long long)max_abs, (double)bound,
                       *hop_scale ? " with next hops (arcs weigh w*n+1 to break ties)" : "");
    *kind = forced == PF_DIST_AUTO ? (fits_i32 ? PF_DIST_I32 : PF_DIST_I64) : forced;
    return PF_OK;
}

static int has_negative_weight(const pf_wgraph *g)
{
    for (int64_t a = 0; a < g->m; a++)
        if (g->real_weight ? g->real_weight[a] < 0 : g->int_weight[a] < 0)
            return 1;
    return 0;
}

/* About how many host bytes the solve takes at its peak: the distance
 * matrix (padded to a tile, at most 128) and the next hops, or the
 * negative-cycle search where that is more. Checked before either is
 * allocated, so that a vertex count the machine cannot hold is refused
 * the same way on every backend. */
static uint64_t apsp_bytes(const pf_wgraph *g, int kind, int paths)
{
    uint64_t side = (uint64_t)g->n + 127;
    uint64_t cell_bytes = pf_apsp_kind_bytes(kind) + (paths ? sizeof(int32_t) : 0);
    uint64_t matrix = pf_mem_bytes(pf_mem_bytes(side, side, 0), cell_bytes, 0);
    uint64_t cycle_search = pf_mem_bytes((uint64_t)g->n + 1, 8 + 4 + 8 + 4 + 1 + 8,
                                         pf_mem_bytes((uint64_t)g->m, 12, 0));
    return matrix > cycle_search ? matrix : cycle_search;
}

/* The padded matrices, host side. */
typedef struct apsp_job {
    const pf_wgraph *g;
    int kind, paths;
    int variant, simd_width; /* pf_apsp_options' */
    int64_t hop_scale; /* see choose_kind */
    int64_t n_pad;
    void *dist;
    int32_t *next;
} apsp_job;

static int job_alloc(apsp_job *job, int64_t n_pad, pf_status *st)
{
    job->n_pad = n_pad;
    size_t cells = (size_t)n_pad * (size_t)n_pad;
    job->dist = pf_alloc(cells, pf_apsp_kind_bytes(job->kind), st);
    job->next = job->paths ? pf_alloc(cells, sizeof *job->next, st) : NULL;
    if (!job->dist || (job->paths && !job->next))
        return PF_E_NOMEM;
    pf_apsp_fill(job->g, job->kind, n_pad, job->dist, job->next, job->hop_scale);
    return PF_OK;
}

static void job_free(apsp_job *job)
{
    free(job->dist);
    free(job->next);
    job->dist = NULL;
    job->next = NULL;
}

/* The job's matrix at order n_pad: a prefill (pf_apsp_with) of that order
 * is kept. */
static int job_ready(apsp_job *job, int64_t n_pad, pf_status *st)
{
    if (job->dist && job->n_pad == n_pad)
        return PF_OK;
    job_free(job);
    return job_alloc(job, n_pad, st);
}

/* What run_device is given beyond the job: a device already opened (by
 * pf_apsp_open_early) or NULL, and where the rows go as they download. */
typedef struct device_run {
    pf_dev *opened;
    pf_device_desc opened_desc;
    const pf_apsp_sink *sink;
    int sink_used; /* out: the sink has had rows (no retry elsewhere then) */
    int streamed;  /* out: every row went to the sink during the download */
    int stats_only; /* out: the device's statistics went to the sink, no rows */
    const pf_logger *log;
} device_run;

/* Distances (and next hops) back from the device: by blocks of rows into
 * the sink while they arrive, where the rows need nothing after (no next
 * hops to check), else whole. */
static int download_result(const pf_device_ops *ops, pf_dev *dev, const pf_dev_apsp *a,
                           apsp_job *job, device_run *run, pf_apsp_result *res, pf_status *st)
{
    size_t cells = (size_t)a->n * (size_t)a->n;
    if (run->sink && run->sink->stats && !job->paths && ops->fw_stats &&
        job->kind != PF_DIST_F32) {
        pf_fw_stats sums;
        int rc = ops->fw_stats(dev, a, (int32_t)job->g->n, &sums, st);
        if (rc)
            return rc;
        res->n = job->g->n;
        res->kind = job->kind;
        res->dist = NULL;
        run->sink_used = 1;
        rc = run->sink->stats(run->sink->ctx, res, &sums, st);
        run->stats_only = rc == PF_OK;
        return rc;
    }
    /* A one-thread engine stays one thread: no helper thread for the rows. */
    if (run->sink && !job->paths && !ops->caps.one_thread) {
        res->n = job->g->n;
        res->kind = job->kind;
        run->sink_used = 1;
        int rc = pf_apsp_stream_download(ops, dev, a->dist, job->dist, job->g->n, a->n,
                                         job->hop_scale, run->sink, res, &res->times.download,
                                         st);
        res->dist = NULL; /* the job's until pf_apsp_with hands it over */
        run->streamed = rc == PF_OK;
        return rc;
    }
    int rc = ops->download(dev, a->dist, 0, job->dist, cells * pf_apsp_kind_bytes(job->kind), st);
    if (!rc && job->paths)
        rc = ops->download(dev, a->next, 0, job->next, cells * 4, st);
    return rc;
}

static int run_device(const pf_device_ops *ops, const pf_apsp_options *opt, apsp_job *job,
                      device_run *run, pf_apsp_result *res, pf_status *st)
{
    double t0 = pf_now();
    pf_open_params params = {.device_index = opt->device_index, .threads = opt->threads};
    pf_device_desc desc = run->opened_desc;
    pf_dev *dev = run->opened;
    run->opened = NULL; /* ours now, closed below */
    ops = pf_dev_check_ops(ops); /* every step's arguments checked, where that is on */
    int rc = dev ? pf_dev_check_adopt(ops, &dev, st) : ops->open(&params, &dev, &desc, st);
    if (rc)
        return rc;
    snprintf(res->device, sizeof res->device, "%s", desc.name);
    /* The unblocked variants pad to fw_step's quantum and have no tile. */
    int variant = pf_apsp_variant_for(ops, job->variant);
    int blocked = variant == PF_FW_BLOCKED;
    int32_t tile = !blocked         ? PF_APSP_STEP_QUANTUM
                   : opt->tile > 0 ? opt->tile
                                   : ops->fw_tile(dev, job->kind, job->paths);
    pf_apsp_variant_label(ops, dev, job->kind, variant, job->simd_width, run->log, res->variant,
                          sizeof res->variant);
    pf_dev_apsp a = {.tile = tile, .kind = job->kind, .simd_width = job->simd_width};
    int64_t n_pad = (job->g->n + tile - 1) / tile * tile;
    if (n_pad > INT32_MAX) {
        rc = pf_fail(st, PF_E_INPUT, "%lld vertices are too many for a dense matrix",
                     (long long)job->g->n);
        goto done;
    }
    a.n = (int32_t)n_pad;
    res->tile = blocked ? tile : 0;
    rc = job_ready(job, n_pad, st);
    if (rc)
        goto done;
    size_t cells = (size_t)n_pad * (size_t)n_pad;
    size_t dist_bytes = cells * pf_apsp_kind_bytes(job->kind), next_bytes = cells * 4;
    rc = ops->alloc(dev, dist_bytes, &a.dist, st);
    if (!rc && job->paths)
        rc = ops->alloc(dev, next_bytes, &a.next, st);
    if (rc)
        goto done;
    res->device_bytes = dist_bytes + (job->paths ? next_bytes : 0);
    double t1 = pf_now();
    rc = ops->upload(dev, a.dist, 0, job->dist, dist_bytes, st);
    if (!rc && job->paths)
        rc = ops->upload(dev, a.next, 0, job->next, next_bytes, st);
    if (!rc)
        rc = ops->sync(dev, st);
    double t2 = pf_now();
    if (!blocked && !rc)
        rc = pf_apsp_run_steps(ops, dev, &a, job->g->n, variant, st);
    for (int32_t r = 0; blocked && !rc && r < a.n / tile; r++)
        for (int32_t phase = 1; !rc && phase <= 3; phase++)
            rc = ops->fw_phase(dev, &a, r, phase, st);
    if (!rc)
        rc = ops->sync(dev, st);
    double t3 = pf_now();
    res->times.download = 0;
    if (!rc)
        rc = download_result(ops, dev, &a, job, run, res, st);
    res->times.setup += t1 - t0;
    res->times.upload = t2 - t1;
    res->times.compute = t3 - t2;
    if (!run->streamed)
        res->times.download = pf_now() - t3;
done:
    if (a.dist)
        ops->release(dev, a.dist);
    if (a.next)
        ops->release(dev, a.next);
    ops->close(dev);
    return rc;
}

/* A one-thread engine without kernels of its own for the variant: a
 * parallel host-CPU backend's kernels on one thread
 * (pf_apsp_kernels_for), named as the engine's own device. */
static int run_borrowed(const pf_device_ops *ops, const pf_device_ops *kernels,
                        const pf_apsp_options *opt, apsp_job *job, device_run *run,
                        pf_apsp_result *res, pf_status *st)
{
    pf_apsp_options one = *opt;
    one.threads = 1;
    one.device_index = -1;
    int rc = run_device(kernels, &one, job, run, res, st);
    pf_device_desc desc;
    char why[256];
    if (pf_backend_probe(ops, &desc, 1, why, sizeof why) > 0)
        snprintf(res->device, sizeof res->device, "%s", desc.name);
    return rc;
}

/* The device the early open (if any) made for ops, moved into run; an
 * early open that failed is that backend's failure. */
static int take_early(pf_apsp_early *early, const pf_device_ops *ops, device_run *run,
                      pf_status *st)
{
    return early ? pf_early_take(&early->open, ops, &run->opened, &run->opened_desc, st) : PF_OK;
}

/* What each attempt of the selection loop needs. */
typedef struct apsp_attempt {
    const pf_apsp_options *opt;
    pf_apsp_early *early;
    const pf_apsp_sink *sink;
    apsp_job *job;
    device_run *run;
    pf_apsp_result *res;
    pf_backend_walk *walk;
    const pf_logger *log;
    int attempts;
} apsp_attempt;

static int attempt_apsp(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    apsp_attempt *a = ctx;
    device_run fresh = {.sink = a->sink, .log = a->log};
    *a->run = fresh;
    if (a->attempts++ > 0)
        job_free(a->job);
    snprintf(a->res->backend, sizeof a->res->backend, "%s", ops->name);
    /* PORTAFLOW_BACKEND may name a backend that does not run the variant. */
    int rc = take_early(a->early, ops, a->run, st);
    if (!rc)
        rc = pf_apsp_variant_check(ops->name, a->opt, st);
    const pf_device_ops *kernels = pf_apsp_kernels_for(ops, a->opt->variant);
    if (!rc)
        rc = kernels == ops ? run_device(ops, a->opt, a->job, a->run, a->res, st)
                            : run_borrowed(ops, kernels, a->opt, a->job, a->run, a->res, st);
    if (a->run->opened) /* not taken: a usage error came first */
        ops->close(a->run->opened);
    a->walk->final = a->run->sink_used;
    return rc;
}

/* Host matrix filled while the early open runs, at the order a GPU's tile
 * most likely asks for (run_device refills when it asks for another). */
enum { PREFILL_QUANTUM = 128 };

/* The backends in turn (auto: GPUs first, then the parallel CPU backends:
 * Floyd-Warshall is regular work that every core shares evenly, unlike
 * push-relabel; then the one-thread engine), falling back on a device
 * failure until rows have gone to the sink. */
static int run_walk(const pf_apsp_options *opt, pf_apsp_early *early, const pf_apsp_sink *sink,
                    apsp_job *job, device_run *run, pf_apsp_result *res, pf_status *st)
{
    pf_backend_walk own;
    pf_backend_walk *walk = early ? &early->walk : &own;
    if (!early)
        pf_apsp_walk_init(&own, opt);
    const pf_device_ops *first = early ? early->first : pf_backend_walk_next(walk, st);
    if (!first && !walk->is_auto)
        return pf_backend_require(walk->requested, st) ? PF_E_DEVICE : st->code;
    if (!first)
        return pf_fail(st, PF_E_DEVICE, "no backend runs the %s variant",
                       pf_apsp_variant_name(opt->variant));
    pf_logger log = {.fn = opt->log, .data = opt->log_data};
    apsp_attempt attempt = {.opt = opt, .early = early, .sink = sink, .job = job, .run = run,
                            .res = res, .walk = walk, .log = &log};
    return pf_backend_run(walk, first, attempt_apsp, &attempt, &log, st);
}

int pf_apsp_sized(const pf_wgraph *g, const pf_apsp_options *opt, size_t opt_size,
                  pf_apsp_result *res, pf_status *st)
{
    pf_apsp_options options;
    read_apsp_options(opt, opt_size, &options);
    return pf_apsp_with(g, &options, NULL, NULL, res, st);
}

/* Without the header's macro: a caller built for API version 2. */
int(pf_apsp)(const pf_wgraph *g, const pf_apsp_options *opt, pf_apsp_result *res,
             pf_status *st)
{
    return pf_apsp_sized(g, opt, APSP_OPTIONS_V2_SIZE, res, st);
}

int pf_apsp_with(const pf_wgraph *g, const pf_apsp_options *opt, pf_apsp_early *early,
                 const pf_apsp_sink *sink, pf_apsp_result *res, pf_status *st)
{
    memset(res, 0, sizeof *res);
    pf_status_ok(st);
    double t_start = pf_now();
    res->n = g->n;
    apsp_job job = {.g = g,
                    .paths = opt->want_paths,
                    .variant = opt->variant,
                    .simd_width = opt->simd_width};
    int rc = pf_apsp_variant_check(opt->backend, opt, st);
    if (rc)
        return rc;
    rc = choose_kind(g, opt->kind, job.paths, &job.kind, &job.hop_scale, st);
    if (!rc)
        rc = pf_mem_require(apsp_bytes(g, job.kind, job.paths), "all-pairs shortest paths", st);
    if (!rc && has_negative_weight(g))
        rc = pf_apsp_negative_cycle(g, &res->cycle, &res->cycle_len, st);
    if (rc)
        return rc;
    res->kind = job.kind;
    if (early) {
        /* The device opens meanwhile; a GPU tile of 128 (or 64) keeps this. */
        int64_t guess = (g->n + PREFILL_QUANTUM - 1) / PREFILL_QUANTUM * PREFILL_QUANTUM;
        if (job_alloc(&job, guess, st))
            job_free(&job); /* run_device allocates again, and reports */
        pf_early_join(&early->open);
    }
    res->times.setup = pf_now() - t_start;

    device_run run;
    rc = run_walk(opt, early, sink, &job, &run, res, st);
    if (rc) {
        job_free(&job);
        return rc;
    }
    if (run.stats_only) { /* nothing came back but the statistics */
        job_free(&job);
        res->times.total = pf_now() - t_start;
        return PF_OK;
    }
    double t_extract = pf_now();
    if (!run.streamed)
        pf_apsp_extract(g->n, job.n_pad, job.kind, job.dist, job.next, job.hop_scale);
    if (job.next && !job.hop_scale) {
        /* Unscaled weights (reals, or int64 too narrow to scale): next
         * hops may loop on a zero-weight cycle (choose_kind), blocked or
         * plain alike once float32 rounding makes a detour round it look
         * shorter: rebuild them from the distances, along a tree. */
        pf_status loop;
        if (pf_apsp_next_walks_end(g->n, job.next, NULL, g->n, &loop) == PF_E_VERIFY) {
            pf_logger log = {.fn = opt->log, .data = opt->log_data};
            pf_log(&log, PF_LOG_WARNING, "%s; next hops rebuilt from the distances",
                   loop.message);
            rc = pf_apsp_hops_from_dist(g, job.kind, job.dist, job.next, st);
            if (rc) {
                job_free(&job);
                return rc;
            }
        }
    }
    /* Packed in place: give the padding back. */
    size_t cells = (size_t)g->n * (size_t)g->n;
    void *dist = realloc(job.dist, cells * pf_apsp_kind_bytes(job.kind));
    res->dist = dist ? dist : job.dist;
    if (job.next) {
        int32_t *next = realloc(job.next, cells * sizeof *next);
        res->next = next ? next : job.next;
    }
    res->times.download += pf_now() - t_extract;
    res->times.total = pf_now() - t_start;
    /* Not streamed (next hops, seq, or a sink that came too late): all at once. */
    if (sink && !run.streamed)
        return sink->rows(sink->ctx, res, 0, g->n, st);
    return PF_OK;
}
