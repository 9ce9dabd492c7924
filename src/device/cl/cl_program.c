/* Building the embedded OpenCL program: from the on-disk binary cache when
 * a matching binary exists, else from source (then cached). A failed
 * source build reports the compiler's log in the status message. */
#include "cl_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

#define PF_CL_KERNEL_NAME(ID, name) [PF_CLK_##ID] = "pf_k_" #name,
const char *const pf_cl_kernel_names[PF_CLK_COUNT] = {PF_CL_KERNELS(PF_CL_KERNEL_NAME)};
#undef PF_CL_KERNEL_NAME

/* Work-group size of every launch unless the device or a kernel allows
 * less; PORTAFLOW_CL_GROUP_SIZE overrides it (tuning, tests). */
#define DEFAULT_GROUP_SIZE 256
/* Rows per scan tile: a tile is group_size * rows elements. */
#define SCAN_ROWS 8
/* Room for the compiler log in a status message. */
#define LOG_EXCERPT 380

/* ---- build log -------------------------------------------------------- */

/* Fetches the build log (malloc'd, NUL-terminated) or NULL. */
static char *build_log(cl_program program, cl_device_id device)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) !=
            CL_SUCCESS || len == 0)
        return NULL;
    char *log = malloc(len + 1);
    if (!log)
        return NULL;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log, NULL) !=
        CL_SUCCESS) {
        free(log);
        return NULL;
    }
    log[len] = '\0';
    return log;
}

/* The useful part of a log, on one line: from the line of the first
 * "error" (warnings before it are noise), whitespace runs squeezed, cut
 * to fit out (out_len > 8) with a trailing "[...]". */
static void log_excerpt(const char *log, char *out, size_t out_len)
{
    const char *start = log;
    for (const char *p = log; *p; p++) {
        if (strncmp(p, "error", 5) == 0 || strncmp(p, "ERROR", 5) == 0) {
            while (p > log && p[-1] != '\n')
                p--;
            start = p;
            break;
        }
    }
    size_t n = 0;
    int truncated = 0, space = 0;
    for (const char *p = start; *p; p++) {
        if (isspace((unsigned char)*p)) {
            space = n > 0;
            continue;
        }
        if (n + (space ? 2 : 1) >= out_len) {
            truncated = 1;
            break;
        }
        if (space)
            out[n++] = ' ';
        space = 0;
        out[n++] = *p;
    }
    out[n] = '\0';
    if (truncated)
        snprintf(out + (n + 7 < out_len ? n : out_len - 7), 7, " [...]");
}

/* ---- building --------------------------------------------------------- */

static int build_from_source(pf_dev *dev, const char *text, size_t len,
                             const char *options, cl_program *program, pf_status *st)
{
    cl_int err;
    *program = clCreateProgramWithSource(dev->context, 1, &text, &len, &err);
    if (!*program)
        return pf_cl_fail(st, "clCreateProgramWithSource", err);
    err = clBuildProgram(*program, 1, &dev->device, options, NULL, NULL);
    if (err == CL_SUCCESS)
        return PF_OK;
    char *log = build_log(*program, dev->device);
    char excerpt[LOG_EXCERPT + 8] = "";
    if (log)
        log_excerpt(log, excerpt, sizeof excerpt);
    free(log);
    const char *name = pf_cl_error_name(err);
    pf_fail(st, PF_E_DEVICE, "clBuildProgram(%s): %s%s%s", dev->desc.name,
            name ? name : "unknown OpenCL error", excerpt[0] ? ": " : "", excerpt);
    clReleaseProgram(*program);
    *program = NULL;
    return PF_E_DEVICE;
}

/* 0 if the cached binary was accepted and built; else leaves no program. */
static int build_from_binary(pf_dev *dev, const unsigned char *bin, size_t len,
                             const char *options, cl_program *program)
{
    cl_int err, binary_status = CL_SUCCESS;
    *program = clCreateProgramWithBinary(dev->context, 1, &dev->device, &len, &bin,
                                         &binary_status, &err);
    if (!*program)
        return -1;
    if (err != CL_SUCCESS || binary_status != CL_SUCCESS ||
        clBuildProgram(*program, 1, &dev->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(*program);
        *program = NULL;
        return -1;
    }
    return 0;
}

static void store_binary(cl_program program, const char *path, const char *key)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
            CL_SUCCESS || size == 0)
        return;
    unsigned char *bin = malloc(size);
    if (!bin)
        return;
    unsigned char *binaries[1] = {bin};
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL) ==
        CL_SUCCESS)
        pf_cl_cache_store(path, key, bin, size);
    free(bin);
}

/* The cache key: everything that can change the binary. NULL when the
 * cache is turned off (or out of memory). */
static char *cache_key(pf_dev *dev, const char *source, size_t source_len,
                       const char *options)
{
    if (!pf_cl_cache_wanted())
        return NULL;
    char platform[256], platform_version[256], device_version[128], driver[128];
    pf_cl_platform_string(dev->platform, CL_PLATFORM_NAME, platform, sizeof platform);
    pf_cl_platform_string(dev->platform, CL_PLATFORM_VERSION, platform_version,
                          sizeof platform_version);
    pf_cl_device_string(dev->device, CL_DEVICE_VERSION, device_version,
                        sizeof device_version);
    pf_cl_device_string(dev->device, CL_DRIVER_VERSION, driver, sizeof driver);
    uint64_t source_hash = pf_cl_hash(source, source_len, PF_CL_HASH_SEED);
    size_t len = 256 + strlen(platform) + strlen(platform_version) +
                 strlen(dev->desc.name) + strlen(device_version) + strlen(driver) +
                 strlen(options);
    char *key = malloc(len);
    if (key)
        snprintf(key, len,
                 "portaflow OpenCL program v1\nplatform: %s\nplatform version: %s\n"
                 "device: %s\ndevice version: %s\ndriver version: %s\noptions: %s\n"
                 "source: %016llx %zu\n",
                 platform, platform_version, dev->desc.name, device_version, driver,
                 options, (unsigned long long)source_hash, source_len);
    return key;
}

/* ---- launch geometry -------------------------------------------------- */

static size_t floor_pow2(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x && p * 2 > p)
        p *= 2;
    return p;
}

/* Mesa's rusticl on llvmpipe (22.3.6) leaves owner[] claims of
 * pf_k_push_relabel_follow set after the kernel when a work-group is wider
 * than the device's SIMD width (its native int vector width, 8 at 256
 * bits): the claimed vertices are then skipped for good and phase 1
 * stalls. It does not happen up to that width, with one operation per
 * worker, on PoCL, NVIDIA or OpenMP; the body holds one claim per worker
 * at any time and releases it, so this is taken for a defect of that
 * stack and worked around here: work-groups no wider than that on
 * rusticl's CPU device. */
static size_t quirk_group_limit(pf_dev *dev, size_t limit)
{
    char platform[64];
    pf_cl_platform_string(dev->platform, CL_PLATFORM_NAME, platform, sizeof platform);
    if (strcmp(platform, "rusticl") != 0 || strcmp(dev->desc.kind, "cpu") != 0)
        return limit;
    cl_uint lanes = 0;
    if (clGetDeviceInfo(dev->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof lanes, &lanes,
                        NULL) != CL_SUCCESS || lanes == 0)
        return limit;
    return lanes < limit ? lanes : limit;
}

/* The largest power-of-two work-group size that every kernel, the device
 * and the local memory (2 int64 per work-item for the scans) allow. */
static int choose_geometry(pf_dev *dev, pf_status *st)
{
    size_t limit = DEFAULT_GROUP_SIZE, device_max = 0, item_sizes[3] = {0, 0, 0};
    cl_ulong local_mem = 0;
    if (pf_knobs()->cl_group_size != PF_KNOB_AUTO)
        limit = (size_t)pf_knobs()->cl_group_size;
    if (clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max,
                        &device_max, NULL) == CL_SUCCESS && device_max && device_max < limit)
        limit = device_max;
    if (clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes,
                        item_sizes, NULL) == CL_SUCCESS && item_sizes[0] &&
        item_sizes[0] < limit)
        limit = item_sizes[0];
    clGetDeviceInfo(dev->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem,
                    NULL);
    for (int w = 0; w < PF_CL_WIDTHS; w++)
        for (int k = 0; dev->programs[w] && k < PF_CLK_COUNT; k++) {
            size_t kernel_max = 0;
            cl_ulong kernel_local = 0;
            cl_int err = clGetKernelWorkGroupInfo(dev->kernels[w][k], dev->device,
                                                  CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max,
                                                  &kernel_max, NULL);
            if (err != CL_SUCCESS)
                return pf_cl_fail_on(st, "clGetKernelWorkGroupInfo", pf_cl_kernel_names[k],
                                     err);
            if (kernel_max && kernel_max < limit)
                limit = kernel_max;
            if (clGetKernelWorkGroupInfo(dev->kernels[w][k], dev->device,
                                         CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                         &kernel_local, NULL) == CL_SUCCESS &&
                local_mem > kernel_local) {
                cl_ulong room = (local_mem - kernel_local) / (2 * sizeof(cl_long));
                if (room < limit)
                    limit = (size_t)room;
            }
        }
    limit = quirk_group_limit(dev, limit);
    dev->group_size = floor_pow2(limit ? limit : 1);
    /* A work-group per active vertex pays on GPUs (latency-bound rounds);
     * on CPUs one work-item per vertex is the faster mapping. */
    size_t lanes = pf_knobs()->cl_push_lanes != PF_KNOB_AUTO ? (size_t)pf_knobs()->cl_push_lanes
                   : strcmp(dev->desc.kind, "gpu") == 0 ? 32 : 1;
    lanes = lanes < 1 ? 1 : floor_pow2(lanes);
    dev->push_lanes = (int)(lanes < dev->group_size ? lanes : dev->group_size);
    dev->scan_rows = dev->group_size >= 2 ? SCAN_ROWS : 2 * SCAN_ROWS;
    int units = dev->desc.compute_units > 0 ? dev->desc.compute_units : 1;
    dev->stride_groups = (size_t)units * 4;
    return PF_OK;
}

/* ---- entry ------------------------------------------------------------ */

static void release_kernels(cl_program *program, cl_kernel *kernels, int count)
{
    for (int k = 0; k < count; k++) {
        if (kernels[k])
            clReleaseKernel(kernels[k]);
        kernels[k] = NULL;
    }
    if (*program)
        clReleaseProgram(*program);
    *program = NULL;
}

static int create_kernels(cl_program program, const char *const *names, int count,
                          cl_kernel *kernels, pf_status *st)
{
    for (int k = 0; k < count; k++) {
        cl_int err;
        kernels[k] = clCreateKernel(program, names[k], &err);
        if (!kernels[k])
            return pf_cl_fail_on(st, "clCreateKernel", names[k], err);
    }
    return PF_OK;
}

int pf_cl_build_program(pf_dev *dev, const char *source, size_t source_len,
                        const char *options, const char *const *names, int count,
                        cl_program *program, cl_kernel *kernels, pf_status *st)
{
    *program = NULL;
    for (int k = 0; k < count; k++)
        kernels[k] = NULL;
    char *key = cache_key(dev, source, source_len, options);
    char *path = key ? pf_cl_cache_path(key) : NULL;
    if (path) {
        size_t len = 0;
        unsigned char *bin = pf_cl_cache_load(path, key, &len);
        if (bin)
            build_from_binary(dev, bin, len, options, program); /* none on failure */
        free(bin);
    }
    int rc = PF_OK;
    if (*program && create_kernels(*program, names, count, kernels, NULL) != PF_OK) {
        /* A cached binary that builds but lacks a kernel: distrust it. */
        release_kernels(program, kernels, count);
    }
    if (!*program) {
        rc = build_from_source(dev, source, source_len, options, program, st);
        if (rc == PF_OK && path)
            store_binary(*program, path, key);
        if (rc == PF_OK)
            rc = create_kernels(*program, names, count, kernels, st);
        if (rc)
            release_kernels(program, kernels, count);
    }
    free(path);
    free(key);
    return rc;
}

void pf_cl_steps_options(int width, int atom64, char *out, size_t len)
{
    /* The counter slots come from device.h, so the kernels cannot drift. */
    snprintf(out, len, "-cl-std=CL1.2 -DPF_CTR_WORK_SLOT=%d -DPF_CAP_BITS=%d -DPF_ATOM64=%d",
             (int)PF_CTR_WORK, width == PF_CL_CAP32 ? 32 : 64, atom64 ? 1 : 0);
}

static int build_width(pf_dev *dev, int width, pf_status *st)
{
    char options[160];
    pf_cl_steps_options(width, dev->atom64, options, sizeof options);
    return pf_cl_build_program(dev, pf_cl_program_source, pf_cl_program_source_len, options,
                               pf_cl_kernel_names, PF_CLK_COUNT, &dev->programs[width],
                               dev->kernels[width], st);
}

int pf_cl_build(pf_dev *dev, pf_status *st)
{
    int rc = build_width(dev, dev->base, st);
    if (rc)
        return rc;
    return choose_geometry(dev, st);
}

int pf_cl_kernels_for(pf_dev *dev, int bits, cl_kernel **kernels, pf_status *st)
{
    int width = bits == 32 ? PF_CL_CAP32 : PF_CL_CAP64;
    if (width == PF_CL_CAP64 && !dev->atom64)
        return pf_fail(st, PF_E_DEVICE,
                       "opencl: %s lacks cl_khr_int64_base_atomics, so it runs max-flow with "
                       "32-bit residuals only",
                       dev->desc.name);
    if (!dev->programs[width]) {
        int rc = build_width(dev, width, st);
        /* The new kernels may allow smaller work-groups than the others. */
        if (!rc)
            rc = choose_geometry(dev, st);
        if (rc)
            return rc;
    }
    *kernels = dev->kernels[width];
    return PF_OK;
}
