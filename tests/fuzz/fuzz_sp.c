/* libFuzzer target: the DIMACS shortest-path reader ("p sp N M",
 * "a U V W", "c"). Inputs that pf_wgraph_read would take for another
 * format are left to the Matrix Market and matrix targets. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_support.h"
#include "fuzz_wgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_wgraph_format(data, size) == 'd')
        fuzz_read_wgraph(fuzz_file(0, data, size));
    return 0;
}
