/* CUDA backend: probe.
 *
 * Asking the runtime how many devices there are initialises the CUDA
 * driver in the asking process, and a process forked after that cannot
 * use CUDA at all (its first call fails with "initialization error").
 * Check forks every test after the runner has probed the backends, and
 * `portaflow` may probe before it decides what to open, so the query runs
 * outside the caller, which stays free of CUDA state until it opens a
 * device; a driver that crashes or hangs takes only the query down.
 *
 * Outside means the helper program portaflow-cuda-probe, started with
 * posix_spawn (no fork(): forking a process that has threads, a Python
 * interpreter or a program solving on several threads, leaves the child
 * with locks that other threads held). Where the helper is not found, a
 * process with one thread queries in a fork()ed child; one with several
 * threads, or where neither can be done, queries in-process. */
#define _GNU_SOURCE /* dladdr */
#include "cuda_api.h"
#include "common/knobs.h"
#include "cuda_probe_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define PF_CUDA_PROBE_OUTSIDE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#endif

#ifdef PF_CUDA_PROBE_OUTSIDE

extern char **environ;

/* Driver start-up without persistence mode takes seconds on big hosts;
 * a query still silent after this long is taken for hung. */
#define PROBE_TIMEOUT_MS 120000

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

/* Reads the child's record from fd, reaps the child, and turns a short
 * record into report->why. */
static void collect_report(pid_t pid, int fd, probe_report *report, const char *how)
{
    ssize_t got = read_until_eof(fd, report, sizeof *report, now_ms() + PROBE_TIMEOUT_MS);
    close(fd);
    if (got < 0)
        kill(pid, SIGKILL); /* hung in the driver: do not wait for it */
    int status = 0;
    pid_t reaped;
    do {
        reaped = waitpid(pid, &status, 0);
    } while (reaped < 0 && errno == EINTR);

    if (got == (ssize_t)sizeof *report) {
        report->why[sizeof report->why - 1] = '\0';
        return;
    }
    report->count = 0;
    if (got < 0)
        snprintf(report->why, sizeof report->why,
                 "CUDA device query timed out after %d s (%s killed)", PROBE_TIMEOUT_MS / 1000,
                 how);
    else if (reaped == pid && WIFSIGNALED(status))
        snprintf(report->why, sizeof report->why,
                 "CUDA device query crashed (%s killed by signal %d)", how, WTERMSIG(status));
    else
        snprintf(report->why, sizeof report->why,
                 "CUDA device query failed (%s sent %zd of %zu bytes)", how, got,
                 sizeof *report);
}

/* ---- the helper program ------------------------------------------------ */

static int is_executable(const char *path)
{
    return path && *path && access(path, X_OK) == 0;
}

/* dir_of(file) + "/" + name into out; 0 if it fits. */
static int sibling_path(const char *file, const char *name, char *out, size_t out_len)
{
    const char *slash = strrchr(file, '/');
    if (!slash)
        return -1;
    int len = snprintf(out, out_len, "%.*s/%s", (int)(slash - file), file, name);
    return len > 0 && (size_t)len < out_len ? 0 : -1;
}

/* Where the helper is: $PORTAFLOW_CUDA_PROBE, next to the object this code
 * was linked into (libportaflow.so, the Python module, a program), next to
 * the running program, then the install and build locations. */
static int find_helper(char *path, size_t path_len)
{
    const char *env = pf_knobs()->cuda_probe;
    if (*env) {
        snprintf(path, path_len, "%s", env);
        return is_executable(path) ? 0 : -1;
    }
    Dl_info info;
    if (dladdr((void *)pf_cuda_probe, &info) && info.dli_fname &&
        sibling_path(info.dli_fname, PF_CUDA_PROBE_HELPER, path, path_len) == 0 &&
        is_executable(path))
        return 0;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        if (sibling_path(self, PF_CUDA_PROBE_HELPER, path, path_len) == 0 && is_executable(path))
            return 0;
    }
    static const char *const fixed[] = {
#ifdef PF_CUDA_PROBE_INSTALLED
        PF_CUDA_PROBE_INSTALLED,
#endif
#ifdef PF_CUDA_PROBE_BUILT
        PF_CUDA_PROBE_BUILT,
#endif
        NULL,
    };
    for (const char *const *p = fixed; *p; p++)
        if (is_executable(*p)) {
            snprintf(path, path_len, "%s", *p);
            return 0;
        }
    return -1;
}

/* Runs the helper with its stdout on a pipe. Returns 0 and fills *report,
 * or -1 if it could not be started. */
static int query_in_helper(probe_report *report)
{
    char helper[PATH_MAX];
    if (find_helper(helper, sizeof helper) != 0)
        return -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) /* not inherited by another thread's helper */
        return -1;
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    char *argv[] = {helper, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, helper, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    collect_report(pid, fds[0], report, "helper " PF_CUDA_PROBE_HELPER);
    return 0;
}

/* ---- a fork()ed child, for single-threaded callers ---------------------- */

/* 1 when this process has exactly one thread (fork is then safe), 0 when
 * it has more or that cannot be told. */
static int single_threaded(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    int threads = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &threads) == 1)
            break;
    fclose(f);
    return threads == 1;
}

/* Runs the query in a fork()ed child. Returns 0 and fills *report, or -1
 * if no child could be started. */
static int query_in_child(probe_report *report)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) /* not inherited by another thread's helper */
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
    collect_report(pid, fds[0], report, "child process");
    return 0;
}

#endif /* PF_CUDA_PROBE_OUTSIDE */

int pf_cuda_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    if (!descs || max < 0)
        max = 0;
#ifdef PF_CUDA_PROBE_OUTSIDE
    if (!pf_cuda_runtime_initialised()) {
        probe_report *report = calloc(1, sizeof *report);
        if (report && (query_in_helper(report) == 0 ||
                       (single_threaded() && query_in_child(report) == 0))) {
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
