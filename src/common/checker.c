/* PLACEHOLDER: replaced by the checker work. */
#include "status.h"
int pf_verify(const pf_network *net, int64_t value, const int64_t *arc_flow, const uint8_t *source_side, pf_status *st) { (void)net; (void)value; (void)arc_flow; (void)source_side; pf_status_ok(st); return PF_OK; }
