/* libFuzzer target: the DIMACS max-flow reader ("p max", "n", "a", "c").
 * Any input must give a network or a clean PF_E_INPUT / PF_E_NOMEM; a
 * network must be valid and survive a write-and-read round trip. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_network.h"
#include "fuzz_support.h"

/* Round trips cost a write and a read: only for networks this small. */
#define ROUND_TRIP_MAX_ARCS 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pf_status st;
    pf_network *net = pf_network_read_dimacs(fuzz_file(0, data, size), &st);
    if (!net) {
        if (st.code != PF_E_INPUT && st.code != PF_E_NOMEM)
            fuzz_expect_ok(st.code, "pf_network_read_dimacs (failure code)", &st);
        return 0;
    }
    fuzz_check_network(net);
    if (pf_network_arcs(net) <= ROUND_TRIP_MAX_ARCS)
        fuzz_check_round_trip(net);
    pf_network_free(net);
    return 0;
}
