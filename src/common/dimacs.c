/* PLACEHOLDER: replaced by the I/O work. */
#include "io.h"
#include "status.h"
pf_network *pf_network_read_dimacs(const char *path, pf_status *st) { pf_fail(st, PF_E_INPUT, "%s: reader not built", path ? path : "-"); return NULL; }
pf_network *pf_network_read_matrix(const char *path, pf_status *st) { pf_fail(st, PF_E_INPUT, "%s: reader not built", path ? path : "-"); return NULL; }
pf_network *pf_network_read(const char *path, pf_status *st) { return pf_network_read_dimacs(path, st); }
int pf_network_write_dimacs(const pf_network *net, const char *path, pf_status *st) { (void)net; (void)path; return pf_fail(st, PF_E_INPUT, "writer not built"); }
int pf_network_write_dimacs_stream(const pf_network *net, FILE *out, const char *comment, pf_status *st) { (void)net; (void)out; (void)comment; return pf_fail(st, PF_E_INPUT, "writer not built"); }
