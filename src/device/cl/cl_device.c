/* Queries of an OpenCL device and platform (strings, extensions, the
 * descriptor the backend lists) and the range check of a buffer: helpers
 * the other files of the backend use; this file calls none of them. */
#include "cl_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

/* ---- device properties ------------------------------------------------ */

static void trim(char *s)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    size_t lead = 0;
    while (isspace((unsigned char)s[lead]))
        lead++;
    if (lead)
        memmove(s, s + lead, len - lead + 1);
}

void pf_cl_device_string(cl_device_id device, cl_device_info what, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (clGetDeviceInfo(device, what, len - 1, buf, NULL) != CL_SUCCESS) {
        /* Too long for buf (or unsupported): fetch it whole, keep the head. */
        size_t need = 0;
        char *whole;
        buf[0] = '\0';
        if (clGetDeviceInfo(device, what, 0, NULL, &need) != CL_SUCCESS || !need ||
            !(whole = malloc(need)))
            return;
        if (clGetDeviceInfo(device, what, need, whole, NULL) == CL_SUCCESS)
            snprintf(buf, len, "%s", whole);
        free(whole);
    }
    buf[len - 1] = '\0';
    trim(buf);
}

void pf_cl_platform_string(cl_platform_id platform, cl_platform_info what, char *buf,
                           size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    size_t need = 0;
    if (clGetPlatformInfo(platform, what, 0, NULL, &need) != CL_SUCCESS || !need)
        return;
    char *whole = malloc(need);
    if (!whole)
        return;
    if (clGetPlatformInfo(platform, what, need, whole, NULL) == CL_SUCCESS)
        snprintf(buf, len, "%s", whole);
    free(whole);
    trim(buf);
}

static cl_ulong device_ulong(cl_device_id device, cl_device_info what)
{
    cl_ulong value = 0;
    if (clGetDeviceInfo(device, what, sizeof value, &value, NULL) != CL_SUCCESS)
        return 0;
    return value;
}

static cl_uint device_uint(cl_device_id device, cl_device_info what)
{
    cl_uint value = 0;
    if (clGetDeviceInfo(device, what, sizeof value, &value, NULL) != CL_SUCCESS)
        return 0;
    return value;
}

static const char *kind_of(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "gpu";
    if (type & CL_DEVICE_TYPE_CPU)
        return "cpu";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accel";
    return "other";
}

int pf_cl_has_extension(cl_device_id device, const char *ext)
{
    size_t need = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &need) != CL_SUCCESS || !need)
        return 0;
    char *list = malloc(need + 1);
    if (!list)
        return 0;
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, need, list, NULL) == CL_SUCCESS) {
        list[need] = '\0';
        size_t ext_len = strlen(ext);
        /* A whole space-separated token, not a prefix of a longer name. */
        for (char *p = strstr(list, ext); p && !found; p = strstr(p + 1, ext))
            found = (p == list || p[-1] == ' ') &&
                    (p[ext_len] == '\0' || p[ext_len] == ' ');
    }
    free(list);
    return found;
}

void pf_cl_describe(cl_device_id device, int index, pf_device_desc *desc)
{
    cl_device_type type = 0;
    memset(desc, 0, sizeof *desc);
    snprintf(desc->backend, sizeof desc->backend, "opencl");
    desc->index = index;
    pf_cl_device_string(device, CL_DEVICE_NAME, desc->name, sizeof desc->name);
    pf_cl_device_string(device, CL_DEVICE_VENDOR, desc->vendor, sizeof desc->vendor);
    if (clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
        type = 0;
    snprintf(desc->kind, sizeof desc->kind, "%s", kind_of(type));
    desc->compute_units = (int)device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    desc->global_mem = device_ulong(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    desc->max_alloc = device_ulong(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    desc->fp64 = pf_cl_has_extension(device, "cl_khr_fp64");
    desc->maxflow_bits = PF_MAXFLOW_32;
    if (pf_cl_has_extension(device, "cl_khr_int64_base_atomics"))
        desc->maxflow_bits |= PF_MAXFLOW_64;
    else
        snprintf(desc->limits, sizeof desc->limits,
                 "max-flow 32-bit only (no cl_khr_int64_base_atomics): a source "
                 "capacity of 2^31 - 1 or more needs --backend omp or seq");
}

/* ---- buffers ------------------------------------------------------------ */

