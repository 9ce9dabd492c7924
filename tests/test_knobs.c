/* Check suite for the tuning variables' table (src/common/knobs.[ch]):
 * parsing of every kind, ranges and refused values, the environment read,
 * the listings, docs/KNOBS.md against the table, and that no other source
 * file reads a tuning variable itself. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostcopy.h"
#include "common/knobs.h"
#include "common/residual.h"
#include "support.h"

static int parse(pf_knob_id id, const char *text, pf_knob_values *v)
{
    const char *why = NULL;
    pf_knobs_defaults(v);
    int rc = pf_knob_parse(id, text, v, &why);
    ck_assert(rc == 0 || (why && *why));
    return rc;
}

START_TEST(table_is_complete)
{
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        const pf_knob_info *k = &pf_knob_table[id];
        ck_assert_msg(k->name && k->meaning && *k->meaning, "knob %d lacks a name or meaning", id);
        ck_assert_msg(!strncmp(k->name, "PORTAFLOW_", 10) || !strncmp(k->name, "PF_CUDA_", 8),
                      "%s: not a portaflow variable", k->name);
        ck_assert_msg(k->offset < sizeof(pf_knob_values), "%s: offset", k->name);
        if (k->kind == PF_KNOB_TEXT)
            ck_assert_msg(k->size > 1, "%s: text without a size", k->name);
        if (k->kind == PF_KNOB_CHOICE)
            ck_assert_msg(k->choices && k->choices[0].name, "%s: no choices", k->name);
        for (int other = 0; other < id; other++)
            ck_assert_str_ne(k->name, pf_knob_table[other].name);
    }
}
END_TEST

START_TEST(defaults)
{
    pf_knob_values v;
    pf_knobs_defaults(&v);
    ck_assert_int_eq(v.cycles, 64);
    ck_assert(v.gr_alpha == PF_GR_ALPHA);
    ck_assert_int_eq(v.gr_rounds, 256);
    ck_assert_int_eq(v.hybrid, PF_KNOB_AUTO);
    ck_assert_int_eq(v.hybrid_start, 1);
    ck_assert_int_eq(v.hybrid_stretch, 0);
    ck_assert_int_eq(v.hybrid_switch, 0);
    ck_assert_int_eq(v.follow, 1);
    ck_assert_int_eq(v.async, 1);
    ck_assert_int_eq(v.trace, 0);
    ck_assert_int_eq(v.cap_bits, PF_KNOB_AUTO);
    ck_assert_int_eq(v.arc_order, PF_KNOB_AUTO);
    ck_assert_int_eq(v.omp_hl_share, PF_KNOB_AUTO);
    ck_assert_int_eq(v.pinned, (int64_t)PF_STAGE_MIN_DEFAULT);
    ck_assert_int_eq(v.cl_reuse, 1);
    ck_assert_int_eq(v.no_cl_cache, 0);
    ck_assert_int_eq(v.cuda_push_lanes, 32);
    ck_assert_int_eq(v.cuda_fw_variant, 2);
    ck_assert_str_eq(v.backend, "");
    ck_assert_str_eq(v.cl_platform, "");
    ck_assert_int_eq(v.cl_fw.show + v.cl_fw.rows + v.cl_fw.vec, 0);
    for (int id = 0; id < PF_KNOB_COUNT; id++)
        ck_assert(!v.set[id] && !v.bad[id]);
}
END_TEST

START_TEST(numbers_and_ranges)
{
    pf_knob_values v;
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "17", &v), 0);
    ck_assert_int_eq(v.cycles, 17);
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "0", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "-3", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "2147483648", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "12abc", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CYCLES, "99999999999999999999999", &v), -1);
    ck_assert_int_eq(v.cycles, 64); /* a refused value writes nothing */
    ck_assert_int_eq(parse(PF_KNOB_HYBRID_STRETCH, "0", &v), 0);
    ck_assert_int_eq(v.hybrid_stretch, 0);
    ck_assert_int_eq(parse(PF_KNOB_HYBRID, "off", &v), 0);
    ck_assert_int_eq(v.hybrid, 2); /* PF_HYBRID_OFF */
    ck_assert_int_eq(parse(PF_KNOB_HYBRID, "maybe", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_HYBRID_SWITCH, "alternate", &v), 0);
    ck_assert_int_eq(v.hybrid_switch, 1);
    ck_assert_int_eq(parse(PF_KNOB_CUDA_PUSH_LANES, "8", &v), 0);
    ck_assert_int_eq(v.cuda_push_lanes, 8);
    ck_assert_int_eq(parse(PF_KNOB_CUDA_PUSH_LANES, "12", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CUDA_PUSH_LANES, "64", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CUDA_FW_VARIANT, "3", &v), 0);
    ck_assert_int_eq(parse(PF_KNOB_CUDA_FW_VARIANT, "4", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_GR_ALPHA, "2.5", &v), 0);
    ck_assert(v.gr_alpha == 2.5);
    ck_assert_int_eq(parse(PF_KNOB_GR_ALPHA, "-1", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_GR_ALPHA, "nan", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_GR_ALPHA, "6x", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_PINNED, "0", &v), 0);
    ck_assert_int_eq(v.pinned, 0);
}
END_TEST

START_TEST(flags_bytes_choices_text)
{
    pf_knob_values v;
    /* PORTAFLOW_TRACE is read one way everywhere: 0 or 1. */
    ck_assert_int_eq(parse(PF_KNOB_TRACE, "1", &v), 0);
    ck_assert_int_eq(v.trace, 1);
    ck_assert_int_eq(parse(PF_KNOB_TRACE, "0", &v), 0);
    ck_assert_int_eq(v.trace, 0);
    ck_assert_int_eq(parse(PF_KNOB_TRACE, "yes", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_TRACE, "2", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "3G", &v), 0);
    ck_assert_int_eq(v.memory_limit, (int64_t)3 << 30);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "12345", &v), 0);
    ck_assert_int_eq(v.memory_limit, 12345);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "64K", &v), 0);
    ck_assert_int_eq(v.memory_limit, 65536);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "12Q", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "-5", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "1GB", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_MEMORY_LIMIT, "99999999T", &v), -1); /* past 2^63 */
    ck_assert_int_eq(parse(PF_KNOB_CAP_BITS, "32", &v), 0);
    ck_assert_int_eq(v.cap_bits, 32);
    ck_assert_int_eq(parse(PF_KNOB_CAP_BITS, "48", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_ARC_ORDER, "input-reversed", &v), 0);
    ck_assert_int_eq(v.arc_order, PF_ARCS_INPUT_REVERSED);
    ck_assert_int_eq(parse(PF_KNOB_ARC_ORDER, "rotated", &v), 0);
    ck_assert_int_eq(v.arc_order, PF_ARCS_FORWARD_ROTATED);
    ck_assert_int_eq(parse(PF_KNOB_ARC_ORDER, "sideways", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CL_PLATFORM, "rusticl", &v), 0);
    ck_assert_str_eq(v.cl_platform, "rusticl");
    char longer[300];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    ck_assert_int_eq(parse(PF_KNOB_CL_PLATFORM, longer, &v), -1);
}
END_TEST

START_TEST(opencl_fw_shape)
{
    pf_knob_values v;
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "rows=8,cols=4,show", &v), 0);
    ck_assert_int_eq(v.cl_fw.rows, 8);
    ck_assert_int_eq(v.cl_fw.cols, 4);
    ck_assert_int_eq(v.cl_fw.show, 1);
    ck_assert_int_eq(v.cl_fw.vec, 0);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "show", &v), 0);
    ck_assert_int_eq(v.cl_fw.show, 1);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "rows=0", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "rows=2000", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "depth=4", &v), -1);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "rows=8,", &v), 0);
    ck_assert_int_eq(parse(PF_KNOB_CL_FW, "rows", &v), -1);
    char text[128];
    pf_knobs_defaults(&v);
    parse(PF_KNOB_CL_FW, "pivot=4,show,vec=2", &v);
    v.set[PF_KNOB_CL_FW] = 1;
    pf_knob_value_text(&v, PF_KNOB_CL_FW, text, sizeof text);
    ck_assert_str_eq(text, "show,vec=2,pivot=4");
}
END_TEST

/* Set, refused and unset variables as the process sees them. */
START_TEST(environment_read_once_and_reloaded)
{
    setenv("PORTAFLOW_CYCLES", "33", 1);
    setenv("PORTAFLOW_GR_ROUNDS", "many", 1);
    setenv("PORTAFLOW_ARC_ORDER", "", 1); /* empty: unset */
    pf_knobs_reload();
    const pf_knob_values *k = pf_knobs();
    ck_assert_int_eq(k->cycles, 33);
    ck_assert(k->set[PF_KNOB_CYCLES] && !k->bad[PF_KNOB_CYCLES]);
    ck_assert_int_eq(k->gr_rounds, 256);
    ck_assert(!k->set[PF_KNOB_GR_ROUNDS] && k->bad[PF_KNOB_GR_ROUNDS]);
    ck_assert(!k->set[PF_KNOB_ARC_ORDER] && !k->bad[PF_KNOB_ARC_ORDER]);
    char problem[512];
    ck_assert(!pf_knob_problem(k, PF_KNOB_CYCLES, problem, sizeof problem));
    ck_assert(pf_knob_problem(k, PF_KNOB_GR_ROUNDS, problem, sizeof problem));
    ck_assert_msg(strstr(problem, "PORTAFLOW_GR_ROUNDS='many'") &&
                      strstr(problem, "not a whole number") && strstr(problem, "1..") &&
                      strstr(problem, "default (256)"),
                  "%s", problem);
    /* Read once: a change is not seen until a reload. */
    setenv("PORTAFLOW_CYCLES", "44", 1);
    ck_assert_int_eq(pf_knobs()->cycles, 33);
    unsetenv("PORTAFLOW_CYCLES");
    unsetenv("PORTAFLOW_GR_ROUNDS");
    unsetenv("PORTAFLOW_ARC_ORDER");
    pf_knobs_reload();
    ck_assert_int_eq(pf_knobs()->cycles, 64);
    ck_assert(!pf_knobs()->bad[PF_KNOB_GR_ROUNDS]);
}
END_TEST

static void *read_knobs(void *arg)
{
    (void)arg;
    return (void *)pf_knobs();
}

/* The first read from several threads at once gives one struct. */
START_TEST(first_read_from_threads)
{
    pthread_t threads[8];
    for (int t = 0; t < 8; t++)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, read_knobs, NULL), 0);
    void *first = NULL;
    for (int t = 0; t < 8; t++) {
        void *got;
        pthread_join(threads[t], &got);
        first = first ? first : got;
        ck_assert_ptr_eq(got, first);
    }
    ck_assert_int_eq(((const pf_knob_values *)first)->cycles, 64);
}
END_TEST

static char *written(int (*write)(FILE *, const pf_knob_values *), const pf_knob_values *v)
{
    const char *path = pf_test_tmpname();
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(write ? write(f, v) : pf_knobs_write_markdown(f), 0);
    fclose(f);
    return pf_test_read_file(path);
}

START_TEST(listing_names_every_knob)
{
    setenv("PORTAFLOW_CAP_BITS", "64", 1);
    setenv("PORTAFLOW_OMP_BLOCKS", "0", 1);
    pf_knobs_reload();
    char *list = written(pf_knobs_write_list, pf_knobs());
    for (int id = 0; id < PF_KNOB_COUNT; id++)
        ck_assert_msg(strstr(list, pf_knob_table[id].name), "%s not listed",
                      pf_knob_table[id].name);
    ck_assert_msg(strstr(list, "PORTAFLOW_CAP_BITS = 64 (set)"), "%s", list);
    ck_assert_msg(strstr(list, "PORTAFLOW_OMP_BLOCKS = 8 (default)") &&
                      strstr(list, "refused: PORTAFLOW_OMP_BLOCKS='0': out of range"),
                  "%s", list);
    ck_assert_msg(strstr(list, "PORTAFLOW_CYCLES = 64 (default)\n    default: 64; range: "
                               "1..2147483647\n"),
                  "%s", list);
    free(list);
    unsetenv("PORTAFLOW_CAP_BITS");
    unsetenv("PORTAFLOW_OMP_BLOCKS");
    pf_knobs_reload();
}
END_TEST

/* docs/KNOBS.md is the table written out; regenerate it with
 * `portaflow backends --knobs-doc > docs/KNOBS.md`. */
START_TEST(doc_matches_table)
{
    char path[1024];
    const char *srcdir = getenv("PF_SRCDIR") ? getenv("PF_SRCDIR") : ".";
    snprintf(path, sizeof path, "%s/../docs/KNOBS.md", srcdir);
    char *doc = pf_test_read_file(path);
    ck_assert_msg(doc != NULL, "cannot read %s", path);
    char *want = written(NULL, NULL);
    ck_assert_msg(strcmp(doc, want) == 0,
                  "docs/KNOBS.md differs from the table: run portaflow backends --knobs-doc "
                  "> docs/KNOBS.md");
    free(doc);
    free(want);
}
END_TEST

/* The command line: a refused value is one warning on stderr, the command
 * still runs; --knobs lists the value, --json as an object. */
START_TEST(cli_warns_and_lists)
{
    setenv("PORTAFLOW_FOLLOW", "maybe", 1);
    setenv("PORTAFLOW_HYBRID_STRETCH", "5", 1);
    char *out, *err;
    const char *list[] = {"backends", "--knobs", NULL};
    ck_assert_int_eq(pf_test_run_cli(list, NULL, &out, &err), 0);
    ck_assert_msg(strstr(err, "portaflow: warning: PORTAFLOW_FOLLOW='maybe': not 0 or 1") &&
                      strstr(err, "default (1)"),
                  "%s", err);
    ck_assert_ptr_eq(strstr(strstr(err, "PORTAFLOW_FOLLOW") + 1, "PORTAFLOW_FOLLOW='maybe'"), NULL);
    ck_assert_msg(strstr(out, "PORTAFLOW_HYBRID_STRETCH = 5 (set)"), "%s", out);
    free(out), free(err);
    const char *json[] = {"backends", "--knobs", "--json", NULL};
    ck_assert_int_eq(pf_test_run_cli(json, NULL, &out, &err), 0);
    ck_assert_msg(!strncmp(out, "{\"knobs\":[{\"name\":\"PORTAFLOW_BACKEND\"", 36), "%s", out);
    ck_assert_msg(strstr(out, "{\"name\":\"PORTAFLOW_HYBRID_STRETCH\",\"value\":\"5\",\"set\":true,"),
                  "%s", out);
    ck_assert_msg(strstr(out, "\"refused\":\"PORTAFLOW_FOLLOW='maybe'"), "%s", out);
    free(out), free(err);
    unsetenv("PORTAFLOW_FOLLOW");
    unsetenv("PORTAFLOW_HYBRID_STRETCH");
}
END_TEST

/* ---- no tuning variable read outside the table ------------------------- */

static char offenders[4096];

static int allowed_getenv(const char *arg)
{
    static const char *const allowed[] = {
        "\"XDG_CACHE_HOME\"", "\"HOME\"", "\"LOCALAPPDATA\"",
        "\"PORTAFLOW_BACKEND\"",   /* the registry's override, listed in the table */
        "pf_knob_table[id].name", /* knobs.c itself */
    };
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        if (!strncmp(arg, allowed[i], strlen(allowed[i])) && arg[strlen(allowed[i])] == ')')
            return 1;
    return 0;
}

static int scan_file(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    const char *dot = strrchr(path, '.');
    if (type != FTW_F || !dot ||
        (strcmp(dot, ".c") && strcmp(dot, ".h") && strcmp(dot, ".cu") && strcmp(dot, ".cuh")))
        return 0;
    char *text = pf_test_read_file(path);
    if (!text)
        return 0;
    for (const char *p = strstr(text, "getenv("); p; p = strstr(p + 1, "getenv(")) {
        const char *arg = p + 7;
        if (!allowed_getenv(arg)) {
            size_t used = strlen(offenders);
            snprintf(offenders + used, sizeof offenders - used, "%s: getenv(%.30s\n", path, arg);
        }
    }
    free(text);
    return 0;
}

START_TEST(tuning_variables_read_in_one_place)
{
    char path[1024];
    const char *srcdir = getenv("PF_SRCDIR") ? getenv("PF_SRCDIR") : ".";
    snprintf(path, sizeof path, "%s/../src", srcdir);
    offenders[0] = '\0';
    ck_assert_int_eq(nftw(path, scan_file, 16, FTW_PHYS), 0);
    ck_assert_msg(offenders[0] == '\0', "read these through pf_knobs() (src/common/knobs.h):\n%s",
                  offenders);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("knobs");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, table_is_complete);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, numbers_and_ranges);
    tcase_add_test(tc, flags_bytes_choices_text);
    tcase_add_test(tc, opencl_fw_shape);
    tcase_add_test(tc, environment_read_once_and_reloaded);
    tcase_add_test(tc, first_read_from_threads);
    tcase_add_test(tc, listing_names_every_knob);
    tcase_add_test(tc, doc_matches_table);
    tcase_add_test(tc, cli_warns_and_lists);
    tcase_add_test(tc, tuning_variables_read_in_one_place);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
