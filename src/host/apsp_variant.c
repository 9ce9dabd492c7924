/* The Floyd-Warshall variants of pf_apsp (enum pf_fw_variant): their
 * names, which backend runs which (checked at the interface, from what
 * each backend's ops table declares), and the k loop of the unblocked
 * ones (device.h fw_step). The blocked loop stays in apsp.c. */
#include <stdio.h>
#include <string.h>

#include "../common/status.h"
#include "../device/device.h"
#include "apsp.h"
#include "registry.h"

static const char *const variant_names[PF_FW_VARIANTS] = {
    [PF_FW_DEFAULT] = "default", [PF_FW_BLOCKED] = "blocked", [PF_FW_PLAIN] = "plain",
    [PF_FW_SIMD] = "simd",       [PF_FW_PER_K] = "per-k",
};

const char *pf_apsp_variant_name(int variant)
{
    return variant >= 0 && variant < PF_FW_VARIANTS ? variant_names[variant] : "unknown";
}

int pf_apsp_variant_parse(const char *name)
{
    for (int v = 0; v < PF_FW_VARIANTS; v++)
        if (name && strcmp(name, variant_names[v]) == 0)
            return v;
    return -1;
}

/* seq runs plain itself, simd and blocked on the omp backend's kernels
 * with one thread. */
static int seq_runs(int variant)
{
    if (variant == PF_FW_DEFAULT || variant == PF_FW_PLAIN)
        return 1;
    return (variant == PF_FW_SIMD || variant == PF_FW_BLOCKED) && pf_backend_find("omp");
}

static int ops_run(const pf_device_ops *ops, int variant)
{
    if (variant == PF_FW_DEFAULT || variant == PF_FW_BLOCKED)
        return ops->fw_phase != NULL;
    return ops->fw_step != NULL && (ops->fw_variants & 1u << variant) != 0;
}

int pf_apsp_backend_runs(const char *backend, int variant)
{
    if (strcmp(backend, "seq") == 0)
        return seq_runs(variant);
    const pf_device_ops *ops = pf_backend_find(backend);
    return ops && ops_run(ops, variant);
}

/* "seq, omp" or the like: the compiled-in backends that run variant. */
static void backends_running(int variant, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < pf_backend_count() && used < len; i++)
        if (ops_run(pf_backend_at(i), variant))
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
                                     pf_backend_at(i)->name);
    if (used < len && seq_runs(variant))
        snprintf(out + used, len - used, "%sseq", used ? ", " : "");
}

int pf_apsp_variant_check(const char *backend, const pf_apsp_options *opt, pf_status *st)
{
    int variant = opt->variant;
    if (variant < 0 || variant >= PF_FW_VARIANTS)
        return pf_fail(st, PF_E_USAGE, "unknown Floyd-Warshall variant %d", variant);
    const char *name = variant_names[variant];
    if (opt->simd_width != 0 && opt->simd_width != 8 && opt->simd_width != 16)
        return pf_fail(st, PF_E_USAGE, "--simd-width takes 8 (AVX2) or 16 (AVX-512), not %d",
                       opt->simd_width);
    if (opt->simd_width && variant != PF_FW_SIMD)
        return pf_fail(st, PF_E_USAGE, "--simd-width applies to --variant simd only, not %s",
                       name);
    if (opt->tile && variant != PF_FW_DEFAULT && variant != PF_FW_BLOCKED)
        return pf_fail(st, PF_E_USAGE, "--tile applies to the blocked variant only, not %s",
                       name);
    char running[128];
    backends_running(variant, running, sizeof running);
    int is_auto = !backend || !*backend || strcmp(backend, "auto") == 0;
    if (is_auto ? running[0] == '\0'
                : pf_backend_name_known(backend) && (strcmp(backend, "seq") == 0 ||
                                                     pf_backend_find(backend)) &&
                      !pf_apsp_backend_runs(backend, variant))
        return pf_fail(st, PF_E_USAGE, "--variant %s does not run on backend %s; it runs on: %s",
                       name, is_auto ? "auto" : backend, running[0] ? running : "none built");
    return PF_OK;
}

void pf_apsp_variant_label(const pf_device_ops *ops, pf_dev *dev, int kind, int variant,
                           int simd_width, char *out, size_t len)
{
    if (variant == PF_FW_SIMD && ops->fw_simd) {
        char what[128];
        int32_t lanes = ops->fw_simd(dev, kind, simd_width, what, sizeof what);
        snprintf(out, len, lanes ? "simd: %s" : "plain (simd falls back: %s)", what);
        if (lanes == 0)
            fprintf(stderr, "portaflow: --variant simd falls back to plain: %s\n", what);
        return;
    }
    snprintf(out, len, "%s", variant == PF_FW_DEFAULT ? "blocked" : variant_names[variant]);
}

int pf_apsp_run_steps(const pf_device_ops *ops, pf_dev *dev, const pf_dev_apsp *a, int64_t n,
                      int variant, pf_status *st)
{
    /* Steps through the padding's vertices would change nothing: they
     * have no arcs. */
    int rc = PF_OK;
    for (int32_t k = 0; !rc && k < n; k++)
        rc = ops->fw_step(dev, a, variant, k, st);
    return rc;
}
