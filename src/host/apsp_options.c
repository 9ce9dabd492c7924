/* pf_apsp_options: their defaults, for every size of the struct a caller
 * may have been built with (apsp.h: APSP_OPTIONS_V2_SIZE). pf_apsp and the
 * variant check both start from these. */
#include "apsp.h"

#include <stddef.h>
#include <string.h>

void pf_apsp_options_init_sized(pf_apsp_options *opt, size_t opt_size)
{
    if (!opt || opt_size < APSP_OPTIONS_V2_SIZE)
        return; /* not a pf_apsp_options of any version: write nothing */
    pf_apsp_options full;
    memset(&full, 0, sizeof full);
    full.device_index = -1;
    full.kind = PF_DIST_AUTO;
    memcpy(opt, &full, opt_size < sizeof full ? opt_size : sizeof full);
}

/* Without the header's macro: a caller built for API version 2. */
void(pf_apsp_options_init)(pf_apsp_options *opt)
{
    pf_apsp_options_init_sized(opt, APSP_OPTIONS_V2_SIZE);
}
