/* The CLI's side of the hybrid (hybrid.h): the --hybrid value, and a
 * process that exits without waiting for a device still opening on a
 * background thread. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hybrid.h"

int pf_cli_hybrid_mode(const char *text, int *mode)
{
    static const struct {
        const char *name;
        int mode;
    } modes[] = {
        {.name = "auto", .mode = PF_HYBRID_AUTO},
        {.name = "on", .mode = PF_HYBRID_ON},
        {.name = "off", .mode = PF_HYBRID_OFF},
    };
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (strcmp(text, modes[i].name) == 0) {
            *mode = modes[i].mode;
            return 0;
        }
    return -1;
}

void pf_cli_detach_background(void) { pf_hybrid_detach(1); }

/* A graph the host finished before the device was open leaves the open
 * running on its thread; an exit handler (the CUDA runtime's, an OpenCL
 * driver's) must not run under it, and nothing waits for it: stdout is
 * closed by now, so _exit loses nothing. */
void pf_cli_exit_now_if_detached(int status)
{
    if (pf_hybrid_background_pending()) {
        fflush(stderr);
        _exit(status);
    }
}
