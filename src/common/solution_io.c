/* PLACEHOLDER: replaced by the I/O work. */
#include "io.h"
#include "status.h"
int pf_solution_read(const char *path, const pf_network *net, pf_solution_file *sol, pf_status *st) { (void)net; (void)sol; return pf_fail(st, PF_E_INPUT, "%s: not built", path); }
void pf_solution_file_free(pf_solution_file *sol) { (void)sol; }
