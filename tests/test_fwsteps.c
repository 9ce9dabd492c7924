/* The Floyd-Warshall steps of the device interface (fw_tile, fw_phase)
 * against a plain triple loop, for the backend named on the command line:
 * every distance kind, with and without next hops, on 1..3 tiles per side. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "device/device.h"
#include "host/dev_check.h"
#include "host/registry.h"
#include "support.h"

static const pf_device_ops *ops;
static int device_count;

static const int32_t kinds[] = {PF_DIST_I32, PF_DIST_I64, PF_DIST_F32};
enum { KINDS = 3, TILE_COUNTS = 3 };

static size_t kind_bytes(int32_t kind) { return kind == PF_DIST_I64 ? 8 : 4; }

/* Distances as int64 on the host side of the test; INF_REF = no path. */
#define INF_REF INT64_MAX

static int64_t get_dist(const void *m, int32_t kind, int64_t at)
{
    switch (kind) {
    case PF_DIST_I32: {
        int32_t v = ((const int32_t *)m)[at];
        return v > PF_FW_INF_I32 / 2 ? INF_REF : v;
    }
    case PF_DIST_I64: {
        int64_t v = ((const int64_t *)m)[at];
        return v > PF_FW_INF_I64 / 2 ? INF_REF : v;
    }
    default: {
        float v = ((const float *)m)[at];
        return isinf(v) ? INF_REF : (int64_t)v;
    }
    }
}

static void set_dist(void *m, int32_t kind, int64_t at, int64_t v)
{
    switch (kind) {
    case PF_DIST_I32:
        ((int32_t *)m)[at] = v == INF_REF ? PF_FW_INF_I32 : (int32_t)v;
        break;
    case PF_DIST_I64:
        ((int64_t *)m)[at] = v == INF_REF ? PF_FW_INF_I64 : v;
        break;
    default:
        ((float *)m)[at] = v == INF_REF ? INFINITY : (float)v;
    }
}

/* Random weights without negative cycles: w(u,v) = c + p(u) - p(v) with
 * c >= c_min, so every cycle weighs the sum of its c's (c_min = 1 for next
 * hops: fw_phase promises loop-free hops only when no cycle weighs zero).
 * Some rows and columns stay empty (unreachable parts); the last `pad`
 * vertices have no arcs, as the host's padding. */
static void random_weights(int64_t *w, int32_t n, int32_t pad, int c_min, uint64_t seed)
{
    pf_rng rng;
    pf_rng_seed(&rng, seed);
    int64_t *potential = malloc((size_t)n * sizeof *potential);
    for (int32_t v = 0; v < n; v++)
        potential[v] = pf_rng_range(&rng, 0, 50);
    int32_t live = n - pad;
    int percent = (int)pf_rng_range(&rng, 3, 60); /* sparse to dense */
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = 0; v < n; v++) {
            int64_t at = (int64_t)u * n + v;
            w[at] = INF_REF;
            if (u == v)
                w[at] = 0;
            else if (u < live && v < live && u % 17 != 5 && pf_rng_range(&rng, 0, 99) < percent)
                w[at] = pf_rng_range(&rng, c_min, 100) + potential[u] - potential[v];
        }
    free(potential);
}

static void reference_fw(int64_t *d, int32_t n)
{
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++) {
            int64_t dik = d[(int64_t)i * n + k];
            if (dik == INF_REF)
                continue;
            for (int32_t j = 0; j < n; j++) {
                int64_t dkj = d[(int64_t)k * n + j];
                int64_t *dij = &d[(int64_t)i * n + j];
                if (dkj != INF_REF && dik + dkj < *dij)
                    *dij = dik + dkj;
            }
        }
}

START_TEST(fw_matches_triple_loop)
{
    int index = _i % device_count;
    int rest = _i / device_count;
    int32_t kind = kinds[rest % KINDS];
    int paths = (rest / KINDS) % 2;
    int tiles = 1 + rest / (KINDS * 2);

    pf_status st;
    pf_dev *dev = NULL;
    pf_open_params params = {.device_index = index};
    pf_device_desc desc;
    PF_EXPECT(ops->open(&params, &dev, &desc, &st) == PF_OK, "open: %s", st.message);
    int32_t tile = ops->fw_tile(dev, kind, paths);
    PF_EXPECT(tile >= 16 && tile % 16 == 0, "fw_tile gave %d", tile);
    int32_t n = tile * tiles, pad = tile / 3;
    int64_t cells = (int64_t)n * n;

    int64_t *w = malloc((size_t)cells * sizeof *w), *want = malloc((size_t)cells * sizeof *want);
    void *dist = malloc((size_t)cells * kind_bytes(kind));
    int32_t *next = malloc((size_t)cells * sizeof *next);
    random_weights(w, n, pad, paths, 1000u + (uint64_t)_i);
    for (int64_t at = 0; at < cells; at++) {
        set_dist(dist, kind, at, w[at]);
        next[at] = w[at] == INF_REF ? -1 : (int32_t)(at % n);
        want[at] = w[at];
    }
    reference_fw(want, n);

    pf_dev_apsp a = {.n = n, .tile = tile, .kind = kind};
    size_t dist_bytes = (size_t)cells * kind_bytes(kind), next_bytes = (size_t)cells * 4;
    PF_EXPECT(ops->alloc(dev, dist_bytes, &a.dist, &st) == PF_OK, "alloc: %s", st.message);
    PF_EXPECT(ops->upload(dev, a.dist, 0, dist, dist_bytes, &st) == PF_OK, "upload: %s", st.message);
    if (paths) {
        PF_EXPECT(ops->alloc(dev, next_bytes, &a.next, &st) == PF_OK, "alloc: %s", st.message);
        PF_EXPECT(ops->upload(dev, a.next, 0, next, next_bytes, &st) == PF_OK, "upload: %s",
                  st.message);
    }
    for (int32_t r = 0; r < tiles; r++)
        for (int32_t phase = 1; phase <= 3; phase++)
            PF_EXPECT(ops->fw_phase(dev, &a, r, phase, &st) == PF_OK, "fw_phase(%d, %d): %s", r,
                      phase, st.message);
    PF_EXPECT(ops->download(dev, a.dist, 0, dist, dist_bytes, &st) == PF_OK, "download: %s",
              st.message);
    if (paths)
        PF_EXPECT(ops->download(dev, a.next, 0, next, next_bytes, &st) == PF_OK, "download: %s",
                  st.message);

    for (int64_t at = 0; at < cells; at++) {
        int64_t got = get_dist(dist, kind, at);
        PF_EXPECT(got == want[at], "kind %d tile %d n %d: d(%lld,%lld) = %lld, expected %lld",
                  kind, tile, n, (long long)(at / n), (long long)(at % n), (long long)got,
                  (long long)want[at]);
    }
    /* Next hops: walking them from i must reach j along arcs whose weights
     * add up to d(i,j). */
    for (int32_t i = 0; paths && i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            if (i == j || want[(int64_t)i * n + j] == INF_REF)
                continue;
            int64_t sum = 0;
            int32_t at = i, steps = 0;
            while (at != j && steps++ < n) {
                int32_t hop = next[(int64_t)at * n + j];
                PF_EXPECT(hop >= 0 && hop < n && w[(int64_t)at * n + hop] != INF_REF,
                          "path %d->%d: bad hop %d at %d", i, j, hop, at);
                sum += w[(int64_t)at * n + hop];
                at = hop;
            }
            PF_EXPECT(at == j && sum == want[(int64_t)i * n + j],
                      "path %d->%d: walk ends at %d weighing %lld, d = %lld", i, j, at,
                      (long long)sum, (long long)want[(int64_t)i * n + j]);
        }
    ops->release(dev, a.dist);
    if (a.next)
        ops->release(dev, a.next);
    ops->close(dev);
    free(w);
    free(want);
    free(dist);
    free(next);
}
END_TEST

/* fw_step, every variant the backend declares (simd at 8, 16 and the
 * widest lanes), n steps over a padded matrix: the triple loop's
 * distances, and next hops that walk to their target at that cost. */
static const int32_t step_variants[][2] = {
    {PF_FW_PLAIN, 0}, {PF_FW_SIMD, 0}, {PF_FW_SIMD, 8}, {PF_FW_SIMD, 16}, {PF_FW_PER_K, 0},
};
enum { STEP_VARIANTS = sizeof step_variants / sizeof *step_variants };

static void step_check(pf_dev *dev, int32_t variant, int32_t width, int32_t kind, int paths,
                       uint64_t seed)
{
    const int32_t n = 96, pad = 20;
    int64_t cells = (int64_t)n * n;
    int64_t *w = malloc((size_t)cells * sizeof *w), *want = malloc((size_t)cells * sizeof *want);
    void *dist = malloc((size_t)cells * kind_bytes(kind));
    int32_t *next = malloc((size_t)cells * sizeof *next);
    random_weights(w, n, pad, 0, seed);
    for (int64_t at = 0; at < cells; at++) {
        set_dist(dist, kind, at, w[at]);
        next[at] = w[at] == INF_REF ? -1 : (int32_t)(at % n);
        want[at] = w[at];
    }
    reference_fw(want, n);
    pf_status st;
    pf_dev_apsp a = {.n = n, .tile = 32, .kind = kind, .simd_width = width};
    size_t dist_bytes = (size_t)cells * kind_bytes(kind), next_bytes = (size_t)cells * 4;
    PF_EXPECT(ops->alloc(dev, dist_bytes, &a.dist, &st) == PF_OK, "alloc: %s", st.message);
    PF_EXPECT(ops->upload(dev, a.dist, 0, dist, dist_bytes, &st) == PF_OK, "upload: %s", st.message);
    if (paths) {
        PF_EXPECT(ops->alloc(dev, next_bytes, &a.next, &st) == PF_OK, "alloc: %s", st.message);
        PF_EXPECT(ops->upload(dev, a.next, 0, next, next_bytes, &st) == PF_OK, "upload: %s",
                  st.message);
    }
    for (int32_t k = 0; k < n; k++)
        PF_EXPECT(ops->fw_step(dev, &a, variant, k, &st) == PF_OK, "fw_step(%d): %s", k,
                  st.message);
    PF_EXPECT(ops->download(dev, a.dist, 0, dist, dist_bytes, &st) == PF_OK, "download: %s",
              st.message);
    if (paths)
        PF_EXPECT(ops->download(dev, a.next, 0, next, next_bytes, &st) == PF_OK, "download: %s",
                  st.message);
    for (int64_t at = 0; at < cells; at++)
        PF_EXPECT(get_dist(dist, kind, at) == want[at],
                  "variant %d width %d kind %d: d(%lld,%lld) = %lld, expected %lld", variant, width,
                  kind, (long long)(at / n), (long long)(at % n),
                  (long long)get_dist(dist, kind, at), (long long)want[at]);
    for (int32_t i = 0; paths && i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            if (i == j || want[(int64_t)i * n + j] == INF_REF)
                continue;
            int64_t sum = 0;
            int32_t at = i, steps = 0;
            while (at != j && steps++ < n) {
                int32_t hop = next[(int64_t)at * n + j];
                PF_EXPECT(hop >= 0 && hop < n && w[(int64_t)at * n + hop] != INF_REF,
                          "step path %d->%d: bad hop %d at %d", i, j, hop, at);
                sum += w[(int64_t)at * n + hop];
                at = hop;
            }
            PF_EXPECT(at == j && sum == want[(int64_t)i * n + j],
                      "step path %d->%d: walk ends at %d weighing %lld, d = %lld", i, j, at,
                      (long long)sum, (long long)want[(int64_t)i * n + j]);
        }
    ops->release(dev, a.dist);
    if (a.next)
        ops->release(dev, a.next);
    free(w);
    free(want);
    free(dist);
    free(next);
}

START_TEST(fw_step_matches_triple_loop)
{
    int32_t variant = step_variants[_i % STEP_VARIANTS][0];
    int32_t width = step_variants[_i % STEP_VARIANTS][1];
    int32_t kind = kinds[_i / STEP_VARIANTS % KINDS];
    int paths = _i / STEP_VARIANTS / KINDS % 2;
    if (!ops->fw_step || !(ops->fw_variants & 1u << variant))
        return; /* not this backend's: pf_apsp refuses it (test_apsp) */
    pf_status st;
    pf_dev *dev = NULL;
    pf_open_params params = {.device_index = -1};
    pf_device_desc desc;
    PF_EXPECT(ops->open(&params, &dev, &desc, &st) == PF_OK, "open: %s", st.message);
    step_check(dev, variant, width, kind, paths, 3000u + (uint64_t)_i);
    ops->close(dev);
}
END_TEST

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "omp";
    char why[512];
    device_count = pf_test_backend_devices(backend, why, sizeof why);
    ops = pf_backend_find(backend);
    if (ops) /* every call's arguments checked at the interface (dev_check.h) */
        ops = pf_dev_checked(ops);
    if (!ops || device_count == 0) {
        printf("SKIP: %s\n", ops ? why : "not compiled into this build");
        return PF_TEST_SKIP;
    }
    if (!ops->fw_tile || !ops->fw_phase) {
        printf("FAIL: backend %s has no Floyd-Warshall steps\n", backend);
        return EXIT_FAILURE;
    }
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("fwsteps");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, fw_matches_triple_loop, 0, KINDS * 2 * TILE_COUNTS * device_count);
    tcase_add_loop_test(tc, fw_step_matches_triple_loop, 0, STEP_VARIANTS * KINDS * 2);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
