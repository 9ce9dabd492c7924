/* Output files that are whole or absent: pf_outfile_open writes a regular
 * file (or a new one) through a temporary file in the same directory, which
 * pf_outfile_commit renames into place once everything was written and
 * flushed; pf_outfile_abort, a failed commit, or SIGINT/SIGTERM/SIGHUP/
 * SIGPIPE before the rename remove the temporary file and leave the old
 * file as it was. A path that exists and is not a regular file (a device
 * such as /dev/full, a FIFO, a socket, or a symbolic link such as
 * /dev/stdout) is written in place and never renamed over or removed.
 * NULL or "-" means standard output (flushed, not closed, by commit).
 *
 * Usage:
 *     pf_outfile f;
 *     if (pf_outfile_open(&f, path, &st)) return error;
 *     ... write to f.fp ...
 *     if (pf_outfile_commit(&f, &st)) return error;  // or pf_outfile_abort(&f)
 *
 * Errors are PF_E_OUTPUT with the path and the failing call's error text. */
#ifndef PF_OUTFILE_H
#define PF_OUTFILE_H

#include <stdio.h>

#include "portaflow.h"

typedef struct pf_outfile {
    FILE *fp;         /* write here */
    const char *path; /* as given ("<stdout>" for standard output) */
    int dir_fd;       /* the directory the temporary file is in; -1 if none */
    int slot;         /* its entry in the signal handler's list; -1 if none */
    char temp_name[256]; /* the temporary file's name in that directory */
    char final_name[256]; /* the name it gets, in the same directory */
} pf_outfile;

/* Opens `path` for writing. `suffix` (NULL for none) is appended to the
 * path's last component, so "m.txt" with ".next" writes "m.txt.next" in the
 * same directory even when the whole path would pass PATH_MAX. */
int pf_outfile_open(pf_outfile *f, const char *path, const char *suffix, pf_status *st);

/* Flushes, checks for write errors, closes and renames into place. On
 * failure the temporary file is removed and the old file kept. */
int pf_outfile_commit(pf_outfile *f, pf_status *st);

/* Gives up: closes and removes the temporary file (if any). */
void pf_outfile_abort(pf_outfile *f);

/* 0 when `path` + `suffix` can be written as pf_outfile_open would (the
 * last component within the file system's name limit), else PF_E_USAGE
 * with a message: lets commands refuse before any work is done. */
int pf_outfile_check_name(const char *path, const char *suffix, pf_status *st);

#endif
