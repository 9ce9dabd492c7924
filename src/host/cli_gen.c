/* `portaflow gen FAMILY ...`: writes a benchmark-family instance in DIMACS. */
#include <stdio.h>
#include <string.h>

#include "../common/gen.h"
#include "../common/io.h"
#include "../common/status.h"
#include "cli.h"

typedef struct gen_family {
    const char *name;
    int positional;       /* how many size arguments */
    const char *synopsis;
} gen_family;

static const gen_family families[] = {
    {"rmf", 2, "rmf A B [--c1 X --c2 Y]"},
    {"rlg", 2, "rlg R C [--cap R]"},
    {"ac", 1, "ac N [--cap C]"},
    {"ak", 1, "ak K"},
    {"grid2d", 2, "grid2d W H [--conn 4|8] [--cap C]"},
    {"grid3d", 3, "grid3d X Y Z [--conn 6|26] [--cap C]"},
    {"random", 2, "random N M [--cap C]"},
};

typedef struct gen_args {
    const gen_family *family;
    int64_t size[3];
    int64_t c1, c2, cap, conn;
    int cap_given, conn_given;
    uint64_t seed;
    const char *out_path;
} gen_args;

static int parse_option(gen_args *a, const char *name, const char *value)
{
    int64_t number;
    if (pf_cli_parse_int(value, &number))
        return pf_cli_usage_error("gen: %s takes a non-negative integer, not '%s'", name, value);
    if (!strcmp(name, "--c1"))
        a->c1 = number;
    else if (!strcmp(name, "--c2"))
        a->c2 = number;
    else if (!strcmp(name, "--cap"))
        a->cap = number, a->cap_given = 1;
    else if (!strcmp(name, "--conn"))
        a->conn = number, a->conn_given = 1;
    else if (!strcmp(name, "--seed"))
        a->seed = (uint64_t)number;
    else
        return pf_cli_usage_error("gen: unknown option '%s'", name);
    return PF_EXIT_OK;
}

static int parse_gen_args(int argc, char **argv, gen_args *a)
{
    memset(a, 0, sizeof *a);
    a->c1 = 1;
    a->c2 = 10000;
    a->seed = 1;
    if (argc < 2)
        return pf_cli_usage_error("gen needs a FAMILY (rmf, rlg, ac, ak, grid2d, grid3d, random)");
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        if (!strcmp(argv[1], families[i].name))
            a->family = &families[i];
    if (!a->family)
        return pf_cli_usage_error("gen: unknown family '%s'", argv[1]);
    int sizes = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            a->out_path = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc) {
            int rc = parse_option(a, argv[i], argv[i + 1]);
            if (rc)
                return rc;
            i++;
        } else if (argv[i][0] != '-' && sizes < a->family->positional) {
            if (pf_cli_parse_int(argv[i], &a->size[sizes]))
                return pf_cli_usage_error("gen %s: '%s' is not a non-negative integer",
                                          a->family->name, argv[i]);
            sizes++;
        } else {
            return pf_cli_usage_error("gen: unexpected argument '%s' (usage: gen %s)", argv[i],
                                      a->family->synopsis);
        }
    }
    if (sizes != a->family->positional)
        return pf_cli_usage_error("gen: usage: gen %s", a->family->synopsis);
    return PF_EXIT_OK;
}

static pf_network *generate(const gen_args *a, pf_status *st)
{
    const char *f = a->family->name;
    const int64_t *s = a->size;
    if (!strcmp(f, "rmf"))
        return pf_gen_rmf(s[0], s[1], a->c1, a->c2, a->seed, st);
    if (!strcmp(f, "rlg"))
        return pf_gen_rlg(s[0], s[1], a->cap_given ? a->cap : 10000, a->seed, st);
    if (!strcmp(f, "ac"))
        return pf_gen_ac(s[0], a->cap_given ? a->cap : 10000, a->seed, st);
    if (!strcmp(f, "ak"))
        return pf_gen_ak(s[0], st);
    if (!strcmp(f, "grid2d"))
        return pf_gen_grid2d(s[0], s[1], a->conn_given ? (int)a->conn : 4,
                             a->cap_given ? a->cap : 100, a->seed, st);
    if (!strcmp(f, "grid3d"))
        return pf_gen_grid3d(s[0], s[1], s[2], a->conn_given ? (int)a->conn : 6,
                             a->cap_given ? a->cap : 100, a->seed, st);
    return pf_gen_random(s[0], s[1], a->cap_given ? a->cap : 100, a->seed, st);
}

int pf_cli_gen(int argc, char **argv)
{
    gen_args a;
    int rc = parse_gen_args(argc, argv, &a);
    if (rc)
        return rc;
    pf_status st;
    pf_network *net = generate(&a, &st);
    if (!net)
        return pf_cli_error(&st);
    char comment[256];
    snprintf(comment, sizeof comment, "portaflow gen %s (seed %llu)", a.family->name,
             (unsigned long long)a.seed);
    for (int i = 0; i < a.family->positional; i++) {
        size_t used = strlen(comment);
        snprintf(comment + used, sizeof comment - used, " %lld", (long long)a.size[i]);
    }
    int to_stdout = !a.out_path || !strcmp(a.out_path, "-");
    FILE *out = to_stdout ? stdout : fopen(a.out_path, "wb");
    if (!out) {
        pf_network_free(net);
        pf_fail(&st, PF_E_INPUT, "%s: cannot open for writing", a.out_path);
        return pf_cli_error(&st);
    }
    rc = pf_network_write_dimacs_stream(net, out, comment, &st);
    if (!to_stdout && fclose(out) != 0 && !rc)
        rc = pf_fail(&st, PF_E_INPUT, "%s: write failed", a.out_path);
    pf_network_free(net);
    if (rc && !to_stdout)
        remove(a.out_path); /* no partial instance left behind */
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
