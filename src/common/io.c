/* Input loading and the input-error message shared by every text reader
 * (io.h): the whole input as one NUL-terminated buffer (regular files
 * mapped, pipes and stdin read, gzip inflated), and pf_io_fail's
 * "FILE:LINE: what is wrong". The readers (dimacs.c, wgraph_read.c and the
 * scanner they share, scan.h) call these; nothing here calls a reader. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"
#include "status.h"

/* ---- loading -------------------------------------------------------- */

/* Pipes have no size: their buffer starts here and doubles. */
#define LOAD_PIPE_START ((size_t)1 << 22)

/* Copies text into out (len bytes, NUL included) with every byte that is
 * not printable ASCII written as \xNN: a message quotes fields of the
 * input, and an escape sequence in them must not reach the terminal. */
static void escape_unprintable(const char *text, char *out, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && at + 5 < len; p++) {
        if (*p >= 0x20 && *p < 0x7f) {
            out[at++] = (char)*p;
        } else {
            out[at++] = '\\';
            out[at++] = 'x';
            out[at++] = hex[*p >> 4];
            out[at++] = hex[*p & 15];
        }
    }
    out[at] = '\0';
}

int pf_io_fail(pf_status *st, const char *name, int64_t line,
               const char *fmt, ...)
{
    char what[400], shown[4 * sizeof what];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    escape_unprintable(what, shown, sizeof shown);
    return pf_fail(st, PF_E_INPUT, "%s:%lld: %s", name, (long long)line, shown);
}

/* The 1-based line that holds text[offset]. Only used on error paths. */
static int64_t line_of_offset(const char *text, size_t offset)
{
    int64_t line = 1;
    const char *p = text, *stop = text + offset;
    while ((p = memchr(p, '\n', (size_t)(stop - p))) != NULL) {
        line++;
        p++;
    }
    return line;
}

/* Maps a regular file read-only instead of copying it: for a 300 MB file
 * that saves a third of the load time. Only when the size is not a multiple
 * of the page size, because then the kernel zero-fills the rest of the last
 * page and the scanner's NUL sentinel comes for free. NULL = not mappable
 * (pipe, empty, page-sized, or not at offset 0): the caller reads instead. */
static char *map_whole_file(FILE *in, size_t *len)
{
    int fd = fileno(in);
    struct stat sb;
    long page = sysconf(_SC_PAGESIZE);
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 || page <= 0 ||
        sb.st_size % page == 0 || lseek(fd, 0, SEEK_CUR) != 0)
        return NULL;
    int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE; /* one pass of page-table setup, not 70k faults */
#endif
    void *text = mmap(NULL, (size_t)sb.st_size, PROT_READ, flags, fd, 0);
    if (text == MAP_FAILED)
        return NULL;
    *len = (size_t)sb.st_size;
    return text;
}

/* Reads the stream to EOF into a malloc'ed buffer with a NUL after the
 * last byte, after the have_len bytes `have` already taken from it. A
 * regular file's size gives the whole buffer at once (the extra byte makes
 * the one fread come back short, which is how EOF shows); pipes grow it by
 * doubling. */
char *pf_io_read_stream(FILE *in, const char *have, size_t have_len, const char *name,
                        size_t *len, pf_status *st)
{
    size_t cap = LOAD_PIPE_START;
    struct stat sb;
    if (fstat(fileno(in), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
        cap = (size_t)sb.st_size + 2;
    if (cap < have_len + 2)
        cap = have_len + 2;
    char *buf = malloc(cap);
    size_t used = have_len;
    if (buf && have_len)
        memcpy(buf, have, have_len);
    while (buf) {
        size_t room = cap - used - 1; /* keep one byte for the NUL */
        size_t got = fread(buf + used, 1, room, in);
        used += got;
        if (got < room)
            break;
        char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (!buf) {
        pf_fail(st, PF_E_NOMEM, "%s: out of host memory reading the input", name);
        return NULL;
    }
    if (ferror(in)) {
        pf_fail(st, PF_E_INPUT, "%s: read error: %s", name, strerror(errno));
        free(buf);
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}

/* A UTF-8 byte order mark, which some editors put at the start of a text
 * file: skipped, so that the first line reads as written. */
#define UTF8_BOM "\xef\xbb\xbf"
#define UTF8_BOM_LEN 3

/* Text with carriage returns and no newline at all: a file with old Mac
 * line ends, which would otherwise read as one long line (the scanner
 * takes '\r' as a blank, for CRLF files). Only a file without '\n' is
 * searched further than its first newline. */
static int cr_line_ends(const char *text, size_t len)
{
    return memchr(text, '\n', len) == NULL && memchr(text, '\r', len) != NULL;
}

static void release_text(char *text, size_t len, int mapped)
{
    if (mapped)
        munmap(text, len);
    else
        free(text);
}

/* Loads all of PATH (NULL or "-" = standard input) as text followed by a
 * NUL; *name receives the name to put in messages, *mapped how to release
 * the text (release_text). gzip-compressed input is inflated first. A
 * UTF-8 byte order mark at the start is left out. Returns NULL (status set)
 * on open/read errors, for input holding a NUL byte, which would end the
 * scan early, and for lines ended by a carriage return alone. */
static char *load_text(const char *path, const char **name, size_t *len, int *mapped,
                       pf_status *st)
{
    int from_stdin = !path || strcmp(path, "-") == 0;
    *name = from_stdin ? "<stdin>" : path;
    FILE *in = from_stdin ? stdin : fopen(path, "rb");
    if (!in) {
        pf_fail(st, PF_E_INPUT, "%s: cannot open: %s", *name, strerror(errno));
        return NULL;
    }
    char *text = map_whole_file(in, len);
    if (text && *len >= UTF8_BOM_LEN && memcmp(text, UTF8_BOM, UTF8_BOM_LEN) == 0) {
        munmap(text, *len); /* read-only: the copy below drops the mark */
        text = NULL;
    }
    *mapped = text != NULL;
    if (!text) {
        text = pf_io_read_stream(in, NULL, 0, *name, len, st);
        if (text && *len >= UTF8_BOM_LEN && memcmp(text, UTF8_BOM, UTF8_BOM_LEN) == 0) {
            *len -= UTF8_BOM_LEN;
            memmove(text, text + UTF8_BOM_LEN, *len + 1);
        }
    }
    if (from_stdin)
        clearerr(stdin);
    else
        fclose(in);
    if (!text)
        return NULL;
    if (pf_gz_is_compressed(text, *len)) {
        size_t plain_len = 0;
        char *plain = pf_gz_inflate(text, *len, *name, &plain_len, st);
        release_text(text, *len, *mapped);
        if (!plain)
            return NULL;
        text = plain;
        *len = plain_len;
        *mapped = 0;
        if (*len >= UTF8_BOM_LEN && memcmp(text, UTF8_BOM, UTF8_BOM_LEN) == 0) {
            *len -= UTF8_BOM_LEN; /* the mark of the compressed text */
            memmove(text, text + UTF8_BOM_LEN, *len + 1);
        }
    }
    const char *nul = memchr(text, '\0', *len);
    if (nul || cr_line_ends(text, *len)) {
        if (nul)
            pf_io_fail(st, *name, line_of_offset(text, (size_t)(nul - text)),
                       "NUL byte in the input (binary file?)");
        else
            pf_io_fail(st, *name, 1,
                       "lines end in a carriage return alone (old Mac line ends); "
                       "convert them to newlines, e.g. tr '\\r' '\\n'");
        release_text(text, *len, *mapped);
        return NULL;
    }
    return text;
}

char *pf_io_load(const char *path, pf_io_input *in, pf_status *st)
{
    in->text = load_text(path, &in->name, &in->len, &in->mapped, st);
    return in->text;
}

void pf_io_unload(pf_io_input *in)
{
    release_text(in->text, in->len, in->mapped);
    in->text = NULL;
}

int64_t pf_io_peek_dimacs_vertices(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char head[4096];
    size_t got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[got] = '\0';
    /* Comment lines may come first; the p line is the first of any other. */
    for (const char *line = head; line < head + got;) {
        const char *end = strchr(line, '\n');
        if (!end)
            return -1; /* a line longer than what was read */
        char kind[16];
        long long n, m;
        if (line[0] == 'p')
            return sscanf(line, "p %15s %lld %lld", kind, &n, &m) == 3 && n >= 0 ? n : -1;
        if (line[0] != 'c' && line[0] != '\n' && line[0] != '\r')
            return -1;
        line = end + 1;
    }
    return -1;
}
