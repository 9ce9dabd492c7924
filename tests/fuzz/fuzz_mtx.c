/* libFuzzer target: the Matrix Market coordinate readers
 * ("%%MatrixMarket matrix coordinate integer|real|pattern general|symmetric",
 * "ROWS COLS ENTRIES", "I J [W]"): the APSP one (weights) and the max-flow
 * one (capacities; terminals given as --source 1 --sink 2 give them).
 * Inputs that the readers would take for another format are left to the
 * other targets. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_network.h"
#include "fuzz_support.h"
#include "fuzz_wgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int64_t source[] = {0}, sink[] = {1};
    if (fuzz_wgraph_format(data, size) != 'm')
        return 0;
    const char *path = fuzz_file(0, data, size);
    fuzz_read_wgraph(path);
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.sources = source;
    opt.source_count = 1;
    opt.sinks = sink;
    opt.sink_count = 1;
    fuzz_read_network_with(path, &opt);
    return 0;
}
