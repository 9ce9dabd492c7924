/* The APSP result's download overlapped with the caller's output: a helper
 * thread downloads the distance matrix a block of rows at a time (the
 * device's blocking download, so any backend serves) and turns each block
 * into result rows (pf_apsp_extract_rows, in order: rows move down in
 * place), while the calling thread hands the rows that are ready to the
 * caller's sink. */
#include <pthread.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "apsp.h"

enum {
    STREAM_BLOCK_BYTES = 64 << 20, /* most per download: large enough to run at full speed */
    STREAM_BLOCKS_MIN = 8,         /* fewer, smaller blocks for small matrices: the first
                                      arrives early, and every size takes this path */
};

typedef struct stream {
    const pf_device_ops *ops;
    pf_dev *dev;
    pf_buf *buf;
    unsigned char *host;
    size_t row_bytes;
    int64_t n, hop_scale; /* the result's order; pf_apsp_extract_rows' scale */
    int kind;
    int64_t rows, block_rows; /* rows to download (the padded order), rows per block */
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    int64_t ready; /* rows downloaded so far (guarded by lock) */
    int rc;        /* download status (guarded by lock) */
    pf_status st;
    double done_at; /* when the last block arrived */
} stream;

static void *download_main(void *arg)
{
    stream *s = arg;
    int rc = PF_OK;
    for (int64_t first = 0; !rc && first < s->rows; first += s->block_rows) {
        int64_t count = s->rows - first < s->block_rows ? s->rows - first : s->block_rows;
        size_t offset = (size_t)first * s->row_bytes, bytes = (size_t)count * s->row_bytes;
        rc = s->ops->download(s->dev, s->buf, offset, s->host + offset, bytes, &s->st);
        if (!rc && first < s->n)
            pf_apsp_extract_rows(s->n, s->rows, s->kind, s->host, NULL, s->hop_scale, first,
                                 count);
        pthread_mutex_lock(&s->lock);
        s->rc = rc;
        if (!rc)
            s->ready = first + count;
        pthread_cond_signal(&s->arrived);
        pthread_mutex_unlock(&s->lock);
    }
    s->done_at = pf_now();
    return NULL;
}

/* Blocks until rows [0, want) have arrived or the download failed. */
static int wait_rows(stream *s, int64_t want)
{
    pthread_mutex_lock(&s->lock);
    while (s->ready < want && !s->rc)
        pthread_cond_wait(&s->arrived, &s->lock);
    int rc = s->ready >= want ? PF_OK : s->rc;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int pf_apsp_stream_download(const pf_device_ops *ops, pf_dev *dev, pf_buf *buf, void *host,
                            int64_t n, int64_t n_pad, int64_t hop_scale,
                            const pf_apsp_sink *sink, pf_apsp_result *res, double *download_s,
                            pf_status *st)
{
    size_t row_bytes = (size_t)n_pad * pf_apsp_kind_bytes(res->kind);
    stream s = {.ops = ops,
                .dev = dev,
                .buf = buf,
                .host = host,
                .row_bytes = row_bytes,
                .n = n,
                .hop_scale = hop_scale,
                .kind = res->kind,
                .rows = n_pad,
                .block_rows = row_bytes >= STREAM_BLOCK_BYTES ? 1
                                                               : STREAM_BLOCK_BYTES / row_bytes};
    int64_t spread = (n_pad + STREAM_BLOCKS_MIN - 1) / STREAM_BLOCKS_MIN;
    s.block_rows = spread < s.block_rows ? spread : s.block_rows;
    pf_status_ok(&s.st);
    double t0 = pf_now();
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.arrived, NULL);
    pthread_t thread;
    int rc = PF_OK, started = pthread_create(&thread, NULL, download_main, &s) == 0;
    if (!started)
        download_main(&s); /* no thread: the same work, without the overlap */
    res->dist = host;
    for (int64_t first = 0; !rc && first < n; first += s.block_rows) {
        int64_t count = n - first < s.block_rows ? n - first : s.block_rows;
        rc = wait_rows(&s, first + count);
        if (rc) {
            *st = s.st;
            break;
        }
        rc = sink->rows(sink->ctx, res, first, count, st);
    }
    if (started)
        pthread_join(thread, NULL); /* on a sink error too: the buffer stays ours */
    if (!rc && s.rc) {
        rc = s.rc;
        *st = s.st;
    }
    pthread_mutex_destroy(&s.lock);
    pthread_cond_destroy(&s.arrived);
    *download_s = s.done_at - t0;
    return rc;
}
