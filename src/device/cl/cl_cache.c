/* On-disk cache of built OpenCL programs, so that later runs skip the
 * run-time compile (seconds on some drivers).
 *
 * Location: $XDG_CACHE_HOME/portaflow, else ~/.cache/portaflow. One file
 * per key; the key (built by cl_program.c) names the platform, device,
 * driver, build options and a hash of the program text. The file name is
 * a hash of the key and the file repeats the key in full, so a hash
 * collision or a stale file is detected rather than loaded:
 *
 *   "PFCLBIN2" | u64 checksum | u64 key length | key | u64 binary length | binary
 *
 * (native byte order: the cache belongs to this machine). The checksum is
 * 64-bit FNV-1a over both lengths, the key and the binary: a file damaged
 * anywhere (flipped payload bytes once made a driver crash inside
 * clBuildProgram on every later run) is rebuilt from source and
 * overwritten instead of being handed to the driver. Every failure
 * here is silent: the caller then builds from source. Writes go to a
 * temporary file renamed into place, so a concurrent reader never sees a
 * partial file.
 *
 * PORTAFLOW_NO_CL_CACHE=1 (any value but "" and "0") turns it off.
 *
 * On a CPU driver that keeps its own kernel cache (PoCL) this cache makes
 * a cold start slower (fetching CL_PROGRAM_BINARIES makes PoCL compile
 * every kernel) and a warm one a little faster. It is aimed at GPU
 * drivers that do not cache the source compile themselves. */
#include "cl_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#if defined(_WIN32)
#include <direct.h>
#include <process.h>
#define make_dir(path) _mkdir(path)
#define process_id() _getpid()
#else
#include <unistd.h>
#define make_dir(path) mkdir((path), 0755)
#define process_id() getpid()
#endif

static const char cache_magic[8] = {'P', 'F', 'C', 'L', 'B', 'I', 'N', '2'};

/* Keys and binaries beyond these sizes are treated as corrupt files. */
#define MAX_KEY_BYTES ((uint64_t)1 << 16)
#define MAX_BINARY_BYTES ((uint64_t)1 << 30)

uint64_t pf_cl_hash(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

int pf_cl_cache_wanted(void)
{
    return !pf_knobs()->no_cl_cache;
}

/* mkdir that accepts an existing directory. */
static int ensure_dir(const char *path)
{
    if (make_dir(path) == 0 || errno == EEXIST)
        return 0;
    return -1;
}

char *pf_cl_cache_path(const char *key)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
#if defined(_WIN32)
    if (!home || !*home)
        home = getenv("LOCALAPPDATA");
#endif
    /* The XDG spec ignores a relative XDG_CACHE_HOME. */
    int use_xdg = xdg && (xdg[0] == '/'
#if defined(_WIN32)
                          || (xdg[0] && xdg[1] == ':')
#endif
                         );
    if (!use_xdg && (!home || !*home))
        return NULL;
    const char *base = use_xdg ? xdg : home;
    size_t len = strlen(base) + 64;
    char *path = malloc(len);
    if (!path)
        return NULL;
    if (!use_xdg) {
        snprintf(path, len, "%s/.cache", base);
        if (ensure_dir(path)) {
            free(path);
            return NULL;
        }
        snprintf(path, len, "%s/.cache/portaflow", base);
    } else {
        snprintf(path, len, "%s/portaflow", base);
    }
    if (ensure_dir(path)) {
        free(path);
        return NULL;
    }
    size_t dir_len = strlen(path);
    snprintf(path + dir_len, len - dir_len, "/opencl-%016llx.bin",
             (unsigned long long)pf_cl_hash(key, strlen(key), PF_CL_HASH_SEED));
    return path;
}

/* What the header's checksum must be for this key and binary. */
static uint64_t cache_checksum(const char *key, uint64_t key_len, const unsigned char *bin,
                               uint64_t bin_len)
{
    uint64_t h = pf_cl_hash(&key_len, sizeof key_len, PF_CL_HASH_SEED);
    h = pf_cl_hash(key, (size_t)key_len, h);
    h = pf_cl_hash(&bin_len, sizeof bin_len, h);
    return pf_cl_hash(bin, (size_t)bin_len, h);
}

static int read_exact(FILE *f, void *buf, size_t len)
{
    return fread(buf, 1, len, f) == len ? 0 : -1;
}

unsigned char *pf_cl_cache_load(const char *path, const char *key, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *bin = NULL;
    char *stored_key = NULL;
    char magic[sizeof cache_magic];
    uint64_t checksum, key_len, bin_len;
    size_t want_key_len = strlen(key);
    if (read_exact(f, magic, sizeof magic) || memcmp(magic, cache_magic, sizeof magic) ||
        read_exact(f, &checksum, sizeof checksum) ||
        read_exact(f, &key_len, sizeof key_len) || key_len != want_key_len ||
        key_len > MAX_KEY_BYTES)
        goto fail;
    stored_key = malloc((size_t)key_len + 1);
    if (!stored_key || read_exact(f, stored_key, (size_t)key_len) ||
        memcmp(stored_key, key, (size_t)key_len))
        goto fail;
    if (read_exact(f, &bin_len, sizeof bin_len) || bin_len == 0 ||
        bin_len > MAX_BINARY_BYTES)
        goto fail;
    bin = malloc((size_t)bin_len);
    if (!bin || read_exact(f, bin, (size_t)bin_len))
        goto fail;
    if (fgetc(f) != EOF) /* trailing bytes: not a file we wrote */
        goto fail;
    if (checksum != cache_checksum(stored_key, key_len, bin, bin_len))
        goto fail; /* damaged: the caller builds from source and overwrites it */
    free(stored_key);
    fclose(f);
    *len = (size_t)bin_len;
    return bin;
fail:
    free(bin);
    free(stored_key);
    fclose(f);
    return NULL;
}

void pf_cl_cache_store(const char *path, const char *key, const unsigned char *bin,
                       size_t len)
{
    size_t tmp_len = strlen(path) + 48;
    char *tmp = malloc(tmp_len);
    if (!tmp)
        return;
    /* Unique per process, and per thread through a stack address, so two
     * writers never share a temporary file. */
    snprintf(tmp, tmp_len, "%s.tmp.%ld.%llx", path, (long)process_id(),
             (unsigned long long)(uintptr_t)&tmp_len);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return;
    }
    uint64_t key_len = strlen(key), bin_len = len;
    uint64_t checksum = cache_checksum(key, key_len, bin, bin_len);
    int bad = fwrite(cache_magic, 1, sizeof cache_magic, f) != sizeof cache_magic ||
              fwrite(&checksum, sizeof checksum, 1, f) != 1 ||
              fwrite(&key_len, sizeof key_len, 1, f) != 1 ||
              fwrite(key, 1, (size_t)key_len, f) != key_len ||
              fwrite(&bin_len, sizeof bin_len, 1, f) != 1 ||
              fwrite(bin, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0)
        remove(tmp);
    free(tmp);
}
