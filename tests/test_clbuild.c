/* Conformance of the embedded max-flow program: every OpenCL device in
 * reach (PORTAFLOW_CL_PLATFORM narrows the platforms, as in the backend)
 * compiles it at -cl-std=CL1.2 with the backend's own options, in every
 * width the device runs (64-bit residuals where it has
 * cl_khr_int64_base_atomics, 32-bit always), and its compiler says nothing:
 * the build log is printed, and any warning in it fails the test. The
 * build adds -Werror, since rusticl keeps the warnings of a successful
 * build out of its log (PoCL prints them). The built program holds
 * exactly the kernels of the kernel table (pf_kernel_table.h), each with
 * the table's parameters in the table's order, which is the order the
 * host launchers (cl_kernels.h) set them in. */
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

/* One kernel of the table: its name and its parameters' names, in order. */
typedef struct table_kernel {
    const char *name;
    const char *params[24];
    int count;
} table_kernel;

#define PARAM_NAME(type, name) #name,
#define PARAM_ONE(type, name) +1
#define TABLE_KERNEL(ID, name)                                                             \
    [PF_CLK_##ID] = {"pf_k_" #name, {PF_ARGS_##name(PARAM_NAME, PARAM_NAME, PARAM_NAME)},   \
                     0 PF_ARGS_##name(PARAM_ONE, PARAM_ONE, PARAM_ONE)},
static const table_kernel table[PF_CLK_COUNT] = {PF_CL_KERNELS(TABLE_KERNEL)};

/* The program's kernels against the table: their number, and for each its
 * parameters (their names where the device keeps them). */
static void expect_table_kernels(const target *t, cl_program program)
{
    size_t kernels = 0;
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels,
                                  NULL);
    PF_EXPECT(err == CL_SUCCESS && kernels == PF_CLK_COUNT,
              "%s: %zu kernels in the program, %d in the table", t->name, kernels,
              (int)PF_CLK_COUNT);
    for (int k = 0; k < PF_CLK_COUNT; k++) {
        ck_assert_str_eq(pf_cl_kernel_names[k], table[k].name);
        cl_kernel kernel = clCreateKernel(program, table[k].name, &err);
        PF_EXPECT(kernel != NULL, "%s: clCreateKernel(%s): %d", t->name, table[k].name, err);
        cl_uint args = 0;
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL);
        PF_EXPECT((int)args == table[k].count, "%s: %s has %u parameters, the table %d",
                  t->name, table[k].name, args, table[k].count);
        for (cl_uint a = 0; a < args; a++) {
            char name[64] = "";
            if (clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME, sizeof name, name, NULL) !=
                CL_SUCCESS)
                break; /* the device keeps no argument names */
            PF_EXPECT(strcmp(name, table[k].params[a]) == 0,
                      "%s: %s parameter %u is %s, the table says %s", t->name, table[k].name,
                      a, name, table[k].params[a]);
        }
        clReleaseKernel(kernel);
    }
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
    char options[220];
    pf_cl_steps_options(width, atom64, options, sizeof options - 40);
    strcat(options, " -Werror -cl-kernel-arg-info");
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
    expect_table_kernels(t, program);
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
    return pf_test_run_in_process(s);
}
