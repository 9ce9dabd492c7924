/* libFuzzer target: the adjacency-matrix text ("N", then N rows of N
 * numbers), which both the max-flow reader (capacities, source = first
 * vertex, sink = last) and the APSP reader (weights; 0, inf and - are no
 * arc) read. Inputs that the APSP reader would take for another format
 * (Matrix Market, DIMACS sp) are left to those targets. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_network.h"
#include "fuzz_support.h"
#include "fuzz_wgraph.h"

#define ROUND_TRIP_MAX_ARCS 4096

static void read_as_network(const char *path)
{
    pf_status st;
    pf_network *net = pf_network_read_matrix(path, &st);
    if (!net) {
        if (st.code != PF_E_INPUT && st.code != PF_E_NOMEM)
            fuzz_expect_ok(st.code, "pf_network_read_matrix (failure code)", &st);
        return;
    }
    fuzz_check_network(net);
    if (pf_network_arcs(net) <= ROUND_TRIP_MAX_ARCS)
        fuzz_check_round_trip(net);
    pf_network_free(net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    read_as_network(path);
    char first = fuzz_first_char(data, size, 'c');
    if ((first >= '0' && first <= '9') || first == '-')
        fuzz_read_wgraph(path);
    return 0;
}
