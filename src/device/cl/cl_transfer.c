/* OpenCL uploads and downloads.
 *
 * A blocking clEnqueueWriteBuffer/ReadBuffer from or to pageable memory is
 * staged by the driver through its own small pinned buffers on one thread,
 * which moves a fraction of what the bus allows. Big transfers go in
 * PF_STAGE_CHUNK pieces through pinned buffers of our own instead: made
 * with CL_MEM_ALLOC_HOST_PTR and kept mapped, which is how NVIDIA's OpenCL
 * hands out page-locked host memory. The host copies one piece
 * (pf_host_copy, on several threads) while a non-blocking read or write
 * moves the other; an event per buffer says when it is free. */
#include "cl_internal.h"

#include "common/status.h"

void pf_cl_staging_init(pf_dev *dev)
{
    int forced = 0;
    dev->stage_min = pf_pinned_min(&forced);
    /* A device that works in the host's memory (PoCL on the CPU) gains
     * nothing from a second copy; staging there is only for tests. */
    cl_bool unified = CL_FALSE;
    if (!forced && (clGetDeviceInfo(dev->device, CL_DEVICE_HOST_UNIFIED_MEMORY,
                                    sizeof unified, &unified, NULL) != CL_SUCCESS ||
                    unified))
        dev->stage_min = 0;
}

void pf_cl_staging_release(pf_dev *dev)
{
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        if (dev->stage[b] && dev->queue)
            clEnqueueUnmapMemObject(dev->queue, dev->stage_mem[b], dev->stage[b], 0, NULL,
                                    NULL);
        dev->stage[b] = NULL;
    }
    if (dev->queue)
        clFinish(dev->queue); /* the unmaps, before the release */
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        if (dev->stage_mem[b])
            clReleaseMemObject(dev->stage_mem[b]);
        dev->stage_mem[b] = NULL;
    }
    dev->stage_state = 0;
}

/* Whether the staging buffers are there, making and mapping them at the
 * first call. A failure is not an error: transfers take the direct path,
 * as before, and the buffers are not tried again on this device. */
static int staging_ready(pf_dev *dev)
{
    if (dev->stage_state != 0)
        return dev->stage_state == 1;
    dev->stage_state = 1;
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        cl_int err;
        dev->stage_mem[b] = clCreateBuffer(dev->context,
                                           CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                           PF_STAGE_CHUNK, NULL, &err);
        if (dev->stage_mem[b])
            dev->stage[b] = clEnqueueMapBuffer(dev->queue, dev->stage_mem[b], CL_TRUE,
                                               CL_MAP_READ | CL_MAP_WRITE, 0, PF_STAGE_CHUNK,
                                               0, NULL, NULL, &err);
        if (!dev->stage[b]) {
            pf_cl_staging_release(dev);
            dev->stage_state = -1;
            return 0;
        }
    }
    return 1;
}

static size_t chunk_at(size_t at, size_t bytes)
{
    return bytes - at < PF_STAGE_CHUNK ? bytes - at : PF_STAGE_CHUNK;
}

/* Waits for the copy that last used buffer b, if any, and forgets it. */
static cl_int wait_stage(cl_event *done)
{
    if (!*done)
        return CL_SUCCESS;
    cl_int err = clWaitForEvents(1, done);
    clReleaseEvent(*done);
    *done = NULL;
    return err;
}

/* Ends a staged transfer: every copy queued has finished (none may still
 * use a staging buffer when the next transfer fills it), then the first
 * failure, if any, is reported: `call` failed with err. */
static int staged_end(pf_dev *dev, cl_event *done, const char *call, cl_int err,
                      pf_status *st)
{
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        cl_int wait_err = wait_stage(&done[b]);
        if (!call && wait_err != CL_SUCCESS) {
            call = "clWaitForEvents(staging)";
            err = wait_err;
        }
    }
    cl_int finish_err = clFinish(dev->queue);
    if (!call && finish_err != CL_SUCCESS) {
        call = "clFinish";
        err = finish_err;
    }
    return call ? pf_cl_fail(st, call, err) : PF_OK;
}

static int staged_upload(pf_dev *dev, cl_mem dst, size_t offset, const char *src,
                         size_t bytes, pf_status *st)
{
    cl_event done[PF_STAGE_COUNT] = {0};
    cl_int err = CL_SUCCESS;
    const char *call = NULL;
    for (size_t at = 0, k = 0; at < bytes && !call; at += PF_STAGE_CHUNK, k++) {
        int b = (int)(k % PF_STAGE_COUNT);
        size_t len = chunk_at(at, bytes);
        if ((err = wait_stage(&done[b])) != CL_SUCCESS) {
            call = "clWaitForEvents(upload staging)";
            break;
        }
        pf_host_copy(dev->stage[b], src + at, len);
        err = clEnqueueWriteBuffer(dev->queue, dst, CL_FALSE, offset + at, len,
                                   dev->stage[b], 0, NULL, &done[b]);
        if (err != CL_SUCCESS)
            call = "clEnqueueWriteBuffer(from pinned staging)";
        /* Start it now, while the host fills the other buffer. */
        else if ((err = clFlush(dev->queue)) != CL_SUCCESS)
            call = "clFlush";
    }
    return staged_end(dev, done, call, err, st);
}

/* Queues the read of the piece at `at` into buffer b. */
static cl_int queue_read(pf_dev *dev, cl_mem src, size_t offset, size_t at, size_t bytes,
                         int b, cl_event *done)
{
    cl_int err = clEnqueueReadBuffer(dev->queue, src, CL_FALSE, offset + at,
                                     chunk_at(at, bytes), dev->stage[b], 0, NULL, &done[b]);
    return err != CL_SUCCESS ? err : clFlush(dev->queue);
}

static int staged_download(pf_dev *dev, cl_mem src, size_t offset, char *dst, size_t bytes,
                           pf_status *st)
{
    cl_event done[PF_STAGE_COUNT] = {0};
    cl_int err = CL_SUCCESS;
    const char *call = NULL;
    const size_t ahead = (size_t)PF_STAGE_COUNT * PF_STAGE_CHUNK;
    for (size_t at = 0, k = 0; at < bytes && k < PF_STAGE_COUNT; at += PF_STAGE_CHUNK, k++)
        if ((err = queue_read(dev, src, offset, at, bytes, (int)k, done)) != CL_SUCCESS) {
            call = "clEnqueueReadBuffer(to pinned staging)";
            return staged_end(dev, done, call, err, st);
        }
    for (size_t at = 0, k = 0; at < bytes; at += PF_STAGE_CHUNK, k++) {
        int b = (int)(k % PF_STAGE_COUNT);
        if ((err = wait_stage(&done[b])) != CL_SUCCESS) {
            call = "clWaitForEvents(download staging)";
            break;
        }
        pf_host_copy(dst + at, dev->stage[b], chunk_at(at, bytes));
        /* The buffer is free again: start the piece that goes there next. */
        if (bytes - at > ahead &&
            (err = queue_read(dev, src, offset, at + ahead, bytes, b, done)) != CL_SUCCESS) {
            call = "clEnqueueReadBuffer(to pinned staging)";
            break;
        }
    }
    return staged_end(dev, done, call, err, st);
}

int pf_cl_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                 pf_status *st)
{
    if (bytes == 0)
        return PF_OK;
    if (dev->stage_min && bytes >= dev->stage_min && staging_ready(dev))
        return staged_upload(dev, dst->mem, offset, src, bytes, st);
    /* A value of a pattern's size (1 to 128 bytes, a power of two, at an
     * offset it divides): a fill of one repetition, whose pattern the
     * queue copies when the call is made, so it need not wait for the
     * queue to drain as a blocking write does (a search's start writes
     * its source this way). */
    if (bytes <= 128 && (bytes & (bytes - 1)) == 0 && offset % bytes == 0) {
        cl_int err = clEnqueueFillBuffer(dev->queue, dst->mem, src, bytes, offset, bytes, 0,
                                         NULL, NULL);
        return err == CL_SUCCESS ? PF_OK : pf_cl_fail(st, "clEnqueueFillBuffer", err);
    }
    /* Blocking: the caller may free or reuse src right after. */
    cl_int err = clEnqueueWriteBuffer(dev->queue, dst->mem, CL_TRUE, offset, bytes, src, 0,
                                      NULL, NULL);
    return err == CL_SUCCESS ? PF_OK : pf_cl_fail(st, "clEnqueueWriteBuffer", err);
}

int pf_cl_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                   pf_status *st)
{
    if (bytes == 0)
        return PF_OK;
    if (dev->stage_min && bytes >= dev->stage_min && staging_ready(dev))
        return staged_download(dev, src->mem, offset, dst, bytes, st);
    cl_int err = clEnqueueReadBuffer(dev->queue, src->mem, CL_TRUE, offset, bytes, dst, 0,
                                     NULL, NULL);
    return err == CL_SUCCESS ? PF_OK : pf_cl_fail(st, "clEnqueueReadBuffer", err);
}
