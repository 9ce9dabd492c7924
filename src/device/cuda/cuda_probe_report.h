/* What the CUDA device query sends back from outside the calling process
 * (cuda_probe.c reads it, cuda_probe_helper.c writes it): one fixed-size
 * record through a pipe. Both sides come from the same build. */
#ifndef PF_CUDA_PROBE_REPORT_H
#define PF_CUDA_PROBE_REPORT_H

#include "portaflow.h"

/* Most devices one probe reports (the record is fixed-size). */
#define PROBE_MAX_DEVICES 64

typedef struct probe_report {
    int count; /* usable devices (may exceed PROBE_MAX_DEVICES) */
    char why[512];
    pf_device_desc descs[PROBE_MAX_DEVICES];
} probe_report;

/* The helper program's name (installed in libexecdir, and next to the
 * Python extension module in a wheel). */
#define PF_CUDA_PROBE_HELPER "portaflow-cuda-probe"

#endif
