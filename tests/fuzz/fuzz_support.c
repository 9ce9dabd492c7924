/* Shared pieces of the libFuzzer targets (see fuzz_support.h). */
#define _GNU_SOURCE
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int file_fd[FUZZ_FILES] = {-1, -1, -1};
static char file_path[FUZZ_FILES][40];

_Noreturn void fuzz_fail(const char *what, const char *message)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, message);
    abort();
}

void fuzz_expect_ok(int rc, const char *call, const pf_status *st)
{
    if (rc == PF_OK)
        return;
    char why[600];
    snprintf(why, sizeof why, "returned %d: %s", rc, st->message);
    fuzz_fail(call, why);
}

static void system_fail(const char *call)
{
    perror(call);
    abort();
}

const char *fuzz_file(int slot, const void *data, size_t size)
{
    if (slot < 0 || slot >= FUZZ_FILES)
        fuzz_fail("fuzz_file", "no such slot");
    if (file_fd[slot] < 0) {
        file_fd[slot] = memfd_create("pf-fuzz", MFD_CLOEXEC);
        if (file_fd[slot] < 0)
            system_fail("memfd_create");
        snprintf(file_path[slot], sizeof file_path[slot], "/proc/self/fd/%d", file_fd[slot]);
    }
    int fd = file_fd[slot];
    if (ftruncate(fd, 0) != 0)
        system_fail("ftruncate");
    const char *p = data;
    size_t done = 0;
    while (done < size) {
        ssize_t wrote = pwrite(fd, p + done, size - done, (off_t)done);
        if (wrote <= 0)
            system_fail("pwrite");
        done += (size_t)wrote;
    }
    return file_path[slot];
}

char fuzz_first_char(const uint8_t *data, size_t size, char skip_comment)
{
    size_t i = 0;
    while (i < size) {
        while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r'))
            i++;
        if (i == size)
            break;
        if (data[i] != '\n' && (!skip_comment || data[i] != skip_comment))
            return (char)data[i];
        while (i < size && data[i] != '\n')
            i++;
        i++;
    }
    return '\0';
}

void fuzz_split(const uint8_t *data, size_t size, const uint8_t **first, size_t *first_len,
                const uint8_t **second, size_t *second_len)
{
    const size_t sep_len = sizeof FUZZ_SEPARATOR - 1;
    const uint8_t *sep = memmem(data, size, FUZZ_SEPARATOR, sep_len);
    *first = data;
    if (!sep) {
        *first_len = size;
        *second = data + size;
        *second_len = 0;
        return;
    }
    *first_len = (size_t)(sep - data) + 1; /* keep the graph's last newline */
    *second = sep + sep_len;
    *second_len = size - (size_t)(*second - data);
}
