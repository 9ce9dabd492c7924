/* Backend registry: a table of the compiled-in backends, best first, and
 * the runtime probe behind `--backend auto` and `portaflow backends`. */
#include "registry.h"

#include <stdio.h>
#include <pthread.h>
#include <string.h>

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
    NULL,
};

static const char *const known_names[] = {"cuda", "opencl", "omp", "seq"};

int pf_backend_count(void)
{
    return (int)(sizeof compiled_backends / sizeof *compiled_backends) - 1;
}

const pf_device_ops *pf_backend_at(int i)
{
    return i >= 0 && i < pf_backend_count() ? compiled_backends[i] : NULL;
}

const pf_device_ops *pf_backend_find(const char *name)
{
    for (int i = 0; i < pf_backend_count(); i++)
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
    for (size_t i = 0; i < sizeof known_names / sizeof *known_names; i++)
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

enum { PROBE_MAX = 32 };

/* Drivers differ in whether their device queries may run from several
 * threads at once (an ICD loader's first platform query, the CUDA probe's
 * helper and in-process paths): one probe at a time, process-wide. */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

int pf_backend_probe(const pf_device_ops *ops, pf_device_desc *out, int max, char *why,
                     size_t why_len)
{
    pthread_mutex_lock(&probe_lock);
    int found = ops->probe(out, max, why, why_len);
    pthread_mutex_unlock(&probe_lock);
    return found;
}

int pf_backend_auto_order(const char **names, int max, char *why, size_t why_len)
{
    int count = 0;
    if (why_len)
        why[0] = '\0';
    for (int i = 0; i < pf_backend_count() && count < max - 1; i++) {
        const pf_device_ops *ops = compiled_backends[i];
        pf_device_desc descs[PROBE_MAX];
        char reason[512] = "";
        int found = pf_backend_probe(ops, descs, PROBE_MAX, reason, sizeof reason);
        if (found <= 0) {
            append_why(why, why_len, ops->name, reason[0] ? reason : "no usable device");
            continue;
        }
        /* The probe lists GPUs first. On CPUs the parallel algorithm does
         * several times the work of the sequential highest-label engine and
         * measured slower than seq on most instances even on 16 cores
         * (bench/results/2026-11-22-h100-run3.md), so `auto` leaves CPU
         * devices (OpenMP, OpenCL on PoCL) to an explicit --backend. */
        if (strcmp(descs[0].kind, "gpu") != 0) {
            append_why(why, why_len, ops->name,
                       "CPU only: slower than seq here; choose it with --backend");
            continue;
        }
        names[count++] = ops->name;
    }
    names[count++] = "seq";
    return count;
}

int pf_list_devices(pf_device_desc *out, int max, char *why, size_t why_len)
{
    int count = 0;
    if (why_len)
        why[0] = '\0';
    for (int i = 0; i < pf_backend_count(); i++) {
        const pf_device_ops *ops = compiled_backends[i];
        char reason[512] = "";
        int found = pf_backend_probe(ops, out + count, max - count, reason, sizeof reason);
        if (found <= 0)
            append_why(why, why_len, ops->name, reason[0] ? reason : "no usable device");
        else if (reason[0])
            append_why(why, why_len, ops->name, reason); /* e.g. devices skipped */
        count += found > 0 ? (found < max - count ? found : max - count) : 0;
    }
    for (const char *const *n = known_names; n < known_names + 3; n++)
        if (!pf_backend_find(*n))
            append_why(why, why_len, *n, "not compiled into this build");
    return count;
}

/* The hybrid's `auto` (pf_solve_options.hybrid): on where the backend's
 * device is a GPU. CUDA's are, without a probe (which would cost a second
 * driver start-up); the others say so in their probe. */
int pf_backend_on_gpu(const pf_device_ops *ops, int device_index)
{
#if PF_HAVE_CUDA
    if (ops == &pf_backend_cuda)
        return 1;
#endif
    pf_device_desc descs[PROBE_MAX];
    char why[512];
    int found = pf_backend_probe(ops, descs, PROBE_MAX, why, sizeof why);
    int i = device_index >= 0 ? device_index : 0;
    return i < found && strcmp(descs[i].kind, "gpu") == 0;
}

/* The parallel side of a hybrid on a machine without a GPU: the compiled
 * CPU backend (OpenMP), or NULL. */
const char *pf_backend_cpu_partner(void)
{
#if PF_HAVE_OPENMP
    return pf_backend_omp.name;
#else
    return NULL;
#endif
}
