/* The seq backend's ops table (contract: src/device/device.h): the host's
 * one-thread engines behind the same interface as the devices. Max-flow is
 * a whole solve (the highest-label engine of seq_engine.c, or by the
 * method Boykov-Kolmogorov's of seq_bk.c; no steps); APSP
 * runs the plain Floyd-Warshall step on buffers in host memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/knobs.h"
#include "../../common/status.h"
#include "../shared/pf_fw_row.h"
#include "../shared/pf_host_device.h"
#include "seq_engine.h"

/* A buffer is host memory (pf_host_device.h). The device holds no state, so
 * every open hands out the same one (and an open on another thread
 * allocates nothing: no malloc arena of its own). */
struct pf_dev {
    int unused;
};

static pf_dev the_host;

#define SEQ_DEVICE_NAME "host CPU, 1 thread"

static void describe(pf_device_desc *d)
{
    pf_host_describe(d, "seq", "portaflow", 1);
    strcpy(d->name, SEQ_DEVICE_NAME);
}

static int seq_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    if (why && why_len)
        why[0] = '\0';
    if (max > 0)
        describe(&descs[0]);
    return 1;
}

static int seq_open(const pf_open_params *params, pf_dev **out, pf_device_desc *desc,
                    pf_status *st)
{
    int rc = pf_host_check_index("seq", params->device_index, st);
    if (!rc) {
        describe(desc);
        *out = &the_host;
    }
    return rc;
}

static void seq_close(pf_dev *dev)
{
    (void)dev;
}

static int seq_alloc(pf_dev *dev, size_t bytes, pf_buf **out, pf_status *st)
{
    (void)dev;
    return pf_host_buf_alloc("seq", bytes, out, st);
}

/* count copies of the elem-byte value, one after another. */
static void fill(pf_buf *buf, const void *value, size_t elem, int64_t count)
{
    for (int64_t i = 0; i < count; i++)
        memcpy(buf->data + (size_t)i * elem, value, elem);
}

static int seq_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count, pf_status *st)
{
    (void)dev, (void)st;
    fill(buf, &value, sizeof value, count);
    return PF_OK;
}

static int seq_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, pf_status *st)
{
    (void)dev, (void)st;
    fill(buf, &value, sizeof value, count);
    return PF_OK;
}

static int seq_maxflow_solve(const struct pf_residual *g, const pf_solve_options *opt,
                             pf_engine_out *out, pf_status *st)
{
    strcpy(out->device, SEQ_DEVICE_NAME);
    double given_up_s = 0;
    if (pf_seq_takes_bk(g, opt)) {
        /* Chosen by the network's shape, it may give up (a network whose
         * augmenting paths are long after all): push-relabel from the
         * start then, the time spent counted in. */
        int gave_up;
        int rc = pf_seq_bk_solve(g, opt, !opt || opt->method == PF_METHOD_AUTO, out, &gave_up, st);
        if (rc || !gave_up) {
            out->method = PF_METHOD_BOYKOV_KOLMOGOROV;
            return rc;
        }
        given_up_s = out->times.total;
        if (pf_knobs()->trace)
            fprintf(stderr, "portaflow trace: seq: Boykov-Kolmogorov gave up after %.4f s; "
                            "push-relabel\n", given_up_s);
    }
    int rc = pf_seq_solve(g, opt, out, st);
    out->times.setup += given_up_s;
    out->times.total += given_up_s;
    return rc;
}

PF_FW_PLAIN_ROW(i32, int32_t, )
PF_FW_PLAIN_ROW(i64, int64_t, )
PF_FW_PLAIN_ROW(f32, float, )

/* Step k of the plain triple loop, one row after another. */
static int seq_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                       pf_status *st)
{
    (void)dev, (void)variant, (void)st;
    int32_t *next = a->next ? (int32_t *)(void *)a->next->data : NULL;
    void *dist = a->dist->data;
    for (int64_t i = 0; i < a->n; i++) {
        if (a->kind == PF_DIST_I32)
            pf_fw_plain_row_i32(dist, next, a->n, i, k);
        else if (a->kind == PF_DIST_I64)
            pf_fw_plain_row_i64(dist, next, a->n, i, k);
        else
            pf_fw_plain_row_f32(dist, next, a->n, i, k);
    }
    return PF_OK;
}

const pf_device_ops pf_backend_seq = {
    .name = "seq",
    .caps = {.forward_first_arcs = 1, .host_cpu = 1, .one_thread = 1, .maxflow_bk = 1,
             .maxflow_bits = PF_MAXFLOW_64},
    .probe = seq_probe,
    .open = seq_open,
    .close = seq_close,
    .alloc = seq_alloc,
    PF_HOST_BUFFER_OPS,
    .fill_i32 = seq_fill_i32,
    .fill_i64 = seq_fill_i64,
    .maxflow_solve = seq_maxflow_solve,
    .fw_variants = 1u << PF_FW_PLAIN,
    .fw_step = seq_fw_step,
};
