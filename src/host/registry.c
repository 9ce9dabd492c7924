/* Backend registry: a table of the compiled-in backends, best first, their
 * probe (cached for the process), and the selection loop behind `auto`,
 * PORTAFLOW_BACKEND and --backend for every command (registry.h). The
 * only place in the library, with the CLI, that knows backends by name. */
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "../common/knobs.h"
#include "../common/status.h"
#include "pf_config.h"

static const pf_device_ops *const compiled_backends[] = {
#if PF_HAVE_CUDA
    &pf_backend_cuda,
#endif
#if PF_HAVE_OPENCL
    &pf_backend_opencl,
#endif
#if PF_HAVE_OPENMP
    &pf_backend_omp,
#endif
    &pf_backend_seq,
};

enum { BACKENDS = sizeof compiled_backends / sizeof *compiled_backends };

static const char *const known_names[] = {"cuda", "opencl", "omp", "seq"};

int pf_backend_count(void)
{
    return BACKENDS;
}

const pf_device_ops *pf_backend_at(int i)
{
    return i >= 0 && i < BACKENDS ? compiled_backends[i] : NULL;
}

const pf_device_ops *pf_backend_find(const char *name)
{
    for (int i = 0; name && i < BACKENDS; i++)
        if (strcmp(compiled_backends[i]->name, name) == 0)
            return compiled_backends[i];
    return NULL;
}

const pf_device_ops *pf_backend_require(const char *name, pf_status *st)
{
    const pf_device_ops *ops = pf_backend_find(name);
    if (!ops)
        pf_fail(st, PF_E_DEVICE, "backend '%s' is %s", name,
                pf_backend_name_known(name) ? "not compiled into this build"
                                            : "unknown (use auto, seq, omp, opencl, cuda)");
    return ops;
}

int pf_backend_name_known(const char *name)
{
    for (size_t i = 0; name && i < sizeof known_names / sizeof *known_names; i++)
        if (strcmp(known_names[i], name) == 0)
            return 1;
    return 0;
}

static void append_why(char *why, size_t why_len, const char *backend, const char *reason)
{
    size_t used = strlen(why);
    if (used < why_len)
        snprintf(why + used, why_len - used, "%s: %s\n", backend, reason);
}

/* ---- the probe, once per backend per process ---------------------------- */

enum { PROBE_MAX = 32 };

typedef struct probe_answer {
    int asked;
    int found;
    pf_device_desc descs[PROBE_MAX];
    char why[512];
} probe_answer;

/* Drivers differ in whether their device queries may run from several
 * threads at once (an ICD loader's first platform query, the CUDA probe's
 * helper and in-process paths): one probe at a time, process-wide; the
 * same lock guards the answers kept. */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static probe_answer probe_answers[BACKENDS];

static int backend_index(const pf_device_ops *ops)
{
    for (int i = 0; i < BACKENDS; i++)
        if (compiled_backends[i] == ops)
            return i;
    return -1;
}

/* Device nodes through which a Linux program reaches a GPU: DRM (every
 * in-kernel GPU driver, Mali and Adreno included), NVIDIA's driver, AMD's
 * compute node, WSL's GPU, and the out-of-tree Adreno, Mali and Vivante
 * drivers. */
static const char *const gpu_nodes[] = {
    "/dev/dri", "/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dxg",
    "/dev/kgsl-3d0", "/dev/mali0", "/dev/galcore",
};

static int gpu_node_seen;
static pthread_once_t gpu_node_once = PTHREAD_ONCE_INIT;

static void look_for_gpu_nodes(void)
{
#ifdef __linux__
    for (size_t i = 0; i < sizeof gpu_nodes / sizeof *gpu_nodes && !gpu_node_seen; i++)
        gpu_node_seen = access(gpu_nodes[i], F_OK) == 0;
#else
    gpu_node_seen = 1; /* no cheap test elsewhere: probe */
#endif
}

/* Without a GPU device node no GPU API can find a GPU: auto then skips
 * the GPU backends' probes, each of which loads a driver or every OpenCL
 * ICD (tens of milliseconds, more than a small solve). An explicit
 * --backend still probes and opens. */
int pf_backend_machine_shows_gpu(void)
{
    pthread_once(&gpu_node_once, look_for_gpu_nodes);
    return gpu_node_seen;
}

int pf_backend_probe(const pf_device_ops *ops, pf_device_desc *out, int max, char *why,
                     size_t why_len)
{
    int slot = backend_index(ops);
    pthread_mutex_lock(&probe_lock);
    if (slot < 0) { /* not one of ours (a test's table): not kept */
        int found = ops->probe(out, max, why, why_len);
        pthread_mutex_unlock(&probe_lock);
        return found;
    }
    probe_answer *a = &probe_answers[slot];
    if (!a->asked) {
        a->why[0] = '\0';
        a->found = ops->probe(a->descs, PROBE_MAX, a->why, sizeof a->why);
        a->asked = 1;
    }
    int kept = a->found < PROBE_MAX ? a->found : PROBE_MAX;
    for (int i = 0; i < kept && i < max; i++)
        out[i] = a->descs[i];
    if (why && why_len)
        snprintf(why, why_len, "%s", a->why);
    int found = a->found;
    pthread_mutex_unlock(&probe_lock);
    return found;
}

void pf_backend_probe_forget(void)
{
    pthread_mutex_lock(&probe_lock);
    for (int i = 0; i < BACKENDS; i++)
        probe_answers[i].asked = 0;
    pthread_mutex_unlock(&probe_lock);
}

int pf_backend_has_gpu(const pf_device_ops *ops)
{
    pf_device_desc descs[PROBE_MAX];
    char why[512];
    int found = pf_backend_probe(ops, descs, PROBE_MAX, why, sizeof why);
    return found > 0 && strcmp(descs[0].kind, "gpu") == 0;
}

void pf_backend_probe_after(const pf_device_ops *tried)
{
    if (!pf_backend_machine_shows_gpu())
        return;
    for (int i = 0; i < BACKENDS; i++) {
        const pf_device_ops *ops = compiled_backends[i];
        if (ops != tried && !ops->caps.host_cpu && pf_backend_has_gpu(ops))
            break;
    }
}

static void *probe_ahead_main(void *unused)
{
    (void)unused;
    pf_backend_probe_after(NULL);
    return NULL;
}

void pf_backend_probe_ahead(void)
{
    pthread_t thread;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return; /* the walk probes when it comes to them */
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    (void)pthread_create(&thread, &attr, probe_ahead_main, NULL);
    pthread_attr_destroy(&attr);
}

int pf_list_devices(pf_device_desc *out, int max, char *why, size_t why_len)
{
    int count = 0;
    if (why_len)
        why[0] = '\0';
    for (int i = 0; i < BACKENDS; i++) {
        const pf_device_ops *ops = compiled_backends[i];
        char reason[512] = "";
        int found = pf_backend_probe(ops, out + count, max - count, reason, sizeof reason);
        if (found <= 0)
            append_why(why, why_len, ops->name, reason[0] ? reason : "no usable device");
        else if (reason[0])
            append_why(why, why_len, ops->name, reason); /* e.g. devices skipped */
        count += found > 0 ? (found < max - count ? found : max - count) : 0;
    }
    for (size_t n = 0; n < sizeof known_names / sizeof *known_names; n++)
        if (!pf_backend_find(known_names[n]))
            append_why(why, why_len, known_names[n], "not compiled into this build");
    return count;
}

/* The parallel side of a hybrid on a machine without a GPU: the first
 * parallel host CPU backend that runs the max-flow steps, or NULL. */
const char *pf_backend_cpu_partner(void)
{
    for (int i = 0; i < BACKENDS; i++) {
        const pf_device_ops *ops = compiled_backends[i];
        if (ops->caps.host_cpu && !ops->caps.one_thread && ops->caps.maxflow_steps)
            return ops->name;
    }
    return NULL;
}

/* ---- the selection loop -------------------------------------------------- */

void pf_backend_walk_init(pf_backend_walk *w, const char *requested, pf_work work, int threads,
                          int (*runs)(const pf_device_ops *, const void *),
                          const void *runs_ctx)
{
    memset(w, 0, sizeof *w);
    if (!requested || !*requested || strcmp(requested, "auto") == 0) {
        const char *env = getenv("PORTAFLOW_BACKEND");
        requested = env && *env ? env : "auto";
    }
    snprintf(w->requested, sizeof w->requested, "%s", requested);
    w->is_auto = strcmp(w->requested, "auto") == 0;
    w->work = work;
    w->threads = threads;
    w->runs = runs;
    w->runs_ctx = runs_ctx;
}

static int does_work(const pf_backend_walk *w, const pf_device_ops *ops)
{
    if (w->work == PF_WORK_MAXFLOW && !ops->maxflow_solve && !ops->caps.maxflow_steps)
        return 0;
    return !w->runs || w->runs(ops, w->runs_ctx);
}

/* A parallel CPU backend's threads: the caller's, else its device's cores. */
static int cpu_threads(const pf_backend_walk *w, const pf_device_ops *ops)
{
    if (w->threads > 0)
        return w->threads;
    pf_device_desc desc;
    char why[512];
    return pf_backend_probe(ops, &desc, 1, why, sizeof why) > 0 ? desc.compute_units : 0;
}

/* Stage 1: whether auto takes this parallel CPU backend, else why not. */
static int cpu_stage_takes(pf_backend_walk *w, const pf_device_ops *ops)
{
    if (w->work != PF_WORK_MAXFLOW)
        return 1; /* Floyd-Warshall is regular work every core shares evenly */
    int threads = cpu_threads(w, ops);
    if (threads >= PF_AUTO_CPU_MAXFLOW_MIN_THREADS)
        return 1;
    char reason[160];
    snprintf(reason, sizeof reason,
             "%d thread%s: for max-flow auto takes it from %d threads on (slower than seq "
             "below); choose it with --backend",
             threads, threads == 1 ? "" : "s", PF_AUTO_CPU_MAXFLOW_MIN_THREADS);
    append_why(w->why, sizeof w->why, ops->name, reason);
    return 0;
}

const pf_device_ops *pf_backend_host_team(int threads)
{
    const char *name = pf_backend_cpu_partner();
    const pf_device_ops *ops = name ? pf_backend_find(name) : NULL;
    if (!ops)
        return NULL;
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, "auto", PF_WORK_MAXFLOW, threads, NULL, NULL);
    walk.is_auto = 1;
    return cpu_stage_takes(&walk, ops) ? ops : NULL;
}

void pf_backend_walk_size(pf_backend_walk *w, int64_t vertices)
{
    int64_t least = pf_knobs()->gpu_min_vertices;
    w->skip_gpus = w->is_auto && w->work == PF_WORK_MAXFLOW && vertices >= 0 && vertices < least;
}

void pf_backend_walk_method(pf_backend_walk *w, int method, int segmentation)
{
    w->skip_stages = 0;
    if (!w->is_auto || w->work != PF_WORK_MAXFLOW)
        return;
    if (method == PF_METHOD_BOYKOV_KOLMOGOROV) {
        w->skip_stages = 3;
        snprintf(w->why_method, sizeof w->why_method, "%s",
                 "the method boykov-kolmogorov runs on seq only");
    } else if (method == PF_METHOD_AUTO && segmentation) {
        w->skip_stages = 2;
        snprintf(w->why_method, sizeof w->why_method, "%s",
                 "the network is shaped like a segmentation: seq's Boykov-Kolmogorov is "
                 "faster there; choose it with --backend");
    }
}

/* Stage 0: whether ops is a GPU backend whose probe finds a GPU. */
static int gpu_stage_takes(pf_backend_walk *w, const pf_device_ops *ops)
{
    if (ops->caps.host_cpu)
        return 0;
    if (w->skip_gpus) {
        append_why(w->why, sizeof w->why, ops->name,
                   "the network has fewer vertices than PORTAFLOW_GPU_MIN_VERTICES: a GPU "
                   "would start for longer than the CPU takes; choose it with --backend");
        return 0;
    }
    if (!pf_backend_machine_shows_gpu()) {
        append_why(w->why, sizeof w->why, ops->name,
                   "no GPU device node (/dev/dri, /dev/nvidia0, ...): not probed; choose it "
                   "with --backend");
        return 0;
    }
    pf_device_desc descs[PROBE_MAX];
    char reason[512] = "";
    int found = pf_backend_probe(ops, descs, PROBE_MAX, reason, sizeof reason);
    if (found <= 0) {
        append_why(w->why, sizeof w->why, ops->name, reason[0] ? reason : "no usable device");
        return 0;
    }
    /* A CPU device of a GPU API (OpenCL on PoCL) is left to an explicit
     * --backend: the host CPU backends serve the CPU better. */
    if (strcmp(descs[0].kind, "gpu") != 0) {
        append_why(w->why, sizeof w->why, ops->name,
                   "CPU device only: the host CPU backends serve it; choose it with --backend");
        return 0;
    }
    return 1;
}

const pf_device_ops *pf_backend_walk_next(pf_backend_walk *w, pf_status *st)
{
    if (!w->is_auto) {
        if (w->stage++ != 0)
            return NULL;
        pf_status ignored;
        return pf_backend_require(w->requested, st ? st : &ignored);
    }
    /* Stages: 0 GPU backends, 1 parallel CPU backends, 2 one-thread engines,
     * each in registry order. */
    for (; w->stage < 3; w->stage++, w->index = 0) {
        while (w->index < BACKENDS) {
            const pf_device_ops *ops = compiled_backends[w->index++];
            int cpu = ops->caps.host_cpu, one = ops->caps.one_thread;
            int stage_of = !cpu ? 0 : !one ? 1 : 2;
            if (stage_of != w->stage)
                continue;
            if (!does_work(w, ops)) {
                append_why(w->why, sizeof w->why, ops->name, "does not run this");
                continue;
            }
            if (w->stage < 2 && (w->skip_stages >> w->stage & 1) && !ops->caps.maxflow_bk) {
                append_why(w->why, sizeof w->why, ops->name, w->why_method);
                continue;
            }
            if (w->stage == 0 ? gpu_stage_takes(w, ops)
                : w->stage == 1 ? cpu_stage_takes(w, ops)
                                : 1)
                return ops;
        }
    }
    return NULL;
}

const pf_device_ops *pf_backend_walk_unprobed(pf_backend_walk *w)
{
    const pf_device_ops *best = BACKENDS > 0 ? compiled_backends[0] : NULL;
    if (!w->is_auto || w->skip_gpus || (w->skip_stages & 1) || w->stage != 0 || w->index != 0 ||
        !best || best->caps.host_cpu ||
        !best->caps.probe_elsewhere || !does_work(w, best) || !pf_backend_machine_shows_gpu())
        return NULL;
    w->index = 1;
    w->unprobed = best;
    return best;
}

int pf_backend_run(pf_backend_walk *w, const pf_device_ops *first, pf_backend_attempt attempt,
                   void *ctx, const pf_logger *log, pf_status *st)
{
    const pf_device_ops *ops = first ? first : pf_backend_walk_next(w, st);
    if (!ops)
        return st->code ? st->code : pf_fail(st, PF_E_DEVICE, "no backend runs this");
    for (;;) {
        int rc = attempt(ops, ctx, st);
        if (rc != PF_E_DEVICE || !w->is_auto || w->final)
            return rc;
        const pf_device_ops *next = pf_backend_walk_next(w, NULL);
        if (!next)
            return rc;
        if (ops != w->unprobed)
            pf_log(log, PF_LOG_WARNING, "%s failed (%s); falling back to %s", ops->name,
                   st->message, next->name);
        else
            append_why(w->why, sizeof w->why, ops->name, st->message);
        pf_status_ok(st);
        ops = next;
    }
}

void pf_backend_auto_explain(pf_work work, int threads,
                             int (*runs)(const pf_device_ops *, const void *),
                             const void *runs_ctx, char *order, size_t order_len, char *why,
                             size_t why_len)
{
    pf_backend_walk w;
    pf_backend_walk_init(&w, "auto", work, threads, runs, runs_ctx);
    w.is_auto = 1; /* what auto does, whatever PORTAFLOW_BACKEND says */
    size_t used = 0;
    order[0] = '\0';
    for (const pf_device_ops *ops; (ops = pf_backend_walk_next(&w, NULL)) && used < order_len;)
        used += (size_t)snprintf(order + used, order_len - used, "%s%s", used ? ", " : "",
                                 ops->name);
    snprintf(why, why_len, "%s", w.why);
}
