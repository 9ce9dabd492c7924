/* The generated instances the dynamic-graph benchmarks (bench_dyn.c,
 * bench_paged.c) take on their command line: rmf:A:B, rlg:R:C, grid:W:H,
 * with the suite's capacities and seed 1. */
#ifndef PF_BENCH_INSTANCE_H
#define PF_BENCH_INSTANCE_H

#include <stdio.h>
#include <stdlib.h>

#include "common/gen.h"

/* The instance `spec` names; exits 2 on a spec it does not know and 1 when
 * the generator fails, naming `program`. */
static inline pf_network *pf_bench_instance(const char *program, const char *spec)
{
    pf_status st;
    long long x = 0, y = 0;
    pf_network *net = NULL;
    if (sscanf(spec, "rmf:%lld:%lld", &x, &y) == 2)
        net = pf_gen_rmf(x, y, 1, 10000, 1, &st);
    else if (sscanf(spec, "rlg:%lld:%lld", &x, &y) == 2)
        net = pf_gen_rlg(x, y, 10000, 1, &st);
    else if (sscanf(spec, "grid:%lld:%lld", &x, &y) == 2)
        net = pf_gen_grid2d(x, y, 4, 100, 1, &st);
    else {
        fprintf(stderr, "%s: instance %s: want rmf:A:B, rlg:R:C or grid:W:H\n", program, spec);
        exit(2);
    }
    if (!net) {
        fprintf(stderr, "%s: %s: %s\n", program, spec, st.message);
        exit(1);
    }
    return net;
}

#endif
