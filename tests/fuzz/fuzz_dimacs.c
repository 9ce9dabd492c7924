/* libFuzzer target: the DIMACS max-flow reader ("p max", "n", "a", "c").
 * Any input must give a network or a clean PF_E_INPUT / PF_E_NOMEM; a
 * network must be valid and survive a write-and-read round trip; and the
 * reader's parallel arc pass must give the serial reader's outcome. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats.h"
#include "fuzz_network.h"
#include "fuzz_support.h"

/* Round trips cost a write and a read: only for networks this small. */
#define ROUND_TRIP_MAX_ARCS 4096

/* The text at path read serially and cut into three chunks from the first
 * arc line on (no size threshold): the same network, or the same message. */
static void check_parallel_reader(const char *path)
{
    pf_io_input in;
    pf_status one, three;
    if (!pf_io_load(path, &in, &one))
        return;
    pf_network *serial = pf_parse_dimacs_threads(in.text, in.len, in.name, 1, 0, &one);
    pf_network *parallel = pf_parse_dimacs_threads(in.text, in.len, in.name, 3, 0, &three);
    pf_io_unload(&in);
    if (!serial != !parallel ||
        (!serial && (one.code != three.code || strcmp(one.message, three.message) != 0)))
        fuzz_fail("parallel DIMACS reader", serial ? three.message : one.message);
    serial = pf_read_finish(serial, NULL, in.name, &one);
    parallel = pf_read_finish(parallel, NULL, in.name, &three);
    if (!serial != !parallel)
        fuzz_fail("parallel DIMACS reader", "one network finished, the other did not");
    if (serial)
        fuzz_check_same_network(serial, parallel, "parallel DIMACS reader");
    pf_network_free(serial);
    pf_network_free(parallel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pf_status st;
    const char *path = fuzz_file(0, data, size);
    check_parallel_reader(path);
    pf_network *net = pf_network_read_dimacs(path, &st);
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
