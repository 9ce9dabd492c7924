/* The relabel work measure that paces global relabels, shared by the
 * engines that count it on the host (the sequential engine, the OpenMP
 * discharge): a relabel of vertex u costs PF_RELABEL_COST plus the arcs
 * of u it scans, so the two engines relabel globally at the same pace.
 * (The GPU bodies of pf_kernels.h count the scanned arcs only.) */
#ifndef PF_WORK_H
#define PF_WORK_H

/* Work of one relabel besides the arcs it scans: the weight Cherkassky and
 * Goldberg's hi_pr gives a relabel. */
#define PF_RELABEL_COST 12

#endif
