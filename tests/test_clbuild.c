/* Conformance of the embedded max-flow program: every OpenCL device in
 * reach (PORTAFLOW_CL_PLATFORM narrows the platforms, as in the backend)
 * compiles it at -cl-std=CL1.2 with the backend's own options, in every
 * width the device runs (64-bit residuals where it has
 * cl_khr_int64_base_atomics, 32-bit always), and its compiler says nothing:
 * the build log is printed, and any warning in it fails the test. The
 * build adds -Werror, since rusticl keeps the warnings of a successful
 * build out of its log (PoCL prints them). */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/cl/cl_internal.h"
#include "support.h"

typedef struct target {
    cl_platform_id platform;
    cl_device_id device;
    char name[256];
} target;

static target targets[16];
static int target_count;

static int has_extension(cl_device_id device, const char *ext)
{
    size_t need = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &need) != CL_SUCCESS || !need)
        return 0;
    char *list = malloc(need + 1);
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, need, list, NULL) == CL_SUCCESS) {
        list[need] = '\0';
        for (char *tok = strtok(list, " "); tok && !found; tok = strtok(NULL, " "))
            found = strcmp(tok, ext) == 0;
    }
    free(list);
    return found;
}

/* Whether the platform's name contains PORTAFLOW_CL_PLATFORM (any case). */
static int platform_wanted(cl_platform_id platform)
{
    const char *want = getenv("PORTAFLOW_CL_PLATFORM");
    char name[256] = "";
    if (!want || !*want)
        return 1;
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    for (char *p = name; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    char lower[256];
    snprintf(lower, sizeof lower, "%s", want);
    for (char *p = lower; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return strstr(name, lower) != NULL;
}

static void find_targets(void)
{
    cl_platform_id platforms[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < 8; p++) {
        cl_device_id devices[8];
        cl_uint nd = 0;
        if (!platform_wanted(platforms[p]) ||
            clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 8, devices, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 8 && target_count < 16; d++) {
            target *t = &targets[target_count++];
            t->platform = platforms[p];
            t->device = devices[d];
            clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof t->name, t->name, NULL);
        }
    }
}

/* Warning lines in a (lower-cased) build log. NVIDIA's compiler notes for
 * every kernel that "function X is a kernel, so overriding noinline
 * attribute" when it compiles from source, whatever the kernel says: that
 * note is about its own inlining, not the source, and is not counted. */
static int count_warnings(char *log)
{
    int count = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
        count += strstr(line, "warning") != NULL &&
                 strstr(line, "is a kernel, so overriding noinline attribute") == NULL;
    return count;
}

/* Loop index: target * 2 + width (PF_CL_CAP64, PF_CL_CAP32). */
START_TEST(program_builds_without_warnings)
{
    const target *t = &targets[_i / 2];
    int width = _i % 2;
    int atom64 = has_extension(t->device, "cl_khr_int64_base_atomics");
    if (width == PF_CL_CAP64 && !atom64) {
        printf("%s: no 64-bit build (no cl_khr_int64_base_atomics)\n", t->name);
        return;
    }
    char options[200];
    pf_cl_steps_options(width, atom64, options, sizeof options - 10);
    strcat(options, " -Werror");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    ck_assert_ptr_nonnull(context);
    const char *text = pf_cl_program_source;
    size_t len = pf_cl_program_source_len;
    cl_program program = clCreateProgramWithSource(context, 1, &text, &len, &err);
    ck_assert_ptr_nonnull(program);
    cl_int built = clBuildProgram(program, 1, &t->device, options, NULL, NULL);
    size_t log_len = 0;
    clGetProgramBuildInfo(program, t->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
    char *log = calloc(log_len + 1, 1);
    clGetProgramBuildInfo(program, t->device, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
    printf("%s, %s: build log (%zu bytes):\n%s\n", t->name, options, strlen(log), log);
    PF_EXPECT(built == CL_SUCCESS, "%s (%s): clBuildProgram: %d", t->name, options, built);
    for (char *p = log; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    PF_EXPECT(count_warnings(log) == 0, "%s (%s): the compiler warns", t->name, options);
    free(log);
    clReleaseProgram(program);
    clReleaseContext(context);
}
END_TEST

int main(void)
{
    find_targets();
    if (target_count == 0) {
        printf("SKIP: no OpenCL device\n");
        return PF_TEST_SKIP;
    }
    Suite *s = suite_create("clbuild");
    TCase *tc = tcase_create("clbuild");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, program_builds_without_warnings, 0, 2 * target_count);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
