/* The arc lines of a large DIMACS max-flow file read on several threads
 * (pf_dimacs_arcs_parallel, dimacs_arc.h), for the common shape only: after
 * the head (c, p and n lines, read by dimacs.c), nothing but "a" lines,
 * comments and blank lines, exactly as many arcs as the p line declares,
 * all with integer capacities.
 *
 * The text is cut into one chunk per thread at line starts. A first pass
 * counts each chunk's lines and arcs (and gives up on any other line
 * type); the counts' prefix sums say where each chunk's arcs go; a second
 * pass scans them there with the serial reader's own scanner. Nothing
 * here reports an error: any surprise gives up, and the serial reader then
 * reads the same lines from the first arc on, so messages and line
 * numbers stay its own. */
#include <stdlib.h>
#include <string.h>

#include "dimacs_arc.h"
#include "omp_threads.h"
#include "status.h"

/* One chunk of the arc lines: [begin, end), both line starts (end may be
 * the text's NUL), with what the first pass found in it. */
typedef struct arc_chunk {
    const char *begin, *end;
    int64_t lines, arcs;
    int64_t first_arc; /* the index of its first arc in the network */
    int usable;        /* 1 while nothing in it calls for the serial reader */
} arc_chunk;

/* The first line start at or after p in [begin, end), which starts with a
 * line (p itself when a line starts there). */
static const char *line_start_from(const char *p, const char *begin, const char *end)
{
    if (p == begin || p[-1] == '\n')
        return p;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

/* Pass 1: chunk c's lines and arcs; unusable at the first line that is not
 * an arc, a comment or blank (line_type classifies as the serial loop
 * does), or at a NUL before the end, where the serial loop would stop. */
static void count_chunk(arc_chunk *c)
{
    const char *p = c->begin, *start;
    c->usable = 1;
    while (p < c->end) {
        if (!*p) {
            c->usable = 0;
            return;
        }
        char type = line_type(&p, &start);
        c->lines++;
        if (type == 'a') {
            c->arcs++;
            p = next_line(p);
        } else if (type != 'c') {
            c->usable = 0;
            return;
        }
    }
}

/* Pass 2: chunk c's arcs into net from c->first_arc on; unusable at the
 * first field the serial reader would reject or read as a real. No status:
 * the message would be discarded anyway. */
static void scan_chunk(arc_chunk *c, pf_network *net)
{
    const line_ctx quiet = {.name = "", .line = 0, .st = NULL};
    const char *p = c->begin, *start;
    int64_t i = c->first_arc;
    while (p < c->end) {
        if (line_type(&p, &start) != 'a')
            continue; /* a comment or blank line, already skipped */
        dimacs_arc arc;
        if (scan_dimacs_arc(&quiet, &p, net->n, &arc) != PF_OK || arc.real_len) {
            c->usable = 0;
            return;
        }
        store_dimacs_arc(net, i++, &arc);
    }
}

/* Whether every chunk is usable, their arcs add up to `declared` and fit
 * net's arrays; gives each chunk its first arc's index. */
static int place_chunks(arc_chunk *chunks, int count, const pf_network *net, int64_t declared)
{
    int64_t arcs = 0;
    for (int k = 0; k < count; k++) {
        if (!chunks[k].usable)
            return 0;
        chunks[k].first_arc = arcs;
        arcs += chunks[k].arcs;
    }
    return arcs == declared && declared <= net->m_alloc;
}

/* Both passes, one chunk per thread, in one parallel region: a team woken
 * once (on a machine whose idle cores wake slowly, each region's start can
 * cost milliseconds). Whether pass 2 ran. */
static int read_chunks(arc_chunk *chunks, int count, pf_network *net, int64_t declared)
{
    int placed = 0;
    PF_OMP(omp parallel num_threads(count))
    {
        PF_OMP(omp for schedule(static, 1))
        for (int k = 0; k < count; k++)
            count_chunk(&chunks[k]);
        PF_OMP(omp single)
        placed = place_chunks(chunks, count, net, declared);
        if (placed) {
            PF_OMP(omp for schedule(static, 1))
            for (int k = 0; k < count; k++)
                scan_chunk(&chunks[k], net);
        }
    }
    return placed;
}

/* Cuts [arcs, end) into `count` chunks of about equal size at line starts. */
static void cut_chunks(arc_chunk *chunks, int count, const char *arcs, const char *end)
{
    size_t size = (size_t)(end - arcs);
    for (int k = 0; k < count; k++) {
        chunks[k].begin = k ? chunks[k - 1].end : arcs;
        chunks[k].end = k + 1 == count
                            ? end
                            : line_start_from(arcs + size / (size_t)count * (size_t)(k + 1),
                                              arcs, end);
    }
}

/* Every chunk's lines, once both passes found them all usable; else -1. */
static int64_t lines_read(const arc_chunk *chunks, int count)
{
    int64_t lines = 0;
    for (int k = 0; k < count; k++) {
        if (!chunks[k].usable)
            return -1;
        lines += chunks[k].lines;
    }
    return lines;
}

int pf_dimacs_arcs_parallel(const char *arcs, const char *end, pf_network *net,
                            int64_t declared, int threads, int64_t *lines)
{
    arc_chunk *chunks = net->m == 0 ? pf_calloc((size_t)threads, sizeof *chunks, NULL) : NULL;
    if (!chunks)
        return 0;
    cut_chunks(chunks, threads, arcs, end);
    int64_t read = read_chunks(chunks, threads, net, declared) ? lines_read(chunks, threads) : -1;
    free(chunks);
    if (read < 0)
        return 0;
    net->m = declared;
    *lines = read;
    return 1;
}
