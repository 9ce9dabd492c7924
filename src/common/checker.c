/* Independent max-flow / min-cut certificate check.
 *
 * Works on the input arcs only, never on the solvers' residual graph, so a
 * bug shared by the solvers and the residual code cannot hide behind it.
 * Two linear passes at most (flow, then cut); sums are kept in 128-bit
 * integers, since a vertex's inflow over many arcs of capacity up to 2^62
 * overflows int64 even when every single flow fits.
 *
 * Messages use the 1-based ids of the DIMACS files: arc numbers count the
 * "a" lines, vertex numbers are the file's node ids. */
#include <stdlib.h>

#include "network.h"
#include "status.h"

typedef __int128 wide;

/* Decimal text of a 128-bit value; buf must hold 41 bytes. */
static const char *wide_str(wide value, char *buf)
{
    char digits[40];
    int len = 0;
    unsigned __int128 mag = value < 0 ? -(unsigned __int128)value : (unsigned __int128)value;
    do {
        digits[len++] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag);
    char *out = buf;
    if (value < 0)
        *out++ = '-';
    while (len)
        *out++ = digits[--len];
    *out = '\0';
    return buf;
}

/* Reports a vertex whose flow is not conserved. Only runs on failure, so a
 * second pass for the vertex's own inflow and outflow costs nothing on the
 * success path and keeps the main pass to one balance per vertex. */
static int conservation_error(const pf_network *net, const int64_t *arc_flow, int64_t vertex,
                              pf_status *st)
{
    wide inflow = 0, outflow = 0;
    for (int64_t i = 0; i < net->m; i++) {
        if (net->head[i] == vertex)
            inflow += arc_flow[i];
        if (net->tail[i] == vertex)
            outflow += arc_flow[i];
    }
    char in_text[48], out_text[48];
    return pf_fail(st, PF_E_VERIFY, "vertex %lld: inflow %s != outflow %s",
                   (long long)vertex + 1, wide_str(inflow, in_text), wide_str(outflow, out_text));
}

/* Capacity bounds on every arc, conservation at every vertex but the
 * sources and sinks, value = net outflow of the sources = net inflow of the
 * sinks. */
static int check_flow(const pf_network *net, int64_t value, const int64_t *arc_flow,
                      pf_status *st)
{
    /* balance[v] = inflow - outflow; self-loops cancel out by themselves. */
    wide *balance = pf_calloc((size_t)net->n, sizeof *balance, st);
    if (!balance)
        return PF_E_NOMEM;
    for (int64_t i = 0; i < net->m; i++) {
        int64_t flow = arc_flow[i], cap = net->cap[i];
        int32_t tail = net->tail[i], head = net->head[i];
        if (flow < 0 || flow > cap) {
            free(balance);
            if (flow < 0)
                return pf_fail(st, PF_E_VERIFY, "arc %lld (%d -> %d): negative flow %lld",
                               (long long)i + 1, tail + 1, head + 1, (long long)flow);
            return pf_fail(st, PF_E_VERIFY, "arc %lld (%d -> %d): flow %lld exceeds capacity %lld",
                           (long long)i + 1, tail + 1, head + 1, (long long)flow,
                           (long long)cap);
        }
        balance[head] += flow;
        balance[tail] -= flow;
    }

    int rc = PF_OK;
    char text[48];
    wide outflow = 0; /* net, of all sources together */
    for (int64_t v = 0; v < net->n && rc == PF_OK; v++) {
        int role = pf_network_role(net, v);
        if (role == 1)
            outflow -= balance[v];
        else if (role == 0 && balance[v] != 0)
            rc = conservation_error(net, arc_flow, v, st);
    }
    /* The balances sum to zero, so with every other vertex conserved the
     * net inflow of the sinks equals the net outflow of the sources: one
     * comparison checks the value against both. */
    if (rc == PF_OK && outflow != value && !net->sources)
        rc = pf_fail(st, PF_E_VERIFY, "flow value %lld != net outflow %s of source %d",
                     (long long)value, wide_str(outflow, text), net->source + 1);
    else if (rc == PF_OK && outflow != value)
        rc = pf_fail(st, PF_E_VERIFY, "flow value %lld != net outflow %s of the %lld sources",
                     (long long)value, wide_str(outflow, text), (long long)net->source_count);
    free(balance);
    return rc;
}

/* Every source inside, every sink outside, and the capacity of the arcs leaving the side equal
 * to the value: by weak duality no flow can exceed it, so together with a
 * valid flow of that value both are optimal. */
static int check_cut(const pf_network *net, int64_t value, const uint8_t *source_side,
                     pf_status *st)
{
    for (int64_t v = 0; v < net->n; v++)
        if (source_side[v] > 1)
            return pf_fail(st, PF_E_VERIFY, "vertex %lld: cut side %d is neither 0 nor 1",
                           (long long)v + 1, source_side[v]);
    for (int64_t k = 0; k < net->source_count; k++) {
        int64_t s = pf_network_terminal(net, 0, k);
        if (source_side[s] != 1)
            return pf_fail(st, PF_E_VERIFY, "source %lld is on the sink side of the cut",
                           (long long)s + 1);
    }
    for (int64_t k = 0; k < net->sink_count; k++) {
        int64_t t = pf_network_terminal(net, 1, k);
        if (source_side[t] != 0)
            return pf_fail(st, PF_E_VERIFY, "sink %lld is on the source side of the cut",
                           (long long)t + 1);
    }
    wide cut = 0;
    for (int64_t i = 0; i < net->m; i++)
        if (source_side[net->tail[i]] && !source_side[net->head[i]])
            cut += net->cap[i];
    if (cut != value) {
        char text[48];
        return pf_fail(st, PF_E_VERIFY, "cut capacity %s != flow value %lld", wide_str(cut, text),
                       (long long)value);
    }
    return PF_OK;
}

int pf_verify(const pf_network *net, int64_t value, const int64_t *arc_flow,
              const uint8_t *source_side, pf_status *st)
{
    if (!net)
        return pf_fail(st, PF_E_USAGE, "verify: no network given");
    if (!arc_flow && !source_side)
        return pf_fail(st, PF_E_USAGE, "verify: neither a flow nor a cut to check");
    int rc;
    if (arc_flow && (rc = check_flow(net, value, arc_flow, st)) != PF_OK)
        return rc;
    if (source_side && (rc = check_cut(net, value, source_side, st)) != PF_OK)
        return rc;
    pf_status_ok(st);
    return PF_OK;
}
