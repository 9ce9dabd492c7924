/* The OpenCL binary cache survives damage (issue 23, defect 4): a solve
 * fills the cache, bytes of the cached binary (or of its key) are flipped
 * with the header left intact, and the next solve must give the right
 * answer, rebuild from source, and leave a repaired file whose checksum
 * holds. Runs the CLI with its own XDG_CACHE_HOME; skipped (77) without an
 * OpenCL device. */
#define _GNU_SOURCE /* nftw */
#include <check.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/knobs.h"
#include "support.h"

static const char network[] = "p max 4 5\nn 1 s\nn 4 t\na 1 2 3\na 1 3 2\na 2 3 1\n"
                              "a 2 4 2\na 3 4 3\n";
static char cache_home[64];

static void solve_expecting_value(void)
{
    const char *path = pf_test_tmpfile(network);
    const char *args[] = {"solve", "--backend", "opencl", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = pf_test_run_cli(args, NULL, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "s 5\n") != NULL, "%s", out);
    free(out);
    free(err);
}

/* The cache files under cache_home/portaflow, as paths into names[]. */
static int cache_files(char names[][512], int max)
{
    char dir_path[128];
    snprintf(dir_path, sizeof dir_path, "%s/portaflow", cache_home);
    DIR *dir = opendir(dir_path);
    ck_assert_msg(dir != NULL, "no cache directory %s", dir_path);
    int count = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL && count < max;)
        if (strncmp(e->d_name, "opencl-", 7) == 0 && strstr(e->d_name, ".tmp") == NULL)
            snprintf(names[count++], 512, "%s/%s", dir_path, e->d_name);
    closedir(dir);
    return count;
}

static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *bytes = malloc(*len);
    ck_assert_uint_eq(fread(bytes, 1, *len, f), *len);
    fclose(f);
    return bytes;
}

static void write_bytes(const char *path, const unsigned char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static uint64_t fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* "PFCLBIN2" | u64 checksum | u64 key length | key | u64 length | binary,
 * checksum = FNV-1a over key length, key, binary length, binary. */
static int checksum_holds(const unsigned char *file, size_t len)
{
    uint64_t stored, key_len, bin_len;
    if (len < 32 || memcmp(file, "PFCLBIN2", 8) != 0)
        return 0;
    memcpy(&stored, file + 8, 8);
    memcpy(&key_len, file + 16, 8);
    if (key_len > len - 32)
        return 0;
    memcpy(&bin_len, file + 24 + key_len, 8);
    if (bin_len != len - 32 - key_len)
        return 0;
    uint64_t h = fnv1a(file + 16, 8 + key_len + 8, UINT64_C(0xcbf29ce484222325));
    return stored == fnv1a(file + 32 + key_len, (size_t)bin_len, h);
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)type;
    (void)ftw;
    return remove(path);
}

/* _i = 0: flip bytes of the binary; 1: of the key. */
START_TEST(damaged_cache_is_rebuilt)
{
    snprintf(cache_home, sizeof cache_home, "/tmp/pf_clcache_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(cache_home));
    setenv("XDG_CACHE_HOME", cache_home, 1);
    unsetenv("PORTAFLOW_NO_CL_CACHE");
    pf_knobs_reload();
    solve_expecting_value();
    char names[8][512];
    int count = cache_files(names, 8);
    ck_assert_int_gt(count, 0);
    for (int f = 0; f < count; f++) {
        size_t len;
        unsigned char *bytes = read_bytes(names[f], &len);
        ck_assert_msg(checksum_holds(bytes, len), "%s: bad checksum as written", names[f]);
        uint64_t key_len;
        memcpy(&key_len, bytes + 16, 8);
        size_t from = _i == 0 ? 32 + (size_t)key_len : 24, span = _i == 0 ? len - from : key_len;
        for (size_t k = 1; k <= 16; k++)
            bytes[from + span * k / 17] ^= 0x5a;
        write_bytes(names[f], bytes, len);
        free(bytes);
    }
    solve_expecting_value();
    for (int f = 0; f < count; f++) {
        size_t len;
        unsigned char *bytes = read_bytes(names[f], &len);
        ck_assert_msg(checksum_holds(bytes, len), "%s was not repaired", names[f]);
        free(bytes);
    }
    /* The driver may keep its own cache under XDG_CACHE_HOME too. */
    nftw(cache_home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
END_TEST

int main(void)
{
    char why[512];
    if (pf_test_backend_devices("opencl", why, sizeof why) == 0) {
        printf("SKIP: %s\n", why);
        return PF_TEST_SKIP;
    }
    Suite *s = suite_create("clcache");
    TCase *tc = tcase_create("clcache");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, damaged_cache_is_rebuilt, 0, 2);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
