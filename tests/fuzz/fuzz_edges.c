/* libFuzzer target: the edge-list reader of `solve` ("U V CAP" lines, '#'
 * or '%' comments, integer or real capacities), through
 * pf_network_read_with with the terminals given as --source/--sink give
 * them: once 1-based with one source and one sink, once 0-based with two
 * sources. Any input must give a network or a clean PF_E_INPUT /
 * PF_E_NOMEM; a network must be valid and survive a DIMACS write-and-read
 * round trip. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_network.h"
#include "fuzz_support.h"

static void read_with(const char *path, int zero_based, const int64_t *sources,
                      int64_t source_count)
{
    static const int64_t sink[] = {1};
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.zero_based = zero_based;
    opt.sources = sources;
    opt.source_count = source_count;
    opt.sinks = sink;
    opt.sink_count = 1;
    fuzz_read_network_with(path, &opt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int64_t one_source[] = {0}, two_sources[] = {0, 2};
    const char *path = fuzz_file(0, data, size);
    read_with(path, 0, one_source, 1);
    read_with(path, 1, two_sources, 2);
    return 0;
}
