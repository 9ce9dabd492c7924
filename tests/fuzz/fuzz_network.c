/* Checks shared by the targets that read max-flow networks: what a reader
 * accepted must be a valid network, and the DIMACS writer must give it
 * back unchanged. */
#define _GNU_SOURCE
#include "fuzz_network.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "io.h"

void fuzz_check_network(const pf_network *net)
{
    int64_t n = pf_network_vertices(net);
    int64_t s = pf_network_source(net), t = pf_network_sink(net);
    if (n < 2 || s < 0 || s >= n || t < 0 || t >= n || s == t)
        fuzz_fail("reader", "accepted a network with bad vertices or terminals");
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t u, v, cap;
        if (pf_network_arc(net, i, &u, &v, &cap) != PF_OK)
            fuzz_fail("pf_network_arc", "an arc below the arc count is out of range");
        if (u < 0 || u >= n || v < 0 || v >= n)
            fuzz_fail("reader", "accepted an arc whose end is not a vertex");
        if (cap < 0 || cap > PF_CAP_MAX)
            fuzz_fail("reader", "accepted a capacity outside 0..2^62");
    }
}

static void same_arcs(const pf_network *a, const pf_network *b)
{
    if (pf_network_vertices(a) != pf_network_vertices(b) ||
        pf_network_source(a) != pf_network_source(b) ||
        pf_network_sink(a) != pf_network_sink(b) || pf_network_arcs(a) != pf_network_arcs(b))
        fuzz_fail("round trip", "vertices, terminals or arc count changed");
    for (int64_t i = 0; i < pf_network_arcs(a); i++) {
        int64_t au, av, acap, bu, bv, bcap;
        if (pf_network_arc(a, i, &au, &av, &acap) != PF_OK ||
            pf_network_arc(b, i, &bu, &bv, &bcap) != PF_OK)
            fuzz_fail("pf_network_arc", "an arc below the arc count is out of range");
        if (au != bu || av != bv || acap != bcap)
            fuzz_fail("round trip", "an arc changed");
    }
}

void fuzz_check_round_trip(const pf_network *net)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        fuzz_fail("open_memstream", "failed");
    pf_status st;
    int rc = pf_network_write_dimacs_stream(net, out, "fuzz round trip", &st);
    if (fclose(out) != 0)
        fuzz_fail("fclose", "memory stream failed");
    fuzz_expect_ok(rc, "pf_network_write_dimacs_stream", &st);
    pf_network *copy = pf_network_read_dimacs(fuzz_file(FUZZ_FILES - 1, text, len), &st);
    free(text);
    if (!copy)
        fuzz_expect_ok(st.code ? st.code : PF_E_INPUT, "pf_network_read_dimacs of the writer's text",
                       &st);
    same_arcs(net, copy);
    pf_network_free(copy);
}
