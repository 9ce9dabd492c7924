/* PLACEHOLDER: replaced by the sequential engine work. */
#include "engine.h"
#include "../common/status.h"
int pf_seq_solve(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out, pf_status *st) { (void)g; (void)opt; (void)out; return pf_fail(st, PF_E_DEVICE, "seq not built"); }
