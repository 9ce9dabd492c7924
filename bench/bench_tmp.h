/* Shared by the I/O benchmarks: where their test files go. */
#ifndef PF_BENCH_TMP_H
#define PF_BENCH_TMP_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Creates an empty file named PROGRAM_XXXXXX in $TMPDIR (or /tmp) and puts
 * its path in path[len]. Returns 0, or -1 after saying why on stderr. */
static inline int bench_tmpfile(const char *program, char *path, size_t len)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, len, "%s/%s_XXXXXX", dir, program);
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot create a file in %s: ", program, dir);
        perror(NULL);
        return -1;
    }
    close(fd);
    return 0;
}

#endif
