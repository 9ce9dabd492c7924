/* portaflow-cuda-probe: runs the CUDA device query and writes one
 * probe_report record (cuda_probe_report.h) to standard output. The probe
 * in cuda_probe.c starts it with posix_spawn, so the calling process never
 * initialises CUDA just to list devices and never fork()s (unsafe once a
 * process has threads). Exit status 0 when the whole record was written. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cuda_api.h"
#include "cuda_probe_report.h"

static probe_report report;

int main(void)
{
    report.count = pf_cuda_query_devices(report.descs, PROBE_MAX_DEVICES, report.why,
                                         sizeof report.why);
    const char *p = (const char *)&report;
    size_t left = sizeof report;
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 1;
        p += n;
        left -= (size_t)n;
    }
    return 0;
}
