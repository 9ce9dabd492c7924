/* Real capacities while reading (realcap.c): the readers' side of it. */
#ifndef PF_REALCAP_H
#define PF_REALCAP_H

#include "network.h"

/* Arc i (already added) gets the real capacity written as text[0..len)
 * (a decimal real as scan.h's real_text_len accepts it). Returns NULL, or
 * why the text is refused ("is negative", ...) for the caller's FILE:LINE
 * message (out of memory: st is set too). */
const char *pf_real_cap_text(pf_network *net, int64_t i, const char *text, int len,
                             pf_status *st);

#endif
