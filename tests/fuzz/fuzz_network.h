/* Checks shared by the targets that read max-flow networks. */
#ifndef PF_FUZZ_NETWORK_H
#define PF_FUZZ_NETWORK_H

#include "portaflow.h"

/* Aborts unless every arc's ends are vertices of net, every capacity is in
 * 0..PF_CAP_MAX and the terminals are distinct vertices. */
void fuzz_check_network(const pf_network *net);

/* Aborts ("fuzz: WHAT: ...") unless b has a's vertices, terminals and
 * arcs in the same order, real capacities with the same values (b's scale
 * may be finer). */
void fuzz_check_same_network(const pf_network *a, const pf_network *b, const char *what);

/* Writes net as DIMACS, reads it back and aborts unless the copy has the
 * same vertices, terminals and arcs in the same order. */
void fuzz_check_round_trip(const pf_network *net);

/* Reads path with pf_network_read_with(opt). A failure must be PF_E_INPUT
 * or PF_E_NOMEM; a network must pass fuzz_check_network and, if small,
 * fuzz_check_round_trip. */
void fuzz_read_network_with(const char *path, const pf_read_options *opt);

#endif
