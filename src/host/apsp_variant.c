/* The Floyd-Warshall variants of pf_apsp (enum pf_fw_variant): their
 * names, which backend runs which (from what each backend's ops table
 * declares: fw_phase, fw_variants, caps), and the k loop of the unblocked
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

int pf_apsp_variant_for(const pf_device_ops *ops, int variant)
{
    if (variant != PF_FW_DEFAULT)
        return variant;
    return ops->fw_phase ? PF_FW_BLOCKED : PF_FW_PLAIN;
}

/* Whether ops runs variant on its own kernels. */
static int ops_run(const pf_device_ops *ops, int variant)
{
    variant = pf_apsp_variant_for(ops, variant);
    if (variant == PF_FW_BLOCKED)
        return ops->fw_phase != NULL && ops->fw_tile != NULL;
    return ops->fw_step != NULL && (ops->fw_variants & 1u << variant) != 0;
}

const pf_device_ops *pf_apsp_kernels_for(const pf_device_ops *ops, int variant)
{
    if (ops_run(ops, variant))
        return ops;
    if (!ops->caps.one_thread)
        return NULL;
    for (int i = 0; i < pf_backend_count(); i++) {
        const pf_device_ops *other = pf_backend_at(i);
        if (other->caps.host_cpu && !other->caps.one_thread && ops_run(other, variant))
            return other;
    }
    return NULL;
}

int pf_apsp_backend_runs(const char *backend, int variant)
{
    const pf_device_ops *ops = pf_backend_find(backend);
    return ops && pf_apsp_kernels_for(ops, variant);
}

int pf_apsp_walk_runs(const pf_device_ops *ops, const void *opt)
{
    return pf_apsp_kernels_for(ops, ((const pf_apsp_options *)opt)->variant) != NULL;
}

/* "omp, seq" or the like: the compiled-in backends that run variant. */
static void backends_running(int variant, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < pf_backend_count() && used < len; i++)
        if (pf_apsp_kernels_for(pf_backend_at(i), variant))
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
                                     pf_backend_at(i)->name);
}

int pf_apsp_variant_check(const char *backend, const pf_apsp_options *opt, pf_status *st)
{
    pf_apsp_options defaults;
    if (!opt) { /* NULL options: the defaults */
        pf_apsp_options_init(&defaults);
        opt = &defaults;
    }
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
    const pf_device_ops *ops = is_auto ? NULL : pf_backend_find(backend);
    if (is_auto ? running[0] == '\0' : ops && !pf_apsp_kernels_for(ops, variant))
        return pf_fail(st, PF_E_USAGE, "--variant %s does not run on backend %s; it runs on: %s",
                       name, is_auto ? "auto" : backend, running[0] ? running : "none built");
    return PF_OK;
}

void pf_apsp_variant_label(const pf_device_ops *ops, pf_dev *dev, int kind, int variant,
                           int simd_width, const pf_logger *log, char *out, size_t len)
{
    if (variant == PF_FW_SIMD && ops->fw_simd) {
        char what[128];
        int32_t lanes = ops->fw_simd(dev, kind, simd_width, what, sizeof what);
        snprintf(out, len, lanes ? "simd: %s" : "plain (simd falls back: %s)", what);
        if (lanes == 0)
            pf_log(log, PF_LOG_WARNING, "--variant simd falls back to plain: %s", what);
        return;
    }
    snprintf(out, len, "%s", variant_names[pf_apsp_variant_for(ops, variant)]);
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
