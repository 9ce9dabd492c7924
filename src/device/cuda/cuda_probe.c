/* CUDA backend: probe.
 *
 * Asking the runtime how many devices there are initialises the CUDA
 * driver in the asking process, and a process forked after that cannot
 * use CUDA at all (its first call fails with "initialization error").
 * Check forks every test after the runner has probed the backends, and
 * `portaflow` may probe before it decides what to open, so the query runs
 * in a short-lived child process that sends its answer back through a
 * pipe: the caller stays free of CUDA state until it opens a device.
 *
 * Where that cannot help (this process already uses CUDA) or cannot be
 * done (fork fails, not POSIX), the query runs in-process. */
#include "cuda_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define PF_CUDA_PROBE_IN_CHILD 1
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#endif

#ifdef PF_CUDA_PROBE_IN_CHILD

/* Most devices one probe reports (the child's buffer is fixed). */
#define PROBE_MAX_DEVICES 64
/* Driver start-up without persistence mode takes seconds on big hosts;
 * a child still silent after this long is taken for hung. */
#define PROBE_TIMEOUT_MS 120000

/* What the child writes to the pipe, in one piece. */
typedef struct probe_report {
    int count; /* usable devices (may exceed PROBE_MAX_DEVICES) */
    char why[512];
    pf_device_desc descs[PROBE_MAX_DEVICES];
} probe_report;

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads up to len bytes until EOF or the deadline; returns bytes read or
 * -1 on timeout / read error. */
static ssize_t read_until_eof(int fd, void *data, size_t len, long long deadline_ms)
{
    char *p = data;
    size_t got = 0;
    for (;;) {
        long long left = deadline_ms - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ready = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return -1;
        char sink[256]; /* past len: drain so the child never blocks */
        ssize_t n = got < len ? read(fd, p + got, len - got) : read(fd, sink, sizeof sink);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            return (ssize_t)got;
        if (got < len)
            got += (size_t)n;
    }
}

/* Runs the query in a child. Returns 0 and fills *report, or -1 if no
 * child could be started (the caller then queries in-process); a child
 * that failed is reported through report->why. */
static int query_in_child(probe_report *report)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    /* A stdio buffer the caller has not flushed would be written twice
     * if the child flushed it; the child leaves through _exit. */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        memset(report, 0, sizeof *report);
        report->count = pf_cuda_query_devices(report->descs, PROBE_MAX_DEVICES, report->why,
                                              sizeof report->why);
        _exit(write_all(fds[1], report, sizeof *report) == 0 ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read_until_eof(fds[0], report, sizeof *report, now_ms() + PROBE_TIMEOUT_MS);
    close(fds[0]);
    if (got < 0)
        kill(pid, SIGKILL); /* hung in the driver: do not wait for it */
    int status = 0;
    pid_t reaped;
    do {
        reaped = waitpid(pid, &status, 0);
    } while (reaped < 0 && errno == EINTR);

    if (got == (ssize_t)sizeof *report) {
        report->why[sizeof report->why - 1] = '\0';
        return 0;
    }
    report->count = 0;
    if (got < 0)
        snprintf(report->why, sizeof report->why,
                 "CUDA device query timed out after %d s (child process killed)",
                 PROBE_TIMEOUT_MS / 1000);
    else if (reaped == pid && WIFSIGNALED(status))
        snprintf(report->why, sizeof report->why,
                 "CUDA device query crashed (child process killed by signal %d)",
                 WTERMSIG(status));
    else
        snprintf(report->why, sizeof report->why,
                 "CUDA device query failed (child process sent %zd of %zu bytes)", got,
                 sizeof *report);
    return 0;
}

#endif /* PF_CUDA_PROBE_IN_CHILD */

int pf_cuda_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    if (!descs || max < 0)
        max = 0;
#ifdef PF_CUDA_PROBE_IN_CHILD
    if (!pf_cuda_runtime_initialised()) {
        probe_report *report = calloc(1, sizeof *report);
        if (report && query_in_child(report) == 0) {
            int count = report->count;
            int copy = count < max ? count : max;
            if (copy > PROBE_MAX_DEVICES)
                copy = PROBE_MAX_DEVICES;
            if (copy > 0)
                memcpy(descs, report->descs, (size_t)copy * sizeof *descs);
            if (why && why_len > 0)
                snprintf(why, why_len, "%s", report->why);
            free(report);
            return count;
        }
        free(report);
    }
#endif
    return pf_cuda_query_devices(descs, max, why, why_len);
}
