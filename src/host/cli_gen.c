/* `portaflow gen FAMILY ...`: writes a benchmark-family instance in DIMACS:
 * a max-flow network ("p max"), or for sp a weighted digraph ("p sp"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gen.h"
#include "../common/io.h"
#include "../common/status.h"
#include "../common/wgen.h"
#include "../common/wgraph_io.h"
#include "cli.h"

typedef struct gen_family {
    const char *name;
    int positional;       /* how many size arguments */
    const char *synopsis;
    int weighted;         /* a pf_wgraph (sp), not a pf_network */
} gen_family;

static const gen_family families[] = {
    {.name = "rmf", .positional = 2, .synopsis = "rmf A B [--c1 X --c2 Y]"},
    {.name = "rlg", .positional = 2, .synopsis = "rlg R C [--cap R]"},
    {.name = "ac", .positional = 1, .synopsis = "ac N [--cap C]"},
    {.name = "ak", .positional = 1, .synopsis = "ak K"},
    {.name = "grid2d", .positional = 2, .synopsis = "grid2d W H [--conn 4|8] [--cap C]"},
    {.name = "grid3d", .positional = 3, .synopsis = "grid3d X Y Z [--conn 6|26] [--cap C]"},
    {.name = "random", .positional = 2, .synopsis = "random N M [--cap C]"},
    {.name = "sp", .positional = 1, .weighted = 1,
     .synopsis = "sp N [--arcs M | --density P] [--min W] [--max W] [--negative] [--real]"},
};

/* Options of the max-flow families only, and of sp only. */
static const char *const flow_options[] = {"--c1", "--c2", "--cap", "--conn"};
static const char *const sp_options[] = {"--arcs", "--density", "--min", "--max", "--negative",
                                         "--real"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static int listed(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

typedef struct gen_args {
    const gen_family *family;
    int64_t size[3];
    int64_t c1, c2, cap, conn;
    int cap_given, conn_given;
    uint64_t seed;
    const char *out_path;
    /* sp: numbers kept as text until --real says how to read --min/--max */
    int64_t arcs;
    int arcs_given, negative, real;
    const char *density, *min, *max;
} gen_args;

/* Refuses an option that belongs to the other kind of family. */
static int check_family_option(const gen_args *a, const char *name)
{
    int weighted = a->family->weighted;
    if (weighted ? listed(name, flow_options, COUNT(flow_options))
                 : listed(name, sp_options, COUNT(sp_options)))
        return pf_cli_usage_error("gen %s: %s is not an option of this family (usage: gen %s)",
                                  a->family->name, name, a->family->synopsis);
    return PF_EXIT_OK;
}

static int parse_option(gen_args *a, const char *name, const char *value)
{
    int rc = check_family_option(a, name);
    if (rc)
        return rc;
    const char **text = !strcmp(name, "--density") ? &a->density
                      : !strcmp(name, "--min")     ? &a->min
                      : !strcmp(name, "--max")     ? &a->max
                                                   : NULL;
    if (text) { /* read once every option is known (--real changes --min) */
        *text = value;
        return PF_EXIT_OK;
    }
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
    else if (!strcmp(name, "--arcs"))
        a->arcs = number, a->arcs_given = 1;
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
        return pf_cli_usage_error(
            "gen needs a FAMILY (rmf, rlg, ac, ak, grid2d, grid3d, random, sp)");
    for (size_t i = 0; i < COUNT(families); i++)
        if (!strcmp(argv[1], families[i].name))
            a->family = &families[i];
    if (!a->family)
        return pf_cli_usage_error("gen: unknown family '%s'", argv[1]);
    int sizes = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            a->out_path = argv[++i];
        } else if (!strcmp(argv[i], "--negative") || !strcmp(argv[i], "--real")) {
            int rc = check_family_option(a, argv[i]);
            if (rc)
                return rc;
            if (!strcmp(argv[i], "--negative"))
                a->negative = 1;
            else
                a->real = 1;
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

/* ---- sp: weighted digraphs ------------------------------------------- */

static int parse_signed(const char *text, int64_t *value)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno)
        return -1;
    *value = v;
    return 0;
}

static int parse_real(const char *text, double *value)
{
    char *end;
    double v = strtod(text, &end);
    if (!*text || *end || !isfinite(v))
        return -1;
    *value = v;
    return 0;
}

/* The generator's parameters from the sp options. Defaults: 8 arcs per
 * vertex (at most all n(n-1) pairs), weights in [1, 1000]. */
static int sp_params(const gen_args *a, pf_wgen_params *w)
{
    int64_t n = a->size[0];
    int n_valid = n >= 1 && n <= PF_MAX_VERTICES; /* else the generator says why */
    *w = (pf_wgen_params){.vertices = n, .min = 1, .max = 1000, .min_real = 1,
                          .max_real = 1000, .real = a->real, .negative = a->negative,
                          .seed = a->seed};
    if (a->arcs_given && a->density)
        return pf_cli_usage_error("gen sp: give --arcs or --density, not both");
    double density = 0;
    if (a->density && (parse_real(a->density, &density) || density < 0 || density > 1))
        return pf_cli_usage_error("gen sp: --density takes a number in 0..1, not '%s'",
                                  a->density);
    if (a->density)
        w->arcs = n_valid ? pf_wgen_arcs_for_density(n, density) : 0;
    else if (a->arcs_given)
        w->arcs = a->arcs;
    else
        w->arcs = !n_valid ? 0 : n - 1 < 8 ? n * (n - 1) : 8 * n;
    const char *bound_text[2] = {a->min, a->max};
    for (int i = 0; i < 2; i++) {
        const char *text = bound_text[i];
        if (!text)
            continue;
        int bad = a->real ? parse_real(text, i ? &w->max_real : &w->min_real)
                          : parse_signed(text, i ? &w->max : &w->min);
        if (bad)
            return pf_cli_usage_error("gen sp: %s takes %s, not '%s'", i ? "--max" : "--min",
                                      a->real ? "a finite number" : "an integer", text);
    }
    return PF_EXIT_OK;
}

/* What the file's comment says: the command's effective parameters, and
 * the weights actually produced (with --negative they exceed [min, max]). */
static void sp_comment(const pf_wgen_params *w, const pf_wgraph *g, char *text, size_t len)
{
    char range[128];
    pf_wgraph_weight_range(g, range, sizeof range);
    int used;
    if (w->real)
        used = snprintf(text, len, "portaflow gen sp (seed %llu) %lld --arcs %lld --min %.17g "
                        "--max %.17g --real", (unsigned long long)w->seed, (long long)w->vertices,
                        (long long)w->arcs, w->min_real, w->max_real);
    else
        used = snprintf(text, len, "portaflow gen sp (seed %llu) %lld --arcs %lld --min %lld "
                        "--max %lld", (unsigned long long)w->seed, (long long)w->vertices,
                        (long long)w->arcs, (long long)w->min, (long long)w->max);
    if (used > 0 && (size_t)used < len && w->negative)
        used += snprintf(text + used, len - (size_t)used,
                         " --negative\nweights c(u,v) + p(u) - p(v), c in [min, max], "
                         "p in [0, max]: no negative cycle");
    if (used > 0 && (size_t)used < len)
        snprintf(text + used, len - (size_t)used, "\nweights produced: %s", range);
}

/* ---- the command -------------------------------------------------------- */

int pf_cli_gen(int argc, char **argv)
{
    gen_args a;
    int rc = parse_gen_args(argc, argv, &a);
    if (rc)
        return rc;
    pf_status st;
    pf_network *net = NULL;
    pf_wgraph *g = NULL;
    pf_wgen_params w;
    char comment[512];
    if (a.family->weighted) {
        rc = sp_params(&a, &w);
        if (rc)
            return rc;
        g = pf_gen_wgraph(&w, &st);
        if (!g)
            return pf_cli_error(&st);
        sp_comment(&w, g, comment, sizeof comment);
    } else {
        net = generate(&a, &st);
        if (!net)
            return pf_cli_error(&st);
        snprintf(comment, sizeof comment, "portaflow gen %s (seed %llu)", a.family->name,
                 (unsigned long long)a.seed);
        for (int i = 0; i < a.family->positional; i++) {
            size_t used = strlen(comment);
            snprintf(comment + used, sizeof comment - used, " %lld", (long long)a.size[i]);
        }
    }
    int to_stdout = !a.out_path || !strcmp(a.out_path, "-");
    FILE *out = to_stdout ? stdout : fopen(a.out_path, "wb");
    if (!out) {
        pf_network_free(net);
        pf_wgraph_free(g);
        pf_fail(&st, PF_E_INPUT, "%s: cannot open for writing", a.out_path);
        return pf_cli_error(&st);
    }
    rc = g ? pf_wgraph_write_dimacs(g, out, comment, &st)
           : pf_network_write_dimacs_stream(net, out, comment, &st);
    if (!to_stdout && fclose(out) != 0 && !rc)
        rc = pf_fail(&st, PF_E_INPUT, "%s: write failed", a.out_path);
    pf_network_free(net);
    pf_wgraph_free(g);
    if (rc && !to_stdout)
        remove(a.out_path); /* no partial instance left behind */
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
