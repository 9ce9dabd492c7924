/* How much host memory this process may still take, and the check that
 * the solvers run before their large allocations: an input that declares
 * more vertices than the machine can hold is refused with a message
 * instead of being killed by the kernel part way through; and the
 * prefault that maps a fresh array's pages in at once. */
#ifndef PF_MEMAVAIL_H
#define PF_MEMAVAIL_H

#include <stddef.h>
#include <stdint.h>

#include "portaflow.h"

/* Bytes this process can still allocate: the smallest of the kernel's
 * MemAvailable, the headroom under the address-space limit (ulimit -v) and
 * the headroom under its cgroup's memory limit (v2, else v1). The variable
 * PORTAFLOW_MEMORY_LIMIT=BYTES (a K, M, G or T suffix multiplies by 2^10,
 * 2^20, ...) replaces the probe. UINT64_MAX when nothing limits it or
 * nothing can be read. *source names where the amount came from. */
uint64_t pf_mem_available(const char **source);

/* PF_OK when `need` bytes (an estimate) fit into pf_mem_available();
 * otherwise PF_E_NOMEM with "WHAT needs about X but only Y are available
 * (SOURCE)". A need past UINT64_MAX is passed as UINT64_MAX. */
int pf_mem_require(uint64_t need, const char *what, pf_status *st);

/* a * b + c, saturating at UINT64_MAX: estimates of absurd inputs must
 * not wrap round to small numbers. */
uint64_t pf_mem_bytes(uint64_t a, uint64_t b, uint64_t c);

/* Maps the whole pages of [p, p + bytes) in with one call (Linux 5.14+;
 * elsewhere a no-op, and the first writes fault the pages in one by one),
 * as transparent huge pages where the system gives them on request.
 * Faulting a graph-sized array in page by page is a large part of filling
 * it (bench/NOTES.md); callers write every page right after, so nothing
 * extra is committed. */
void pf_mem_prefault(void *p, size_t bytes);

#endif
