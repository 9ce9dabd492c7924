/* Output files that are whole or absent (see outfile.h): a temporary file
 * beside the target, renamed into place on success; removed on failure or
 * by a signal handler; non-regular targets written in place. */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "status.h"

#ifndef O_PATH
#define O_PATH O_RDONLY
#endif

enum { NAME_LIMIT = 255, TEMP_SLOTS = 8, TEMP_TRIES = 64, EIO_UNKNOWN = -1 };

/* The temporary files that exist now (or are being created), for the
 * signal handler. A slot is filled and emptied with the handled signals
 * blocked in the calling thread. */
typedef struct temp_slot {
    volatile sig_atomic_t used;
    int dir_fd;
    char name[NAME_LIMIT + 1];
} temp_slot;

static temp_slot temp_slots[TEMP_SLOTS];
static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define SIGNAL_COUNT ((int)(sizeof handled_signals / sizeof *handled_signals))
static struct sigaction previous_actions[SIGNAL_COUNT];
static int handlers_installed;

/* Removes every temporary file, then dies of the signal as it would have
 * without us (async-signal-safe calls only). */
static void remove_temps_and_die(int sig)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_slots[i].used)
            unlinkat(temp_slots[i].dir_fd, temp_slots[i].name, 0);
    for (int i = 0; i < SIGNAL_COUNT; i++)
        if (handled_signals[i] == sig)
            sigaction(sig, &previous_actions[i], NULL);
    raise(sig);
}

/* Catches the signals that would otherwise kill us with a temporary file
 * left behind; a signal the process ignores (nohup) stays ignored. */
static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction action = {.sa_handler = remove_temps_and_die};
        sigemptyset(&action.sa_mask);
        sigaction(handled_signals[i], NULL, &previous_actions[i]);
        if (previous_actions[i].sa_handler != SIG_DFL)
            continue; /* ignored, or someone else's handler: leave it */
        action.sa_flags = SA_RESETHAND;
        sigaction(handled_signals[i], &action, NULL);
    }
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < SIGNAL_COUNT; i++)
        sigaddset(&set, handled_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

static void release_slot(pf_outfile *f)
{
    if (f->slot < 0)
        return;
    sigset_t old;
    block_signals(&old);
    temp_slots[f->slot].used = 0;
    restore_signals(&old);
    f->slot = -1;
}

/* The directory part of `path` ("." when there is none) opened for *at
 * calls, and its last component into `base`. */
static int open_parent(const char *path, char *base, size_t base_len, pf_status *st)
{
    const char *slash = strrchr(path, '/');
    const char *last = slash ? slash + 1 : path;
    if (!*last) {
        pf_fail(st, PF_E_OUTPUT, "%s: names a directory, not a file", path);
        return -1;
    }
    if (strlen(last) >= base_len) {
        pf_fail(st, PF_E_OUTPUT, "%s: file name too long", path);
        return -1;
    }
    strcpy(base, last);
    size_t dir_len = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(dir_len + 2);
    if (!dir) {
        pf_fail(st, PF_E_NOMEM, "%s: out of memory", path);
        return -1;
    }
    if (!slash)
        strcpy(dir, ".");
    else if (dir_len == 0)
        strcpy(dir, "/");
    else
        memcpy(dir, path, dir_len), dir[dir_len] = '\0';
    int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int saved = errno;
    free(dir);
    if (fd < 0)
        pf_fail(st, PF_E_OUTPUT, "%s: opening its directory failed: %s", path, strerror(saved));
    return fd;
}

/* Creates the temporary file: ".NAME.XXXXXXXX.tmp" (NAME cut to fit),
 * registered for the signal handler before any signal can see it. Its
 * descriptor, or -1 after filling st. */
static int create_temp(pf_outfile *f, mode_t mode, pf_status *st)
{
    static unsigned counter;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned seed = (unsigned)now.tv_nsec ^ ((unsigned)getpid() << 16);
    int slot = -1;
    for (int i = 0; i < TEMP_SLOTS && slot < 0; i++)
        if (!temp_slots[i].used)
            slot = i;
    if (slot < 0) {
        pf_fail(st, PF_E_OUTPUT, "%s: too many output files open at once", f->path);
        return -1;
    }
    install_handlers();
    for (int attempt = 0; attempt < TEMP_TRIES; attempt++) {
        unsigned tag = (seed + ++counter * 2654435761u) & 0xffffffffu;
        snprintf(f->temp_name, sizeof f->temp_name, ".%.200s.%08x.tmp", f->final_name, tag);
        /* The slot is filled before the file exists: a signal handled on
         * another thread (OpenMP workers, the progress ticker) between the
         * two would otherwise leave the file behind. */
        sigset_t old;
        block_signals(&old);
        temp_slots[slot].dir_fd = f->dir_fd;
        memcpy(temp_slots[slot].name, f->temp_name, sizeof temp_slots[slot].name);
        temp_slots[slot].used = 1;
        int fd = openat(f->dir_fd, f->temp_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        int saved = errno;
        if (fd >= 0)
            f->slot = slot;
        else
            temp_slots[slot].used = 0;
        restore_signals(&old);
        if (fd >= 0)
            return fd;
        if (saved != EEXIST) {
            pf_fail(st, PF_E_OUTPUT, "%s: creating a temporary file beside it failed: %s",
                    f->path, strerror(saved));
            return -1;
        }
    }
    pf_fail(st, PF_E_OUTPUT, "%s: no free temporary name beside it", f->path);
    return -1;
}

int pf_outfile_check_name(const char *path, const char *suffix, pf_status *st)
{
    if (!path || !strcmp(path, "-"))
        return PF_OK;
    const char *slash = strrchr(path, '/');
    size_t len = strlen(slash ? slash + 1 : path) + (suffix ? strlen(suffix) : 0);
    if (len > NAME_LIMIT)
        return pf_fail(st, PF_E_USAGE, "%s%s: the file name is %zu bytes, over the limit of %d",
                       path, suffix ? suffix : "", len, NAME_LIMIT);
    return PF_OK;
}

/* Writes in place: an existing device, FIFO, socket or symbolic link.
 * Its descriptor, or -1 after filling st. */
static int open_in_place(pf_outfile *f, pf_status *st)
{
    int fd = openat(f->dir_fd, f->final_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        pf_fail(st, PF_E_OUTPUT, "%s: opening for writing failed: %s", f->path, strerror(errno));
        return -1;
    }
    close(f->dir_fd);
    f->dir_fd = -1;
    return fd;
}

int pf_outfile_open(pf_outfile *f, const char *path, const char *suffix, pf_status *st)
{
    memset(f, 0, sizeof *f);
    f->dir_fd = -1;
    f->slot = -1;
    if (!path || !strcmp(path, "-")) {
        f->fp = stdout;
        f->path = "<stdout>";
        return PF_OK;
    }
    f->path = path;
    if (pf_outfile_check_name(path, suffix, st)) {
        if (st)
            st->code = PF_E_OUTPUT;
        return PF_E_OUTPUT;
    }
    int dir_fd = open_parent(path, f->final_name, sizeof f->final_name, st);
    if (dir_fd < 0)
        return st ? st->code : PF_E_OUTPUT;
    f->dir_fd = dir_fd;
    if (suffix)
        strcat(f->final_name, suffix);
    struct stat old;
    int exists = fstatat(dir_fd, f->final_name, &old, AT_SYMLINK_NOFOLLOW) == 0;
    int fd = exists && !S_ISREG(old.st_mode) ? open_in_place(f, st)
                                              : create_temp(f, exists ? old.st_mode & 07777 : 0666,
                                                            st);
    if (fd >= 0 && exists && f->slot >= 0)
        (void)fchmod(fd, old.st_mode & 07777); /* as the file it replaces */
    if (fd >= 0)
        f->fp = fdopen(fd, "w");
    if (fd >= 0 && !f->fp) {
        int saved = errno;
        close(fd);
        pf_outfile_abort(f);
        return pf_fail(st, PF_E_OUTPUT, "%s: fdopen failed: %s", path, strerror(saved));
    }
    if (fd < 0) {
        pf_outfile_abort(f);
        return st ? st->code : PF_E_OUTPUT;
    }
    return PF_OK;
}

int pf_outfile_commit(pf_outfile *f, pf_status *st)
{
    if (f->fp == stdout) {
        errno = 0;
        int failed = fflush(stdout) != 0 || ferror(stdout);
        int saved = errno;
        return failed ? pf_fail(st, PF_E_OUTPUT, "writing standard output failed%s%s",
                                saved ? ": " : "", saved ? strerror(saved) : "")
                      : PF_OK;
    }
    int saved = 0;
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        saved = errno ? errno : EIO_UNKNOWN; /* unknown: an earlier write failed */
    if (fclose(f->fp) != 0 && !saved)
        saved = errno ? errno : EIO_UNKNOWN;
    int failed = saved != 0;
    f->fp = NULL;
    if (!failed && f->slot >= 0 &&
        renameat(f->dir_fd, f->temp_name, f->dir_fd, f->final_name) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        pf_outfile_abort(f);
        return pf_fail(st, PF_E_OUTPUT, "%s: write failed%s%s", f->path,
                       saved == EIO_UNKNOWN ? "" : ": ",
                       saved == EIO_UNKNOWN ? "" : strerror(saved));
    }
    release_slot(f);
    if (f->dir_fd >= 0)
        close(f->dir_fd);
    f->dir_fd = -1;
    return PF_OK;
}

void pf_outfile_abort(pf_outfile *f)
{
    if (f->fp && f->fp != stdout)
        fclose(f->fp);
    f->fp = NULL;
    if (f->slot >= 0)
        unlinkat(f->dir_fd, f->temp_name, 0);
    release_slot(f);
    if (f->dir_fd >= 0)
        close(f->dir_fd);
    f->dir_fd = -1;
}
