/* gzip-compressed input, recognised by its magic bytes (1f 8b) rather than
 * by the file name, so pipes and misnamed files work too. The readers load
 * their input whole (pf_io_load); a compressed one is inflated into a new
 * NUL-terminated buffer that replaces it. Concatenated gzip members (what
 * `cat a.gz b.gz` makes) inflate to the concatenated texts, as gunzip
 * does. Built without zlib, compressed input is refused with a message
 * that says so. */
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "pf_config.h"
#include "status.h"

#if PF_HAVE_ZLIB
#include <zlib.h>
#endif

int pf_gz_is_compressed(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

#if PF_HAVE_ZLIB
/* Doubles buf (keeping a byte for the NUL); NULL on failure (buf freed). */
static char *grow(char *buf, size_t *cap)
{
    char *bigger = *cap <= SIZE_MAX / 2 ? realloc(buf, *cap * 2) : NULL;
    if (!bigger)
        free(buf);
    else
        *cap *= 2;
    return bigger;
}

/* Inflates every member of data; returns the text with a NUL after it. */
static char *inflate_all(const char *data, size_t len, const char *name, size_t *out_len,
                         pf_status *st)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK) { /* 16: gzip header and trailer */
        pf_fail(st, PF_E_NOMEM, "%s: inflateInit2: %s", name, zs.msg ? zs.msg : "out of memory");
        return NULL;
    }
    size_t cap = len * 4 + 4096, used = 0;
    char *buf = malloc(cap);
    zs.next_in = (unsigned char *)(uintptr_t)data;
    int zrc = Z_OK;
    while (buf) {
        size_t room = cap - used - 1;
        uInt chunk = room > (1u << 30) ? (1u << 30) : (uInt)room;
        size_t in_left = len - (size_t)((const char *)zs.next_in - data);
        zs.avail_in = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
        zs.next_out = (unsigned char *)buf + used;
        zs.avail_out = chunk;
        zrc = inflate(&zs, Z_NO_FLUSH);
        used += chunk - zs.avail_out;
        in_left = len - (size_t)((const char *)zs.next_in - data);
        if (zrc == Z_STREAM_END && in_left > 0 &&
            pf_gz_is_compressed((const char *)zs.next_in, in_left)) {
            inflateReset(&zs); /* the next member */
            continue;
        }
        if (zrc == Z_STREAM_END || (zrc != Z_OK && zrc != Z_BUF_ERROR))
            break;
        if (zs.avail_out == 0)
            buf = grow(buf, &cap);
        else if (zs.avail_in == 0 && in_left == 0)
            break; /* input ended inside a member */
    }
    inflateEnd(&zs);
    if (!buf) {
        pf_fail(st, PF_E_NOMEM, "%s: out of host memory inflating the gzip input", name);
        return NULL;
    }
    if (zrc != Z_STREAM_END) {
        pf_fail(st, PF_E_INPUT, "%s: corrupt or truncated gzip data (inflate: %s)", name,
                zs.msg ? zs.msg : zrc == Z_OK || zrc == Z_BUF_ERROR ? "unexpected end of data"
                                                                    : "error");
        free(buf);
        return NULL;
    }
    buf[used] = '\0';
    *out_len = used;
    return buf;
}
#endif

char *pf_gz_inflate(const char *data, size_t len, const char *name, size_t *out_len,
                    pf_status *st)
{
#if PF_HAVE_ZLIB
    return inflate_all(data, len, name, out_len, st);
#else
    (void)data;
    (void)len;
    (void)out_len;
    pf_fail(st, PF_E_INPUT, "%s: the input is gzip-compressed, and this portaflow was built "
            "without zlib: decompress it first (gunzip -c)", name);
    return NULL;
#endif
}
