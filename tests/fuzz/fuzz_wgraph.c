/* Checks shared by the targets that read weighted digraphs: what the
 * reader accepted is a valid graph, and the DIMACS sp writer gives it back
 * exactly. */
#define _GNU_SOURCE
#include "fuzz_wgraph.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "portaflow.h"
#include "wgraph.h"
#include "wgraph_io.h"

#define ROUND_TRIP_MAX_ARCS 4096

char fuzz_wgraph_format(const uint8_t *data, size_t size)
{
    if (fuzz_first_char(data, size, 0) == '%')
        return 'm';
    char first = fuzz_first_char(data, size, 'c');
    return (first >= '0' && first <= '9') || first == '-' ? 'a' : 'd';
}

static void check_graph(const pf_wgraph *g)
{
    if (g->n < 1 || g->m < 0 || (g->m > 0 && (g->int_weight == NULL) == (g->real_weight == NULL)))
        fuzz_fail("reader", "accepted a graph with bad counts or weight arrays");
    for (int64_t i = 0; i < g->m; i++)
        if (g->tail[i] < 0 || g->tail[i] >= g->n || g->head[i] < 0 || g->head[i] >= g->n)
            fuzz_fail("reader", "accepted an arc whose end is not a vertex");
}

static int same_weight(const pf_wgraph *a, const pf_wgraph *b, int64_t i)
{
    if (a->int_weight)
        return a->int_weight[i] == b->int_weight[i];
    return a->real_weight[i] == b->real_weight[i]; /* -0 is written "-0", read as 0 */
}

static void same_graph(const pf_wgraph *a, const pf_wgraph *b)
{
    if (a->n != b->n || a->m != b->m)
        fuzz_fail("round trip", "vertex or arc count changed");
    if (a->m == 0)
        return;
    if (pf_wgraph_is_real(a) != pf_wgraph_is_real(b))
        fuzz_fail("round trip", "integer/real kind changed");
    for (int64_t i = 0; i < a->m; i++)
        if (a->tail[i] != b->tail[i] || a->head[i] != b->head[i] || !same_weight(a, b, i))
            fuzz_fail("round trip", "an arc changed");
}

static void check_round_trip(const pf_wgraph *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        fuzz_fail("open_memstream", "failed");
    pf_status st;
    int rc = pf_wgraph_write_dimacs(g, out, "fuzz round trip", &st);
    if (fclose(out) != 0)
        fuzz_fail("fclose", "memory stream failed");
    fuzz_expect_ok(rc, "pf_wgraph_write_dimacs", &st);
    pf_wgraph *copy = pf_wgraph_read(fuzz_file(FUZZ_FILES - 1, text, len), &st);
    free(text);
    if (!copy)
        fuzz_expect_ok(st.code ? st.code : PF_E_INPUT, "pf_wgraph_read of the writer's text", &st);
    same_graph(g, copy);
    pf_wgraph_free(copy);
}

void fuzz_read_wgraph(const char *path)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_read(path, &st);
    if (!g) {
        if (st.code != PF_E_INPUT && st.code != PF_E_NOMEM)
            fuzz_expect_ok(st.code, "pf_wgraph_read (failure code)", &st);
        return;
    }
    check_graph(g);
    if (g->m <= ROUND_TRIP_MAX_ARCS)
        check_round_trip(g);
    pf_wgraph_free(g);
}
