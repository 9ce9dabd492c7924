/* libFuzzer target: the Matrix Market coordinate reader of the APSP input
 * ("%%MatrixMarket matrix coordinate integer|real|pattern general|symmetric",
 * "ROWS COLS ENTRIES", "I J [W]"). Inputs that pf_wgraph_read would take
 * for another format are left to the DIMACS sp and matrix targets. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_support.h"
#include "fuzz_wgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_wgraph_format(data, size) == 'm')
        fuzz_read_wgraph(fuzz_file(0, data, size));
    return 0;
}
