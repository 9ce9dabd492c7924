/* The available-memory probe (memavail.h): /proc/meminfo, the address-space
 * limit, and the cgroup's memory limit, or PORTAFLOW_MEMORY_LIMIT.
 *
 * Every source that cannot be read (another OS, no /proc, no cgroup files)
 * just does not limit the answer: the probe never fails, and at worst says
 * more is available than is (the allocation itself still checks). */
#include "memavail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <unistd.h>
#define PF_HAVE_RLIMIT 1
#endif

#include "knobs.h"
#include "status.h"

#define LIMIT_VARIABLE "PORTAFLOW_MEMORY_LIMIT"

uint64_t pf_mem_bytes(uint64_t a, uint64_t b, uint64_t c)
{
    if (b && a > (UINT64_MAX - c) / b)
        return UINT64_MAX;
    return a * b + c;
}

/* PORTAFLOW_MEMORY_LIMIT (knobs.h): 1 and *bytes when set, else 0. */
static int limit_from_env(uint64_t *bytes)
{
    const pf_knob_values *k = pf_knobs();
    if (!k->set[PF_KNOB_MEMORY_LIMIT])
        return 0;
    *bytes = (uint64_t)k->memory_limit;
    return 1;
}

/* The first number in FILE after `key` (e.g. "MemAvailable:"), or the
 * whole file's first number when key is NULL; "max" reads as UINT64_MAX.
 * 0 on success. */
static int read_number(const char *path, const char *key, uint64_t *value)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    int rc = -1;
    while (rc && fgets(line, sizeof line, f)) {
        const char *p = line;
        if (key) {
            if (strncmp(line, key, strlen(key)) != 0)
                continue;
            p += strlen(key);
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "max", 3) == 0) {
            *value = UINT64_MAX;
            rc = 0;
        } else if (*p >= '0' && *p <= '9') {
            *value = strtoull(p, NULL, 10);
            rc = 0;
        }
        if (!key)
            break;
    }
    fclose(f);
    return rc;
}

static uint64_t smaller(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t headroom(uint64_t limit, uint64_t used)
{
    return limit > used ? limit - used : 0;
}

/* The kernel's estimate of memory available without swapping. */
static uint64_t meminfo_available(void)
{
    uint64_t kib;
    if (read_number("/proc/meminfo", "MemAvailable:", &kib))
        return UINT64_MAX;
    return pf_mem_bytes(kib, 1024, 0);
}

/* What is left under RLIMIT_AS, counting the address space in use. */
static uint64_t address_space_headroom(void)
{
#ifdef PF_HAVE_RLIMIT
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    uint64_t pages = 0;
    long page = sysconf(_SC_PAGESIZE);
    if (read_number("/proc/self/statm", NULL, &pages) || page <= 0)
        pages = 0;
    return headroom((uint64_t)lim.rlim_cur, pf_mem_bytes(pages, (uint64_t)page, 0));
#else
    return UINT64_MAX;
#endif
}

/* The cgroup path of this process for `controller` ("" = the v2 unified
 * hierarchy, whose line reads "0::/path"), into path; 0 if found. */
static int cgroup_path(const char *controller, char *path, size_t len)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return -1;
    char line[512];
    int rc = -1;
    while (rc && fgets(line, sizeof line, f)) {
        char *first_colon = strchr(line, ':');
        char *second_colon = first_colon ? strchr(first_colon + 1, ':') : NULL;
        if (!second_colon)
            continue;
        *first_colon = *second_colon = '\0';
        const char *names = first_colon + 1; /* "memory", "cpu,cpuacct", "" (v2) */
        char *where = second_colon + 1;
        where[strcspn(where, "\n")] = '\0';
        int match = *controller ? strstr(names, controller) != NULL
                                : strcmp(line, "0") == 0 && *names == '\0';
        if (match && snprintf(path, len, "%s", where) < (int)len)
            rc = 0;
    }
    fclose(f);
    return rc;
}

/* Headroom of the cgroup at dir and every ancestor under root, reading
 * `limit_file` and `usage_file` at each level. */
static uint64_t cgroup_headroom(const char *root, const char *group, const char *limit_file,
                                const char *usage_file)
{
    char dir[1024], file[1100];
    uint64_t room = UINT64_MAX;
    if (snprintf(dir, sizeof dir, "%s%s", root, group) >= (int)sizeof dir)
        return room;
    size_t root_len = strlen(root);
    for (;;) {
        uint64_t limit, usage;
        snprintf(file, sizeof file, "%s/%s", dir, limit_file);
        if (read_number(file, NULL, &limit) == 0 && limit != UINT64_MAX) {
            snprintf(file, sizeof file, "%s/%s", dir, usage_file);
            if (read_number(file, NULL, &usage) == 0)
                room = smaller(room, headroom(limit, usage));
        }
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < root_len)
            break;
        *slash = '\0';
    }
    return room;
}

/* The smallest headroom of the v2 hierarchy (mounted alone, or as
 * "unified" beside v1) and the v1 memory controller: a hybrid system can
 * have a limit in either. */
static uint64_t cgroup_available(void)
{
    char group[512];
    uint64_t room = UINT64_MAX;
    if (cgroup_path("", group, sizeof group) == 0) {
        room = smaller(room, cgroup_headroom("/sys/fs/cgroup", group, "memory.max",
                                             "memory.current"));
        room = smaller(room, cgroup_headroom("/sys/fs/cgroup/unified", group, "memory.max",
                                             "memory.current"));
    }
    if (cgroup_path("memory", group, sizeof group) == 0)
        room = smaller(room, cgroup_headroom("/sys/fs/cgroup/memory", group,
                                             "memory.limit_in_bytes", "memory.usage_in_bytes"));
    return room;
}

uint64_t pf_mem_available(const char **source)
{
    uint64_t bytes;
    const char *from = "nothing limits it";
    if (limit_from_env(&bytes) == 1) {
        from = LIMIT_VARIABLE;
    } else {
        const struct {
            uint64_t bytes;
            const char *name;
        } probes[] = {
            {.bytes = meminfo_available(), .name = "MemAvailable in /proc/meminfo"},
            {.bytes = address_space_headroom(), .name = "address-space limit, ulimit -v"},
            {.bytes = cgroup_available(), .name = "cgroup memory limit"},
        };
        bytes = UINT64_MAX;
        for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
            if (probes[i].bytes < bytes) {
                bytes = probes[i].bytes;
                from = probes[i].name;
            }
    }
    if (source)
        *source = from;
    return bytes;
}

/* "12.3 GiB" style, for messages. */
static const char *human_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    int unit = 0;
    while (value >= 1024 && unit < 6) {
        value /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.1f %s (%llu bytes)", value, units[unit], (unsigned long long)bytes);
    return buf;
}

int pf_mem_require(uint64_t need, const char *what, pf_status *st)
{
    const char *source;
    uint64_t available = pf_mem_available(&source);
    if (need <= available)
        return PF_OK;
    char need_text[64], have_text[64];
    if (need == UINT64_MAX)
        snprintf(need_text, sizeof need_text, "more than 16 EiB");
    else
        human_bytes(need, need_text, sizeof need_text);
    int from_env = strcmp(source, LIMIT_VARIABLE) == 0;
    return pf_fail(st, PF_E_NOMEM, "%s needs about %s of memory, but only %s are available (%s%s)",
                   what, need_text, human_bytes(available, have_text, sizeof have_text), source,
                   from_env ? "" : "; " LIMIT_VARIABLE "=BYTES overrides");
}

void pf_mem_prefault(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* Where transparent huge pages are on for madvise'd memory only: the
     * array's aligned 2 MiB spans asked for as huge pages (one fault and
     * one TLB entry each instead of 512; a no-op where THP is always or
     * never on). */
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t huge_begin = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t huge_end = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (huge_end > huge_begin)
        madvise((void *)huge_begin, huge_end - huge_begin, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t begin = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);
    if (end > begin)
        madvise((void *)begin, end - begin, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
#endif
}
