/* Checks shared by the targets that read max-flow networks: what a reader
 * accepted must be a valid network, and the DIMACS writer must give it
 * back unchanged. */
#define _GNU_SOURCE
#include "fuzz_network.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "io.h"

/* Sources and sinks: vertices, ascending, no vertex both. */
static void check_terminals(const pf_network *net)
{
    int64_t n = pf_network_vertices(net);
    for (int sink = 0; sink <= 1; sink++) {
        int64_t count = pf_network_terminal_count(net, sink);
        if (count < 1)
            fuzz_fail("reader", "accepted a network without a source or a sink");
        for (int64_t k = 0; k < count; k++) {
            int64_t id = pf_network_terminal(net, sink, k);
            if (id < 0 || id >= n || (k > 0 && id <= pf_network_terminal(net, sink, k - 1)))
                fuzz_fail("reader", "terminals out of range or not ascending");
        }
    }
    int64_t sources = pf_network_terminal_count(net, 0), sinks = pf_network_terminal_count(net, 1);
    for (int64_t i = 0, j = 0; i < sources && j < sinks;) {
        int64_t s = pf_network_terminal(net, 0, i), t = pf_network_terminal(net, 1, j);
        if (s == t)
            fuzz_fail("reader", "a vertex is both a source and a sink");
        if (s < t)
            i++;
        else
            j++;
    }
}

void fuzz_check_network(const pf_network *net)
{
    int64_t n = pf_network_vertices(net);
    int64_t s = pf_network_source(net), t = pf_network_sink(net);
    if (n < 2 || s < 0 || s >= n || t < 0 || t >= n || s == t)
        fuzz_fail("reader", "accepted a network with bad vertices or terminals");
    check_terminals(net);
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

void fuzz_check_same_network(const pf_network *a, const pf_network *b, const char *what)
{
    if (pf_network_vertices(a) != pf_network_vertices(b) ||
        pf_network_source(a) != pf_network_source(b) ||
        pf_network_sink(a) != pf_network_sink(b) || pf_network_arcs(a) != pf_network_arcs(b))
        fuzz_fail(what, "vertices, terminals or arc count changed");
    for (int sink = 0; sink <= 1; sink++) {
        if (pf_network_terminal_count(a, sink) != pf_network_terminal_count(b, sink))
            fuzz_fail(what, "the number of sources or sinks changed");
        for (int64_t k = 0; k < pf_network_terminal_count(a, sink); k++)
            if (pf_network_terminal(a, sink, k) != pf_network_terminal(b, sink, k))
                fuzz_fail(what, "a source or sink changed");
    }
    /* Real capacities come back with the same values in input units; the
     * scale may come back finer, since it is chosen from the largest
     * capacity and rounding can bring that below a power of two. */
    int a_scale, b_scale;
    double a_error, b_error;
    if (pf_network_scale(a, &a_scale, &a_error) != pf_network_scale(b, &b_scale, &b_error) ||
        b_scale < a_scale)
        fuzz_fail(what, "integer/real capacities changed, or the scale got coarser");
    for (int64_t i = 0; i < pf_network_arcs(a); i++) {
        int64_t au, av, acap, bu, bv, bcap;
        if (pf_network_arc(a, i, &au, &av, &acap) != PF_OK ||
            pf_network_arc(b, i, &bu, &bv, &bcap) != PF_OK)
            fuzz_fail("pf_network_arc", "an arc below the arc count is out of range");
        __int128 a_in_b_units = (__int128)acap << (b_scale - a_scale);
        if (au != bu || av != bv || a_in_b_units != bcap)
            fuzz_fail(what, "an arc changed");
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
    fuzz_check_same_network(net, copy, "round trip");
    pf_network_free(copy);
}

/* Round trips cost a write and a read: only for networks this small. */
#define ROUND_TRIP_MAX_ARCS 4096

void fuzz_read_network_with(const char *path, const pf_read_options *opt)
{
    pf_status st;
    pf_network *net = pf_network_read_with(path, opt, &st);
    if (!net) {
        if (st.code != PF_E_INPUT && st.code != PF_E_NOMEM)
            fuzz_expect_ok(st.code, "pf_network_read_with (failure code)", &st);
        return;
    }
    fuzz_check_network(net);
    if (pf_network_arcs(net) <= ROUND_TRIP_MAX_ARCS)
        fuzz_check_round_trip(net);
    pf_network_free(net);
}
