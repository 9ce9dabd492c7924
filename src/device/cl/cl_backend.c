/* OpenCL backend: the ops table (device.h) and the ops that are not
 * steps: device discovery, open/close, buffers. The step launches are in
 * cl_steps.c, cl_apsp.c and cl_fw_*.c, the program build in cl_program.c,
 * transfers in cl_transfer.c, device queries in cl_device.c; none of them
 * calls back into this file. */
#include "cl_internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

#define MIB (1024.0 * 1024.0)

/* ---- discovery ---------------------------------------------------------- */

/* Probe order: GPUs first, so that index 0 is the best device. */
static int kind_rank(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return 0;
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return 1;
    if (type & CL_DEVICE_TYPE_CPU)
        return 2;
    return 3;
}

static void why_append(char *why, size_t why_len, const char *fmt, ...) PF_PRINTF(3, 4);
static void why_append(char *why, size_t why_len, const char *fmt, ...)
{
    if (!why || !why_len)
        return;
    size_t used = strlen(why);
    if (used && used + 2 < why_len) {
        snprintf(why + used, why_len - used, "; ");
        used += 2;
    }
    if (used + 1 >= why_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + used, why_len - used, fmt, ap);
    va_end(ap);
}

/* NULL if the device can run this backend, else why not. */
static const char *unusable_reason(cl_device_id device)
{
    cl_bool flag = CL_FALSE;
    if (clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof flag, &flag, NULL) !=
            CL_SUCCESS || !flag)
        return "is not available";
    flag = CL_FALSE;
    if (clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof flag, &flag, NULL) !=
            CL_SUCCESS || !flag)
        return "has no OpenCL C compiler";
    char version[64];
    int major = 0, minor = 0;
    pf_cl_device_string(device, CL_DEVICE_VERSION, version, sizeof version);
    if (sscanf(version, "OpenCL %d.%d", &major, &minor) != 2 ||
        major * 100 + minor < 102)
        return "supports less than OpenCL 1.2";
    /* Without 64-bit atomics the counters are added in two 32-bit words,
     * low word first (pf_vendor.h). */
    cl_bool little = CL_FALSE;
    if (!pf_cl_has_extension(device, "cl_khr_int64_base_atomics") &&
        (clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL) !=
             CL_SUCCESS || !little))
        return "lacks cl_khr_int64_base_atomics and is big-endian";
    return NULL;
}

/* PORTAFLOW_CL_PLATFORM: only platforms whose name contains it (case
 * blind), e.g. "rusticl" or "Portable"; unset or empty = every platform. */
static int platform_wanted(cl_platform_id platform)
{
    const char *want = pf_knobs()->cl_platform;
    if (!*want)
        return 1;
    char name[256];
    pf_cl_platform_string(platform, CL_PLATFORM_NAME, name, sizeof name);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (want[i] && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)want[i]))
            i++;
        if (!want[i])
            return 1;
    }
    return 0;
}

/* Lists every usable device of every platform in probe order into
 * *refs (malloc'd; the caller frees it) and returns their number. Devices
 * that cannot run this backend go to why with the reason. Never fails
 * hard: -1 only when the host is out of memory. */
static int enumerate(pf_cl_device_ref **refs, char *why, size_t why_len)
{
    *refs = NULL;
    cl_uint nplatforms = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &nplatforms);
    if (err != CL_SUCCESS || nplatforms == 0) {
        const char *name = err == CL_SUCCESS ? "no platform registered"
                                             : pf_cl_error_name(err);
        if (name)
            why_append(why, why_len,
                       "no OpenCL platform found (ICD loader: clGetPlatformIDs: %s)", name);
        else
            why_append(why, why_len,
                       "no OpenCL platform found (ICD loader: clGetPlatformIDs: error %d)",
                       (int)err);
        return 0;
    }
    cl_platform_id *platforms = calloc(nplatforms, sizeof *platforms);
    if (!platforms)
        return -1;
    err = clGetPlatformIDs(nplatforms, platforms, NULL);
    if (err != CL_SUCCESS) {
        why_append(why, why_len, "clGetPlatformIDs: %s",
                   pf_cl_error_name(err) ? pf_cl_error_name(err) : "unknown error");
        free(platforms);
        return 0;
    }

    int count = 0, cap = 0, seen = 0;
    pf_cl_device_ref *list = NULL;
    int skipped = 0;
    for (cl_uint p = 0; p < nplatforms; p++) {
        cl_uint ndevices = 0;
        if (!platform_wanted(platforms[p])) {
            skipped++;
            continue;
        }
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndevices);
        if (err != CL_SUCCESS && err != CL_DEVICE_NOT_FOUND) {
            char name[128];
            pf_cl_platform_string(platforms[p], CL_PLATFORM_NAME, name, sizeof name);
            const char *err_name = pf_cl_error_name(err);
            why_append(why, why_len, "OpenCL platform '%s': clGetDeviceIDs: %s", name,
                       err_name ? err_name : "unknown error");
        }
        if (err != CL_SUCCESS || ndevices == 0)
            continue; /* CL_DEVICE_NOT_FOUND: a platform without devices */
        cl_device_id *devices = calloc(ndevices, sizeof *devices);
        if (!devices)
            break;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndevices, devices, NULL) !=
            CL_SUCCESS)
            ndevices = 0;
        for (cl_uint d = 0; d < ndevices; d++) {
            seen++;
            const char *reason = unusable_reason(devices[d]);
            if (reason) {
                char name[128];
                pf_cl_device_string(devices[d], CL_DEVICE_NAME, name, sizeof name);
                why_append(why, why_len, "OpenCL device '%s' %s", name, reason);
                continue;
            }
            if (count == cap) {
                int grown = cap ? 2 * cap : 8;
                pf_cl_device_ref *bigger = realloc(list, (size_t)grown * sizeof *list);
                if (!bigger)
                    continue;
                list = bigger;
                cap = grown;
            }
            cl_device_type type = 0;
            if (clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, NULL) !=
                CL_SUCCESS)
                type = 0;
            /* Insertion keeps the order stable within a kind. */
            int at = count;
            while (at > 0 && kind_rank(list[at - 1].type) > kind_rank(type)) {
                list[at] = list[at - 1];
                at--;
            }
            list[at] = (pf_cl_device_ref){platforms[p], devices[d], type};
            count++;
        }
        free(devices);
    }
    free(platforms);
    if (seen == 0 && skipped)
        why_append(why, why_len, "no OpenCL device on a platform matching "
                   "PORTAFLOW_CL_PLATFORM='%s' (%d of %u platform(s) left out)",
                   pf_knobs()->cl_platform, skipped, (unsigned)nplatforms);
    else if (seen == 0)
        why_append(why, why_len, "no OpenCL device found on %u platform(s)",
                   (unsigned)nplatforms);
    *refs = list;
    return count;
}

static int cl_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    if (why && why_len)
        why[0] = '\0';
    pf_cl_device_ref *refs = NULL;
    int count = enumerate(&refs, why, why_len);
    if (count < 0) {
        why_append(why, why_len, "out of host memory while listing OpenCL devices");
        return 0;
    }
    if (!descs || max <= 0) {
        free(refs);
        return count;
    }
    int written = count < max ? count : max;
    for (int i = 0; i < written; i++)
        pf_cl_describe(refs[i].device, i, &descs[i]);
    free(refs);
    return written;
}

/* ---- open / close ----------------------------------------------------- */

/* Closed devices wait here, context, queue and built program included, for
 * the next open of the same device in this process: creating the context
 * and loading the program cost more than a whole solve of a small
 * instance on a GPU. A solve takes a device out of the pool and so has it
 * to itself; nothing else waits here (graph buffers are freed before
 * close). The pool is never emptied: it stays reachable until the process
 * ends, when the driver frees everything. PORTAFLOW_CL_REUSE=0 turns it off. */
enum { POOL_SLOTS = 8 };
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pf_dev *pool[POOL_SLOTS];

static int pool_enabled(void)
{
    return pf_knobs()->cl_reuse != 0;
}

/* An idle device for `device`, or NULL. */
static pf_dev *pool_take(cl_device_id device)
{
    pf_dev *found = NULL;
    pthread_mutex_lock(&pool_lock);
    for (int k = 0; k < POOL_SLOTS && !found; k++)
        if (pool[k] && pool[k]->device == device) {
            found = pool[k];
            pool[k] = NULL;
        }
    pthread_mutex_unlock(&pool_lock);
    return found;
}

/* Whether dev went into the pool; a queue that cannot finish (a device
 * fault) never does. */
static int pool_put(pf_dev *dev)
{
    if (!pool_enabled() || !dev->queue || !dev->programs[dev->base] ||
        clFinish(dev->queue) != CL_SUCCESS)
        return 0;
    int stored = 0;
    pthread_mutex_lock(&pool_lock);
    for (int k = 0; k < POOL_SLOTS && !stored; k++)
        if (!pool[k]) {
            pool[k] = dev;
            stored = 1;
        }
    pthread_mutex_unlock(&pool_lock);
    return stored;
}

static void cl_close(pf_dev *dev)
{
    if (!dev || pool_put(dev))
        return;
    pf_cl_steps_release(dev);
    pf_cl_fw_release(dev);
    pf_cl_fw_perk_release(dev);
    pf_cl_fw_stats_release(dev);
    pf_cl_graph_release(dev);
    pf_cl_staging_release(dev);
    for (int w = 0; w < PF_CL_WIDTHS; w++) {
        for (int k = 0; k < PF_CLK_COUNT; k++)
            if (dev->kernels[w][k])
                clReleaseKernel(dev->kernels[w][k]);
        if (dev->programs[w])
            clReleaseProgram(dev->programs[w]);
    }
    if (dev->queue) {
        clFinish(dev->queue);
        clReleaseCommandQueue(dev->queue);
    }
    if (dev->context)
        clReleaseContext(dev->context);
    free(dev);
}

static int cl_open(const pf_open_params *params, pf_dev **out, pf_device_desc *desc,
                   pf_status *st)
{
    *out = NULL;
    int index = params && params->device_index >= 0 ? params->device_index : 0;
    char why[400] = "";
    pf_cl_device_ref *refs = NULL;
    int count = enumerate(&refs, why, sizeof why);
    if (count < 0)
        return pf_fail(st, PF_E_NOMEM, "out of host memory while listing OpenCL devices");
    if (count == 0)
        return pf_fail(st, PF_E_DEVICE, "no usable OpenCL device: %s", why);
    if (index >= count) {
        free(refs);
        return pf_fail(st, PF_E_DEVICE,
                       "OpenCL device %d does not exist (%d usable device%s, 0..%d)",
                       index, count, count == 1 ? "" : "s", count - 1);
    }
    pf_dev *dev = pool_enabled() ? pool_take(refs[index].device) : NULL;
    if (dev) {
        free(refs);
        pf_cl_staging_init(dev); /* PORTAFLOW_PINNED may have changed */
        if (desc)
            *desc = dev->desc;
        *out = dev;
        return PF_OK;
    }
    dev = pf_calloc(1, sizeof *dev, st);
    if (!dev) {
        free(refs);
        return PF_E_NOMEM;
    }
    dev->platform = refs[index].platform;
    dev->device = refs[index].device;
    free(refs);
    pf_cl_describe(dev->device, index, &dev->desc);
    dev->max_alloc = dev->desc.max_alloc;
    dev->global_mem = dev->desc.global_mem;
    dev->atom64 = (dev->desc.maxflow_bits & PF_MAXFLOW_64) != 0;
    dev->base = dev->atom64 ? PF_CL_CAP64 : PF_CL_CAP32;

    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)dev->platform, 0};
    dev->context = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (!dev->context) {
        pf_cl_fail_on(st, "clCreateContext", dev->desc.name, err);
        cl_close(dev);
        return PF_E_DEVICE;
    }
    dev->queue = clCreateCommandQueue(dev->context, dev->device, 0, &err);
    if (!dev->queue) {
        pf_cl_fail(st, "clCreateCommandQueue", err);
        cl_close(dev);
        return PF_E_DEVICE;
    }
    int rc = pf_cl_build(dev, st);
    if (rc) {
        cl_close(dev);
        return rc;
    }
    pf_cl_staging_init(dev);
    dev->scan_total = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, sizeof(cl_long),
                                     NULL, &err);
    if (!dev->scan_total) {
        pf_cl_fail(st, "clCreateBuffer", err);
        cl_close(dev);
        return PF_E_DEVICE;
    }
    if (desc)
        *desc = dev->desc;
    *out = dev;
    return PF_OK;
}

/* ---- buffers ---------------------------------------------------------- */

/* The largest fill pattern (8, 4, 2 or 1 bytes) whose size divides n. */
static size_t pattern_size_for(size_t n)
{
    size_t p = 8;
    while (p > 1 && n % p)
        p /= 2;
    return p;
}

static int cl_alloc(pf_dev *dev, size_t bytes, pf_buf **out, pf_status *st)
{
    *out = NULL;
    /* A limit the driver did not report (0) is not enforced here. */
    if (dev->max_alloc && bytes > dev->max_alloc)
        return pf_fail(st, PF_E_DEVICE,
                       "buffer of %.1f MiB (%zu bytes) exceeds the device's max "
                       "allocation of %.1f MiB (CL_DEVICE_MAX_MEM_ALLOC_SIZE, %s)",
                       (double)bytes / MIB, bytes, (double)dev->max_alloc / MIB, dev->desc.name);
    if (dev->global_mem && bytes > dev->global_mem)
        return pf_fail(st, PF_E_DEVICE,
                       "buffer of %.1f MiB exceeds the device's global memory of "
                       "%.1f MiB (%s)", (double)bytes / MIB, (double)dev->global_mem / MIB,
                       dev->desc.name);
    /* Zero-sized buffers are invalid in OpenCL; round up to whole int64s
     * where the limit allows, so fills can use 8-byte patterns. */
    size_t cl_bytes = bytes ? bytes : 8;
    size_t padded = cl_bytes % 8 ? cl_bytes + (8 - cl_bytes % 8) : cl_bytes;
    if (!dev->max_alloc || padded <= dev->max_alloc)
        cl_bytes = padded;

    pf_buf *buf = pf_calloc(1, sizeof *buf, st);
    if (!buf)
        return PF_E_NOMEM;
    cl_int err;
    buf->mem = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, cl_bytes, NULL, &err);
    if (!buf->mem) {
        free(buf);
        return pf_cl_fail(st, "clCreateBuffer", err);
    }
    buf->bytes = bytes;
    /* Many drivers allocate at first use: touch the whole buffer now, so an
     * oversubscribed device fails here with a clear message rather than in
     * the middle of a solve. Zeroed contents are a bonus. */
    const cl_ulong zero = 0;
    err = clEnqueueFillBuffer(dev->queue, buf->mem, &zero, pattern_size_for(cl_bytes), 0,
                              cl_bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(dev->queue);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(buf->mem);
        free(buf);
        char what[96];
        snprintf(what, sizeof what, "touching a new %.1f MiB buffer", (double)bytes / MIB);
        return pf_cl_fail_on(st, "clEnqueueFillBuffer", what, err);
    }
    *out = buf;
    return PF_OK;
}

static void cl_release(pf_dev *dev, pf_buf *buf)
{
    (void)dev;
    if (!buf)
        return;
    if (buf->mem)
        clReleaseMemObject(buf->mem);
    free(buf);
}

static int fill(pf_dev *dev, pf_buf *buf, const void *pattern, size_t size, int64_t count,
                pf_status *st)
{
    if (count == 0)
        return PF_OK;
    cl_int err = clEnqueueFillBuffer(dev->queue, buf->mem, pattern, size, 0,
                                     (size_t)count * size, 0, NULL, NULL);
    return err == CL_SUCCESS ? PF_OK : pf_cl_fail(st, "clEnqueueFillBuffer", err);
}

static int cl_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count,
                       pf_status *st)
{
    cl_int pattern = value;
    return fill(dev, buf, &pattern, sizeof pattern, count, st);
}

static int cl_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count,
                       pf_status *st)
{
    cl_long pattern = value;
    return fill(dev, buf, &pattern, sizeof pattern, count, st);
}

static int cl_sync(pf_dev *dev, pf_status *st)
{
    cl_int err = clFinish(dev->queue);
    return err == CL_SUCCESS ? PF_OK : pf_cl_fail(st, "clFinish", err);
}

const pf_device_ops pf_backend_opencl = {
    .name = "opencl",
    .caps = {.maxflow_steps = 1, .maxflow_bits = PF_MAXFLOW_32 | PF_MAXFLOW_64},
    .probe = cl_probe,
    .open = cl_open,
    .close = cl_close,
    .alloc = cl_alloc,
    .release = cl_release,
    .upload = pf_cl_upload,
    .download = pf_cl_download,
    .fill_i32 = cl_fill_i32,
    .fill_i64 = cl_fill_i64,
    .sync = cl_sync,
    .scan_i32 = pf_cl_scan_i32,
    .filter_i32 = pf_cl_filter_i32,
    .put_at = pf_cl_put_at,
    .take_at = pf_cl_take_at,
    .mark_changed = pf_cl_mark_changed,
    .mark_active = pf_cl_mark_active,
    .saturate_from = pf_cl_saturate_from,
    .push_relabel = pf_cl_push_relabel,
    .cancel_violations = pf_cl_cancel_violations,
    .sum_excess = pf_cl_sum_excess,
    .bfs_levels = pf_cl_bfs_levels,
    .fw_tile = pf_cl_fw_tile,
    .fw_phase = pf_cl_fw_phase,
    .fw_variants = 1u << PF_FW_PER_K,
    .fw_step = pf_cl_fw_step,
    .fw_stats = pf_cl_fw_stats,
    .bfs_push = pf_cl_bfs_push,
    .bfs_pull = pf_cl_bfs_pull,
    .bfs_parents = pf_cl_bfs_parents,
    .sssp_relax = pf_cl_sssp_relax,
    .sssp_far = pf_cl_sssp_far,
    .sssp_bucket_steps = pf_cl_sssp_bucket_steps,
    .intersect_count = pf_cl_intersect_count,
};
