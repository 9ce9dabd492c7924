/* pf_apsp: all-pairs shortest paths by blocked Floyd-Warshall.
 *
 * The host picks the distance type from what the weights can reach, rules
 * out negative cycles (Bellman-Ford, only when some weight is negative),
 * builds the matrix padded to a multiple of the device's tile, and runs the
 * backend's three phases per round; the matrix stays on the device from
 * upload to download. */
#include "apsp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/apsp_check.h"
#include "../common/memavail.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "registry.h"

void pf_apsp_options_init(pf_apsp_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->device_index = -1;
    opt->kind = PF_DIST_AUTO;
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

static int run_seq(apsp_job *job, pf_apsp_result *res, pf_status *st)
{
    double t0 = pf_now();
    int rc = job_alloc(job, job->g->n, st);
    if (rc)
        return rc;
    double t1 = pf_now();
    pf_apsp_seq_fw(job->n_pad, job->kind, job->dist, job->next);
    res->times.setup += t1 - t0;
    res->times.compute = pf_now() - t1;
    res->tile = 0;
    snprintf(res->device, sizeof res->device, "host CPU, 1 thread");
    return PF_OK;
}

static int run_device(const pf_device_ops *ops, const pf_apsp_options *opt, apsp_job *job,
                      pf_apsp_result *res, pf_status *st)
{
    if (!ops->fw_tile || !ops->fw_phase)
        return pf_fail(st, PF_E_DEVICE, "backend %s has no Floyd-Warshall steps", ops->name);
    double t0 = pf_now();
    pf_open_params params = {.device_index = opt->device_index, .threads = opt->threads};
    pf_device_desc desc;
    pf_dev *dev = NULL;
    int rc = ops->open(&params, &dev, &desc, st);
    if (rc)
        return rc;
    snprintf(res->device, sizeof res->device, "%s", desc.name);
    int32_t tile = opt->tile > 0 ? opt->tile : ops->fw_tile(dev, job->kind, job->paths);
    pf_dev_apsp a = {.tile = tile, .kind = job->kind};
    int64_t n_pad = (job->g->n + tile - 1) / tile * tile;
    if (n_pad > INT32_MAX) {
        rc = pf_fail(st, PF_E_INPUT, "%lld vertices are too many for a dense matrix",
                     (long long)job->g->n);
        goto done;
    }
    a.n = (int32_t)n_pad;
    res->tile = tile;
    rc = job_alloc(job, n_pad, st);
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
    for (int32_t r = 0; !rc && r < a.n / tile; r++)
        for (int32_t phase = 1; !rc && phase <= 3; phase++)
            rc = ops->fw_phase(dev, &a, r, phase, st);
    if (!rc)
        rc = ops->sync(dev, st);
    double t3 = pf_now();
    if (!rc)
        rc = ops->download(dev, a.dist, 0, job->dist, dist_bytes, st);
    if (!rc && job->paths)
        rc = ops->download(dev, a.next, 0, job->next, next_bytes, st);
    res->times.setup += t1 - t0;
    res->times.upload = t2 - t1;
    res->times.compute = t3 - t2;
    res->times.download = pf_now() - t3;
done:
    if (a.dist)
        ops->release(dev, a.dist);
    if (a.next)
        ops->release(dev, a.next);
    ops->close(dev);
    return rc;
}

static int run_engine(const char *name, const pf_apsp_options *opt, apsp_job *job,
                      pf_apsp_result *res, pf_status *st)
{
    snprintf(res->backend, sizeof res->backend, "%s", name);
    if (strcmp(name, "seq") == 0)
        return run_seq(job, res, st);
    const pf_device_ops *ops = pf_backend_require(name, st);
    if (!ops)
        return PF_E_DEVICE;
    return run_device(ops, opt, job, res, st);
}

/* `auto` for APSP: GPUs first, then OpenMP (Floyd-Warshall is regular
 * work that every core shares evenly, unlike push-relabel), then seq. */
static int auto_order(const char **names, int max)
{
    char why[1024];
    const char *gpu_first[8];
    int found = pf_backend_auto_order(gpu_first, 8, why, sizeof why), count = 0;
    for (int i = 0; i < found && count < max - 2; i++)
        if (strcmp(gpu_first[i], "seq") != 0)
            names[count++] = gpu_first[i];
    if (pf_backend_find("omp"))
        names[count++] = "omp";
    names[count++] = "seq";
    return count;
}

int pf_apsp(const pf_wgraph *g, const pf_apsp_options *opt, pf_apsp_result *res,
            pf_status *st)
{
    memset(res, 0, sizeof *res);
    pf_status_ok(st);
    double t_start = pf_now();
    res->n = g->n;
    apsp_job job = {.g = g, .paths = opt->want_paths};
    int rc = choose_kind(g, opt->kind, job.paths, &job.kind, &job.hop_scale, st);
    if (!rc)
        rc = pf_mem_require(apsp_bytes(g, job.kind, job.paths), "all-pairs shortest paths", st);
    if (!rc && has_negative_weight(g))
        rc = pf_apsp_negative_cycle(g, &res->cycle, &res->cycle_len, st);
    if (rc)
        return rc;
    res->kind = job.kind;
    res->times.setup = pf_now() - t_start;

    const char *requested = opt->backend;
    if (!requested || !*requested || strcmp(requested, "auto") == 0) {
        const char *env = getenv("PORTAFLOW_BACKEND");
        requested = env && *env ? env : "auto";
    }
    if (strcmp(requested, "auto") != 0) {
        rc = run_engine(requested, opt, &job, res, st);
    } else {
        const char *order[10];
        int candidates = auto_order(order, 10);
        for (int i = 0; i < candidates; i++) {
            job_free(&job);
            rc = run_engine(order[i], opt, &job, res, st);
            if (rc != PF_E_DEVICE || i + 1 == candidates)
                break;
            fprintf(stderr, "portaflow: %s failed (%s); falling back to %s\n", order[i],
                    st->message, order[i + 1]);
            pf_status_ok(st);
        }
    }
    if (rc) {
        job_free(&job);
        return rc;
    }
    double t_extract = pf_now();
    pf_apsp_extract(g->n, job.n_pad, job.kind, job.dist, job.next, job.hop_scale);
    if (job.next && !job.hop_scale) {
        /* Unscaled weights (reals): blocked next hops may loop on a zero-weight
         * cycle (choose_kind). Plain Floyd-Warshall's never do: redo it so. */
        pf_status loop;
        if (pf_apsp_next_walks_end(g->n, job.next, NULL, g->n, &loop) == PF_E_VERIFY) {
            fprintf(stderr, "portaflow: %s; recomputing the paths with the one-thread "
                            "Floyd-Warshall\n", loop.message);
            pf_apsp_fill(g, job.kind, g->n, job.dist, job.next, 0);
            pf_apsp_seq_fw(g->n, job.kind, job.dist, job.next);
            pf_apsp_extract(g->n, g->n, job.kind, job.dist, job.next, 0);
            snprintf(res->backend, sizeof res->backend, "seq");
            snprintf(res->device, sizeof res->device, "host CPU, 1 thread");
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
    return PF_OK;
}
