/* PLACEHOLDER: minimal dispatch to seq until the driver lands. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "../common/status.h"
void pf_solve_options_init(pf_solve_options *opt) { memset(opt, 0, sizeof *opt); opt->device_index = -1; }
int pf_solve(const pf_network *net, const pf_solve_options *opt, pf_solution *sol, pf_status *st)
{
    memset(sol, 0, sizeof *sol);
    pf_residual g;
    int rc = pf_residual_build(net, &g, st);
    if (rc) return rc;
    pf_engine_out out = {0};
    out.res = malloc((size_t)g.arcs * sizeof *out.res + 8);
    out.source_side = calloc((size_t)g.n, 1);
    rc = pf_seq_solve(&g, opt, &out, st);
    sol->value = out.value;
    if (!rc && opt->want_flow) { sol->arc_flow = malloc((size_t)net->m * 8 + 8); pf_residual_arc_flows(&g, out.res, sol->arc_flow); }
    if (!rc && opt->want_cut) { sol->source_side = out.source_side; out.source_side = NULL; }
    strcpy(sol->backend, "seq");
    free(out.res); free(out.source_side); pf_residual_free(&g);
    return rc;
}
void pf_solution_free(pf_solution *sol) { free(sol->arc_flow); free(sol->source_side); sol->arc_flow = NULL; sol->source_side = NULL; }
int pf_list_devices(pf_device_desc *out, int max, char *why, size_t why_len) { (void)out; (void)max; if (why_len) why[0] = 0; return 0; }
const char *pf_version(void) { return "0.1.0"; }
